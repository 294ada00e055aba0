// The built `xos-server` CLI (dist/xos-server.mjs, made by `npm run build`),
// started the way a person starts it.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../support/until.ts';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gql, gqlData } from '../support/http.ts';
import { tempDir } from '../support/tmp.ts';
import { XosServerCli, type StartedServer } from '../support/xosServerCli.ts';

const CLI = new URL('../../dist/xos-server.mjs', import.meta.url).pathname;
const LIBRARY = new URL('../fixtures/ast/library.json', import.meta.url).pathname;
const dir = await tempDir('xos-cli');
const cli = new XosServerCli(CLI);
after(async () => {
  cli.killAll();
  await dir.remove();
});

/** Starts the built CLI and waits until it prints its GraphQL URL. */
function startCli(args: string[], env: Record<string, string> = {}): Promise<StartedServer> {
  assert.ok(existsSync(CLI), 'dist/xos-server.mjs is missing: run npm run build');
  return cli.start(args, env);
}

describe('xos-server', () => {
  test('serves any valid AST with --seed=N and stops cleanly on Ctrl+C', async () => {
    const { child, url, stdout } = await startCli(['--ast', LIBRARY, '--dsn', `sqlite:${join(dir.path, 'library.db')}`, '--seed=50', '--port', '0']);
    assert.match(stdout(), /XOS server for app "City Library"/);
    assert.match(stdout(), /seeded: author 50, book 50, member 50, loan 50/);
    const data = await gqlData(url, '{ book_list { id title } book_list_count }');
    assert.equal(data.book_list.length, 50);
    assert.equal(data.book_list_count, 50);
    assert.equal(await cli.stop(child), 0);
  });

  test('without --ast it serves the demo CRM with its data', async () => {
    const { child, url } = await startCli(['--dsn', `sqlite:${join(dir.path, 'demo.db')}`, '--seed', '--port', '0']);
    const data = await gqlData(url, '{ person_list { id firstname lastname email city age net_worth } }');
    assert.equal(data.person_list.length, 240);
    assert.equal(await cli.stop(child), 0);
  });

  test('XOS_TOKEN (or --token-file) guards the API; a token on the command line is refused', async () => {
    const { child, url } = await startCli(['--dsn', 'sqlite::memory:', '--port', '0'], { XOS_TOKEN: 'secret-1' });
    assert.equal((await gql(url, '{ person_list_count }')).status, 401);
    assert.equal((await gql(url, '{ person_list_count }', undefined, 'secret-1')).status, 200);
    assert.equal(await cli.stop(child), 0);

    const file = join(dir.path, 'token');
    writeFileSync(file, 'secret-from-file\n', { mode: 0o600 });
    const fromFile = await startCli(['--dsn', 'sqlite::memory:', '--port', '0', '--token-file', file]);
    assert.equal((await gql(fromFile.url, '{ person_list_count }', undefined, 'secret-1')).status, 401);
    assert.equal((await gql(fromFile.url, '{ person_list_count }', undefined, 'secret-from-file')).status, 200);
    assert.match(fromFile.stdout(), /authorization: Bearer <token>/, 'the example names no token it read from a file');
    assert.equal(await cli.stop(fromFile.child), 0);

    const db = join(dir.path, 'argv-token.db');
    for (const [args, variable] of [[['--token', 'secret-3'], 'XOS_TOKEN'], [['--token=secret-3'], 'XOS_TOKEN'], [['--frontend-token', 'front-end-token-0123456789'], 'XOS_FRONTEND_TOKEN']] as const) {
      const refused = await cli.run(['--dsn', `sqlite:${db}`, '--port', '0', ...args]);
      assert.equal(refused.code, 2, args.join(' '));
      assert.match(refused.stderr, new RegExp(`${args[0].split('=')[0]} would show the token to every user of this machine \\(command lines are public\\): set ${variable}, or put the token in a file only you can read \\(chmod 600 <file>\\) and pass ${args[0].split('=')[0]}-file <file>`));
    }
    chmodSync(file, 0o644);
    const readable = await cli.run(['--dsn', `sqlite:${db}`, '--port', '0', '--token-file', file]);
    assert.equal(readable.code, 2);
    assert.match(readable.stderr, /--token-file .* can be read by other users \(mode 644\): run chmod 600/);
    assert.equal(existsSync(db), false, 'refused before the database is created');
  });

  test('XOS_AST and XOS_DSN choose the app and the database (a container passes them so), and a flag wins', async () => {
    const db = join(dir.path, 'from-env.db');
    const env = { XOS_AST: LIBRARY, XOS_DSN: `sqlite:${db}` };
    const started = await startCli(['--port', '0'], env);
    assert.match(started.stdout(), new RegExp(`XOS server for app "City Library" on sqlite:${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
    assert.equal((await gqlData(started.url, '{ book_list_count }')).book_list_count, 0);
    assert.equal(await cli.stop(started.child), 0);
    assert.ok(existsSync(db), 'the database of XOS_DSN');
    // `users` takes the same variables, so `docker exec … xos-server users add` reaches the served database.
    const users = await cli.run(['users', 'list'], env);
    assert.equal(users.code, 0, users.stderr);
    assert.match(users.stdout, /No users yet/);

    const flagged = join(dir.path, 'from-flag.db');
    const overridden = await startCli(['--dsn', `sqlite:${flagged}`, '--port', '0'], { XOS_DSN: `sqlite:${join(dir.path, 'not-this.db')}` });
    assert.match(overridden.stdout(), /XOS server for app "XOS CRM" \(bundled demo\) on sqlite:.*from-flag\.db\n/);
    assert.equal(await cli.stop(overridden.child), 0);
    assert.equal(existsSync(join(dir.path, 'not-this.db')), false);
  });

  test("XOS_DSN's password appears in no output, not even when the database cannot be reached", async () => {
    const { code, stdout, stderr } = await cli.run(['--port', '0'], { XOS_DSN: 'postgres://xos:s3cret-pw@127.0.0.1:1/nodb' });
    assert.equal(code, 1);
    assert.match(stderr, /database unavailable/);
    assert.doesNotMatch(stdout + stderr, /s3cret-pw/);
  });

  test('a non-loopback --host without a token is refused before anything is opened', async () => {
    const db = join(dir.path, 'exposed.db');
    const { code, stderr } = await cli.run(['--host', '0.0.0.0', '--dsn', `sqlite:${db}`, '--port', '0']);
    assert.equal(code, 2);
    assert.match(stderr, /--host 0\.0\.0\.0 would serve reads and writes to the network without a token\. Set XOS_TOKEN \(or --token-file F\)/);
    assert.match(stderr, /--insecure-no-token/);
    assert.equal(existsSync(db), false);
  });

  test('--insecure-no-token serves the network, with a loud warning; a token needs none', async () => {
    const open = await startCli(['--host', '0.0.0.0', '--insecure-no-token', '--dsn', 'sqlite::memory:', '--port', '0']);
    assert.match(open.url, /^http:\/\/0\.0\.0\.0:\d+$/);
    await until('the warning', () => /WARNING: xos-server listens on 0\.0\.0\.0 WITHOUT A TOKEN/.test(open.stderr()));
    assert.equal(await cli.stop(open.child), 0);
    const guarded = await startCli(['--host', '0.0.0.0', '--dsn', 'sqlite::memory:', '--port', '0'], { XOS_TOKEN: 'secret-2' });
    assert.doesNotMatch(guarded.stderr(), /WARNING/);
    assert.equal((await gql(guarded.url.replace('0.0.0.0', '127.0.0.1'), '{ person_list_count }')).status, 401);
    assert.equal(await cli.stop(guarded.child), 0);
  });

  test('an invalid AST is refused with every problem and line', async () => {
    const bad = join(dir.path, 'bad.json');
    writeFileSync(bad, JSON.stringify({
      xos: '1', app: 'x', locales: ['en'],
      entities: { item: { fields: { id: { type: 'id' }, name: { type: 'strng' } } } },
      contexts: { item_list: { kind: 'list', entity: 'item', list_fields: ['id', 'nmae'] } },
    }, null, 2));
    const { code, stderr } = await cli.run(['--ast', bad, '--dsn', 'sqlite::memory:']);
    assert.equal(code, 2);
    assert.match(stderr, /entities\.item\.fields\.name\.type/);
    assert.match(stderr, /contexts\.item_list\.list_fields\[1\]: unknown field "nmae" on item/);
    assert.match(stderr, /line \d+/);
  });

  test('an unknown DSN says which forms are accepted', async () => {
    const { code, stderr } = await cli.run(['--dsn', 'mysql://localhost/x']);
    assert.notEqual(code, 0);
    assert.match(stderr, /sqlite:/);
    assert.match(stderr, /postgres:\/\//);
  });

  test('a bad flag prints the usage', async () => {
    const { code, stderr } = await cli.run(['--prot', '4000']);
    assert.equal(code, 2);
    assert.match(stderr, /Usage: xos-server/);
  });
});
