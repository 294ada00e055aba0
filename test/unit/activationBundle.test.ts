// dist/extension.cjs is what VS Code loads to activate XOS: only the contributions' stand-ins
// (src/host/shell.ts). The backend, GraphQL, the MCP server, mail, contacts and the Board are
// dist/host.cjs, required on first use; a static import of any of them would put it back here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as esbuild from 'esbuild';
import { packageRoot } from '../../src/packageRoot.ts';

test('the activation bundle holds the stand-ins and nothing of the host', async () => {
  const result = await esbuild.build({
    absWorkingDir: packageRoot(),
    entryPoints: ['src/extension.ts'],
    bundle: true,
    write: false,
    metafile: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    define: { 'import.meta.dirname': '__dirname' },
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs).sort();
  assert.deepEqual(inputs, [
    'src/extension.ts',
    'src/host/contributionIds.ts',
    'src/host/output.ts',
    'src/host/shell.ts',
    'src/host/statusBar.ts',
  ]);
  const bytes = result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
  assert.ok(bytes < 32 * 1024, `dist/extension.cjs is ${bytes} bytes`);
  // The host is required by name, next to the bundle (esbuild.mjs writes dist/host.cjs).
  assert.match(result.outputFiles[0].text, /hostBundle = "host\.cjs"/);
});
