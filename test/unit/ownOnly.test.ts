// A request's variables as the API reads them: own properties only, at any depth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownOnly } from '../../src/backend/graphql/api.ts';

test('variables are copied without a prototype, arrays stay arrays, and a left-out `constructor` stays absent', () => {
  const copied = ownOnly({ set: { city: 'Bonn', tags: ['a', { b: 1 }] }, n: null }) as Record<string, any>;
  assert.equal(Object.getPrototypeOf(copied), null);
  assert.equal(Object.getPrototypeOf(copied.set), null);
  assert.ok(Array.isArray(copied.set.tags));
  assert.equal(Object.getPrototypeOf(copied.set.tags[1]), null);
  assert.equal(copied.set.constructor, undefined);
  assert.equal(copied.n, null);
  assert.deepEqual(JSON.parse(JSON.stringify(copied)), { set: { city: 'Bonn', tags: ['a', { b: 1 }] }, n: null });
});

test('variables nested far deeper than the call stack are copied, not a stack overflow', () => {
  let deep: unknown = 'bottom';
  for (let i = 0; i < 200_000; i++) deep = i % 2 ? { w: deep } : [deep];
  let copied = ownOnly(deep);
  let depth = 0;
  while (copied !== 'bottom') {
    copied = Array.isArray(copied) ? copied[0] : (copied as Record<string, unknown>).w;
    depth++;
  }
  assert.equal(depth, 200_000);
});
