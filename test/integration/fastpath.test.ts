// The shortcut for plain scalar queries must answer exactly like graphql-js's
// executor: same data, same key order, same errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { createXosApi, type XosApi } from '../../src/backend/graphql/api.ts';
import { demoApp } from '../../src/backend/demo.ts';

const QUERIES: Array<[string, Record<string, unknown>?]> = [
  ['{ person_list { id firstname lastname email city age net_worth } }'],
  ['{ person_list(where: { age: { _gt: 40 } }, order_by: [{ net_worth: desc }], limit: 7, offset: 3) { net_worth id __typename } }'],
  ['query($w: person_bool_exp, $n: Int) { a: person_list(where: $w, limit: $n) { x: id company_id active birthday last_contact status } person_list_count(where: $w) }', { w: { city: { _in: ['Berlin', 'London'] } }, n: 5 }],
  ['{ person_detail(id: "3") { id firstname version } missing: person_detail(id: "999999") { id } }'],
  ['{ company_list { id name industry revenue founded } deal_list(limit: 3) { id amount stage close_date created_at } }'],
  ['query Named { person_list_count }'],
  ['{ person_list(limit: -1) { id } }'],
  ['query($n: Int!) { person_list(limit: $n) { id } }', { n: 'seven' }],
  ['{ person_detail(id: "abc") { id } }'],
  ['{ person_list(limit: 2) { id company { name } } }'],
  ['{ person_list(limit: 2) { ...F } } fragment F on person { id lastname }'],
];

describe('the scalar-query shortcut', () => {
  let backend: Backend;
  let slow: XosApi;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    slow = createXosApi(backend.api.ast, backend.api.storage, { fastPath: false });
  });
  after(() => backend?.close());

  for (const [query, variables] of QUERIES) {
    test(query, async () => {
      const fast = await backend.api.run({ query, variables });
      const full = await slow.run({ query, variables });
      assert.equal(JSON.stringify(fast), JSON.stringify(full));
    });
  }

  test('it is actually taken for the seed query', async () => {
    // The full executor builds null-prototype objects; the shortcut plain ones.
    const result = await backend.api.run({ query: '{ person_list(limit: 1) { id } }' });
    assert.equal(Object.getPrototypeOf(result.data), Object.prototype);
    const full = await slow.run({ query: '{ person_list(limit: 1) { id } }' });
    assert.equal(Object.getPrototypeOf(full.data), null);
  });
});
