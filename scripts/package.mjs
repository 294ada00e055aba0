// npm run package: production build, then dist/xos-vscode-<version>.vsix, checked against what
// the Visual Studio Marketplace and Open VSX ask (scripts/lib/marketplace.mjs).
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatBytes, formatDuration } from './lib/format.mjs';
import { marketplaceProblems } from './lib/marketplace.mjs';
import { manifest, packageExtension } from './lib/package.mjs';
import { repoRoot } from './lib/paths.mjs';
import { listZipEntries } from './lib/zip.mjs';

const started = performance.now();
try {
  const { path, bytes } = await packageExtension();
  const files = listZipEntries(path).filter((entry) => entry.name.startsWith('extension/'));
  console.log(`packaged ${relative(repoRoot, path)}: ${formatBytes(bytes)}, ${files.length} files, in ${formatDuration(performance.now() - started)}`);
  const problems = marketplaceProblems(manifest(), { root: repoRoot, files: files.map((entry) => entry.name.slice('extension/'.length)), bytes });
  if (problems.length) {
    console.error(`the Marketplace or Open VSX would refuse or mis-show it:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
