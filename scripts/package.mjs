// npm run package: production build, then dist/xos-vscode-<version>.vsix.
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatBytes, formatDuration } from './lib/format.mjs';
import { packageExtension } from './lib/package.mjs';
import { repoRoot } from './lib/paths.mjs';
import { listZipEntries } from './lib/zip.mjs';

const started = performance.now();
try {
  const { path, bytes } = await packageExtension();
  const files = listZipEntries(path).filter((entry) => entry.name.startsWith('extension/'));
  console.log(`packaged ${relative(repoRoot, path)}: ${formatBytes(bytes)}, ${files.length} files, in ${formatDuration(performance.now() - started)}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
