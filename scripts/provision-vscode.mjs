// Installs what the real-VS-Code tests need (code-server, playwright-core, Chromium)
// into ${XDG_CACHE_HOME:-~/.cache}/xos-vscode; a second run finds everything and does nothing.
//   node scripts/provision-vscode.mjs
import { performance } from 'node:perf_hooks';
import { formatDuration } from './lib/format.mjs';
import { CHROMIUM_PATH, cacheRoot, codeServerEntry, playwrightPackageJson, provision } from './lib/vscode-server.mjs';

const started = performance.now();
try {
  const rows = await provision();
  for (const row of rows) {
    const what = row.action === 'installed' ? `installed in ${formatDuration(row.seconds * 1000)}` : 'already present, nothing to do';
    console.log(`${row.name}: ${what} (${row.where})`);
  }
  console.log(`cache:             ${cacheRoot()}`);
  console.log(`code-server entry: ${codeServerEntry()}`);
  console.log(`playwright-core:   ${playwrightPackageJson()}`);
  console.log(`chromium:          ${CHROMIUM_PATH}`);
  console.log(`total:             ${formatDuration(performance.now() - started)}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
