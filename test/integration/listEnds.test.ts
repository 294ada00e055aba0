// A list window in the second half of the rows is asked for from the end (the reversed order's
// first rows): on SQLite and PostgreSQL, with and without the person's sort (on columns with
// repeated values and nulls) and quick filter, and with the agent's own order, every window
// holds exactly the rows the forward order has there, in that order, and asks for no count;
// scrolling on from a window reads from the cursor of its edge, skipping no rows.
import assert from 'node:assert/strict';
import { appModel } from '../../src/ast/appModel.ts';
import type { Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { ListQuery } from '../../src/core/domain.ts';
import { QueryListSource } from '../../src/core/listSource.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { contextSelection } from '../../src/graphql/requests.ts';
import type { XosClient } from '../../src/graphql/types.ts';
import { onBothStores } from '../support/bothStores.ts';

const PEOPLE = 1500;
const ast = demoApp();
const context = appModel(ast, 'en').context('person_list')!;

const QUERIES: ListQuery[] = [
  {},
  { sort: { field: 'city', direction: 'asc' } },
  { sort: { field: 'city', direction: 'desc' } },
  { sort: { field: 'age', direction: 'desc' } },
  { sort: { field: 'birthday', direction: 'asc' } },
  { filter: 'berg' },
  { filter: 'a', sort: { field: 'lastname', direction: 'desc' } },
];

/** The client, with the requests it sends counted. */
function counting(client: XosClient) {
  const sent: Array<{ query: string; variables?: Record<string, unknown> }> = [];
  return { sent, client: { ...client, run: (query: string, variables?: Record<string, unknown>) => { sent.push({ query, variables }); return client.run(query, variables); } } };
}

async function check(backend: Backend) {
  // Some nulls and repeated values in the sorted columns, so ties and null placement are tested.
  await backend.api.run({ query: 'mutation { a: update_person(id: "3", version: 1, set: { city: null, age: null }) { id } b: update_person(id: "1400", version: 1, set: { city: null, birthday: null }) { id } }' });
  for (const agentOrder of [undefined, [{ age: 'asc' }]]) {
    const { client, sent } = counting(embeddedClient(backend));
    const source = await QueryListSource.open({ client, context, selection: contextSelection(ast, 'person_list'), orderBy: agentOrder });
    for (const query of QUERIES) {
      // The forward order in one piece: what every window must be a slice of.
      const whole = await source.window(0, 5000, query);
      const ids = whole.records.map((r) => r.id);
      assert.equal(ids.length, whole.total);
      const total = whole.total;
      const before = sent.length;
      assert.ok(total > 40, `${JSON.stringify(query)} matches only ${total} rows`);
      const offsets = [Math.ceil(total / 2) + 1, total - 100, total - 37, total - 1, total - 10].filter((offset) => offset > total / 2);
      for (const offset of offsets) {
        const window = await source.window(offset, 50, query);
        const label = `${JSON.stringify(query)} order ${JSON.stringify(agentOrder)} at ${offset} of ${total}`;
        assert.deepEqual(window.records.map((r) => r.id), ids.slice(offset, offset + 50), label);
        assert.equal(window.offset, offset);
        assert.equal(window.total, total);
      }
      const fromEnd = sent.slice(before);
      assert.ok(fromEnd.every((request) => !/_count\b/.test(request.query)), 'a window from the end asks for no count');
      // Each from the nearer end or the nearest row read before, by its cursor: none skips half the rows.
      assert.ok(fromEnd.every((request) => (request.variables?.offset as number) < total / 2), JSON.stringify(fromEnd.map((r) => r.variables?.offset)));
      assert.ok(fromEnd.some((request) => JSON.stringify((request.variables?.order_by as unknown[]).at(-1)) !== JSON.stringify(query.sort?.direction === 'desc' ? { id: 'desc' } : { id: 'asc' })), 'some window is read the other way round');
      // Scrolling on from a window: read by the cursor of its edge, skipping no rows.
      const scroll = sent.length;
      for (let offset = Math.ceil(total / 2) + 1; offset + 20 <= total; offset += 20) {
        const window = await source.window(offset, 20, query);
        assert.deepEqual(window.records.map((r) => r.id), ids.slice(offset, offset + 20), `${JSON.stringify(query)} scrolled to ${offset}`);
        assert.ok(window.records.every((r) => !('_cursor' in r) && !('version' in r)));
      }
      const scrolled = sent.slice(scroll + 1);
      assert.ok(scrolled.length > 0 && scrolled.every((request) => (request.variables?.after ?? request.variables?.before) !== undefined && request.variables?.offset === 0),
        JSON.stringify(scrolled.find((request) => request.variables?.offset !== 0)?.variables));
    }
    // A window in the first half still comes forward.
    const early = sent.length;
    await source.window(10, 50, {});
    assert.equal(JSON.stringify((sent[early].variables?.order_by as unknown[]).at(-1)), '{"id":"asc"}');
  }
}

onBothStores('list windows from the nearer end', ast, PEOPLE, check);
