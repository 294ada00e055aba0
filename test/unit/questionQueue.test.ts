// The person's questions come one at a time (src/board/confirmer.ts, QuestionConfirmer, for
// both front ends): a newer question never replaces the open one; it waits in a queue whose
// count the open question shows ("1 more question waiting", German too), appears only after
// the open one closed plus a short gap, and a question that waits too long times out unseen.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { demoApp } from '../../src/backend/demo.ts';
import { QuestionConfirmer, QUESTION_GAP_MS, waitingText, type AskedQuestion } from '../../src/board/confirmer.ts';
import { translator } from '../../src/board/texts.ts';
import type { MailDraft, SaveSummary } from '../../src/core/domain.ts';

const SAVE: SaveSummary = { entity: 'person', id: '1', action: 'update', changes: [{ field: 'city', label: 'City', from: 'Bonn', to: 'Kiel' }] };
const DRAFT: MailDraft = { to: { email: 'eve@evil.example' }, subject: 'Rechnung', body: 'Bitte zahlen' };

interface Shown {
  readonly question: AskedQuestion;
  readonly signal: AbortSignal;
  readonly at: number;
  answer(title: string | undefined): void;
  /** Every count the front end was told while this question was open. */
  readonly counts: number[];
}

/** A front end that shows each question until the test answers it. */
function frontEnd(options: { gapMs?: number; timeoutSeconds?: () => number } = {}) {
  const shown: Shown[] = [];
  const told: number[] = [];
  const confirmer = new QuestionConfirmer({
    ast: () => demoApp(), locale: () => 'en', t: translator('en'),
    timeoutSeconds: options.timeoutSeconds ?? (() => 30),
    gapMs: options.gapMs ?? 0,
    onWaiting: (waiting) => told.push(waiting),
    log: { info: () => {} },
    ask: (question, signal) => new Promise((resolve) => {
      const counts: number[] = [];
      question.onWaiting?.((waiting) => counts.push(waiting));
      shown.push({ question, signal, at: Date.now(), answer: resolve, counts });
    }),
  });
  return { confirmer, shown, told };
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick(5);
  }
}

describe('questions in turn', () => {
  test('the open question stays; a newer one waits with a count and appears when the first is answered', async () => {
    const { confirmer, shown, told } = frontEnd();
    const signal = new AbortController().signal;
    // The person's own save question is open ...
    const save = confirmer.confirmSave(SAVE, signal);
    await tick();
    assert.equal(shown.length, 1);
    assert.match(shown[0].question.message, /^Save changes to Person 1\?/);
    assert.equal(shown[0].question.waiting, 0);
    // ... when the agent's send question comes: it is not shown, the open one is not withdrawn.
    const send = confirmer.confirmSend(DRAFT, signal);
    await tick(50);
    assert.equal(shown.length, 1, 'the newer question waits');
    assert.equal(shown[0].signal.aborted, false, 'the open question is not withdrawn');
    assert.deepEqual(shown[0].counts, [1], 'the open question is told that one more waits');
    assert.equal(confirmer.waiting, 1);
    assert.deepEqual(told, [1]);
    assert.equal(waitingText(translator('en'), confirmer.waiting), '1 more question waiting');
    assert.equal(waitingText(translator('de'), confirmer.waiting), '1 weitere Frage wartet');
    assert.equal(waitingText(translator('en'), 3), '3 more questions waiting');
    assert.equal(waitingText(translator('de'), 3), '3 weitere Fragen warten');

    // The person answers their question; then the agent's appears, with nothing behind it.
    shown[0].answer('Save');
    assert.equal(await save, 'save');
    await until(() => shown.length === 2, 'the second question');
    assert.match(shown[1].question.message, /^Send this mail to eve@evil\.example\?/);
    assert.equal(shown[1].question.waiting, 0);
    assert.equal(shown[0].signal.aborted, true, 'the answered question is closed');
    assert.deepEqual(told, [1, 0]);
    shown[1].answer('Cancel');
    assert.equal(await send, 'cancel');
  });

  test('the next question appears only after the gap, so a second click never lands on it', async () => {
    const { confirmer, shown } = frontEnd({ gapMs: QUESTION_GAP_MS });
    const signal = new AbortController().signal;
    const first = confirmer.confirmSave(SAVE, signal);
    const second = confirmer.confirmSend(DRAFT, signal);
    await tick();
    const answeredAt = Date.now();
    shown[0].answer('Save');
    await first;
    await tick(QUESTION_GAP_MS / 2);
    assert.equal(shown.length, 1, 'nothing new within the gap');
    await until(() => shown.length === 2, 'the second question');
    assert.ok(shown[1].at - answeredAt >= QUESTION_GAP_MS - 5, `${shown[1].at - answeredAt} ms`);
    // A question asked right after an answer, with nothing waiting, keeps the gap too.
    shown[1].answer('Cancel');
    await second;
    const cancelledAt = Date.now();
    const third = confirmer.confirmSave(SAVE, signal);
    await until(() => shown.length === 3, 'the third question');
    assert.ok(shown[2].at - cancelledAt >= QUESTION_GAP_MS - 5, `${shown[2].at - cancelledAt} ms`);
    shown[2].answer('Discard');
    assert.equal(await third, 'discard');
  });

  test('a waiting question that is not reached in time times out unseen; the count drops', async () => {
    let seconds = 30;
    const { confirmer, shown, told } = frontEnd({ timeoutSeconds: () => seconds });
    const signal = new AbortController().signal;
    const save = confirmer.confirmSave(SAVE, signal);
    await tick();
    seconds = 0.05;
    const send = confirmer.confirmSend(DRAFT, signal);
    assert.equal(await send, 'timeout', 'the agent hears that nobody answered in time');
    assert.equal(shown.length, 1, 'it was never shown');
    assert.deepEqual(shown[0].counts, [1, 0]);
    assert.deepEqual(told, [1, 0]);
    assert.equal(shown[0].signal.aborted, false, 'the open question stays');
    // Once shown, a question has its whole time again (here 0.05 s).
    shown[0].answer('Save');
    assert.equal(await save, 'save');
  });

  test('a waiting question that is voided (the Board changed) leaves the queue and is never shown', async () => {
    const { confirmer, shown } = frontEnd();
    const save = confirmer.confirmSave(SAVE, new AbortController().signal);
    const voided = new AbortController();
    const send = confirmer.confirmSend(DRAFT, voided.signal);
    const third = confirmer.confirmSave({ ...SAVE, id: '2' }, new AbortController().signal);
    await tick();
    assert.deepEqual(shown[0].counts, [1, 2]);
    voided.abort();
    assert.equal(await send, 'cancel');
    assert.deepEqual(shown[0].counts, [1, 2, 1]);
    shown[0].answer(undefined); // closed: declines
    assert.equal(await save, 'discard');
    await until(() => shown.length === 2, 'the third question');
    assert.match(shown[1].question.message, /^Save changes to Person 2\?/, 'the voided one was skipped');
    shown[1].answer('Save');
    assert.equal(await third, 'save');
  });

  test('a front end\'s own question (drop unsaved changes?) takes its turn too', async () => {
    const { confirmer, shown } = frontEnd();
    const save = confirmer.confirmSave(SAVE, new AbortController().signal);
    const discard = confirmer.askInTurn({ kind: 'discard', message: 'Discard your unsaved changes?', buttons: ['Discard Changes', 'Cancel'] }, new AbortController().signal);
    await tick();
    assert.equal(shown.length, 1);
    shown[0].answer('Save');
    await save;
    await until(() => shown.length === 2, 'the discard question');
    assert.equal(shown[1].question.kind, 'discard');
    shown[1].answer('Discard Changes');
    assert.equal(await discard, 'Discard Changes');
  });
});
