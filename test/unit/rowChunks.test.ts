// The one row cache of both grids (webview/rowChunks.ts): chunks asked once, at most four at a
// time, the least recently seen dropped past 60, answers to an earlier list dropped, rows swapped
// in place by key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK_ROWS, RowChunks, type ChunkRead } from '../../webview/rowChunks.ts';

type Row = { readonly key: string; readonly value: number };
const rows = (offset: number, count: number): Row[] => Array.from({ length: count }, (_, i) => ({ key: String(offset + i), value: offset + i }));

/** A reader whose answers the test releases; it records what was asked. */
function heldReader(total: number) {
  const asked: Array<{ offset: number; limit: number; answer(): void; fail(message: string): void }> = [];
  const read: ChunkRead<Row> = (offset, limit) => new Promise((resolve, reject) => {
    asked.push({ offset, limit, answer: () => resolve({ offset, rows: rows(offset, Math.min(limit, total - offset)), total }), fail: (message) => reject(new Error(message)) });
  });
  return { read, asked };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

test('missing chunks are asked once, at most four at a time, and kept when they come', async () => {
  let changes = 0;
  const cache = new RowChunks<Row>(() => changes++);
  cache.total = 10_000;
  const reader = heldReader(10_000);
  cache.ensure(0, 10 * CHUNK_ROWS - 1, reader.read);
  cache.ensure(0, 10 * CHUNK_ROWS - 1, reader.read);
  assert.deepEqual(reader.asked.map((a) => a.offset), [0, 1, 2, 3].map((c) => c * CHUNK_ROWS));
  reader.asked[1].answer();
  await settled();
  assert.equal(changes, 1);
  assert.equal(cache.row(CHUNK_ROWS + 5)?.value, CHUNK_ROWS + 5);
  assert.equal(cache.row(5), undefined);
  assert.equal(cache.indexOfKey(String(CHUNK_ROWS + 7)), CHUNK_ROWS + 7);
});

test('after a reset, answers to earlier asks are dropped and a failure of one is not reported', async () => {
  let changes = 0;
  const cache = new RowChunks<Row>(() => changes++);
  const reader = heldReader(500);
  cache.ensure(0, 0, reader.read);
  cache.ensure(CHUNK_ROWS, CHUNK_ROWS, reader.read);
  cache.reset();
  reader.asked[0].answer();
  reader.asked[1].fail('gone');
  await settled();
  assert.equal(changes, 0);
  assert.equal(cache.row(0), undefined);
  assert.equal(cache.error, undefined);
  assert.equal(cache.total, undefined);
});

test('a failed read says why until a read succeeds; a reader that answers for something else is ignored', async () => {
  const cache = new RowChunks<Row>(() => {});
  const reader = heldReader(500);
  cache.ensure(0, 0, reader.read);
  reader.asked[0].fail('the list changed');
  await settled();
  assert.equal(cache.error, 'the list changed');
  cache.ensure(0, 0, () => Promise.resolve(undefined));
  await settled();
  assert.equal(cache.row(0), undefined);
  cache.ensure(0, 0, reader.read);
  assert.equal(reader.asked.length, 1, 'the chunk whose answer was ignored still counts as asked');
  cache.reset();
  cache.ensure(0, 0, reader.read);
  reader.asked[1].answer();
  await settled();
  assert.equal(cache.error, undefined);
  assert.equal(cache.total, 500);
});

test('past 60 chunks the least recently seen go first; a chunk seen again is kept', () => {
  const cache = new RowChunks<Row>(() => {});
  cache.store(0, rows(0, CHUNK_ROWS));
  for (let chunk = 1; chunk < 60; chunk++) cache.store(chunk * CHUNK_ROWS, rows(chunk * CHUNK_ROWS, CHUNK_ROWS));
  cache.total = 100 * CHUNK_ROWS;
  // Chunk 0 seen again: chunk 1 is now the oldest.
  cache.ensure(0, 0, () => assert.fail('a cached chunk is not asked for'));
  cache.store(60 * CHUNK_ROWS, rows(60 * CHUNK_ROWS, CHUNK_ROWS));
  assert.equal(cache.row(0)?.value, 0);
  assert.equal(cache.row(CHUNK_ROWS), undefined);
  assert.equal(cache.row(60 * CHUNK_ROWS)?.value, 60 * CHUNK_ROWS);
});

test('rows swap in place by key, given whole or made from the cached one', () => {
  const cache = new RowChunks<Row>(() => {});
  cache.store(0, rows(0, 2 * CHUNK_ROWS));
  cache.swap([{ key: '3', value: -3 }, { key: '150', value: -150 }, { key: 'absent', value: 0 }]);
  assert.equal(cache.row(3)?.value, -3);
  assert.equal(cache.row(150)?.value, -150);
  cache.swap('4', (row) => ({ ...row, value: row.value * 10 }));
  assert.equal(cache.row(4)?.value, 40);
  assert.equal(cache.row(5)?.value, 5);
});
