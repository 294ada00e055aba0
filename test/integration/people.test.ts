// The team's people on both stores, started the way an administrator starts them (the CLI from
// source): `xos-server users add|list|revoke|role` and their errors, the token kept only as its
// hash, a person's token naming the person in the audit trail (with their own client's path and
// approval), the plain token recorded as api without a person, no claiming to be someone else,
// GET /xos/me, and two instances over one PostgreSQL that agree on who may come in within 2 s.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Ast } from '../../src/ast/schema.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { recordHistoryView } from '../../src/board/recordHistory.ts';
import { auditTrail } from '../../src/core/undo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startWorkerBackend } from '../../src/graphql/workerBackend.ts';
import { PERSON_CACHE_MS, usersOf } from '../../src/backend/people/tokens.ts';
import { TOKEN_FORMAT } from '../../src/backend/people/users.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';
import { XosServerCli } from '../support/xosServerCli.ts';

const CLI = new URL('../../src/backend/cli.ts', import.meta.url).pathname;
const TOKEN = 'plain-api-token-0123456789';
const FRONTEND = 'xos-frontend-token-0123456789';
const WRONG = `xos_${'A'.repeat(43)}`;
const dir = await tempDir('xos-people');
const cli = new XosServerCli(CLI, { XOS_TOKEN: '', XOS_FRONTEND_TOKEN: '' });
const astFile = join(dir.path, 'crm-roles.json');
await writeFile(astFile, JSON.stringify({ ...demoApp(), roles: { sales: { contexts: { '*': ['read', 'edit', 'create', 'delete'] } }, office: { contexts: { '*': ['read'] } } } }));
let postgres: PostgresServer | undefined;
after(async () => {
  cli.killAll();
  await postgres?.stop();
  await dir.remove();
});

/** The rows of the users' table as they are stored, read past XOS. */
type ReadTable = (sql: string) => Promise<Record<string, unknown>[]>;

interface Store {
  readonly name: string;
  dsn(label: string): Promise<string>;
  reader(dsn: string): ReadTable;
  /** Runs statements past XOS (a database as an older XOS left it). */
  write(dsn: string, statements: readonly string[]): Promise<void>;
}

const sqlite: Store = {
  name: 'SQLite',
  dsn: async (label) => `sqlite:${join(dir.path, `${label}.db`)}`,
  reader: (dsn) => async (sql) => {
    const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true });
    try {
      return db.prepare(sql).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  },
  write: async (dsn, statements) => {
    const db = new DatabaseSync(dsn.slice('sqlite:'.length));
    try {
      for (const statement of statements) db.exec(statement);
    } finally {
      db.close();
    }
  },
};

const postgresStore: Store = {
  name: 'PostgreSQL',
  dsn: async (label) => {
    postgres ??= await startPostgres();
    return postgres.createDatabase(label);
  },
  reader: (dsn) => async (sql) => {
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  },
  write: async (dsn, statements) => {
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  },
};

const users = (dsn: string, ...args: string[]) => cli.run(['users', ...args, '--dsn', dsn, '--ast', astFile]);

async function addUser(dsn: string, name: string, ...extra: string[]): Promise<string> {
  const added = await users(dsn, 'add', name, ...extra);
  assert.equal(added.code, 0, added.stderr);
  const [token, hint] = added.stdout.trim().split('\n');
  assert.match(token, TOKEN_FORMAT);
  assert.match(hint, /XOS: Set Server Token/);
  assert.match(hint, /Authorization: Bearer/);
  return token;
}

async function post(url: string, token: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function me(url: string, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/xos/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

const UPDATE = 'mutation($v: Int!, $city: String) { update_person(id: "1", version: $v, set: { city: $city }) { version } }';
const CLAIM = { path: 'board', approval: 'Save confirmed by the person (city)' };

for (const store of [sqlite, postgresStore]) {
  describe(`people on ${store.name}`, () => {
    let dsn: string;
    let read: ReadTable;
    let table: string;
    before(async () => {
      dsn = await store.dsn('xos_people');
      read = store.reader(dsn);
      table = '"xos_users"';
    });

    test('users add/list/revoke/role, their errors, and only the hash of a token stored', async () => {
      // Serving the app does not give it a users' table: only the first user does.
      const { child } = await cli.start(['--dsn', dsn, '--ast', astFile, '--port', '0', '--seed']);
      assert.equal(await cli.stop(child), 0);
      const tables = store === sqlite
        ? await read("SELECT name FROM sqlite_schema WHERE name = 'xos_users'")
        : await read("SELECT tablename AS name FROM pg_tables WHERE tablename = 'xos_users'");
      assert.deepEqual(tables, []);
      assert.match((await users(dsn, 'list')).stdout, /No users yet/);

      const anna = await addUser(dsn, 'anna', '--role', 'sales');
      await addUser(dsn, 'bob');
      const rows = await read(`SELECT * FROM ${table} ORDER BY "name"`);
      assert.deepEqual(rows.map((r) => [r.name, r.role, r.revoked_at]), [['anna', 'sales', null], ['bob', null, null]]);
      assert.equal(rows[0].token_hash, createHash('sha256').update(anna).digest('hex'));
      assert.ok(!JSON.stringify(rows).includes(anna.slice(4)), 'the token itself is nowhere in the table');

      // The refusals change nothing, so they may run side by side.
      const [duplicate, badRole, badName, unknown, unknownRole, noRoles, usage] = await Promise.all([
        users(dsn, 'add', 'anna'),
        users(dsn, 'add', 'carl', '--role', 'boss'),
        users(dsn, 'add', 'an na'),
        users(dsn, 'revoke', 'zoe'),
        users(dsn, 'role', 'zoe', 'sales'),
        cli.run(['users', 'add', 'carl', '--role', 'sales', '--dsn', dsn]),
        users(dsn, 'revoke'),
      ]);
      assert.equal(duplicate.code, 1);
      assert.match(duplicate.stderr, /the user anna exists already/);
      assert.equal(badRole.code, 1);
      assert.match(badRole.stderr, /has no role "boss"; its roles are: sales, office/);
      assert.equal(badName.code, 1);
      assert.match(badName.stderr, /"an na" is not a valid user name: use 1 to 64 letters/);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /there is no user zoe/);
      assert.match(unknownRole.stderr, /there is no user zoe/);
      assert.equal(noRoles.code, 1);
      assert.match(noRoles.stderr, /has no roles, so "sales" cannot be given: add a "roles" section to the AST first/);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /use: xos-server users revoke <name>/);

      assert.equal((await users(dsn, 'role', 'bob', 'office')).code, 0);
      assert.equal((await users(dsn, 'revoke', 'bob')).code, 0);
      const again = await users(dsn, 'revoke', 'bob');
      assert.match(again.stderr, /the user bob was revoked already/);
      const reused = await users(dsn, 'add', 'bob');
      assert.match(reused.stderr, /the user bob exists \(revoked .*\); a name is never given to someone else/);
      const list = await users(dsn, 'list');
      assert.equal(list.code, 0);
      assert.match(list.stdout, /^anna\s+sales\s+\S+\s+active$/m);
      assert.match(list.stdout, /^bob\s+office\s+\S+\s+revoked \S+$/m);
      assert.ok(!list.stdout.includes(anna) && !list.stdout.includes(String(rows[0].token_hash)), 'list shows no token and no hash');
    });

    test('a person token names the person in the audit trail; the plain token is api; nobody claims another; a wrong token is 401', async () => {
      const dora = await addUser(dsn, 'dora', '--role', 'sales');
      // With people in roles, a request without a token would have every right: no start without one.
      const open = await cli.run(['--dsn', dsn, '--ast', astFile, '--port', '0']);
      assert.equal(open.code, 2, open.stderr);
      assert.match(open.stderr, /this app gives its people roles \(users added with "xos-server users add"\), but no token is set, so a request without one would have every right: set XOS_TOKEN \(or --token-file F\)/);
      const { child, url } = await cli.start(['--dsn', dsn, '--ast', astFile, '--port', '0'], { XOS_TOKEN: TOKEN, XOS_FRONTEND_TOKEN: FRONTEND });
      const [{ version }] = (await read('SELECT "version" FROM "person" WHERE "id" = 1')) as Array<{ version: number }>;
      let v = Number(version);
      const write = async (token: string, xos: Record<string, unknown>) => {
        const result = await post(url, token, { query: UPDATE, variables: { v, city: `City ${v}` }, extensions: { xos } });
        assert.equal(result.status, 200);
        assert.equal(result.body.errors, undefined, JSON.stringify(result.body.errors));
        v++;
      };
      await write(dora, CLAIM);
      await write(TOKEN, CLAIM);
      await write(dora, { ...CLAIM, person: 'anna' });
      await write(TOKEN, { path: 'api', person: 'anna' });
      const trail = await post(url, TOKEN, { query: '{ xos_audit(entity: "person", id: "1", limit: 4) { path approval person } }' });
      assert.deepEqual(trail.body.data.xos_audit, [
        // The plain token's claim to be anna is not taken; dora's claim to be anna neither.
        { path: 'api', approval: null, person: null },
        { path: 'board', approval: CLAIM.approval, person: 'dora' },
        { path: 'api', approval: null, person: null },
        { path: 'board', approval: CLAIM.approval, person: 'dora' },
      ]);
      assert.deepEqual(await me(url, dora), { status: 200, body: { name: 'dora', role: 'sales' } });
      assert.deepEqual(await me(url, TOKEN), { status: 200, body: { name: null } });
      assert.deepEqual(await me(url, FRONTEND), { status: 200, body: { name: null } });
      const wrong = await post(url, WRONG, { query: '{ person_list(limit: 1) { id } }' });
      assert.equal(wrong.status, 401);
      assert.equal((await me(url, 'not-a-token')).status, 401);

      // A revoked token is refused within the cache's lifetime.
      assert.equal((await users(dsn, 'revoke', 'dora')).code, 0);
      await until('the revoked token refused', async () => (await me(url, dora)).status === 401, { timeoutMs: PERSON_CACHE_MS + 1000, everyMs: 50 });
      assert.equal(await cli.stop(child), 0);
    });

    test('a trail from before people gains the person column on start, its entries kept', async () => {
      const dsn = await store.dsn('xos_people_old_trail');
      const id = store === sqlite ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY';
      await store.write(dsn, [
        `CREATE TABLE "xos_audit" ("id" ${id}, "at" TEXT NOT NULL, "path" TEXT NOT NULL, "action" TEXT NOT NULL, "entity" TEXT, "record_id" TEXT, `
          + '"version_from" INTEGER, "version_to" INTEGER, "changes" TEXT NOT NULL, "approval" TEXT, "batch" TEXT)',
        `INSERT INTO "xos_audit" ("at", "path", "action", "entity", "record_id", "changes") VALUES ('2026-01-01T00:00:00.000Z', 'api', 'create', 'person', '99', '{}')`,
      ]);
      const backend = await startBackend({ ast: demoApp(), dsn, seed: true });
      try {
        assert.equal(backend.migration.audit.kept, true);
        assert.equal((await backend.api.run({ query: UPDATE, variables: { v: 1, city: 'Kiel' }, person: { name: 'gina' } })).errors, undefined);
        const entries = await backend.api.storage.auditEntries({ limit: 5, offset: 0 });
        assert.deepEqual(entries.filter((e) => e.action !== 'create' || e.recordId === '99').map((e) => [e.recordId, e.person]), [['1', 'gina'], ['99', undefined]]);
      } finally {
        await backend.close();
      }
    });

    test('the embedded backend of an app with roles serves its person with the role the users\' table gives: their AST, their rights; a name that is no user, or a revoked one, does not start', async () => {
      const dsn = await store.dsn('xos_people_embedded_roles');
      const ast = { ...demoApp(), roles: { sales: { contexts: { '*': ['read', 'edit', 'create', 'delete'] } }, office: { contexts: { person_list: ['read'], person_detail: ['read'] }, fields: { 'person.net_worth': [] } } } } as Ast;
      const seeding = await startBackend({ ast, dsn, seed: true });
      const team = usersOf(seeding.api.storage, seeding.api.model)!;
      await team.add('olga', 'office');
      await team.add('rolf', 'office');
      await team.revoke('rolf');
      await seeding.close();

      const olga = await startWorkerBackend({ ast, dsn, person: { name: 'olga' } });
      try {
        const served = olga.client.ast();
        assert.deepEqual(Object.keys(served.contexts).sort(), ['person_detail', 'person_list'], 'the office role\'s contexts only');
        assert.equal(Object.hasOwn(served.entities.person.fields, 'net_worth'), false, 'a field the role hides is not in the AST the agent gets');
        const read = await olga.client.run('{ person_list(limit: 1) { id city } }');
        assert.equal(read.errors, undefined, JSON.stringify(read.errors));
        const write = await olga.client.run(UPDATE, { v: 1, city: 'Kiel' }, { path: 'board' });
        assert.equal(write.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(write));
      } finally {
        await olga.close();
      }
      await assert.rejects(startWorkerBackend({ ast, dsn, person: { name: 'nina' } }), /this app gives access through its roles, and nina is not one of its users: ask the administrator to add them \(xos-server users add nina --role <role>\)/);
      await assert.rejects(startWorkerBackend({ ast, dsn, person: { name: 'rolf' } }), /the user rolf was revoked/);
    });

    test('the embedded backend records the person its front end names; the History says who', async () => {
      const dsn = await store.dsn('xos_people_embedded');
      const backend = await startBackend({ ast: demoApp(), dsn, seed: true });
      const worker = await startWorkerBackend({ ast: demoApp(), dsn, person: { name: 'frank' } });
      try {
        // In process: the person named by the front end, never the one claimed in extensions.xos.
        const result = await backend.api.run({ query: UPDATE, variables: { v: 1, city: 'Kiel' }, extensions: { xos: { path: 'board', person: 'mallory' } }, person: { name: 'erik' } });
        assert.equal(result.errors, undefined);
        const client = embeddedClient(backend, { name: 'erik' });
        assert.equal((await client.run(UPDATE, { v: 2, city: 'Husum' }, { path: 'agent', approval: 'Save confirmed by the person (city)' })).errors, undefined);
        // On the worker thread: named with every request.
        assert.equal((await worker.client.run(UPDATE, { v: 3, city: 'Lübeck' }, { path: 'board' })).errors, undefined);
        const entries = await auditTrail({ client }, { entity: 'person', id: '1' });
        assert.deepEqual(entries.map((e) => [e.path, e.person]), [['board', 'frank'], ['agent', 'erik'], ['board', 'erik']]);
        const en = recordHistoryView(backend.api.ast, 'en', 'person_detail', 'person_detail:1', entries);
        assert.deepEqual(en.entries.map((e) => e.who), ['frank on the Board', 'The agent for erik', 'erik on the Board']);
        const de = recordHistoryView(backend.api.ast, 'de', 'person_detail', 'person_detail:1', entries);
        assert.deepEqual(de.entries.map((e) => e.who), ['frank im Board', 'Der Agent für erik', 'erik im Board']);
      } finally {
        await worker.close();
        await backend.close();
      }
    });
  });
}

describe('two xos-server instances over one PostgreSQL', () => {
  test('a user added is accepted by both; revoked, refused by both within 2 s', async () => {
    postgres ??= await startPostgres();
    const dsn = await postgres.createDatabase('xos_people_team');
    const one = await cli.start(['--dsn', dsn, '--ast', astFile, '--port', '0', '--seed'], { XOS_TOKEN: TOKEN });
    const two = await cli.start(['--dsn', dsn, '--ast', astFile, '--port', '0'], { XOS_TOKEN: TOKEN });
    const token = await addUser(dsn, 'frida', '--role', 'sales');
    for (const url of [one.url, two.url]) assert.deepEqual(await me(url, token), { status: 200, body: { name: 'frida', role: 'sales' } });
    // Written through one, read through the other: the person's name is in the shared trail.
    const write = await post(one.url, token, { query: UPDATE, variables: { v: 1, city: 'Kiel' } });
    assert.equal(write.body.errors, undefined);
    const trail = await post(two.url, token, { query: '{ xos_audit(limit: 1) { path person } }' });
    assert.deepEqual(trail.body.data.xos_audit, [{ path: 'api', person: 'frida' }]);

    // Both have the answer cached now; the revocation still reaches both within the cache's lifetime.
    // A new role reaches both within the cache's lifetime too: office may only read.
    assert.equal((await users(dsn, 'role', 'frida', 'office')).code, 0);
    await Promise.all([one.url, two.url].map((url) => until(`${url} serving frida as office`, async () => (await me(url, token)).body.role === 'office', { timeoutMs: PERSON_CACHE_MS + 1000, everyMs: 50 })));
    const refused = await post(two.url, token, { query: UPDATE, variables: { v: 2, city: 'Husum' } });
    assert.equal(refused.body.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal((await users(dsn, 'revoke', 'frida')).code, 0);
    const revoked = Date.now();
    await Promise.all([one.url, two.url].map((url) => until(`${url} refusing the revoked token`, async () => (await me(url, token)).status === 401, { timeoutMs: PERSON_CACHE_MS + 1000, everyMs: 50 })));
    const took = Date.now() - revoked;
    assert.ok(took <= PERSON_CACHE_MS + 500, `refused after ${took} ms`);
    assert.equal(await cli.stop(one.child), 0);
    assert.equal(await cli.stop(two.child), 0);
  });
});
