// The lost-update count of a team run (test/support/team.ts), which bench:live judges on the
// person's own tables, where a version is the row's state and cannot be counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lostUpdates } from '../support/team.ts';

test('writes in one chain, the last one stored: nothing lost', () => {
  assert.equal(lostUpdates([], { version: 7, value: 'Berlin' }), 0);
  assert.equal(lostUpdates([{ from: 11, to: 42, value: 'a' }, { from: 42, to: 5, value: 'b' }], { version: 5, value: 'b' }), 0);
});

test('two writes checked against the same version: one of them is lost', () => {
  assert.equal(lostUpdates([{ from: 11, to: 42, value: 'a' }, { from: 11, to: 9, value: 'b' }], { version: 9, value: 'b' }), 1);
});

test('a stored value no write left last, or one a later write started from: lost', () => {
  assert.equal(lostUpdates([{ from: 11, to: 42, value: 'a' }], { version: 3, value: 'x' }), 1);
  assert.equal(lostUpdates([{ from: 11, to: 42, value: 'a' }], { version: 42, value: 'x' }), 1);
  assert.equal(lostUpdates([{ from: 11, to: 42, value: 'a' }, { from: 42, to: 5, value: 'b' }], { version: 42, value: 'a' }), 1);
});

test('another program wrote last: only writes from the same version count', () => {
  assert.equal(lostUpdates([{ from: 11, to: 42, value: 'a' }, { from: 42, to: 5, value: 'b' }], undefined), 0);
  assert.equal(lostUpdates([{ from: 11, to: 42, value: 'a' }, { from: 11, to: 5, value: 'b' }], undefined), 1);
});
