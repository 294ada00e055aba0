// The audit trail on a real SQLite file and a real PostgreSQL database: every write
// (create, update, delete) and every recorded mail, with its path, old and new values,
// versions and approval; read through GraphQL per record and overall, paged; kept across
// a restart; and a failure of the audit insert inside the write's transaction leaves
// neither the write nor the entry (a trigger on the audit table makes it fail for real).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer } from '../../src/backend/http.ts';
import { connectRemoteClient, embeddedClient } from '../../src/graphql/client.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const FRONTEND_TOKEN = 'frontend-token-0123456789';
const AUDIT = 'id at path action entity record_id version_from version_to approval changes { field from to }';

interface Store {
  readonly name: string;
  dsn(): Promise<string>;
  /** Makes every audit insert fail (a trigger), or lets it work again. */
  breakAudit(dsn: string, broken: boolean): Promise<void>;
}

let pgServer: PostgresServer | undefined;
let dir: TempDir | undefined;

const stores: Store[] = [
  {
    name: 'SQLite',
    async dsn() {
      dir ??= await tempDir('xos-audit');
      return `sqlite:${join(dir.path, 'crm.db')}`;
    },
    async breakAudit(dsn, broken) {
      const db = new DatabaseSync(dsn.slice('sqlite:'.length));
      db.exec(broken
        ? "CREATE TRIGGER xos_audit_fails BEFORE INSERT ON xos_audit BEGIN SELECT RAISE(ABORT, 'audit storage failed'); END"
        : 'DROP TRIGGER xos_audit_fails');
      db.close();
    },
  },
  {
    name: 'PostgreSQL',
    async dsn() {
      pgServer ??= await startPostgres();
      return pgServer.createDatabase('audit');
    },
    async breakAudit(dsn, broken) {
      const client = new pg.Client({ connectionString: dsn });
      await client.connect();
      try {
        await client.query(broken
          ? "CREATE FUNCTION xos_audit_fails() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit storage failed'; END $$ LANGUAGE plpgsql; "
            + 'CREATE TRIGGER xos_audit_fails BEFORE INSERT ON xos_audit FOR EACH ROW EXECUTE FUNCTION xos_audit_fails()'
          : 'DROP TRIGGER xos_audit_fails ON xos_audit; DROP FUNCTION xos_audit_fails()');
      } finally {
        await client.end();
      }
    },
  },
];

after(async () => {
  await pgServer?.stop();
  await dir?.remove();
});

for (const store of stores) {
  describe(`the audit trail on ${store.name}`, () => {
    let dsn: string;
    let backend: Backend;
    /** Failures the API reports as internal errors (the client only sees "internal error"). */
    const internal: unknown[] = [];
    const start = () => startBackend({ ast: demoApp(), dsn, seed: true, onInternalError: (error) => internal.push(error) });

    const run = async (query: string, variables?: Record<string, unknown>, xos?: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(await backend.api.run({ query, variables, ...(xos ? { extensions: { xos } } : {}) }))) as { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
    const version = async (id: string) => (await run('query($id: ID!) { person_detail(id: $id) { version lastname } }', { id })).data.person_detail;

    before(async () => {
      dsn = await store.dsn();
      backend = await start();
    });
    after(() => backend?.close());

    test('seeding is not audited; an update records path, approval, versions and only the changed fields', async () => {
      assert.equal((await run('{ xos_audit_count }')).data.xos_audit_count, 0);
      const result = await run('mutation($set: person_set_input!) { update_person(id: "1", version: 1, set: $set) { version } }',
        { set: { lastname: 'Schmidt', firstname: 'Max', company_id: '2', age: 41 } },
        { path: 'agent', approval: 'Save confirmed by the person (lastname, company, age)' });
      assert.equal(result.errors, undefined);
      const [entry] = (await run(`{ xos_audit(entity: "person", id: "1") { ${AUDIT} } }`)).data.xos_audit;
      assert.match(entry.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual({ ...entry, at: undefined }, {
        id: entry.id, at: undefined, path: 'agent', action: 'update', entity: 'person', record_id: '1', version_from: 1, version_to: 2,
        approval: 'Save confirmed by the person (lastname, company, age)',
        changes: [
          { field: 'lastname', from: 'Mustermann', to: 'Schmidt' },
          { field: 'age', from: 40, to: 41 },
          { field: 'company', from: 1, to: 2 },
        ],
      });
    });

    test('create and delete by the person, a conflict writes nothing, a mail is recorded; paged newest first', async () => {
      const created = await run('mutation { insert_person(object: { firstname: "Ada", lastname: "Lovelace", net_worth: "10.50" }) { id version } }', undefined, { path: 'board', approval: 'Create confirmed by the person' });
      const id = created.data.insert_person.id;
      const stale = await run('mutation { update_person(id: "1", version: 1, set: { city: "Bonn" }) { version } }', undefined, { path: 'agent' });
      assert.equal(stale.errors?.[0].extensions?.code, 'CONFLICT');
      assert.equal((await run(`mutation { delete_person(id: "${id}", version: 1) }`, undefined, { path: 'board', approval: 'Delete confirmed by the person' })).data.delete_person, true);
      const mail = await run('mutation { xos_audit_mail(to: "Max <max@nordlicht-software.example>", subject: "Termin", message_id: "<1@xos>") { action path } }', undefined, { path: 'agent', approval: 'Send confirmed by the person' });
      assert.deepEqual(mail.data.xos_audit_mail, { action: 'mail', path: 'agent' });

      const all = (await run(`{ xos_audit(limit: 10) { ${AUDIT} } xos_audit_count }`)).data;
      assert.equal(all.xos_audit_count, 4, 'the conflict left no entry');
      assert.deepEqual(all.xos_audit.map((e: any) => [e.action, e.path, e.entity, e.version_from, e.version_to]), [
        ['mail', 'agent', null, null, null],
        ['delete', 'board', 'person', 1, null],
        ['create', 'board', 'person', null, 1],
        ['update', 'agent', 'person', 1, 2],
      ]);
      const createdEntry = all.xos_audit[2];
      assert.deepEqual(createdEntry.changes, [
        { field: 'firstname', from: null, to: 'Ada' }, { field: 'lastname', from: null, to: 'Lovelace' }, { field: 'net_worth', from: null, to: '10.50' },
      ]);
      assert.deepEqual(all.xos_audit[1].changes, createdEntry.changes.map((c: any) => ({ field: c.field, from: c.to, to: null })));
      assert.deepEqual(all.xos_audit[0].changes, [
        { field: 'to', from: null, to: 'Max <max@nordlicht-software.example>' }, { field: 'subject', from: null, to: 'Termin' }, { field: 'message_id', from: null, to: '<1@xos>' },
      ]);
      const page = (await run(`{ xos_audit(limit: 2, offset: 1) { action } }`)).data.xos_audit;
      assert.deepEqual(page.map((e: any) => e.action), ['delete', 'create']);
      assert.equal((await run('{ xos_audit_count(entity: "person", id: "1") }')).data.xos_audit_count, 1);
    });

    test('a write without extensions is an api write; malformed audit meta is refused before anything is written', async () => {
      await run('mutation { update_person(id: "2", version: 1, set: { city: "Köln" }) { version } }');
      assert.equal((await run('{ xos_audit(entity: "person", id: "2") { path approval } }')).data.xos_audit[0].path, 'api');
      for (const xos of [{ path: 'root' }, { path: 'agent', approval: 'x'.repeat(501) }, 'agent']) {
        const refused = await run('mutation { update_person(id: "2", version: 2, set: { city: "Bonn" }) { version } }', undefined, xos as Record<string, unknown>);
        assert.equal(refused.errors?.[0].extensions?.code, 'BAD_USER_INPUT', JSON.stringify(xos));
      }
      assert.equal((await version('2')).version, 2);
      assert.match((await run('{ xos_audit(limit: 501) { id } }')).errors![0].message, /limit must be between 0 and 500/);
    });

    test('the embedded client and XOS\'s own remote client (with the front-end token) carry the path and approval', async () => {
      const embedded = embeddedClient(backend);
      await embedded.run('mutation { update_person(id: "3", version: 1, set: { city: "Ulm" }) { version } }', undefined, { path: 'board', approval: 'Save confirmed by the person (city)' });
      const http = await startHttpServer(backend.api, { token: 'audit-token', frontendToken: FRONTEND_TOKEN });
      try {
        const remote = await connectRemoteClient({ endpoint: http.url, token: FRONTEND_TOKEN });
        await remote.run('mutation { update_person(id: "3", version: 2, set: { city: "Lübeck" }) { version } }', undefined, { path: 'agent', approval: 'Save bestätigt (city) – „Lübeck“' });
        const mail = await remote.run('mutation { xos_audit_mail(to: "max@nordlicht-software.example", subject: "Termin", message_id: "<fe@xos>") { path approval } }', undefined, { path: 'board', approval: 'Send confirmed by the person' });
        assert.deepEqual(mail.data?.xos_audit_mail, { path: 'board', approval: 'Send confirmed by the person' });
      } finally {
        await http.close();
      }
      const entries = (await run('{ xos_audit(entity: "person", id: "3") { path approval changes { field from to } } }')).data.xos_audit;
      assert.deepEqual(entries, [
        { path: 'agent', approval: 'Save bestätigt (city) – „Lübeck“', changes: [{ field: 'city', from: 'Ulm', to: 'Lübeck' }] },
        { path: 'board', approval: 'Save confirmed by the person (city)', changes: [{ field: 'city', from: entries[1].changes[0].from, to: 'Ulm' }] },
      ]);
    });

    test('a plain token holder\'s claim to be the person or the agent is recorded as api, without its approval; nothing is refused', async () => {
      const http = await startHttpServer(backend.api, { token: 'audit-token', frontendToken: FRONTEND_TOKEN });
      const post = (body: unknown, headers: Record<string, string> = {}, token = 'audit-token') => fetch(`${http.url}/graphql`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }, body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: await response.json() as any }));
      try {
        // In the body's extensions, as GraphQL over HTTP allows.
        const inBody = await post({ query: 'mutation { update_person(id: "5", version: 1, set: { city: "Kiel" }) { version } }', extensions: { xos: { path: 'board', approval: 'Save confirmed by the person (city)' } } });
        assert.deepEqual(inBody, { status: 200, body: { data: { update_person: { version: 2 } } } });
        // In the x-xos-audit header, as XOS's remote client sends it.
        const claim = encodeURIComponent(JSON.stringify({ path: 'agent', approval: 'Save confirmed by the person (city)' }));
        const inHeader = await post({ query: 'mutation { update_person(id: "5", version: 2, set: { city: "Rostock" }) { version } }' }, { 'x-xos-audit': claim });
        assert.deepEqual(inHeader, { status: 200, body: { data: { update_person: { version: 3 } } } });
        // XOS's own remote client given only the plain token proves nothing either.
        const remote = await connectRemoteClient({ endpoint: http.url, token: 'audit-token' });
        await remote.run('mutation { update_person(id: "5", version: 3, set: { city: "Wismar" }) { version } }', undefined, { path: 'board', approval: 'Save confirmed by the person (city)' });
        const mail = await remote.run('mutation { xos_audit_mail(to: "eve@evil.example", subject: "Rechnung", message_id: "<api@xos>") { path approval } }', undefined, { path: 'agent', approval: 'Send confirmed by the person' });
        assert.deepEqual(mail.data?.xos_audit_mail, { path: 'api', approval: null });
        // A malformed claim is refused as before, and a wrong token stays a 401.
        const malformed = await post({ query: 'mutation { update_person(id: "5", version: 4, set: { city: "Bonn" }) { version } }', extensions: { xos: { path: 'root' } } });
        assert.equal(malformed.body.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
        assert.equal((await post({ query: '{ xos_audit_count }' }, {}, 'guessed-token-0123456789')).status, 401);
      } finally {
        await http.close();
      }
      const entries = (await run('{ xos_audit(entity: "person", id: "5") { path approval changes { field to } } }')).data.xos_audit;
      assert.deepEqual(entries, [
        { path: 'api', approval: null, changes: [{ field: 'city', to: 'Wismar' }] },
        { path: 'api', approval: null, changes: [{ field: 'city', to: 'Rostock' }] },
        { path: 'api', approval: null, changes: [{ field: 'city', to: 'Kiel' }] },
      ]);
      const [mailEntry] = (await run('{ xos_audit(limit: 1) { path action approval } }')).data.xos_audit;
      assert.deepEqual(mailEntry, { path: 'api', action: 'mail', approval: null });

      // A server started without a front-end token takes nobody's word: even its token holder's claim is api.
      const closed = await startHttpServer(backend.api, { token: 'audit-token' });
      try {
        const remote = await connectRemoteClient({ endpoint: closed.url, token: 'audit-token' });
        await remote.run('mutation { update_person(id: "5", version: 4, set: { city: "Bonn" }) { version } }', undefined, { path: 'board', approval: 'Save confirmed by the person (city)' });
      } finally {
        await closed.close();
      }
      assert.deepEqual((await run('{ xos_audit(entity: "person", id: "5", limit: 1) { path approval } }')).data.xos_audit, [{ path: 'api', approval: null }]);
      await assert.rejects(startHttpServer(backend.api, { token: 'same-token-0123456789', frontendToken: 'same-token-0123456789' }), /must differ from the token/);
    });

    test('when the audit insert fails inside the transaction, the write is rolled back: both or neither', async () => {
      const before = await version('4');
      const count = (await run('{ xos_audit_count }')).data.xos_audit_count;
      await store.breakAudit(dsn, true);
      try {
        const failed = await run('mutation { update_person(id: "4", version: 1, set: { lastname: "Never" }) { version } }', undefined, { path: 'agent' });
        assert.ok(failed.errors?.length, 'the write reports the failure');
        const created = await run('mutation { insert_person(object: { firstname: "No", lastname: "Body" }) { id } }', undefined, { path: 'board' });
        assert.ok(created.errors?.length);
        const deleted = await run('mutation { delete_person(id: "4", version: 1) }', undefined, { path: 'board' });
        assert.ok(deleted.errors?.length);
        assert.equal(internal.length, 3);
        assert.match(String(internal[0]), /audit storage failed/);
      } finally {
        await store.breakAudit(dsn, false);
      }
      assert.deepEqual(await version('4'), before, 'the record is as it was');
      assert.equal((await run('{ person_list_count(where: { lastname: { _eq: "Body" } }) }')).data.person_list_count, 0, 'no half-created record');
      assert.equal((await run('{ xos_audit_count }')).data.xos_audit_count, count, 'and no entry');
      const works = await run('mutation { update_person(id: "4", version: 1, set: { lastname: "Now" }) { version } }', undefined, { path: 'agent' });
      assert.equal(works.data.update_person.version, 2);
    });

    test('the trail survives a restart', async () => {
      const count = (await run('{ xos_audit_count }')).data.xos_audit_count;
      await backend.close();
      backend = await start();
      assert.equal((await run('{ xos_audit_count }')).data.xos_audit_count, count);
      assert.equal((await run('{ xos_audit(entity: "person", id: "1") { changes { field to } } }')).data.xos_audit[0].changes[0].to, 'Schmidt');
    });
  });
}
