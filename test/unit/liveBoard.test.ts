// The live Board's pure parts: which writes touch what the Board shows, the others' presence as
// the page shows it, the "also editing" note of the Save question through the sanitiser, and the
// page's store taking re-read rows in place (scroll, active row, sort and filter kept) and presence.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeBatch, lastChangeOf, listEntities, presenceView, touches } from '../../src/board/liveBoard.ts';
import { QUESTION_BUDGET, othersEditingNote, saveQuestion, units } from '../../src/board/confirmText.ts';
import * as protocol from '../../src/board/protocol.ts';
import { webviewTexts } from '../../src/board/view.ts';
import type { GridRow, ListBlock } from '../../src/board/viewTypes.ts';
import type { RecordChange } from '../../src/graphql/types.ts';
import { BoardStore, CHUNK_ROWS } from '../../webview/state.ts';
import { FakeBoardHost, settle } from '../support/fakeBoardHost.ts';

const change = (entity: string, id: string, action: RecordChange['action'] = 'update', version: number | null = 2): RecordChange => ({ entity, id, action, version });

describe('which writes touch what the Board shows', () => {
  test('a list is touched by its own entity and the entities its ref columns name, nothing else', () => {
    const entities = listEntities({ entity: 'person', fields: [{ field: 'lastname' }, { field: 'company', refEntity: 'company' }] as never });
    assert.deepEqual([...entities].sort(), ['company', 'person']);
    assert.equal(touches([change('company', '3')], entities), true);
    assert.equal(touches([change('invoice', '3')], entities), false);
    assert.equal(touches([], entities), false);
  });

  test('the last change of the shown record wins; another record\'s is none', () => {
    const changes = [change('person', '1', 'update', 2), change('person', '2'), change('person', '1', 'delete', null)];
    assert.equal(lastChangeOf(changes, 'person', '1')?.action, 'delete');
    assert.equal(lastChangeOf(changes, 'company', '1'), undefined);
  });

  test('a batch gathers changes, resets and outside writes until taken, then is empty', () => {
    const batch = new ChangeBatch();
    assert.equal(batch.empty, true);
    batch.add({ kind: 'changes', changes: [change('person', '1')] });
    batch.add({ kind: 'changes', changes: [change('person', '2')] });
    assert.deepEqual(batch.take(), { changes: [change('person', '1'), change('person', '2')], everything: false, outside: new Set() });
    batch.add({ kind: 'reset', reason: 'away' });
    assert.equal(batch.take().everything, true);
    assert.equal(batch.empty, true);
    // Another program wrote: the entities gather, nothing else is asked of the Board.
    batch.add({ kind: 'outside', entities: ['person'] });
    assert.equal(batch.empty, false);
    batch.add({ kind: 'outside', entities: ['company', 'person'] });
    assert.deepEqual(batch.take(), { changes: [], everything: false, outside: new Set(['person', 'company']) });
    assert.equal(batch.empty, true);
  });
});

describe('the others\' presence as the page shows it', () => {
  const presence = [
    { person: 'anna', entity: 'person', id: '1', editing: true },
    { person: 'ben', entity: 'person', id: '1', editing: false },
    { person: 'cleo', entity: 'person', id: '7', editing: true },
    { person: 'dan', entity: 'company', id: '1', editing: true },
  ];

  test('everyone on the shown record, editing or not; only editors mark list rows, of the list\'s entity', () => {
    const view = presenceView(presence, { entity: 'person', id: '1' }, 'person');
    assert.deepEqual(view.detail, [{ person: 'anna', editing: true }, { person: 'ben', editing: false }]);
    assert.deepEqual(view.rows, [{ key: '1', people: ['anna'] }, { key: '7', people: ['cleo'] }]);
    assert.deepEqual(presenceView(presence, undefined, undefined), { detail: [], rows: [] });
  });
});

describe('the Save question names who else is editing', () => {
  const words = { one: (name: string) => `${name} is editing this record too.`, many: (names: string) => `${names} are editing this record too.` };
  const parts = (note?: string) => ({ compose: (changes: string) => `Save changes to Person 1? ${changes}`, more: (n: number) => `+${n} more`, ...(note ? { note } : {}) });

  test('one name, many names (at most three shown), none', () => {
    assert.equal(othersEditingNote(['anna'], words), 'anna is editing this record too.');
    assert.equal(othersEditingNote(['anna', 'ben', 'anna'], words), 'anna, ben are editing this record too.');
    assert.equal(othersEditingNote(['a', 'b', 'c', 'd', 'e'], words), 'a, b, c +2 are editing this record too.');
    assert.equal(othersEditingNote([], words), undefined);
  });

  test('a name is data: links broken up, invisible characters shown, long names shortened', () => {
    assert.doesNotMatch(othersEditingNote(['[click](command:quit)'], words)!, /\]\(command:/);
    assert.equal(othersEditingNote(['an\u200bna'], words), 'an⟨U+200B⟩na is editing this record too.');
    assert.ok(units(othersEditingNote(['x'.repeat(500)], words)!) < 100);
  });

  test('the note follows the changes and fits the budget with them', () => {
    const changes = [{ label: 'Last name', from: 'Müller', to: 'Schmidt' }];
    const note = othersEditingNote(['anna'], words);
    assert.equal(saveQuestion(changes, parts(note)), 'Save changes to Person 1? Last name: Müller → Schmidt anna is editing this record too.');
    const many = Array.from({ length: 60 }, (_, i) => ({ label: `Field ${i}`, from: 'a'.repeat(30), to: 'b'.repeat(30) }));
    const long = saveQuestion(many, parts(note));
    assert.ok(units(long) <= QUESTION_BUDGET);
    assert.ok(long.endsWith('anna is editing this record too.'), long.slice(-80));
  });
});

describe('the page\'s store takes re-read rows in place', () => {
  const rows = (offset: number, count: number, name = 'Person'): GridRow[] => Array.from({ length: count }, (_, i) => ({ key: String(offset + i + 1), values: [offset + i + 1, `${name} ${offset + i + 1}`] }));
  const list = (listId: number): ListBlock => ({
    listId, context: 'person_list', label: 'People', columns: [], total: 300, rows: rows(0, 200), navigable: true, query: {}, canCreate: false,
  });

  function setup() {
    const host = new FakeBoardHost();
    const store = new BoardStore(host, { lang: 'en', setLang: () => {} });
    host.send(protocol.locale, { locale: 'en', texts: webviewTexts('en'), contexts: [] });
    const seen: string[] = [];
    store.subscribe(['list', 'rows', 'presence'], () => {});
    for (const topic of ['list', 'rows', 'presence'] as const) store.subscribe([topic], () => seen.push(topic));
    return { host, store, seen };
  }

  test('the windows read again replace the cached rows and the total; the list itself is not shown anew', async () => {
    const { host, store, seen } = setup();
    host.send(protocol.list, { list: list(4) });
    seen.length = 0;
    host.send(protocol.listRows, { listId: 4, query: {}, total: 299, windows: [{ offset: 100, rows: rows(100, 100, 'Changed') }] });
    assert.deepEqual(seen, ['rows'], 'only the rows change: the grid keeps its scroll and active row');
    assert.equal(store.total, 299);
    assert.equal(store.row(100)?.values[1], 'Changed 101');
    assert.equal(store.row(0), undefined, 'a chunk not read again is asked for again');
    assert.equal(store.rowSwaps, 1);
    assert.equal(store.indexOfKey('150'), 149, 'the grid finds its active row\'s record again');
    assert.equal(store.indexOfKey('5'), undefined);
    store.ensureRows(0, CHUNK_ROWS - 1);
    await settle();
    assert.equal(host.open(protocol.rows).length, 1);
  });

  test('rows for another list or another sort or filter are dropped', () => {
    const { host, store, seen } = setup();
    host.send(protocol.list, { list: list(4) });
    seen.length = 0;
    host.send(protocol.listRows, { listId: 3, query: {}, total: 1, windows: [{ offset: 0, rows: rows(0, 1, 'Old') }] });
    host.send(protocol.listRows, { listId: 4, query: { filter: 'x' }, total: 1, windows: [{ offset: 0, rows: rows(0, 1, 'Other') }] });
    assert.deepEqual(seen, []);
    assert.equal(store.row(0)?.values[1], 'Person 1');
  });

  test('presence: who is on the record, and the rows others edit', () => {
    const { host, store, seen } = setup();
    host.send(protocol.presence, { detail: [{ person: 'anna', editing: true }], rows: [{ key: '7', people: ['anna', 'ben'] }] });
    assert.deepEqual(seen, ['presence']);
    assert.deepEqual(store.presence, [{ person: 'anna', editing: true }]);
    assert.deepEqual(store.rowEditing('7'), ['anna', 'ben']);
    assert.deepEqual(store.rowEditing('8'), []);
  });
});
