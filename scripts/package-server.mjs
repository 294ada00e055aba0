// node scripts/package-server.mjs: production build, then the npm package @xos-app/server
// (xos-server, xos-mcp) in dist/server-package/ and packed next to it as a .tgz.
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatBytes, formatDuration } from './lib/format.mjs';
import { repoRoot } from './lib/paths.mjs';
import { packageServer, SERVER_PACKAGE } from './lib/server-package.mjs';

const started = performance.now();
try {
  const { path, bytes, unpackedBytes, files, version } = await packageServer();
  console.log(`packaged ${SERVER_PACKAGE}@${version}: ${relative(repoRoot, path)}, ${formatBytes(bytes)} (unpacked ${formatBytes(unpackedBytes)}, ${files.length} files), in ${formatDuration(performance.now() - started)}`);
  console.log(`try it: npx -p ./${relative(process.cwd(), path)} xos-mcp --help`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
