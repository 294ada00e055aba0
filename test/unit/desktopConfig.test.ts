// The desktop path of the in-host suites: .vscode-test.mjs loads with @vscode/test-cli and
// lists one mocha wrapper per test/host/*.host.ts, with this repository as the extension.
// (Running it needs a desktop VS Code, downloaded or XOS_VSCODE_EXECUTABLE; npm test runs the
// same suites in code-server.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('npm run test:desktop would run every in-host suite in a desktop VS Code', () => {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', '@vscode', 'test-cli', 'out', 'bin.mjs'), '--list-configuration'], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  const [listed] = JSON.parse(result.stdout) as Array<{ config: { label: string }; extensionDevelopmentPath: string[]; env: { VSCODE_TEST_OPTIONS: string } }>;
  assert.equal(listed.config.label, 'host');
  assert.deepEqual(listed.extensionDevelopmentPath.map((path) => path.replace(/\/$/, '')), [root.replace(/\/$/, '')]);
  const files = (JSON.parse(listed.env.VSCODE_TEST_OPTIONS) as { files: string[] }).files.map((file) => basename(file)).sort();
  const suites = readdirSync(join(root, 'test', 'host')).filter((name) => name.endsWith('.host.ts')).map((name) => `${basename(name, '.host.ts')}.test.cjs`).sort();
  assert.deepEqual(files, suites);
  for (const suite of suites) assert.ok(existsSync(join(root, 'out', 'test', 'host', suite.replace('.test.cjs', '.host.cjs'))), `${suite}'s bundle`);
});
