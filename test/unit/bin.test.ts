// The xos-server and xos-mcp commands: under the project's Node they run their CLI; under a
// Node without node:sqlite they say what they need in one line (the machine's own Node, when
// that is older).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MINIMUM_NODE } from '../../bin/run-bundle.mjs';

const supportsSqlite = (version: string) => {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  const [needMajor, needMinor] = MINIMUM_NODE.split('.').map(Number);
  return major > needMajor || (major === needMajor && minor >= needMinor);
};

for (const name of ['xos-server', 'xos-mcp']) {
  const bin = fileURLToPath(new URL(`../../bin/${name}.mjs`, import.meta.url));

  test(`bin/${name}.mjs runs the CLI under the project's Node`, () => {
    const result = spawnSync(process.execPath, [bin, '--no-such-flag'], { encoding: 'utf8' });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /Unknown option '--no-such-flag'/);
    assert.match(result.stderr, new RegExp(`Usage: ${name}`));
  });

  test(`bin/${name}.mjs under the machine's own Node: runs it, or names the Node it needs`, () => {
    const PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules')).join(delimiter);
    const version = spawnSync('node', ['--version'], { encoding: 'utf8', env: { ...process.env, PATH } }).stdout.trim();
    const result = spawnSync('node', [bin, '--no-such-flag'], { encoding: 'utf8', env: { ...process.env, PATH } });
    if (supportsSqlite(version)) {
      assert.match(result.stderr, /Unknown option '--no-such-flag'/);
    } else {
      assert.equal(result.status, 1);
      assert.equal(result.stderr.trim().split('\n').length, 1, `one line, got:\n${result.stderr}`);
      assert.match(result.stderr, new RegExp(`needs Node\\.js ${MINIMUM_NODE.replace(/\./g, '\\.')} or newer .*this is Node\\.js ${version.replace(/\./g, '\\.')}\\. Inside the XOS repository, npx ${name} runs it`));
    }
  });
}
