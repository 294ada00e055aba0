// The command XOS prints for the person to run next starts xos-server the way they started it,
// and its words reach the program as printed (a POSIX shell splits and globs nothing in them).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { dsnWithoutPassword } from '../../src/backend/dsn.ts';
import { launchCommand, SERVER_PACKAGE, shellWord } from '../../src/backend/launchCommand.ts';
import { packageRoot } from '../../src/packageRoot.ts';
import { SERVER_PACKAGE as PACKAGED_NAME } from '../../scripts/lib/server-package.mjs';

const dir = mkdtempSync(join(tmpdir(), 'xos-launch-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function packageFolder(name: string): string {
  const root = join(dir, name.replace(/\W/g, '_'));
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name }));
  return root;
}

describe('how the person starts xos-server again', () => {
  test('from the npm package through npx: npx names the package, since it has two commands', () => {
    assert.equal(launchCommand('xos-server', { npm_command: 'exec' }, packageFolder(SERVER_PACKAGE)), 'npx -p @xos-app/server xos-server');
    assert.equal(launchCommand('xos-mcp', { npm_command: 'exec' }, packageFolder(SERVER_PACKAGE)), 'npx -p @xos-app/server xos-mcp');
  });

  test('the package as the person named it to npx -p: a version, a tarball', () => {
    const root = packageFolder(SERVER_PACKAGE);
    assert.equal(launchCommand('xos-server', { npm_command: 'exec', npm_config_package: '@xos-app/server@0.1.0' }, root), 'npx -p @xos-app/server@0.1.0 xos-server');
    assert.equal(launchCommand('xos-server', { npm_command: 'exec', npm_config_package: './dist/xos-app-server-0.1.0.tgz' }, root), 'npx -p ./dist/xos-app-server-0.1.0.tgz xos-server');
    assert.equal(launchCommand('xos-server', { npm_command: 'exec', npm_config_package: '@xos-app/server\nother' }, root), 'npx -p @xos-app/server xos-server');
  });

  test('from the package installed on the PATH: the command alone', () => {
    assert.equal(launchCommand('xos-server', {}, packageFolder(SERVER_PACKAGE)), 'xos-server');
    assert.equal(launchCommand('xos-server', { npm_command: 'run-script' }, packageFolder(SERVER_PACKAGE)), 'xos-server');
  });

  test('from a clone of the repository (this one): npx in its folder, however it was started', () => {
    assert.equal(launchCommand('xos-server', {}, packageRoot()), 'npx xos-server');
    assert.equal(launchCommand('xos-server', { npm_command: 'exec' }), 'npx xos-server');
  });

  test('the package script makes the package this code recognises', () => {
    assert.equal(PACKAGED_NAME, SERVER_PACKAGE);
  });
});

describe('the printed command runs as printed', () => {
  test('the DSN keeps its user and loses only the password', () => {
    assert.equal(dsnWithoutPassword('postgres://me@db.example:5432/shop'), 'postgres://me@db.example:5432/shop');
    assert.equal(dsnWithoutPassword('postgres://me:p%40ss@db.example:5432/shop?sslmode=require&password=x&sslpassword=y'), 'postgres://me@db.example:5432/shop?sslmode=require');
    assert.equal(dsnWithoutPassword('postgresql://db.example/shop?user=me&password=x'), 'postgresql://db.example/shop?user=me');
    assert.equal(dsnWithoutPassword('sqlite:./my shop.db'), 'sqlite:./my shop.db');
    for (const part of ['p@ss', 'x', 'y']) assert.ok(!dsnWithoutPassword('postgres://me:p@ss@db/shop?password=x&sslpassword=y').includes(`:${part}`));
  });

  test('words the shell would split or glob are quoted; the shell gives the program each word back', () => {
    assert.equal(shellWord('sqlite:./shop.db'), 'sqlite:./shop.db');
    assert.equal(shellWord('postgres://me@db.example:5432/shop'), 'postgres://me@db.example:5432/shop');
    for (const word of ['sqlite:./my shop.db', "sqlite:./o'neil.db", 'postgres://me@db/shop?sslmode=require&application_name=x', 'a*b', '$HOME', '']) {
      const echoed = execFileSync('sh', ['-c', `printf '%s' ${shellWord(word)}`], { encoding: 'utf8', cwd: dir });
      assert.equal(echoed, word);
    }
  });
});
