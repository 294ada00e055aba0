// Other programs' writes on PostgreSQL are noticed by the transaction snapshot moving: the first
// read only sets where it stands, a move tells the app's entities once, a read that fails or
// finds no model yet tells nothing, reads never overlap, and after the last listener nothing is told.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OutsideWrites } from '../../src/backend/changes/outsideWrites.ts';
import type { StorageFeedEvent } from '../../src/backend/changes/types.ts';

/** A mark source the test moves; each read waits for the test to answer it. */
function scriptedMarks() {
  const pending: Array<(mark: string | undefined | Error) => void> = [];
  let overlapping = 0;
  let open = 0;
  return {
    read: () => new Promise<string | undefined>((resolve, reject) => {
      open++;
      if (open > 1) overlapping++;
      pending.push((mark) => {
        open--;
        if (mark instanceof Error) reject(mark);
        else resolve(mark);
      });
    }),
    /** Answers the oldest read waiting (waits for one to be asked). */
    async answer(mark: string | undefined | Error): Promise<void> {
      while (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      pending.shift()!(mark);
      // Let the poll see its answer.
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Answers every read waiting now, if any. */
    async answerAll(mark: string): Promise<void> {
      for (const answer of pending.splice(0)) answer(mark);
      await new Promise((resolve) => setImmediate(resolve));
    },
    get overlapping() { return overlapping; },
  };
}

test('a moved snapshot tells the entities once; the first read, no model and a failed read tell nothing', async () => {
  const marks = scriptedMarks();
  const outside = new OutsideWrites(marks.read, () => ['person', 'company'], 5);
  const heard: StorageFeedEvent[] = [];
  const off = outside.watch((event) => heard.push(event));
  try {
    await marks.answer(undefined); // not migrated yet
    await marks.answer('100:100:');
    assert.deepEqual(heard, [], 'the first mark only says where it stands');
    await marks.answer('100:100:');
    assert.deepEqual(heard, []);
    await marks.answer(new Error('connection lost'));
    await marks.answer('100:101:100'); // a write took an id
    await marks.answer('101:101:'); // and committed
    assert.deepEqual(heard, [{ kind: 'outside', entities: ['person', 'company'] }, { kind: 'outside', entities: ['person', 'company'] }]);
    await marks.answer('101:101:');
    assert.equal(heard.length, 2, 'nothing moved: nothing told');
    assert.equal(marks.overlapping, 0, 'one read at a time, however slow the database');
  } finally {
    off();
  }
  // The last listener gone: a read still on its way tells nothing, however far the snapshot moved.
  await marks.answerAll('200:200:');
  assert.equal(heard.length, 2);
});
