// Keyset paging through the GraphQL API, on SQLite and PostgreSQL: reading a list
// on by `after` cursors (and back by `before`) in windows of any size, with sorts
// over repeated values and nulls either way round and orders of several terms,
// gives exactly the rows of the whole list in its order; `offset` skips from a
// cursor, also across a sort column's nulls; cursors of another order, forged
// ones and both arguments at once are refused with what to do. The key map
// (`<context>_cursors`) holds exactly the cursors of every n-th record.
import assert from 'node:assert/strict';
import type { Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { onBothStores } from '../support/bothStores.ts';

const PEOPLE = 700;
const ast = demoApp();

const ORDERS: unknown[] = [
  [],
  [{ city: 'asc' }],
  [{ city: 'desc' }],
  [{ city: 'desc' }, { id: 'desc' }],
  [{ age: 'asc' }, { id: 'desc' }],
  [{ birthday: 'desc' }, { lastname: 'asc' }],
  [{ company_id: 'asc' }, { age: 'desc' }, { city: 'asc' }],
  [{ id: 'desc' }],
];

interface Person { id: string; _cursor: string }

async function page(backend: Backend, args: Record<string, unknown>): Promise<Person[]> {
  const result = await backend.api.run({
    query: 'query ($order: [person_order_by!], $where: person_bool_exp, $limit: Int, $offset: Int, $after: String, $before: String) { person_list(order_by: $order, where: $where, limit: $limit, offset: $offset, after: $after, before: $before) { id _cursor } }',
    variables: args,
  });
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return (result.data as { person_list: Person[] }).person_list;
}

async function refusal(backend: Backend, args: Record<string, unknown>): Promise<string> {
  const result = await backend.api.run({
    query: 'query ($order: [person_order_by!], $after: String, $before: String) { person_list(order_by: $order, after: $after, before: $before, limit: 5) { id } }',
    variables: args,
  });
  assert.ok(result.errors?.length, `refused: ${JSON.stringify(args)}`);
  return result.errors!.map((e) => e.message).join('; ');
}

async function check(backend: Backend) {
  // Nulls and repeated values in the sorted columns, so ties and null placement are crossed.
  const nulls = Array.from({ length: 40 }, (_, i) => `n${i}: update_person(id: "${i * 17 + 3}", version: 1, set: { city: null, age: null, birthday: null }) { id }`);
  const written = await backend.api.run({ query: `mutation { ${nulls.join(' ')} }` });
  assert.equal(written.errors, undefined, JSON.stringify(written.errors));
  for (const order of ORDERS) {
    for (const where of [undefined, { lastname: { _ilike: '%e%' } }]) {
      const label = JSON.stringify({ order, where });
      const whole = (await page(backend, { order, where })).map((p) => p.id);
      assert.ok(whole.length > 100, label);
      for (const size of [1, 37, 250]) {
        // Forward, window by window, each after the last row of the one before.
        const forward: string[] = [];
        let cursor: string | undefined;
        // One row at a time only through the first rows (the same seeks, fewer requests).
        const upTo = size === 1 ? 120 : whole.length;
        while (forward.length < upTo) {
          const rows = await page(backend, { order, where, limit: size, after: cursor });
          forward.push(...rows.map((r) => r.id));
          if (rows.length < size) break;
          cursor = rows.at(-1)!._cursor;
        }
        assert.deepEqual(forward, whole.slice(0, upTo), `${label} forward by ${size}`);
      }
      // Backward from the end, each window before the first row of the one after.
      const last = (await page(backend, { order, where, offset: whole.length - 1 }))[0];
      const backward: string[] = [last.id];
      let cursor = last._cursor;
      for (;;) {
        const rows = await page(backend, { order, where, limit: 61, before: cursor });
        backward.unshift(...rows.map((r) => r.id));
        if (rows.length < 61) break;
        cursor = rows[0]._cursor;
      }
      assert.deepEqual(backward, whole, `${label} backward`);
      // An offset skips from a cursor, also across the nulls that lie after it.
      const rows = await page(backend, { order, where });
      for (const [from, skip] of [[0, 0], [10, 25], [whole.length - 60, 30], [whole.length - 60, 59], [whole.length - 60, 80], [5, whole.length]]) {
        const got = await page(backend, { order, where, after: rows[from]._cursor, offset: skip, limit: 20 });
        assert.deepEqual(got.map((r) => r.id), whole.slice(from + 1 + skip, from + 1 + skip + 20), `${label} after ${from} skipping ${skip}`);
      }
      const back = await page(backend, { order, where, before: rows[whole.length - 10]._cursor, offset: 15, limit: 20 });
      assert.deepEqual(back.map((r) => r.id), whole.slice(whole.length - 10 - 15 - 20, whole.length - 10 - 15), `${label} before, skipping 15`);
    }
  }

  // The key map: the _cursor of every n-th record, each the very cursor that record is read with.
  for (const order of [[], [{ city: 'asc' }], [{ city: 'desc' }, { id: 'desc' }], [{ age: 'asc' }, { id: 'desc' }]]) {
    for (const where of [undefined, { lastname: { _ilike: '%e%' } }]) {
      const rows = await page(backend, { order, where });
      const result = await backend.api.run({
        query: 'query ($order: [person_order_by!], $where: person_bool_exp) { person_list_cursors(order_by: $order, where: $where, every: 100) }',
        variables: { order, where },
      });
      assert.equal(result.errors, undefined, JSON.stringify(result.errors));
      const cursors = (result.data as { person_list_cursors: string[] }).person_list_cursors;
      assert.deepEqual(cursors, rows.filter((_, i) => (i + 1) % 100 === 0).map((r) => r._cursor), JSON.stringify({ order, where }));
      assert.ok(cursors.length >= 2);
    }
  }
  const tooDense = await backend.api.run({ query: '{ person_list_cursors(every: 10) }' });
  assert.match(tooDense.errors?.[0]?.message ?? '', /every must be at least 100/);

  const [first] = await page(backend, { order: [{ city: 'asc' }], limit: 1 });
  assert.match(await refusal(backend, { order: [{ city: 'desc' }], after: first._cursor }), /read in the order city asc, id asc, not city desc, id desc; read the cursor again with the same order_by/);
  assert.match(await refusal(backend, { order: [{ city: 'asc' }], after: 'not-a-cursor' }), /after: .* is not a cursor of this API/);
  const forged = Buffer.from(JSON.stringify({ o: 'city asc, id asc', k: ['Berlin', { evil: 1 }] })).toString('base64url');
  assert.match(await refusal(backend, { order: [{ city: 'asc' }], after: forged }), /the cursor's value for id does not fit the column/);
  assert.match(await refusal(backend, { order: [{ city: 'asc' }], after: first._cursor, before: first._cursor }), /give after or before, not both/);
  // A record read outside a list context has no place in an order.
  const detail = await backend.api.run({ query: '{ person_detail(id: "1") { id _cursor } }' });
  assert.deepEqual(detail.data, { person_detail: { id: '1', _cursor: null } });
}

onBothStores('keyset paging through the API', ast, PEOPLE, check);
