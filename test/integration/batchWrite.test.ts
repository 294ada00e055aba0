// Many rows, one transaction (Storage.updateMany), on SQLite and PostgreSQL: every row written
// and audited, in the order given; or — when one row of a thousand changed since it was read, or
// is gone — nothing written at all, and exactly those rows named with what is stored now.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { RowUpdate } from '../../src/backend/storage/types.ts';
import type { Row } from '../../src/backend/storage/rows.ts';
import { onBothStores } from '../support/bothStores.ts';
import { seedPeople } from '../support/seedPeople.ts';
import { until } from '../support/until.ts';

const ROWS = 1000;
const ast = demoApp();
delete ast.data;

async function people(backend: Backend): Promise<Array<{ id: number; version: number; city: string | null }>> {
  const rows = await backend.api.storage.select({ table: 'person', columns: ['city'], orderBy: [{ column: 'id', desc: false }] });
  return rows.map((r) => ({ id: r.id as number, version: r.version as number, city: r.city as string | null }));
}

onBothStores('one transaction for many rows', ast, 0, async (backend) => {
  const { storage } = backend.api;
  await seedPeople(backend, ROWS);
  const read = await people(backend);
  const audited = await storage.auditCount({ entity: 'person' });

  // All or nothing: another writer changes one row after the batch was read, and one row is deleted.
  const updates: RowUpdate[] = read.map((p) => ({ id: p.id, version: p.version, set: { city: `Stadt ${p.id}` } }));
  const theirs = await storage.update('person', read[499].id, read[499].version, { city: 'Extern' });
  assert.equal(theirs.status, 'ok');
  assert.equal((await storage.delete('person', read[700].id, read[700].version)).status, 'ok');
  const refused = await storage.updateMany('person', updates, { path: 'board', approval: 'test batch' });
  assert.equal(refused.status, 'conflict');
  assert.deepEqual(refused.status === 'conflict' ? refused.conflicts.map((c) => [c.id, c.current?.city ?? null]) : [], [[read[499].id, 'Extern'], [read[700].id, null]]);
  const untouched = await people(backend);
  assert.deepEqual(untouched.filter((p) => p.city?.startsWith('Stadt ')), [], 'nothing of the batch was written');
  assert.equal(await storage.auditCount({ entity: 'person' }), audited + 2, 'only the other writes are in the audit trail');

  // A row given twice is refused before anything is read or written.
  await assert.rejects(storage.updateMany('person', [updates[0], updates[0]]), /changes the row \d+ twice/);

  // Read again, the batch goes through whole: every row, in order, each one version on, each audited.
  const fresh = new Map(untouched.map((p) => [p.id, p.version]));
  const again = updates.filter((u) => fresh.has(u.id as number)).map((u) => ({ ...u, version: fresh.get(u.id as number)! }));
  const written = await storage.updateMany('person', again, { path: 'board', approval: 'test batch' });
  assert.equal(written.status, 'ok');
  if (written.status !== 'ok') return;
  assert.deepEqual(written.rows.map((r) => r.id), again.map((u) => u.id));
  assert.ok(written.rows.every((r, i) => r.version === again[i].version + 1 && r.city === `Stadt ${r.id}`));
  assert.equal((await people(backend)).filter((p) => p.city === `Stadt ${p.id}`).length, ROWS - 1);
  const trail = await storage.auditEntries({ entity: 'person', recordId: String(again[10].id), limit: 5, offset: 0 });
  assert.deepEqual([trail[0].action, trail[0].approval, trail[0].changes.city?.to], ['update', 'test batch', `Stadt ${again[10].id}`]);
  // One batch, one id on every entry of it; single writes have none.
  const batchEntries = await storage.auditEntries({ entity: 'person', limit: ROWS, offset: 0 });
  const batches = new Set(batchEntries.filter((e) => e.approval === 'test batch').map((e) => e.batch));
  assert.equal(batches.size, 1);
  assert.match([...batches][0] ?? '', /^[0-9a-f-]{36}$/);
  const single = await storage.auditEntries({ entity: 'person', recordId: String(read[499].id), limit: 5, offset: 0 });
  assert.equal(single.at(-1)?.batch, undefined, 'the other writer\'s single save belongs to no batch');
});

// More rows than one statement takes, in three kinds of change: every group and every chunk of
// it written, in the order given, each row audited once with the batch's id, the feed told once.
onBothStores('a batch across statements and kinds of change', ast, 0, async (backend) => {
  const { storage } = backend.api;
  const rows = 10_000;
  await seedPeople(backend, rows);
  const read = await storage.select({ table: 'person', columns: ['city', 'age'], orderBy: [{ column: 'id', desc: false }] });
  const kinds = (id: unknown, i: number): Row => [{ city: `Ort ${String(id)}` }, { city: `Ort ${String(id)}`, age: i % 100 }, {}][i % 3];
  const updates: RowUpdate[] = read.map((r, i) => ({ id: r.id as number, version: r.version as number, set: kinds(r.id, i) }));
  const told: Array<{ id: string; version: number | null }> = [];
  assert.ok(storage.watch, 'the storage has a change feed');
  const stop = storage.watch((event) => {
    if (event.kind === 'changes') told.push(...event.changes.filter((c) => c.entity === 'person').map((c) => ({ id: c.id, version: c.version })));
  });
  try {
    await (storage as { feedReady?: () => Promise<void> }).feedReady?.();
    const written = await storage.updateMany('person', updates, { path: 'board', approval: 'big batch' });
    assert.equal(written.status, 'ok');
    if (written.status !== 'ok') return;
    assert.deepEqual(written.rows.map((r) => r.id), updates.map((u) => u.id), 'the rows come back in the order given');
    const stored = new Map((await storage.select({ table: 'person', columns: ['city', 'age'], orderBy: [{ column: 'id', desc: false }] })).map((r) => [r.id, r]));
    updates.forEach((u, i) => {
      const row = stored.get(u.id)!;
      assert.equal(row.version, u.version + 1, `row ${String(u.id)} is one version on`);
      assert.equal(row.city, i % 3 === 2 ? read[i].city : `Ort ${String(u.id)}`);
      assert.equal(row.age, i % 3 === 1 ? i % 100 : read[i].age);
    });
    const batch = written.batch!;
    assert.equal(await storage.auditCount({ batch }), rows, 'one entry per row, all of the batch');
    const entries = await storage.auditEntries({ batch, limit: rows, offset: 0 });
    assert.deepEqual(new Set(entries.map((e) => e.recordId)).size, rows);
    assert.deepEqual(entries.find((e) => e.recordId === String(updates[1].id))?.changes.age?.to, 1);
    // PostgreSQL's feed hears its own notification a moment later.
    await until('the feed told the batch', () => told.length >= rows, { timeoutMs: 60_000 });
    assert.deepEqual(told.map((c) => c.id).sort(), updates.map((u) => String(u.id)).sort(), 'the feed told every row once');
  } finally {
    stop();
  }
});

const MANY = 'mutation ($updates: [person_many_update_input!]!) { update_person_many(updates: $updates) { id version city age } }';

onBothStores('update_<entity>_many through the API', ast, 0, async (backend) => {
  await seedPeople(backend, ROWS);
  const run = (variables: Record<string, unknown>) => backend.api.run({ query: MANY, variables, extensions: { xos: { path: 'board', approval: 'API batch' } } });
  const read = await people(backend);
  const updates = read.map((p) => ({ id: String(p.id), version: p.version, set: { city: `Ort ${p.id}`, age: p.id % 90 } }));
  const unchanged = async () => (await people(backend)).every((p) => !p.city?.startsWith('Ort '));

  // A bad value or a missing ref anywhere: refused before anything is written, the row named.
  const bad = await run({ updates: updates.map((u, i) => (i === 3 ? { ...u, set: { age: 400 } } : u)) });
  assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  assert.match(bad.errors![0].message, /^updates\[3\]: /);
  const ghost = await run({ updates: updates.map((u, i) => (i === 5 ? { ...u, set: { company_id: '99999' } } : u)) });
  assert.match(ghost.errors?.[0]?.message ?? '', /company 99999 does not exist/);
  const tooMany = await run({ updates: Array.from({ length: 10_001 }, (_, i) => ({ id: String(i + 1), version: 1, set: { age: 1 } })) });
  assert.match(tooMany.errors?.[0]?.message ?? '', /at most 10000 records change in one batch \(got 10001\); split it/);
  assert.ok(await unchanged());

  // Another writer meanwhile: CONFLICT names the record with what is stored now; nothing written.
  await backend.api.run({ query: `mutation { update_person(id: "${read[20].id}", version: ${read[20].version}, set: { city: "Extern" }) { id } }` });
  const conflict = await run({ updates });
  assert.equal(conflict.errors?.[0]?.extensions?.code, 'CONFLICT');
  const conflicts = conflict.errors![0].extensions!.conflicts as Array<{ id: string; current: { city: string } }>;
  assert.deepEqual(conflicts.map((c) => [c.id, c.current.city]), [[String(read[20].id), 'Extern']]);
  assert.ok(await unchanged());

  // Read again: all of them, in one transaction, audited with the approval.
  const fresh = new Map((await people(backend)).map((p) => [String(p.id), p.version]));
  const written = await run({ updates: updates.map((u) => ({ ...u, version: fresh.get(u.id)! })) });
  assert.equal(written.errors, undefined, JSON.stringify(written.errors));
  const rows = (written.data as { update_person_many: Array<{ id: string; city: string }> }).update_person_many;
  assert.deepEqual(rows.map((r) => r.id), updates.map((u) => u.id));
  assert.ok(rows.every((r) => r.city === `Ort ${r.id}`));
  const [entry] = await backend.api.storage.auditEntries({ entity: 'person', recordId: updates[7].id, limit: 1, offset: 0 });
  assert.equal(entry.approval, 'API batch');
  // The answer names the audit batch the write made (the writer need not ask the trail for it); a failed write names none.
  assert.equal(typeof entry.batch, 'string');
  assert.deepEqual(written.extensions, { xos: { batch: entry.batch } });
  assert.equal(conflict.extensions, undefined);
});

describe('an audit trail from before batch writes', () => {
  const OLD_TRAIL = 'CREATE TABLE "xos_audit" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "at" TEXT NOT NULL, "path" TEXT NOT NULL, "action" TEXT NOT NULL, '
    + '"entity" TEXT, "record_id" TEXT, "version_from" INTEGER, "version_to" INTEGER, "changes" TEXT NOT NULL, "approval" TEXT)';
  let server: PostgresServer | undefined;
  after(async () => {
    await server?.stop();
  });

  test('SQLite: gains the batch column and its index on start, its entries kept', async () => {
    await using dir = await tempDir('xos-old-trail');
    const file = join(dir.path, 'old.db');
    const db = new DatabaseSync(file);
    db.exec(OLD_TRAIL);
    db.exec(`INSERT INTO "xos_audit" ("at", "path", "action", "entity", "record_id", "changes") VALUES ('2026-01-01T00:00:00.000Z', 'api', 'create', 'person', '1', '{}')`);
    db.close();
    const backend = await startBackend({ ast, dsn: `sqlite:${file}` });
    try {
      const entries = await backend.api.storage.auditEntries({ limit: 5, offset: 0 });
      assert.deepEqual(entries.map((e) => [e.recordId, e.batch]), [['1', undefined]]);
    } finally {
      await backend.close();
    }
    // A batch's entries are found through the index, not by reading the whole trail.
    const check = new DatabaseSync(file);
    try {
      const plan = check.prepare('EXPLAIN QUERY PLAN SELECT * FROM "xos_audit" WHERE "batch" = ? ORDER BY "id"').all('b1').map((row) => String(row.detail));
      assert.ok(plan.some((step) => step.includes('xos_audit_batch_idx')), plan.join('; '));
    } finally {
      check.close();
    }
  });

  test('PostgreSQL: the same', async () => {
    server = await startPostgres();
    const dsn = await server.createDatabase('old_trail');
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    await client.query(OLD_TRAIL.replace('INTEGER PRIMARY KEY AUTOINCREMENT', 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'));
    await client.query(`INSERT INTO "xos_audit" ("at", "path", "action", "entity", "record_id", "changes") VALUES ('2026-01-01T00:00:00.000Z', 'api', 'create', 'person', '1', '{}')`);
    await client.end();
    const backend = await startBackend({ ast, dsn });
    try {
      assert.equal(backend.migration.audit.kept, true);
      const entries = await backend.api.storage.auditEntries({ limit: 5, offset: 0 });
      assert.deepEqual(entries.map((e) => [e.recordId, e.batch]), [['1', undefined]]);
    } finally {
      await backend.close();
    }
    const check = new pg.Client({ connectionString: dsn });
    await check.connect();
    try {
      const { rows } = await check.query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'xos_audit' AND indexname = 'xos_audit_batch_idx'`);
      assert.match(String(rows[0]?.indexdef), /\(batch\) WHERE \(batch IS NOT NULL\)/);
    } finally {
      await check.end();
    }
  });
});
