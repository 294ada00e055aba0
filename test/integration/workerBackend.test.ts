// The embedded backend on its own thread (src/graphql/workerBackend.ts): the same answers as
// the backend in this thread, request for request (reads, writes with their audit entry,
// conflicts, refusals); it runs on another thread; a start that fails says why; after close it
// answers as a data source that is gone.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { test } from 'node:test';
import { threadId } from 'node:worker_threads';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import type { XosClient } from '../../src/graphql/types.ts';
import { BackendUnavailableError } from '../../src/graphql/unavailable.ts';
import { startWorkerBackend } from '../../src/graphql/workerBackend.ts';
import { tempDir } from '../support/tmp.ts';

/** One session of requests a front end sends, in order; each answer as JSON. */
async function session(client: XosClient): Promise<unknown[]> {
  const answers: unknown[] = [];
  const run = async (query: string, variables?: Record<string, unknown>, audit?: Parameters<XosClient['run']>[2]) => {
    answers.push(await client.run(query, variables, audit));
  };
  await run('{ person_list(order_by: { lastname: desc }, limit: 5, offset: 3) { id lastname company { name } } person_list_aggregate { count } }');
  await run('query($id: ID!) { person_detail(id: $id) { id firstname lastname version } }', { id: '4' });
  await run('mutation($id: ID!, $set: person_set_input!) { update_person(id: $id, version: 1, set: $set) { id lastname version } }',
    { id: '4', set: { lastname: 'Über' } }, { path: 'board', approval: 'Save confirmed in VS Code' });
  // The same version again: a conflict, said the same way.
  await run('mutation($id: ID!) { update_person(id: $id, version: 1, set: { lastname: "Stale" }) { id } }', { id: '4' });
  await run('{ xos_audit(entity: "person", id: "4") { action path approval changes } }');
  await run('{ person_list(where: { nope: { _eq: 1 } }) { id } }');
  await run('{ person_list(where: { city: { _ilike: "%berlin%" } }, order_by: { id: asc }) { id city } }');
  return answers;
}

test('the worker answers as the backend in this thread does, request for request', async () => {
  const here = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  const there = await startWorkerBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  try {
    assert.deepEqual(there.seeded, here.seeded);
    assert.notEqual(there.threadId, threadId, 'the backend runs on another thread');
    assert.equal(there.client.ast(), there.client.ast(), 'the AST is read here, without a round trip');
    const [expected, actual] = [await session(embeddedClient(here)), await session(there.client)];
    // Audit entries carry their time; everything else is the same.
    const timeless = (answers: unknown[]) => JSON.parse(JSON.stringify(answers).replace(/"at":"[^"]+"/g, '"at":"…"'));
    assert.deepEqual(timeless(actual), timeless(expected));
    assert.match(JSON.stringify(actual[3]), /conflict|version/i, 'the stale write was refused');
    assert.deepEqual(await there.client.status().then(({ kind, description, ok }) => ({ kind, description, ok })), { kind: 'sqlite', description: 'sqlite::memory:', ok: true });
  } finally {
    await here.close();
    await there.close();
  }
});

test('a file database written through the worker is the same file for everyone', async () => {
  await using dir = await tempDir('xos-worker');
  const dsn = `sqlite:${join(dir.path, 'xos.db')}`;
  const worker = await startWorkerBackend({ ast: demoApp(), dsn, seed: true });
  await worker.client.run('mutation { update_person(id: "2", version: 1, set: { city: "Kiel" }) { id } }', undefined, { path: 'agent', approval: 'test' });
  await worker.close();
  const reader = await startBackend({ ast: demoApp(), dsn });
  try {
    const read = await embeddedClient(reader).run('{ person_detail(id: "2") { city version } }');
    assert.deepEqual(read.data, { person_detail: { city: 'Kiel', version: 2 } });
  } finally {
    await reader.close();
  }
});

test('a start that fails says why', async () => {
  await using dir = await tempDir('xos-worker');
  // A folder that cannot be made: a file stands where it should be.
  writeFileSync(join(dir.path, 'taken'), '');
  await assert.rejects(startWorkerBackend({ ast: demoApp(), dsn: `sqlite:${join(dir.path, 'taken', 'xos.db')}` }), /EEXIST|ENOTDIR|not a directory/i);
  await assert.rejects(startWorkerBackend({ ast: demoApp(), dsn: 'mysql://localhost/x' }), /sqlite|postgres/i);
});

test('a read called off while it waits behind another request is never run, and rejects at once', async () => {
  await using dir = await tempDir('xos-worker');
  const file = join(dir.path, 'xos.db');
  const worker = await startWorkerBackend({ ast: demoApp(), dsn: `sqlite:${file}`, seed: true });
  // Another writer holds SQLite's write lock: the worker's write waits for it, synchronously, so
  // every message after it waits too — until this test lets go.
  const other = new DatabaseSync(file);
  other.exec('BEGIN IMMEDIATE');
  let released = false;
  try {
    const write = worker.client.run('mutation { update_person(id: "5", version: 1, set: { city: "Husum" }) { version } }', undefined, { path: 'agent', approval: 'test' });
    const counted: string[] = [];
    const read = new AbortController();
    const called = worker.client.run('{ person_list { id } }', undefined, undefined, read.signal)
      .then(() => counted.push('answered'), (error: Error) => counted.push(`rejected: ${error.message}`));
    read.abort(new Error('the Board moved on'));
    await called;
    assert.deepEqual(counted, ['rejected: the Board moved on'], 'it rejects at once, while the worker is still held');
    other.exec('ROLLBACK');
    released = true;
    assert.deepEqual((await write).data, { update_person: { version: 2 } });
    // The write ran; the read was left out when its turn came; the stats request itself is not counted.
    assert.deepEqual(await worker.stats(), { runs: 1, skipped: 1 });
  } finally {
    if (!released) other.exec('ROLLBACK');
    other.close();
    await worker.close();
  }
});

test('after close the worker answers as a data source that is gone; closing twice is fine', async () => {
  const worker = await startWorkerBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  await worker.close();
  await worker.close();
  await assert.rejects(worker.client.run('{ person_list { id } }'), (error: unknown) => error instanceof BackendUnavailableError);
  assert.equal((await worker.client.status()).ok, false);
});
