// The in-host suites (test/host/*.host.ts, the ones npm test's host stage runs in
// code-server) in a desktop VS Code, through @vscode/test-cli and @vscode/test-electron:
//   npm run test:desktop   (downloads VS Code; XOS_VSCODE_EXECUTABLE=/path/to/code uses an installed one)
// Each suite is bundled to out/test/host/<name>.host.cjs (CommonJS, vscode external) and
// wrapped in a one-test mocha file, out/test/host/<name>.test.cjs, that awaits its run().
import { buildSync } from 'esbuild';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@vscode/test-cli';

const root = dirname(fileURLToPath(import.meta.url));
const hostDir = join(root, 'test', 'host');
const outDir = join(root, 'out', 'test', 'host');
const workspaceFolder = join(root, '.vscode-test', 'workspace');
mkdirSync(outDir, { recursive: true });
mkdirSync(workspaceFolder, { recursive: true });
writeFileSync(join(workspaceFolder, 'README.md'), '# XOS in-host suite workspace\n');

for (const file of readdirSync(hostDir).filter((name) => name.endsWith('.host.ts'))) {
  const name = basename(file, '.host.ts');
  buildSync({
    entryPoints: [join(hostDir, file)],
    outfile: join(outDir, `${name}.host.cjs`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    // The same constants the host stage passes (test/e2e/support/hostStage.ts).
    define: { XOS_HOST_OUTCOME_PATH: JSON.stringify(join(outDir, `${name}.outcome.json`)), XOS_HOST_MODE: JSON.stringify('board') },
    logLevel: 'warning',
  });
  writeFileSync(join(outDir, `${name}.test.cjs`), [
    `suite(${JSON.stringify(file)}, () => {`,
    `  test('every in-host check passes', () => require('./${name}.host.cjs').run());`,
    '});',
    '',
  ].join('\n'));
}

const executable = process.env.XOS_VSCODE_EXECUTABLE;

export default defineConfig({
  label: 'host',
  ...(executable ? { useInstallation: { fromPath: executable } } : {}),
  files: 'out/test/host/*.test.cjs',
  workspaceFolder,
  extensionDevelopmentPath: root,
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  env: { XOS_TEST: '1' },
  mocha: { ui: 'tdd', timeout: 300_000 },
});
