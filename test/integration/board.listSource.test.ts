// Lists served in windows from the real embedded backend: the agent's query is kept,
// the person's sort and filter run in the backend over the whole result (never over
// the loaded rows), and the memory source for complete results agrees with it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { BoardState } from '../../src/board/state.ts';
import { writeCsv } from '../../src/core/csv.ts';
import type { BoardRecord, Confirmer } from '../../src/core/domain.ts';
import { MemoryListSource } from '../../src/core/listSource.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import { openRef, openRow, showQuery } from '../../src/core/show.ts';
import type { CoreDeps } from '../../src/core/base.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { agentText } from '../../src/mcp/wording.ts';
import type { AnyOutcome } from '../../src/core/outcomes.ts';

/** An outcome with the words the agent reads for it (src/mcp/wording.ts). */
const said = (outcome: AnyOutcome) => ({ ok: outcome.ok, text: agentText(demoApp(), outcome) });

const PEOPLE = 2000;
const FIELDS = 'id firstname lastname email city age net_worth';
const neverAsked: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

describe('list windows through the backend', () => {
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState };
  let all: BoardRecord[];
  const context = () => appModel(demoApp(), 'en').context('person_list')!;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: PEOPLE });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: neverAsked, locale: 'en' };
    const result = await deps.client.run(`{ person_list(limit: ${PEOPLE}) { ${FIELDS} } }`);
    all = result.data!.person_list as BoardRecord[];
  });
  after(() => backend.close());

  test('a query without limit shows the count and its first window; later windows come by offset', async () => {
    const outcome = await showQuery(deps, 'person_list', `{ person_list { ${FIELDS} } }`);
    assert.deepEqual(said(outcome), { ok: true, text: `All data was successfully displayed in the UI. (${PEOPLE} records of person_list.)` });
    const source = deps.board.list()!.source;
    assert.equal(source.total, PEOPLE);
    assert.equal(source.first.records.length, 200);
    assert.deepEqual(source.first.records[0], all[0]);
    const last = await source.window(PEOPLE - 50, 100, {});
    assert.deepEqual(last.records.map((r) => r.id), all.slice(PEOPLE - 50).map((r) => r.id));
    assert.equal(last.total, PEOPLE);
  });

  test('the person\'s sort runs in the backend over every row, not over the loaded window', async () => {
    await showQuery(deps, 'person_list', `{ person_list { ${FIELDS} } }`);
    const source = deps.board.list()!.source;
    const oldest = Math.max(...all.map((r) => r.age as number));
    const top = await source.window(0, 20, { sort: { field: 'age', direction: 'desc' } });
    assert.equal(top.records[0].age, oldest);
    const ages = top.records.map((r) => r.age as number);
    assert.deepEqual(ages, [...ages].sort((a, b) => b - a));
    const bottom = await source.window(PEOPLE - 5, 5, { sort: { field: 'age', direction: 'desc' } });
    assert.equal(bottom.records.at(-1)!.age, Math.min(...all.map((r) => r.age as number)));
  });

  test('a sort does not count the rows again; a new filter does, once', async () => {
    const counted: string[] = [];
    const client = deps.client;
    const counting = { ...client, run: (query: string, variables?: Record<string, unknown>) => {
      if (/_count\b/.test(query)) counted.push(JSON.stringify(variables?.order_by));
      return client.run(query, variables);
    } };
    await showQuery({ ...deps, client: counting }, 'person_list', `{ person_list { ${FIELDS} } }`);
    const source = deps.board.list()!.source;
    assert.equal(counted.length, 1, 'the first window counts');
    const byAge = await source.window(PEOPLE - 10, 10, { sort: { field: 'age', direction: 'desc' } });
    const byCity = await source.window(0, 10, { sort: { field: 'city', direction: 'asc' } });
    assert.deepEqual([byAge.total, byCity.total], [PEOPLE, PEOPLE]);
    assert.equal(counted.length, 1, 'sorting asked for no count');
    const filtered = await source.window(0, 10, { filter: 'berg', sort: { field: 'city', direction: 'asc' } });
    await source.window(0, 10, { filter: 'berg', sort: { field: 'age', direction: 'asc' } });
    assert.equal(counted.length, 2, 'a new filter is counted once, whatever the sort');
    assert.ok(filtered.total < PEOPLE);
  });

  test('the quick filter runs in the backend, matches the memory source on the same rows, and keeps the agent\'s where', async () => {
    await showQuery(deps, 'person_list', `{ person_list { ${FIELDS} } }`);
    const source = deps.board.list()!.source;
    const memory = new MemoryListSource(context(), all);
    for (const filter of ['ber', 'MÜ', '41', 'no such person']) {
      const fromBackend = await source.window(0, PEOPLE, { filter });
      const fromMemory = await memory.window(0, PEOPLE, { filter });
      assert.equal(fromBackend.total, fromMemory.total, `filter ${filter}`);
      assert.deepEqual(fromBackend.records.map((r) => r.id), fromMemory.records.map((r) => r.id), `filter ${filter}`);
    }
    assert.equal((await source.window(0, 10, { filter: 'no such person' })).total, 0);

    const city = all[0].city as string;
    await showQuery(deps, 'person_list', `{ person_list(where: { city: { _eq: ${JSON.stringify(city)} } }) { ${FIELDS} } }`);
    const inCity = deps.board.list()!.source;
    assert.equal(inCity.total, all.filter((r) => r.city === city).length);
    const filtered = await inCity.window(0, PEOPLE, { filter: String(all[0].lastname) });
    assert.ok(filtered.records.length > 0 && filtered.records.every((r) => r.city === city));
  });

  test('a query with its own limit is the whole result and is kept as it is', async () => {
    const outcome = await showQuery(deps, 'person_list', `{ person_list(limit: 7, order_by: [{ age: asc }]) { ${FIELDS} } }`);
    assert.equal(agentText(deps.client.ast(), outcome), 'All data was successfully displayed in the UI. (7 records of person_list.)');
    const source = deps.board.list()!.source;
    assert.ok(source instanceof MemoryListSource);
    assert.equal(source.total, 7);
  });

  test('a row opens its detail by key; the CSV holds every row of the sort and filter', async () => {
    await showQuery(deps, 'person_list', `{ person_list { ${FIELDS} } }`);
    const source = deps.board.list()!.source;
    const opened = await openRow(deps, '1234');
    assert.equal(opened.ok, true, opened.kind);
    assert.equal(deps.board.snapshot().context, 'person_detail');
    assert.equal(deps.board.snapshot().detail!.record.id, '1234');

    let csv = '';
    const written = await writeCsv(source, context().fields, { filter: 'ber', sort: { field: 'lastname', direction: 'asc' } }, async (chunk) => { csv += chunk; });
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(lines[0], 'id,First name,Last name,Email,City,Age,Net worth');
    assert.equal(written, (await source.window(0, 1, { filter: 'ber' })).total);
    assert.equal(lines.length, written + 1);
  });

  test('a ref cell opens the related record through the context\'s navigate entry', async () => {
    assert.equal((await showQuery(deps, 'deal_list', exampleQuery(demoApp(), 'deal_list'))).ok, true);
    const deal = deps.board.list()!.source.first.records[0] as { id: string; company: { id: string }; contact: { id: string } };
    assert.deepEqual(appModel(demoApp(), 'en').context('deal_list')!.fields.find((f) => f.field === 'company')!.refTarget, { context: 'company_detail', idPath: 'company.id' });
    assert.deepEqual(said(await openRef(deps, deal.id, 'title')), { ok: false, text: 'title of deal_list does not open a record.' });
    assert.equal((await openRef(deps, deal.id, 'company')).ok, true);
    assert.equal(deps.board.snapshot().context, 'company_detail');
    assert.equal(deps.board.snapshot().detail!.record.id, deal.company.id);
  });
});

describe('the quick filter on a ref column', () => {
  // Persons named by first and last name (the display template): a deal's contact is found by either.
  const ast = demoApp();
  ast.entities.person.display = '{firstname} {lastname}';
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState };

  before(async () => {
    backend = await startBackend({ ast, dsn: 'sqlite::memory:', seed: 300 });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: neverAsked, locale: 'en' };
  });
  after(() => backend.close());

  test('matches any of the related record\'s name fields, in the backend as in memory', async () => {
    const shown = await showQuery(deps, 'deal_list', exampleQuery(ast, 'deal_list'));
    assert.equal(shown.ok, true, agentText(ast, shown));
    const source = deps.board.list()!.source;
    const all = (await source.window(0, 10_000, {})).records as Array<{ id: string; title: string; contact: { firstname: string; lastname: string } | null }>;
    const lastname = all.find((deal) => deal.contact && !deal.title.toLowerCase().includes(deal.contact.lastname.toLowerCase()))!.contact!.lastname;
    const memory = new MemoryListSource(appModel(ast, 'en').context('deal_list')!, all);
    const fromBackend = await source.window(0, 10_000, { filter: lastname });
    const fromMemory = await memory.window(0, 10_000, { filter: lastname });
    // What the quick filter reads of a deal: its text columns and its company's and contact's names.
    const named = (deal: (typeof all)[number]) => JSON.stringify(deal).toLowerCase();
    assert.ok(fromBackend.records.length > 0, `a deal whose contact is ${lastname} is found by the last name`);
    assert.deepEqual(fromBackend.records.map((r) => r.id), all.filter((deal) => named(deal).includes(lastname.toLowerCase())).map((deal) => deal.id));
    assert.deepEqual(fromMemory.records.map((r) => r.id), fromBackend.records.map((r) => r.id));
  });
});
