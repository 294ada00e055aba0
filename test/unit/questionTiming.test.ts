// The act button of a question on the Board page (Save, Delete, Send, Discard) is inert for
// 0.7 s whenever its question appears or changes: the rule, on a clock the test moves.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ACT_INERT_MS, ActGuard, questionKey } from '../../webview/components/question-timing.ts';

const question = { id: 1, message: 'Save changes to Person 1? City: Bonn → Kiel', buttons: ['Save', 'Discard'] };

describe('the act button of a question', () => {
  test('is inert for 0.7 s after the question appears, then acts', () => {
    let now = 1000;
    const guard = new ActGuard(() => now);
    assert.equal(ACT_INERT_MS, 700);
    assert.equal(guard.inert(), true, 'no question: nothing to act on');
    assert.equal(guard.show(questionKey(question)), true);
    assert.equal(guard.inert(), true);
    assert.equal(guard.remaining(), 700);
    now += 50; // a double click's second click
    assert.equal(guard.inert(), true);
    now += 649;
    assert.equal(guard.inert(), true, 'still inert at 699 ms');
    assert.equal(guard.remaining(), 1);
    now += 1;
    assert.equal(guard.inert(), false);
    assert.equal(guard.remaining(), 0);
    // Rendering the same question again changes nothing.
    assert.equal(guard.show(questionKey(question)), false);
    assert.equal(guard.inert(), false);
  });

  test('a question that replaces another, or changes what it shows, is inert again', () => {
    let now = 0;
    const guard = new ActGuard(() => now);
    guard.show(questionKey(question));
    now = 5000;
    assert.equal(guard.inert(), false);
    // The agent's question where the person's was a moment ago.
    assert.equal(guard.show(questionKey({ ...question, id: 2, message: 'Send this mail to eve@evil.example?', buttons: ['Send', 'Cancel'] })), true);
    assert.equal(guard.inert(), true);
    now += 700;
    assert.equal(guard.inert(), false);
    // The count below it changes: the buttons may have moved.
    assert.equal(guard.show(questionKey({ ...question, id: 2, message: 'Send this mail to eve@evil.example?', buttons: ['Send', 'Cancel'], waiting: 1 })), true);
    assert.equal(guard.inert(), true);
    // Closed, then the same question shown anew: inert again.
    now += 700;
    assert.equal(guard.show(undefined), false);
    assert.equal(guard.inert(), true);
    assert.equal(guard.show(questionKey({ ...question, id: 2, message: 'Send this mail to eve@evil.example?', buttons: ['Send', 'Cancel'], waiting: 1 })), true);
    assert.equal(guard.inert(), true);
  });

  test('the key covers everything the person sees of a question', () => {
    const base = questionKey(question);
    assert.notEqual(questionKey({ ...question, id: 2 }), base);
    assert.notEqual(questionKey({ ...question, message: `${question.message}!` }), base);
    assert.notEqual(questionKey({ ...question, buttons: ['Discard', 'Save'] }), base);
    assert.notEqual(questionKey({ ...question, waiting: 2 }), base);
    assert.equal(questionKey({ ...question, waiting: 0 }), base);
  });
});
