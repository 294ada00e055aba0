// Jumps deep into a long list (the scrollbar dragged): the second one that has to step over many
// rows asks for the list's key map, and the jumps after it read by key from the nearest mapped
// row, skipping fewer rows than the map's step (125 here), with exactly the rows the list has there. A
// server without cursors (an older xos-server) still serves every window, by offset.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { appModel } from '../../src/ast/appModel.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { ListQuery } from '../../src/core/domain.ts';
import { QueryListSource } from '../../src/core/listSource.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { contextSelection } from '../../src/graphql/requests.ts';
import type { XosClient } from '../../src/graphql/types.ts';
import { seedPeople } from '../support/seedPeople.ts';
import { until } from '../support/until.ts';
import { tempDir } from '../support/tmp.ts';

const PEOPLE = 60_000;
const ast = demoApp();
delete ast.data;
const context = appModel(ast, 'en').context('person_list')!;

interface Sent { query: string; variables?: Record<string, unknown> }

/** The rows a window read of 50 passes over on its way: skipped by offset, or read and dropped. */
const passed = (sent: Sent) => (sent.variables?.offset as number) + (sent.variables?.limit as number) - 50;

function counting(client: XosClient, refuseCursors = false) {
  const sent: Sent[] = [];
  const run: XosClient['run'] = (query, variables, audit, signal) => {
    sent.push({ query, variables });
    if (refuseCursors && /_cursor|after:|_cursors/.test(query)) {
      return Promise.resolve({ errors: [{ message: 'Cannot query field "_cursor" on type "person".' }] });
    }
    return client.run(query, variables, audit, signal);
  };
  return { sent, client: { ...client, run } };
}

test('deep jumps read by key from the list\'s key map (asked at the second); a server without cursors is read by offset', async () => {
  await using dir = await tempDir('xos-jumps');
  const backend = await startBackend({ ast, dsn: `sqlite:${join(dir.path, 'xos.db')}` });
  try {
    await seedPeople(backend, PEOPLE);
    const selection = contextSelection(ast, 'person_list');
    /** The ids the list has at [offset, offset + 50) in the source's order, read by offset. */
    const expected = async (query: ListQuery, offset: number) => {
      const order = query.sort ? [{ [query.sort.field]: query.sort.direction }, { id: query.sort.direction }] : [{ id: 'asc' }];
      const result = await backend.api.run({ query: `query ($order: [person_order_by!]) { person_list(order_by: $order, offset: ${offset}, limit: 50) { id } }`, variables: { order } });
      return (result.data as { person_list: Array<{ id: string }> }).person_list.map((p) => p.id);
    };

    for (const query of [{}, { sort: { field: 'city', direction: 'desc' } }] as ListQuery[]) {
      const { client, sent } = counting(embeddedClient(backend));
      const source = await QueryListSource.open({ client, context, selection });
      const label = JSON.stringify(query);
      await source.window(0, 50, query);
      // The first deep jump steps over rows by offset; the second one too, and asks for the key map meanwhile.
      const first = await source.window(31_234, 50, query);
      assert.deepEqual(first.records.map((r) => r.id), await expected(query, 31_234), label);
      assert.ok(sent.every((s) => !/_cursors\(/.test(s.query)), `${label}: one deep jump asks for no key map`);
      const second = await source.window(12_000, 50, query);
      assert.deepEqual(second.records.map((r) => r.id), await expected(query, 12_000), label);
      await until(`${label}: the key map is asked for`, () => sent.some((s) => /_cursors\(/.test(s.query)));
      const mapRequest = sent.find((s) => /_cursors\(/.test(s.query))!;
      assert.equal(mapRequest.variables?.every, 125);
      // Jump around: each read seeks to a mapped row and skips fewer than a step.
      // Once the map is in, a jump far from every row read so far seeks to a mapped row.
      let probe = 36_000;
      await until(`${label}: a jump reads by key from the map`, async () => {
        const before = sent.length;
        await source.window((probe += 1_500), 50, query);
        return sent.slice(before).some((s) => (s.variables?.after ?? s.variables?.before) !== undefined && passed(s) < 125);
      });
      for (const offset of [44_444, 7_777, 52_001, 20_500]) {
        const before = sent.length;
        const window = await source.window(offset, 50, query);
        assert.deepEqual(window.records.map((r) => r.id), await expected(query, offset), `${label} at ${offset}`);
        const reads = sent.slice(before).filter((s) => /XosListWindow/.test(s.query));
        assert.equal(reads.length, 1);
        assert.ok((reads[0].variables?.after ?? reads[0].variables?.before) !== undefined, `${label} at ${offset}: by key`);
        assert.ok(passed(reads[0]) < 125, `${label} at ${offset}: passes ${passed(reads[0])} rows`);
      }
    }

    // A server without cursors: the window query is asked once more without them, and from then on by offset.
    const { client, sent } = counting(embeddedClient(backend), true);
    const source = await QueryListSource.open({ client, context, selection });
    assert.equal(source.first.records.length, 200);
    for (const offset of [40_000, 40_050, 100]) {
      const window = await source.window(offset, 50, {});
      assert.deepEqual(window.records.map((r) => r.id), await expected({}, offset));
    }
    assert.equal(sent.filter((s) => /_cursor/.test(s.query)).length, 1, 'cursors are asked for once');
    assert.ok(sent.every((s) => !/_cursors\(/.test(s.query)), 'no key map without cursors');
  } finally {
    await backend.close();
  }
});
