// The in-memory approval desk (src/board/approvalDesk.ts): the list oldest first, each approval
// decided once (a second decision finds it gone), an expired one not carried out and gone from
// the list at its expiry, a failing carry-out said as `failed`, and the listeners told each change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApprovalDecision, DecisionOutcome, PendingApprovalView } from '../../src/board/approvalDesk.ts';
import { MemoryApprovalDesk } from '../support/memoryApprovalDesk.ts';
import { until } from '../support/until.ts';

const NOW = Date.parse('2026-12-05T09:00:00Z');

function view(id: string, requestedAt: string, expiresAt = '2026-12-05T09:30:00Z'): PendingApprovalView {
  return { id, kind: 'save', question: `Save changes to Person ${id}? City: Bonn → Kiel`, requester: 'The agent for anna', requestedAt, expiresAt };
}

/** A carry-out that records each decision it was asked to carry out. */
function recorder(outcome: DecisionOutcome = { kind: 'approved', text: 'Saved' }) {
  const decisions: ApprovalDecision[] = [];
  return { decisions, carryOut: async (decision: ApprovalDecision) => (decisions.push(decision), decision === 'approve' ? outcome : { kind: 'declined' as const }) };
}

test('the list is oldest first; each approval is carried out once; a second decision finds it gone', async (t) => {
  const desk = new MemoryApprovalDesk(() => NOW);
  t.after(() => desk.dispose());
  let changes = 0;
  desk.onChange(() => changes++);
  const later = recorder({ kind: 'approved', text: 'Saved Person 2.' });
  const earlier = recorder();
  desk.add(view('2', '2026-12-05T08:59:00Z'), later.carryOut);
  desk.add(view('1', '2026-12-05T08:58:00Z'), earlier.carryOut);
  assert.equal(changes, 2);
  assert.deepEqual((await desk.pending()).map((v) => v.id), ['1', '2']);

  const [first, second] = await Promise.all([desk.decide('2', 'approve'), desk.decide('2', 'approve')]);
  assert.deepEqual(first, { kind: 'approved', text: 'Saved Person 2.' });
  assert.deepEqual(second, { kind: 'gone' });
  assert.deepEqual(later.decisions, ['approve']);
  assert.deepEqual(await desk.decide('1', 'decline'), { kind: 'declined' });
  assert.deepEqual(earlier.decisions, ['decline']);
  assert.deepEqual(await desk.pending(), []);
  assert.equal(changes, 4);
  assert.deepEqual(await desk.decide('unknown', 'approve'), { kind: 'gone' });
  desk.add(view('3', '2026-12-05T08:59:00Z'), earlier.carryOut);
  assert.throws(() => desk.add(view('3', '2026-12-05T08:59:00Z'), earlier.carryOut), /already on the desk/);
});

test('an expired approval is not carried out; it leaves the list at its expiry and the listeners hear it', async (t) => {
  let now = NOW;
  const desk = new MemoryApprovalDesk(() => now);
  t.after(() => desk.dispose());
  const kept = recorder();
  desk.add(view('old', '2026-12-05T08:00:00Z', '2026-12-05T08:59:59Z'), kept.carryOut);
  assert.deepEqual(await desk.pending(), [], 'an approval past its expiry is not listed');
  assert.deepEqual(await desk.decide('old', 'approve'), { kind: 'expired' });
  assert.deepEqual(kept.decisions, []);

  // Expiring while listed: the timer takes it off and tells the listeners.
  let changes = 0;
  desk.onChange(() => changes++);
  now = Date.now();
  desk.add(view('soon', new Date(now).toISOString(), new Date(now + 30).toISOString()), kept.carryOut);
  assert.equal((await desk.pending()).length, 1);
  await until('the expired approval left the list', () => changes === 2);
  now = Date.now();
  assert.deepEqual(await desk.pending(), []);
  assert.deepEqual(kept.decisions, []);
});

test('a carry-out that throws is a failed outcome; a withdrawn approval is gone', async (t) => {
  const desk = new MemoryApprovalDesk(() => NOW);
  t.after(() => desk.dispose());
  desk.add(view('1', '2026-12-05T08:58:00Z'), async () => {
    throw new Error('the database is not reachable');
  });
  assert.deepEqual(await desk.decide('1', 'approve'), { kind: 'failed', text: 'the database is not reachable' });
  const withdraw = desk.add(view('2', '2026-12-05T08:58:00Z'), recorder().carryOut);
  let changes = 0;
  const stop = desk.onChange(() => changes++);
  withdraw();
  assert.equal(changes, 1);
  assert.deepEqual(await desk.decide('2', 'approve'), { kind: 'gone' });
  stop();
  desk.add(view('3', '2026-12-05T08:58:00Z'), recorder().carryOut);
  assert.equal(changes, 1, 'an unsubscribed listener is not told');
});
