// The person's edits in the list grid, on SQLite and PostgreSQL: cells of the shown list changed
// in place gather in one review of the person's own, each checked like a form value; a value typed
// back to the stored one leaves; an invalid one holds Save back. Save asks one question naming
// every change and writes them in one transaction (one batch in the audit trail), undone as one.
// Declined, nothing is written and the changes wait as a review; a record someone else changed
// after the person's edit is a conflict, never overwritten.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { saveReview, undoBatch } from '../../src/core/batchSave.ts';
import type { CoreDeps } from '../../src/core/base.ts';
import type { Confirmer, SaveAnswer, SaveSummary } from '../../src/core/domain.ts';
import { editGridCell, gridEditable, saveGridEdits } from '../../src/core/gridEdits.ts';
import { openContext } from '../../src/core/openContext.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { onBothStores } from '../support/bothStores.ts';
import { openSavingBoard } from '../support/savingBoard.ts';
import { seedPeople } from '../support/seedPeople.ts';
import { until } from '../support/until.ts';
import { tempDir } from '../support/tmp.ts';
import { DraftFile } from '../../src/store/drafts.ts';
import { join } from 'node:path';

const ast = demoApp();
delete ast.data;

class ScriptedPerson implements Confirmer {
  readonly asked: SaveSummary[] = [];
  answers: SaveAnswer[] = [];
  async confirmSave(summary: SaveSummary): Promise<SaveAnswer> {
    this.asked.push(structuredClone(summary));
    return this.answers.shift() ?? 'timeout';
  }
  async confirmSend(): Promise<'cancel'> {
    return 'cancel';
  }
}

interface Person { version: number; city: string | null; age: number | null; net_worth: string | null }

async function stored(backend: Backend, id: number): Promise<Person> {
  const row = (await backend.api.storage.select({ table: 'person', columns: ['city', 'age', 'net_worth'], orderBy: [{ column: 'id', desc: false }] })).find((r) => Number(r.id) === id)!;
  return { version: Number(row.version), city: row.city as string | null, age: row.age === null ? null : Number(row.age), net_worth: row.net_worth === null ? null : Number(row.net_worth).toFixed(2) };
}

const signal = () => new AbortController().signal;

onBothStores('the person edits cells of the list grid', ast, 0, async (backend) => {
  await seedPeople(backend, 30);
  const person = new ScriptedPerson();
  const board = new BoardState();
  const client = embeddedClient(backend);
  const requests: string[] = [];
  const deps: CoreDeps = { client: { ...client, run: (query, ...rest) => (requests.push(query), client.run(query, ...rest)) }, board, confirmer: person, locale: 'en' };
  assert.deepEqual(gridEditable(ast, 'person_list'), ['firstname', 'lastname', 'email', 'city', 'age', 'net_worth'], 'every column the form edits, not the id');
  assert.equal((await openContext(deps, 'person_list')).ok, true);
  const before = new Map(await Promise.all([1, 2, 3, 4].map(async (id) => [id, await stored(backend, id)] as const)));

  // 1. Five cells on three records; one typed back to what is stored leaves; an invalid one holds Save back.
  assert.equal((await editGridCell(deps, '1', 'city', 'Kiel'))?.ok, true);
  assert.equal((await editGridCell(deps, '1', 'age', 41))?.ok, true);
  assert.equal((await editGridCell(deps, '2', 'city', 'Lübeck'))?.ok, true);
  assert.equal((await editGridCell(deps, '3', 'net_worth', '1234.5'))?.ok, true);
  assert.equal((await editGridCell(deps, '4', 'city', 'Rostock'))?.ok, true);
  assert.equal((await editGridCell(deps, '4', 'city', before.get(4)!.city))?.ok, true);
  assert.equal(board.snapshot().kind, 'list', 'editing keeps the list shown');
  assert.equal(board.snapshot().gridEdits, 4);
  assert.equal(board.gridEdits()?.row('4'), undefined, 'a row whose only change was typed back leaves');
  await editGridCell(deps, '2', 'age', 151);
  const invalid = board.gridEdits()!;
  assert.equal(invalid.tally().invalid, 1, 'an age over the AST\'s maximum is a problem, as on the form');
  assert.equal(await editGridCell(deps, '2', 'id', 99), undefined, 'the id is not a cell the grid edits');
  await editGridCell(deps, '2', 'age', 52);
  assert.equal(board.gridEdits()!.tally().invalid, 0);
  for (const id of [1, 2, 3, 4]) assert.deepEqual(await stored(backend, id), before.get(id), 'an edit writes nothing');

  // 2. Declined: nothing is written; the changes wait as the Board's review.
  person.answers = ['discard'];
  const declined = await saveGridEdits(deps, signal());
  assert.equal(declined.kind, 'declined');
  assert.equal(person.asked.length, 1);
  assert.equal(board.snapshot().kind, 'review');
  assert.equal(board.review()?.tally().cells, 5);
  assert.deepEqual(board.review()?.fields, ['city', 'age', 'net_worth'], 'the review shows only the columns the person changed');
  assert.ok(board.review()!.cells().every(({ cell }) => cell.by === 'person'), 'each cell as the person\'s own value');
  for (const id of [1, 2, 3]) assert.deepEqual(await stored(backend, id), before.get(id));

  // 3. Saved from the review: one question naming every change, one transaction, one batch.
  person.answers = ['save'];
  const sentBefore = requests.length;
  const saved = await saveReview(deps, board.review()!, signal(), 'board');
  assert.equal(saved.kind, 'batch_saved', JSON.stringify(saved));
  assert.deepEqual(requests.slice(sentBefore).filter((query) => query.includes('xos_audit')), [], 'the write names its batch: the trail is not asked');
  const question = person.asked[1];
  assert.equal(question.batch?.records, 3);
  assert.deepEqual(question.batch?.fields.map((f) => f.field).sort(), ['age', 'city', 'net_worth']);
  const after = new Map(await Promise.all([1, 2, 3].map(async (id) => [id, await stored(backend, id)] as const)));
  assert.deepEqual(after.get(1), { ...before.get(1)!, city: 'Kiel', age: 41, version: before.get(1)!.version + 1 });
  assert.deepEqual(after.get(2), { ...before.get(2)!, city: 'Lübeck', age: 52, version: before.get(2)!.version + 1 });
  assert.deepEqual(after.get(3), { ...before.get(3)!, net_worth: '1234.50', version: before.get(3)!.version + 1 });
  assert.deepEqual(await stored(backend, 4), before.get(4));
  assert.equal(board.snapshot().kind, 'list', 'after the save the list shows as stored now');
  assert.equal(board.gridEdits(), undefined);
  const [entry] = await backend.api.storage.auditEntries({ entity: 'person', recordId: '1', limit: 1, offset: 0 });
  assert.ok(entry.batch, 'the save is one batch');
  assert.equal(await backend.api.storage.auditCount({ batch: entry.batch }), 3);
  assert.equal(saved.kind === 'batch_saved' ? saved.batch : undefined, entry.batch);

  // 4. Undo as one: one question, one transaction, the old values back.
  person.answers = ['save'];
  const undone = await undoBatch(deps, entry.batch!, signal(), 'board');
  assert.equal(undone.kind, 'batch_saved', JSON.stringify(undone));
  assert.equal(person.asked.length, 3);
  for (const id of [1, 2, 3]) {
    const now = await stored(backend, id);
    assert.deepEqual({ ...now, version: 0 }, { ...before.get(id)!, version: 0 });
  }

  // 5. Someone else writes a record after the person edited it: Save meets a conflict, writes nothing, and the row waits.
  await openContext(deps, 'person_list');
  const target = await stored(backend, 5);
  await editGridCell(deps, '5', 'city', 'Wismar');
  await editGridCell(deps, '6', 'city', 'Schwerin');
  const six = await stored(backend, 6);
  assert.equal((await backend.api.storage.update('person', 5, target.version, { city: 'Extern' }, { path: 'api' })).status, 'ok');
  person.answers = ['save'];
  const conflicted = await saveGridEdits(deps, signal());
  assert.equal(conflicted.kind, 'batch_conflict', JSON.stringify(conflicted));
  assert.equal((await stored(backend, 5)).city, 'Extern', 'the other writer\'s value stays');
  assert.deepEqual(await stored(backend, 6), six, 'one transaction: the other row is not written either');
  assert.equal(board.review()?.tally().conflicts, 1);

  // 6. A new list drops the grid's edits; nothing of them is written.
  await openContext(deps, 'person_list');
  await editGridCell(deps, '7', 'city', 'Greifswald');
  board.discardGridEdits();
  assert.equal(board.snapshot().gridEdits, undefined);
  assert.equal(await saveGridEdits(deps, signal()).then((o) => o.kind), 'nothing_to_save');
});

// The same through the Board's page messages: the list block names the editable columns, each
// board/gridEdit comes back as the host's board/gridEdits (the value checked, its problem in the
// Board's words), Save asks the page once and writes once; a message for an older list is ignored.
test('the page edits cells through board/gridEdit and saves them with board/gridEditsAction', async () => {
  const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  const board = openSavingBoard(embeddedClient(backend));
  try {
    await board.controller.navigation.openContext('person_list');
    const list = board.sent('board/list').at(-1)!.params.list;
    assert.deepEqual(Object.keys(list.editors), ['firstname', 'lastname', 'email', 'city', 'age', 'net_worth']);
    assert.deepEqual([list.editors.age.type, list.editors.age.input], ['int', 'text'], 'a text input of the int kind: a number input (fieldTypes.ts)');
    assert.equal(list.editors.age.max, 150);
    const { listId } = list;
    const edits = () => board.sent('board/gridEdits').at(-1)?.params.gridEdits;

    board.endpoint.receive({ method: 'board/gridEdit', params: { listId, key: '1', field: 'city', value: 'Pagetown' } });
    await until('the first edit', () => edits()?.cells.length === 1);
    board.endpoint.receive({ method: 'board/gridEdit', params: { listId, key: '2', field: 'age', value: 200 } });
    await until('the invalid edit', () => edits()?.cells.length === 2);
    assert.deepEqual(edits().cells, [{ key: '1', field: 'city', value: 'Pagetown' }, { key: '2', field: 'age', value: 200, problem: 'At most 150.' }]);
    assert.equal(edits().canSave, false, 'an invalid value holds Save back');
    board.endpoint.receive({ method: 'board/gridEdit', params: { listId: listId + 1, key: '3', field: 'city', value: 'Elsewhere' } });
    board.endpoint.receive({ method: 'board/gridEdit', params: { listId, key: '2', field: 'age', value: 33 } });
    await until('the fixed edit', () => edits()?.canSave === true);
    assert.deepEqual(edits().cells.map((c: { key: string }) => c.key), ['1', '2'], 'the message for another list changed nothing');

    const mark = board.posted.length;
    board.endpoint.receive({ method: 'board/gridEditsAction', params: { listId, action: 'save' } });
    await until('the list as stored', () => board.sent('board/list', mark).some((m) => m.params.list?.listId > listId));
    const asked = board.sent('board/ask', mark);
    assert.equal(asked.length, 1, 'one question for both changes');
    assert.match(asked[0].params.message, /^Save changes to 2 records of Person\?/);
    assert.equal(edits(), null);
    const rows = await backend.api.storage.select({ table: 'person', columns: ['city', 'age'], orderBy: [{ column: 'id', desc: false }] });
    assert.equal(rows.find((r) => Number(r.id) === 1)!.city, 'Pagetown');
    assert.equal(Number(rows.find((r) => Number(r.id) === 2)!.age), 33);

    // Leaving a list with unsaved cell edits asks first, as a form does.
    const shown = board.sent('board/list').at(-1)!.params.list.listId;
    board.endpoint.receive({ method: 'board/gridEdit', params: { listId: shown, key: '3', field: 'city', value: 'Unsaved' } });
    await until('the unsaved edit', () => edits()?.cells.length === 1);
    assert.deepEqual(board.discardAsked, []);
    await board.controller.navigation.openContext('company_list');
    assert.deepEqual(board.discardAsked, ['Discard the unsaved changes to People?']);
    assert.equal(edits(), null, 'discarded with the list');
  } finally {
    board.controller.dispose();
    await backend.close();
  }
});

// A crash loses none of them: the kept draft holds the grid's edits with the versions read, and
// they come back with the next list of their context; saved then, they are written as typed.
test('the grid\'s unsaved edits are kept across a crash and come back with their list', async () => {
  const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  await using dir = await tempDir('grid-draft');
  try {
    const person = new ScriptedPerson();
    const before = new BoardState();
    const deps = (board: BoardState): CoreDeps => ({ client: embeddedClient(backend), board, confirmer: person, locale: 'en' });
    await openContext(deps(before), 'person_list');
    await editGridCell(deps(before), '8', 'city', 'Draftstadt');
    await editGridCell(deps(before), '9', 'age', 200);
    const file = new DraftFile(join(dir.path, 'board-draft.json'));
    file.write(before.draft());
    const kept = file.read();
    assert.equal(kept?.draft.grid?.rows.length, 2, 'a draft of grid edits alone is kept');

    // After the crash: a new Board, the draft restored; nothing shows until the list does.
    const after = new BoardState();
    after.restore(kept!.draft);
    assert.equal(after.gridEdits(), undefined);
    assert.equal(after.draft().grid?.rows.length, 2, 'still kept while waiting for its list');
    await openContext(deps(after), 'company_list');
    assert.equal(after.gridEdits(), undefined, 'another list does not take them');
    await openContext(deps(after), 'person_list');
    const edits = after.gridEdits()!;
    assert.deepEqual(edits.cells().map(({ id, field, cell }) => [id, field, cell.to, cell.problem !== undefined]), [['8', 'city', 'Draftstadt', false], ['9', 'age', 200, true]], 'each cell as typed, the invalid one still marked');
    await editGridCell(deps(after), '9', 'age', 44);
    person.answers = ['save'];
    assert.equal((await saveGridEdits(deps(after), signal())).kind, 'batch_saved');
    const rows = await backend.api.storage.select({ table: 'person', columns: ['city', 'age'], orderBy: [{ column: 'id', desc: false }] });
    assert.equal(rows.find((r) => Number(r.id) === 8)!.city, 'Draftstadt');
    assert.equal(Number(rows.find((r) => Number(r.id) === 9)!.age), 44);
    file.write(after.draft());
    assert.equal(file.read(), undefined, 'nothing left to keep after the save');
  } finally {
    await backend.close();
  }
});
