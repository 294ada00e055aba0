// The change feed end to end: on PostgreSQL, two xos-server instances over one database — a write
// through one reaches the other's stream (the remote client's feed), a stream that was away
// catches up with Last-Event-ID (or is told to read again past the bound), presence crosses
// instances, clears and expires, and the stream refuses a wrong token, a web page and one stream
// too many; on SQLite, two embedded backends on one file (each on its own thread) see each
// other's writes and presence, on the person's own file too (presence kept beside it).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { notifyChangesSql } from '../../src/backend/changes/notifyPayload.ts';
import { FEED_APPLICATION_NAME, presencePayload } from '../../src/backend/changes/postgresFeed.ts';
import { insertAuditSql } from '../../src/backend/storage/audit.ts';
import { postgresDialect } from '../../src/backend/storage/postgres.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { readCatalog } from '../../src/backend/introspect/init.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import { startHttpServer, type HttpOptions, type RunningHttpServer } from '../../src/backend/http.ts';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import type { RecordChange, XosClient } from '../../src/graphql/types.ts';
import { startWorkerBackend } from '../../src/graphql/workerBackend.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';
import { recordFeed, type FeedRecord } from '../support/feedRecorder.ts';

const updateCity = 'mutation($id: ID!, $version: Int!, $city: String) { update_person(id: $id, version: $version, set: { city: $city }) { id version } }';

async function writeCity(client: XosClient, id: string, city: string): Promise<number> {
  const read = await client.run('query($id: ID!) { person_detail(id: $id) { version } }', { id });
  const version = (read.data as { person_detail: { version: number } }).person_detail.version;
  const written = await client.run(updateCity, { id, version, city }, { path: 'board', approval: 'test' });
  assert.equal(written.errors, undefined, JSON.stringify(written.errors));
  return version + 1;
}

interface Instance {
  readonly backend: Backend;
  readonly http: RunningHttpServer;
  close(): Promise<void>;
}

async function startInstance(dsn: string, options: HttpOptions = {}): Promise<Instance> {
  const backend = await startBackend({ ast: demoApp(), dsn, seed: true });
  const http = await startHttpServer(backend.api, { ...options, changes: { presenceTtlMs: 1_500, ...options.changes } });
  return { backend, http, close: async () => { await http.close(); await backend.close(); } };
}

/** Reads one SSE stream until `enough` says so; returns its messages. */
async function readStream(url: string, headers: Record<string, string>, enough: (messages: { event: string; id?: string; data: string }[]) => boolean) {
  const controller = new AbortController();
  const response = await fetch(`${url}/xos/changes`, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const messages: { event: string; id?: string; data: string }[] = [];
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop()!;
      for (const block of blocks) {
        const fields = Object.fromEntries(block.split('\n').filter((line) => !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
        if (fields.event) messages.push({ event: fields.event, data: fields.data, ...(fields.id !== undefined ? { id: fields.id } : {}) });
      }
      if (enough(messages)) break;
    }
  } finally {
    controller.abort();
  }
  return messages;
}

describe('the change feed on PostgreSQL, across two xos-server instances', () => {
  let postgres: PostgresServer;
  let a: Instance;
  let b: Instance;
  let dsn: string;
  before(async () => {
    postgres = await startPostgres();
    dsn = await postgres.createDatabase('xos_feed');
    a = await startInstance(dsn);
    b = await startInstance(dsn);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await postgres?.stop();
  });

  test('a write through one instance reaches the other\'s clients with entity, id and version', async () => {
    const writer = await connectRemoteClient({ endpoint: a.http.url });
    const reader = await connectRemoteClient({ endpoint: b.http.url });
    const heard = recordFeed(reader.feed);
    const own = recordFeed(writer.feed);
    try {
      await until('both feeds live', () => heard.live() && own.live());
      const version = await writeCity(writer, '3', 'Flensburg');
      const change = await until('the change at instance B', () => heard.changes().find((c) => c.entity === 'person' && c.id === '3'));
      // Without the front-end token a write counts as the API's, whatever it claims.
      assert.deepEqual(change, { entity: 'person', id: '3', action: 'update', version, path: 'api' });
      await until('the change at the writer\'s own instance too', () => own.changes().some((c) => c.id === '3' && c.version === version));
    } finally {
      heard.stop();
      own.stop();
    }
  });

  test('a write by another program (psql, no notification) reaches the clients as written outside, naming the app\'s entities', async () => {
    const reader = await connectRemoteClient({ endpoint: b.http.url });
    const heard = recordFeed(reader.feed);
    const psql = new pg.Client({ connectionString: dsn });
    await psql.connect();
    try {
      await until('the feed live', () => heard.live());
      const from = heard.events.length;
      await psql.query('UPDATE person SET city = $1, version = version + 1 WHERE id = 4', ['Written by psql']);
      const outside = await until('the outside write at instance B\'s client', () => heard.events.slice(from).find((event) => event.kind === 'outside'));
      assert.ok(outside.kind === 'outside' && outside.entities.includes('person'), JSON.stringify(outside));
      assert.deepEqual(heard.events.slice(from).filter((event) => event.kind === 'changes'), [], 'no record is named: nothing in the trail or the channel says which');
    } finally {
      heard.stop();
      await psql.end();
    }
  });

  test('a stream that was away catches up with Last-Event-ID, and past the bound is told to read again', async () => {
    const first = await readStream(b.http.url, {}, (messages) => messages.some((m) => m.event === 'ready'));
    const cursor = first.find((m) => m.event === 'ready')!.id;
    assert.match(cursor ?? '', /^\d+$/, 'the ready event names where the stream is');
    const writer = await connectRemoteClient({ endpoint: a.http.url });
    const written = [await writeCity(writer, '5', 'Husum'), await writeCity(writer, '6', 'Heide')];
    const back = await readStream(b.http.url, { 'last-event-id': cursor! }, (messages) => messages.some((m) => m.event === 'ready'));
    const caughtUp = back.filter((m) => m.event === 'changes').flatMap((m) => (JSON.parse(m.data) as { changes: RecordChange[] }).changes);
    assert.deepEqual(caughtUp.map((c) => [c.id, c.version]), [['5', written[0]], ['6', written[1]]]);
    assert.equal(JSON.parse(back.find((m) => m.event === 'ready')!.data).caughtUp, 2);

    // More than 1,000 changes since: the stream cannot name them all.
    const storage = a.backend.api.storage;
    const people = await storage.select({ table: 'person', columns: ['city'] });
    for (let written = 0; written <= 1_000; written += people.length) {
      const now = await storage.select({ table: 'person', columns: ['city'] });
      const result = await storage.updateMany('person', now.map((row) => ({ id: row.id as number, version: row.version as number, set: { city: `Batch ${written}` } })));
      assert.equal(result.status, 'ok');
    }
    const read = await readStream(b.http.url, { 'last-event-id': cursor! }, (messages) => messages.some((m) => m.event === 'ready'));
    // The batch's notifications may still be reaching instance B: they follow `ready` as live
    // changes (harmless after a reset), in the same chunk at times.
    const away = read.slice(0, read.findIndex((m) => m.event === 'ready') + 1);
    assert.deepEqual(away.map((m) => m.event), ['reset', 'ready']);
    assert.ok(read.slice(away.length).every((m) => m.event === 'changes'), `only live changes follow: ${read.map((m) => m.event).join(', ')}`);
    assert.deepEqual(JSON.parse(away[0].data), { reason: 'away' });
    assert.ok(Number(away[0].id) > Number(cursor), 'the reset says where the stream is now');
  });

  test('presence from a client of instance A reaches a client of instance B, clears and expires', async () => {
    const anna = await connectRemoteClient({ endpoint: a.http.url });
    const ben = await connectRemoteClient({ endpoint: b.http.url });
    const annaHears = recordFeed(anna.feed);
    const benHears = recordFeed(ben.feed);
    try {
      await until('both feeds live', () => annaHears.live() && benHears.live());
      anna.feed!.announce({ entity: 'person', id: '7', editing: true });
      await until('Anna\'s presence at Ben\'s', () => benHears.lastPresence()?.some((p) => p.entity === 'person' && p.id === '7' && p.editing && p.person === 'someone'));
      assert.ok(!(annaHears.lastPresence() ?? []).some((p) => p.id === '7'), 'a front end is not told its own presence');
      anna.feed!.announce(undefined);
      await until('Anna\'s presence cleared', () => benHears.lastPresence()?.length === 0);
      anna.feed!.announce({ entity: 'person', id: '8', editing: false });
      await until('Anna\'s new presence', () => benHears.lastPresence()?.some((p) => p.id === '8' && !p.editing));
      // Never repeated within the TTL (1.5 s here; the client repeats every 10 s): it expires.
      await until('the presence expired', () => benHears.lastPresence()?.length === 0, { timeoutMs: 5_000 });
    } finally {
      annaHears.stop();
      benHears.stop();
    }
  });

  // Without the hello the stream would wait forever (the announcement is never repeated): the test's bound ends it.
  test('an instance that starts listening is told who is where at once, not at their next repeat', { timeout: 120_000 }, async () => {
    const fresh = await postgres.createDatabase('xos_feed_hello');
    const x = await startInstance(fresh, { changes: { presenceTtlMs: 60_000 } });
    let y: Instance | undefined;
    const watcher = await connectRemoteClient({ endpoint: x.http.url });
    const xHears = recordFeed(watcher.feed);
    try {
      await until('instance X listening', () => xHears.live());
      // One announcement, never repeated (no front end behind it repeats it), made before Y runs.
      const posted = await fetch(`${x.http.url}/xos/presence?client=anna-board`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ entity: 'person', id: '7', editing: true }) });
      assert.equal(posted.status, 204);
      await until('X has it', () => xHears.lastPresence()?.some((p) => p.id === '7'));
      y = await startInstance(fresh, { changes: { presenceTtlMs: 60_000 } });
      const messages = await readStream(y.http.url, {}, (read) => read.some((m) => m.event === 'presence' && m.data.includes('"id":"7"')));
      const presence = JSON.parse(messages.find((m) => m.event === 'presence' && m.data.includes('"id":"7"'))!.data) as { presence: { person: string; entity: string; id: string; editing: boolean }[] };
      assert.deepEqual(presence.presence, [{ person: 'someone', entity: 'person', id: '7', editing: true }]);
    } finally {
      xHears.stop();
      await y?.close();
      await x.close();
    }
  });

  test('an instance that starts listening while the channel is busy tells its clients no reset, and a write made then is told', { timeout: 120_000 }, async () => {
    const fresh = await postgres.createDatabase('xos_feed_busy');
    // Anyone on the server may notify: here without pause, so a notification arrives the moment the new feed's LISTEN is in place.
    const noisy = new pg.Client({ connectionString: fresh });
    await noisy.connect();
    let noise = true;
    const payload = JSON.stringify({ changes: [{ entity: 'person', id: '1', action: 'update', version: 2 }] });
    const noising = (async () => { while (noise) await noisy.query("SELECT pg_notify('xos_changes', $1)", [payload]); })();
    const trials: Instance[] = [];
    try {
      for (let trial = 0; trial < 3; trial++) {
        const x = await startInstance(fresh);
        trials.push(x);
        const client = await connectRemoteClient({ endpoint: x.http.url });
        const heard = recordFeed(client.feed);
        try {
          await until('the new instance listening', () => heard.live());
          const version = await writeCity(client, String(10 + trial), `Husum ${trial}`);
          await until('the write told', () => heard.changes().some((c) => c.id === String(10 + trial) && c.version === version));
          assert.deepEqual(heard.events.filter((event) => event.kind === 'reset'), [], `trial ${trial}: no reset (nothing was missed)`);
        } finally {
          heard.stop();
        }
      }
    } finally {
      noise = false;
      await noising;
      await noisy.end();
      for (const x of trials) await x.close();
    }
  });

  test('a feed whose LISTEN connection was cut comes back and misses no change', async () => {
    const writer = await connectRemoteClient({ endpoint: a.http.url });
    const reader = await connectRemoteClient({ endpoint: b.http.url });
    const heard = recordFeed(reader.feed);
    const admin = new pg.Client({ connectionString: dsn });
    await admin.connect();
    try {
      await until('the feed live', () => heard.live());
      // Every instance's LISTEN connection is cut; the write lands while they are away.
      const cut = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [FEED_APPLICATION_NAME]);
      assert.ok(cut.rowCount! >= 2, 'both instances listen');
      const version = await writeCity(writer, '9', 'Schleswig');
      await until('the change written while the feed was away', () => heard.changes().some((c) => c.id === '9' && c.version === version), { timeoutMs: 15_000 });
    } finally {
      heard.stop();
      await admin.end();
    }
  });

  test('a client whose stream broke tells it, comes back with Last-Event-ID and catches up', async () => {
    const writer = await connectRemoteClient({ endpoint: a.http.url });
    const reader = await connectRemoteClient({ endpoint: b.http.url });
    const heard = recordFeed(reader.feed);
    try {
      await until('the feed live', () => heard.live());
      await writeCity(writer, '10', 'Eckernförde');
      await until('a first change heard', () => heard.changes().some((c) => c.id === '10'));
      // The server drops every connection, and the write comes before the client is back.
      b.http.server.closeAllConnections();
      const version = await writeCity(writer, '11', 'Plön');
      await until('the change missed while away', () => heard.changes().some((c) => c.id === '11' && c.version === version), { timeoutMs: 15_000 });
      const connection = heard.events.filter((event) => event.kind === 'connection');
      assert.deepEqual(connection.slice(-2).map((event) => event.kind === 'connection' && event.live), [false, true], 'lost, then back');
      assert.equal(heard.changes().filter((c) => c.id === '10').length, 1, 'what was heard before is not told again');
    } finally {
      heard.stop();
    }
  });

  test('a notification only says "look": forgeries by a read-only role show nothing and move no cursor, its "… is editing" neither; a write that took its id first and commits last is still told', async () => {
    const admin = new pg.Client({ connectionString: dsn });
    await admin.connect();
    await admin.query('CREATE ROLE xos_reporter LOGIN');
    await admin.query('GRANT USAGE ON SCHEMA public TO xos_reporter');
    await admin.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO xos_reporter');
    const reporter = new pg.Client({ connectionString: dsn.replace('//xos@', '//xos_reporter@') });
    await reporter.connect();
    const early = new pg.Client({ connectionString: dsn, options: '-c TimeZone=UTC' });
    await early.connect();
    const writer = await connectRemoteClient({ endpoint: a.http.url });
    const reader = await connectRemoteClient({ endpoint: b.http.url });
    const heard = recordFeed(reader.feed);
    const streamed = readStream(b.http.url, {}, (messages) => messages.some((m) => m.event === 'changes' && m.data.includes('"id":"15"')));
    // Awaited below; a test that fails before must not leave it rejecting unheard.
    streamed.catch(() => undefined);
    try {
      await until('the feed live', () => heard.live());
      // What any role that may connect can send: a change that never happened, with a cursor far ahead, and a delete.
      const forged = { cursor: 999_999_999_999, changes: [{ entity: 'person', id: '1', action: 'update', version: 99, person: 'Mallory', path: 'board' }] };
      await reporter.query("SELECT pg_notify('xos_changes', $1)", [JSON.stringify(forged)]);
      await reporter.query("SELECT pg_notify('xos_changes', $1)", ['{"changes":[{"entity":"person","id":"2","action":"delete","version":null}]}']);
      // And someone "editing", in exactly the shape XOS announces: presence is read from XOS's table, which the role may not write.
      await reporter.query("SELECT pg_notify('xos_presence', $1)", [presencePayload('mallory-board', { client: 'mallory-board', person: 'Mallory', entity: 'person', id: '3', editing: true }, 30_000)]);
      await assert.rejects(reporter.query('INSERT INTO "xos_presence" ("client", "person", "entity", "record_id", "editing", "expires") VALUES ($1, $2, $3, $4, $5, $6)',
        ['mallory-board', 'Mallory', 'person', '3', 1, Date.now() + 30_000]), /permission denied/);

      // A write that takes its audit id first and commits after a later one.
      await early.query('BEGIN');
      const [{ version: earlyVersion }] = (await early.query<{ version: number }>('UPDATE "person" SET "city" = $1, "version" = "version" + 1 WHERE "id" = 12 RETURNING "version"', ['Kappeln'])).rows;
      const entry = { path: 'board', action: 'update', entity: 'person', recordId: '12', versionFrom: earlyVersion - 1, versionTo: earlyVersion, changes: { city: { from: null, to: 'Kappeln' } }, approval: null } as const;
      const inserted = insertAuditSql(postgresDialect, entry, { returning: true });
      const [{ id: earlyId }] = (await early.query<{ id: string }>(inserted.text, inserted.params as unknown[])).rows;
      const laterVersion = await writeCity(writer, '13', 'Kiel');
      await until('the later write heard', () => heard.changes().some((c) => c.id === '13' && c.version === laterVersion));
      const notify = notifyChangesSql([{ change: { entity: 'person', id: '12', action: 'update', version: earlyVersion, path: 'board' }, auditId: Number(earlyId) }])!;
      await early.query(notify.text, notify.params as unknown[]);
      await early.query('COMMIT');
      await until('the write that committed last heard too', () => heard.changes().some((c) => c.id === '12' && c.version === earlyVersion));

      // The forged cursor moved nothing: a write while the feed is cut is caught up from the real one.
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [FEED_APPLICATION_NAME]);
      const awayVersion = await writeCity(writer, '14', 'Rendsburg');
      await until('the write while away', () => heard.changes().some((c) => c.id === '14' && c.version === awayVersion), { timeoutMs: 15_000 });
      await writeCity(writer, '15', 'Flensburg');
      const messages = await streamed;
      const [{ max }] = (await admin.query<{ max: string }>('SELECT MAX("id") AS "max" FROM "xos_audit"')).rows;
      for (const message of messages.filter((m) => m.id !== undefined)) assert.ok(Number(message.id) <= Number(max), `event ${message.event} has the cursor ${message.id}, past the trail's ${max}`);
      assert.deepEqual(heard.changes().filter((c) => c.person === 'Mallory' || (c.id === '1' && c.version === 99) || (c.id === '2' && c.action === 'delete')), [], 'no forged change is told');
      assert.deepEqual(heard.presence().filter((p) => p.person === 'Mallory'), [], 'no forged presence is told');
      assert.ok(!messages.some((m) => m.data.includes('Mallory')), 'nor streamed');
    } finally {
      heard.stop();
      await early.query('ROLLBACK').catch(() => undefined);
      await Promise.all([early.end(), reporter.end()]);
      await admin.end();
    }
  });

  test('the stream refuses a wrong token, a web page, and one stream over its limit', async () => {
    const dsn = await postgres.createDatabase('xos_feed_guarded');
    const guarded = await startInstance(dsn, { token: 'right-token', changes: { maxStreams: 1 } });
    try {
      const url = `${guarded.http.url}/xos/changes`;
      const none = await fetch(url);
      assert.equal(none.status, 401);
      const wrong = await fetch(url, { headers: { authorization: 'Bearer wrong-token' } });
      assert.equal(wrong.status, 401);
      assert.match(await wrong.text(), /token is wrong/);
      const page = await fetch(url, { headers: { authorization: 'Bearer right-token', origin: 'https://evil.example' } });
      assert.equal(page.status, 403);
      const presence = await fetch(`${guarded.http.url}/xos/presence`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(presence.status, 401);
      const bad = await fetch(`${guarded.http.url}/xos/presence`, { method: 'POST', headers: { authorization: 'Bearer right-token', 'content-type': 'application/json' }, body: '{"entity":"nope","id":"1"}' });
      assert.equal(bad.status, 400);
      assert.match(await bad.text(), /entity/);

      const client = await connectRemoteClient({ endpoint: guarded.http.url, token: 'right-token' });
      const heard = recordFeed(client.feed);
      try {
        await until('the one stream live', () => heard.live());
        const second = await fetch(url, { headers: { authorization: 'Bearer right-token' } });
        assert.equal(second.status, 503);
        assert.equal(second.headers.get('retry-after'), '5');
        assert.match(await second.text(), /change streams/);
      } finally {
        heard.stop();
      }
    } finally {
      await guarded.close();
    }
  });
});

type WorkerBackend = Awaited<ReturnType<typeof startWorkerBackend>>;

/** One backend's front end opens a record with unsaved edits: the other hears it, then hears it cleared; the first is never told its own. */
async function presenceCrosses(one: WorkerBackend, oneHears: FeedRecord, twoHears: FeedRecord, entity: string, id: string): Promise<void> {
  one.client.feed!.announce({ entity, id, editing: true });
  await until('presence over there', () => twoHears.lastPresence()?.some((p) => p.entity === entity && p.id === id && p.editing));
  assert.ok(!(oneHears.lastPresence() ?? []).some((p) => p.id === id), 'not told its own presence');
  one.client.feed!.announce(undefined);
  await until('presence cleared over there', () => twoHears.lastPresence()?.length === 0);
}

async function closeBoth(one: WorkerBackend, two: WorkerBackend, oneHears: FeedRecord, twoHears: FeedRecord): Promise<void> {
  oneHears.stop();
  twoHears.stop();
  await one.close();
  await two.close();
}

describe('the change feed on SQLite, two embedded backends on one file', () => {
  test('each sees the other\'s writes and presence, and its own writes', async () => {
    await using dir = await tempDir('xos-feed');
    const dsn = `sqlite:${join(dir.path, 'xos.db')}`;
    const one = await startWorkerBackend({ ast: demoApp(), dsn, seed: true });
    const two = await startWorkerBackend({ ast: demoApp(), dsn, seed: true });
    const oneHears = recordFeed(one.client.feed);
    const twoHears = recordFeed(two.client.feed);
    try {
      await until('both feeds live', () => oneHears.live() && twoHears.live());
      const version = await writeCity(two.client, '4', 'Kiel');
      assert.deepEqual(await until('the other backend\'s write', () => oneHears.changes().find((c) => c.id === '4')), { entity: 'person', id: '4', action: 'update', version, path: 'board' });
      await until('the writer\'s own feed', () => twoHears.changes().some((c) => c.id === '4' && c.version === version));
      const created = await one.client.run('mutation { insert_person(object: { firstname: "Nina", lastname: "Neu" }) { id } }');
      const id = String((created.data as { insert_person: { id: string } }).insert_person.id);
      assert.ok(await until('the created record over there', () => twoHears.changes().find((c) => c.id === id && c.action === 'create')));
      assert.equal(twoHears.changes().filter((c) => c.id === '4').length, 1, 'a write is told once');

      await presenceCrosses(one, oneHears, twoHears, 'person', '4');
    } finally {
      await closeBoth(one, two, oneHears, twoHears);
    }
  });

  test('on the person\'s own file without a trail, presence lives in XOS\'s file beside it and crosses; the person\'s file gains nothing', async () => {
    await using dir = await tempDir('xos-feed-own');
    const file = join(dir.path, 'kunden.db');
    const person = new DatabaseSync(file);
    person.exec('CREATE TABLE "Kunde" ("Nr" INTEGER PRIMARY KEY, "Name" TEXT NOT NULL)');
    person.exec('INSERT INTO "Kunde" ("Name") VALUES (\'Anna\'), (\'Ben\')');
    const schemaOf = () => person.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all();
    const before = schemaOf();
    person.close();
    const dsn = `sqlite:${file}`;
    const { ast } = catalogToAst(await readCatalog(dsn));
    const one = await startWorkerBackend({ ast, dsn });
    const two = await startWorkerBackend({ ast, dsn });
    const oneHears = recordFeed(one.client.feed);
    const twoHears = recordFeed(two.client.feed);
    try {
      await until('both feeds live', () => oneHears.live() && twoHears.live());
      await presenceCrosses(one, oneHears, twoHears, 'kunde', '2');
      assert.deepEqual(twoHears.events.filter((event) => event.kind === 'outside'), [], 'a presence is no write to compare');
    } finally {
      await closeBoth(one, two, oneHears, twoHears);
    }
    const after = new DatabaseSync(file);
    try {
      assert.deepEqual(after.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all(), before, 'no table, index or trigger of XOS in the person\'s file');
    } finally {
      after.close();
    }
    assert.ok(existsSync(`${file}-xos`), 'presence is kept in kunden.db-xos');
  });
});
