// The person opens a context without the agent (Board start page, palette, XOS view):
// the app's lists in AST order with labels in the locale, shown through the agent's
// xos_query path on the real embedded backend.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryFile, keepHistory } from '../../src/store/drafts.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { MemoryListSource } from '../../src/core/listSource.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { openableContexts, openContext } from '../../src/core/openContext.ts';
import { detailBlock, listBlock } from '../../src/board/view.ts';
import { openFormLink } from '../../src/core/formLinks.ts';
import { BoardHistory } from '../../src/core/history.ts';
import { openRow, showQuery, showRecord } from '../../src/core/show.ts';
import type { CoreDeps } from '../../src/core/base.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { agentText } from '../../src/mcp/wording.ts';

const neverAsked: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

describe('opening a context without the agent', () => {
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState };

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 30 });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: neverAsked, locale: 'en' };
  });
  after(() => backend.close());

  test('the openable contexts are the lists, in AST order, labelled in the locale', () => {
    assert.deepEqual(openableContexts(demoApp(), 'en').map((c) => [c.name, c.label]), [
      ['person_list', 'People'], ['company_list', 'Companies'], ['deal_list', 'Deals'],
    ]);
    assert.deepEqual(openableContexts(demoApp(), 'de').map((c) => c.label), ['Personen', 'Firmen', 'Geschäfte']);
  });

  test('a list the agent narrowed says by what; Show all (the same context opened) is the whole list', async () => {
    const narrowed = await showQuery(deps, 'person_list', '{ person_list(where: { id: { _eq: "5" } }) { id firstname lastname email city age net_worth } }');
    assert.equal(narrowed.ok, true, narrowed.kind);
    const block = (locale: string) => listBlock({ ast: demoApp(), locale, list: deps.board.list(), listId: 1, listQuery: {} })!;
    assert.equal(block('en').narrowed, 'id = "5"');
    assert.equal(block('en').total, 1);
    assert.equal((await openContext(deps, 'person_list')).ok, true);
    assert.equal(block('en').narrowed, undefined);
    assert.ok(block('en').total > 1);
  });

  test('a list opens with every record, its fields and the count, as a window source', async () => {
    const outcome = await openContext(deps, 'company_list');
    assert.equal(outcome.ok, true, outcome.kind);
    const list = deps.board.list()!;
    assert.equal(list.context, 'company_list');
    const stored = (await deps.client.run('{ company_list_count }')).data!.company_list_count as number;
    assert.equal(list.source.total, stored);
    const fields = demoApp().contexts.company_list.list_fields;
    const first = list.source.first.records[0];
    for (const field of fields) assert.ok(field in first, `${field} missing from the shown record`);
  });

  test('a detail context, an unknown name and a prototype key are refused and the Board keeps what it shows', async () => {
    await openContext(deps, 'person_list');
    for (const name of ['person_detail', 'nope', '__proto__', 'constructor']) {
      const outcome = await openContext(deps, name);
      assert.equal(outcome.ok, false, name);
      assert.match(agentText(deps.client.ast(), outcome), name === 'person_detail' ? /shows one record: open it from a list/ : /has no context/);
    }
    assert.equal(deps.board.list()!.context, 'person_list');
  });
});

describe('Back, Forward and the breadcrumb', () => {
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState };
  let history: BoardHistory;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 30 });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: neverAsked, locale: 'en' };
    history = new BoardHistory(deps.board);
  });
  after(async () => {
    history.dispose();
    await backend.close();
  });

  const crumbs = () => history.view(demoApp(), 'en').crumbs.map((c) => (c.current ? `[${c.label}]` : c.label));

  test('list → record → related record, then Back and Forward; a record comes back fresh, a list with the person\'s sort and filter', async () => {
    assert.deepEqual(history.view(demoApp(), 'en'), { canBack: false, canForward: false, crumbs: [] });
    await openContext(deps, 'person_list');
    const people = deps.board.list()!;
    deps.board.setListQuery({ sort: { field: 'age', direction: 'desc' }, filter: 'a' });
    const first = people.source.first.records[0];
    assert.equal((await openRow(deps, String(first.id))).ok, true);
    assert.equal(deps.board.snapshot().context, 'person_detail');
    const { record: person, version } = deps.board.snapshot().detail!;
    const company = person.company as { id: string; name: string };
    // The ref on the form leads to the company's detail.
    assert.equal((await showRecord(deps, 'company_detail', String(company.id))).ok, true);
    // A record is named by its entity's display template (a person by first and last name), else its first required text field (a company by name).
    assert.deepEqual(crumbs(), ['People', `Person ${person.firstname} ${person.lastname}`, `[Company ${company.name}]`]);
    assert.equal(history.view(demoApp(), 'en').canForward, false);

    // Someone else renames the person meanwhile: Back shows the stored record, not the old copy.
    await deps.client.run('mutation($id: ID!, $v: Int!) { update_person(id: $id, version: $v, set: { city: "Backhausen" }) { id } }', { id: String(first.id), v: version });
    assert.equal((await history.back(deps)).ok, true);
    assert.equal(deps.board.snapshot().context, 'person_detail');
    assert.equal(deps.board.snapshot().detail!.record.city, 'Backhausen');
    assert.equal(history.view(demoApp(), 'en').canForward, true);

    assert.equal((await history.back(deps)).ok, true);
    // The agent's query again (records created or deleted meanwhile show), the person's sort and filter kept.
    assert.notEqual(deps.board.list(), people);
    assert.equal(deps.board.list()!.context, 'person_list');
    assert.equal(deps.board.list()!.source.total, people.source.total);
    assert.deepEqual(deps.board.listQuery(), { sort: { field: 'age', direction: 'desc' }, filter: 'a' });
    assert.deepEqual(crumbs()[0], '[People]');
    assert.equal(history.view(demoApp(), 'en').canBack, false);
    assert.equal((await history.back(deps)).ok, false);

    assert.equal((await history.forward(deps)).ok, true);
    assert.equal((await history.forward(deps)).ok, true);
    assert.equal(deps.board.snapshot().context, 'company_detail');
    assert.equal((await history.forward(deps)).ok, false);

    // Going somewhere new from the middle drops the steps ahead.
    await history.back(deps);
    await openContext(deps, 'deal_list');
    assert.equal(history.view(demoApp(), 'en').canForward, false);
    assert.deepEqual(crumbs().at(-1), '[Deals]');
  });

  test('showing the same record again (a save reads it back) is not a new step', async () => {
    await openContext(deps, 'company_list');
    const id = String(deps.board.list()!.source.first.records[0].id);
    await showRecord(deps, 'company_detail', id);
    const steps = history.view(demoApp(), 'en').crumbs.length;
    await showRecord(deps, 'company_detail', id);
    assert.equal(history.view(demoApp(), 'en').crumbs.length, steps);
    await history.back(deps);
    assert.equal(deps.board.snapshot().context, 'company_list');
  });
});

describe('the history after a restart', () => {
  let backend: Backend;
  let dir: string;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 30 });
    dir = mkdtempSync(join(tmpdir(), 'xos-history-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await backend.close();
  });

  const fresh = (): CoreDeps & { board: BoardState } => ({ client: embeddedClient(backend), board: new BoardState(), confirmer: neverAsked, locale: 'en' });

  test('kept on disk on every step, it brings back the current record, and Back the list with its query and the person\'s sort and filter', async () => {
    const earlier = fresh();
    const history = new BoardHistory(earlier.board);
    const file = new HistoryFile(join(dir, 'board-history.json'));
    const keeper = keepHistory(history, file, { delayMs: 0 });
    await openContext(earlier, 'person_list');
    earlier.board.setListQuery({ sort: { field: 'lastname', direction: 'asc' }, filter: 'e' });
    const people = earlier.board.list()!.source;
    const id = String(people.first.records[0].id);
    assert.equal((await openRow(earlier, id)).ok, true);
    // A rendered list of fixed rows cannot be opened again: left out of what is kept.
    earlier.board.showList({ context: 'company_list', source: new MemoryListSource(appModel(demoApp(), 'en').context('company_list')!, [{ id: '1', name: 'Fixed' }]) });
    await history.back(earlier);
    keeper.flush();
    const crumbsBefore = history.view(demoApp(), 'en').crumbs;
    keeper.dispose();
    history.dispose();

    // Restarted: a new Board state and history from the file.
    const later = fresh();
    const restored = new BoardHistory(later.board);
    const saved = new HistoryFile(file.path).read();
    assert.ok(saved, 'the history file is read back');
    restored.restore(JSON.parse(JSON.stringify(saved)), demoApp());
    assert.deepEqual(restored.view(demoApp(), 'en').crumbs, crumbsBefore.filter((c) => c.label !== 'Companies'));
    assert.equal(later.board.snapshot().kind, undefined, 'nothing is shown before the Board asks');
    assert.equal((await restored.showCurrent(later)).ok, true);
    assert.equal(later.board.snapshot().context, 'person_detail');
    assert.equal(String(later.board.snapshot().detail!.record.id), id);
    assert.equal((await restored.back(later)).ok, true);
    assert.equal(later.board.list()!.context, 'person_list');
    assert.equal(later.board.list()!.source.total, people.total);
    assert.deepEqual(later.board.listQuery(), { sort: { field: 'lastname', direction: 'asc' }, filter: 'e' });
    restored.dispose();
  });

  test('a sort or filter of the shown list is kept at once, not only with the next step', async () => {
    const deps = fresh();
    const history = new BoardHistory(deps.board);
    const file = new HistoryFile(join(dir, 'board-history-sort.json'));
    const keeper = keepHistory(history, file, { delayMs: 0 });
    const keptQuery = () => (file.read()?.steps[0] as { query?: unknown } | undefined)?.query;
    /** Lets the keeper's 0 ms timer run, up to `rounds` times, until `done`. */
    const settle = async (done: () => boolean, rounds = 50) => {
      for (let i = 0; i < rounds && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 0));
    };
    await openContext(deps, 'person_list');
    await settle(() => file.read() !== undefined);
    assert.equal(keptQuery(), undefined);
    // Sorting alone emits nothing to the keeper (the host tells the history): the file keeps the old step.
    deps.board.setListQuery({ sort: { field: 'age', direction: 'desc' } });
    await settle(() => false, 5);
    assert.equal(keptQuery(), undefined);
    history.listQueryChanged();
    await settle(() => keptQuery() !== undefined);
    assert.deepEqual(keptQuery(), { sort: { field: 'age', direction: 'desc' } });
    keeper.dispose();
    history.dispose();
  });

  test('a damaged history file is set aside, and steps of contexts the app no longer has are dropped', () => {
    const path = join(dir, 'damaged.json');
    writeFileSync(path, '{"format":1,"history":{"index":0,"steps":[{"kind":"list"}]}}');
    assert.equal(new HistoryFile(path).read(), undefined);
    assert.equal(existsSync(`${path}.unreadable`), true);

    const history = new BoardHistory(new BoardState());
    history.restore({ index: 1, steps: [
      { kind: 'list', context: 'person_list', origin: { selection: '{ id }' } },
      { kind: 'detail', context: 'gone_detail', id: '1', record: { id: '1' } },
    ] }, demoApp());
    assert.deepEqual(history.view(demoApp(), 'en'), { canBack: false, canForward: false, crumbs: [{ label: 'People', current: true }] });
    history.dispose();
  });
});

describe('links on the detail form', () => {
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState };

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 30 });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: neverAsked, locale: 'en' };
  });
  after(() => backend.close());

  const view = () => detailBlock({ ast: demoApp(), locale: 'en', snapshot: deps.board.snapshot(), form: deps.board.formValues() })!;

  test('a person\'s company is a link to the company; the company\'s employees are links to each person', async () => {
    const people = (await deps.client.run('{ person_list(where: { company_id: { _is_null: false } }, limit: 1) { id company { id name } } }')).data!.person_list as { id: string; company: { id: string; name: string } }[];
    const [person] = people;
    assert.equal((await showRecord(deps, 'person_detail', person.id)).ok, true);
    const company = view().fields.find((f) => f.field === 'company')!;
    assert.equal(company.opens, true);
    assert.match(company.display, new RegExp(person.company.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

    assert.equal((await openFormLink(deps, 'company')).ok, true);
    assert.equal(deps.board.snapshot().context, 'company_detail');
    assert.equal(String(deps.board.snapshot().detail!.record.id), String(person.company.id));

    const employees = view().fields.find((f) => f.field === 'employees')!;
    assert.equal(employees.opens, true);
    assert.ok(employees.items!.some((item) => item.key === String(person.id)), 'the person is among the employees');
    const other = employees.items!.find((item) => item.key !== String(person.id)) ?? employees.items![0];
    assert.equal((await openFormLink(deps, 'employees', other.key)).ok, true);
    assert.equal(deps.board.snapshot().context, 'person_detail');
    assert.equal(String(deps.board.snapshot().detail!.record.id), other.key);
    const opened = deps.board.snapshot().detail!.record;
    assert.equal(`${opened.firstname} ${opened.lastname}`, other.label, 'an employee is named by first and last name');
  });

  test('a link to something not on the shown record is refused and nothing changes', async () => {
    const shown = deps.board.snapshot().detail;
    for (const [field, item] of [['employees', '999999'], ['nope', undefined], ['firstname', undefined], ['company', '1']] as const) {
      const outcome = await openFormLink(deps, field, item);
      assert.equal(outcome.ok, false, `${field} ${item}`);
    }
    assert.deepEqual(deps.board.snapshot().detail, shown);
  });
});
