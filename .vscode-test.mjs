// Runs the in-host suites (compiled to out/test/host/) in a downloaded desktop VS Code:
//   npx vscode-test        (needs @vscode/test-cli and @vscode/test-electron)
// The workspace is a scratch folder holding the demo app as xos.json.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@vscode/test-cli';

const root = dirname(fileURLToPath(import.meta.url));
const workspaceFolder = join(root, '.vscode-test', 'workspace');
mkdirSync(workspaceFolder, { recursive: true });
copyFileSync(join(root, 'media', 'demo', 'crm.json'), join(workspaceFolder, 'xos.json'));

export default defineConfig({
  label: 'host',
  files: 'out/test/host/**/*.test.js',
  workspaceFolder,
  extensionDevelopmentPath: root,
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  env: { XOS_TEST: '1' },
  mocha: { ui: 'tdd', timeout: 60_000 },
});
