// Undo of a save, through the same path as the Board's Undo and "XOS: Undo Last Save": the
// save's old values go into the form against the version it produced, the person confirms,
// and the compensating write is audited. A record changed since is found before the person is
// asked (so they are asked once) and never overwritten: the same field becomes a conflict side by
// side, another field's change is kept.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { BoardState } from '../../src/board/state.ts';
import { recordHistoryView } from '../../src/board/recordHistory.ts';
import { auditTrail, lastSave, referencedNames, undoSave } from '../../src/core/undo.ts';
import { saveForm } from '../../src/core/save.ts';
import { undoBatch } from '../../src/core/batchSave.ts';
import { showRecord } from '../../src/core/show.ts';
import type { CoreDeps, SavedRecord } from '../../src/core/base.ts';
import type { Confirmer, SaveAnswer, SaveSummary, SendAnswer } from '../../src/core/domain.ts';
import type { BoardOutcome } from '../../src/core/outcomes.ts';
import { agentText } from '../../src/mcp/wording.ts';

/** An outcome with the words the agent reads for it (src/mcp/wording.ts). */
const said = (outcome: BoardOutcome) => ({ ok: outcome.ok, text: agentText(demoApp(), outcome) });

class Person implements Confirmer {
  answer: SaveAnswer = 'save';
  asked: SaveSummary[] = [];
  async confirmSave(summary: SaveSummary): Promise<SaveAnswer> {
    this.asked.push(structuredClone(summary));
    return this.answer;
  }
  async confirmSend(): Promise<SendAnswer> {
    return 'cancel';
  }
}

describe('undo a save', () => {
  let backend: Backend;
  let board: BoardState;
  let person: Person;
  let deps: CoreDeps;
  const saved: SavedRecord[] = [];
  const signal = new AbortController().signal;

  const stored = async (id: string) => {
    const result = await backend.api.run({ query: 'query($id: ID!) { person_detail(id: $id) { lastname city version } }', variables: { id } });
    return JSON.parse(JSON.stringify((result.data as Record<string, unknown>).person_detail)) as { lastname: string; city: string; version: number };
  };
  const externalWrite = async (id: string, set: Record<string, unknown>) => {
    const { version } = await stored(id);
    const result = await backend.api.run({ query: 'mutation($id: ID!, $v: Int!, $set: person_set_input!) { update_person(id: $id, version: $v, set: $set) { version } }', variables: { id, v: version, set } });
    assert.equal(result.errors, undefined);
  };
  /** The person opens the record, types a last name and saves (confirmed). */
  const saveLastname = async (id: string, lastname: string) => {
    assert.equal((await showRecord(deps, 'person_detail', id)).ok, true);
    board.edit('lastname', lastname);
    const outcome = said(await saveForm(deps, signal, 'board'));
    assert.equal(outcome.ok, true, outcome.text);
  };

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  });
  after(() => backend?.close());
  beforeEach(() => {
    board = new BoardState();
    person = new Person();
    deps = { client: embeddedClient(backend), board, confirmer: person, locale: 'en', onSaved: (s) => saved.push(s) };
  });

  test('the newest save comes back after the person confirms, and the undo is audited', async () => {
    await saveLastname('1', 'Schmidt');
    assert.deepEqual(saved.at(-1), { entity: 'person', id: '1', version: 2 });
    const entry = await lastSave(deps);
    assert.ok(entry);
    assert.deepEqual([entry.entity, entry.recordId, entry.versionTo, entry.changes], ['person', '1', 2, { lastname: { from: 'Mustermann', to: 'Schmidt' } }]);
    person.asked = [];

    const outcome = said(await undoSave(deps, entry, signal));
    assert.equal(outcome.ok, true, outcome.text);
    assert.deepEqual(person.asked.map((s) => s.changes.map((c) => [c.field, c.from, c.to])), [[['lastname', 'Schmidt', 'Mustermann']]]);
    assert.deepEqual(await stored('1'), { lastname: 'Mustermann', city: 'Berlin', version: 3 });
    const [undone] = await auditTrail(deps, { entity: 'person', id: '1' });
    assert.deepEqual([undone.path, undone.approval, undone.versionFrom, undone.versionTo, undone.changes],
      ['board', `Undo of audit entry ${entry.id} confirmed by the person (lastname)`, 2, 3, { lastname: { from: 'Schmidt', to: 'Mustermann' } }]);

    // The Board's History shows both, newest first, with Undo on each save.
    const view = recordHistoryView(backend.api.ast, 'de', 'person_detail', 'person_detail:1', await auditTrail(deps, { entity: 'person', id: '1' }));
    assert.deepEqual(view.entries.map((e) => [e.who, e.what, e.changes.map((c) => `${c.label}: ${c.from} → ${c.to}`), e.canUndo]), [
      ['Sie im Board', 'Geändert', ['Nachname: Schmidt → Mustermann'], true],
      ['Sie im Board', 'Geändert', ['Nachname: Mustermann → Schmidt'], true],
    ]);
  });

  test('the History names referenced records; undo of a reference change restores the old one', async () => {
    const read = await backend.api.run({ query: '{ person_detail(id: "6") { company { id name } } company_list(where: { id: { _in: ["1", "2"] } }, order_by: { id: asc }) { id name } }' });
    const data = read.data as { person_detail: { company: { id: string; name: string } }; company_list: Array<{ id: string; name: string }> };
    const was = data.person_detail.company;
    const other = data.company_list.find((c) => c.id !== was.id)!;
    assert.equal((await showRecord(deps, 'person_detail', '6')).ok, true);
    board.edit('company', { id: other.id });
    assert.equal(said(await saveForm(deps, signal, 'board')).ok, true);
    const entries = await auditTrail(deps, { entity: 'person', id: '6' });
    const view = recordHistoryView(backend.api.ast, 'en', 'person_detail', 'person_detail:6', entries, await referencedNames(deps, entries));
    assert.deepEqual(view.entries[0].changes, [{ label: 'Company', from: `${was.name} (#${was.id})`, to: `${other.name} (#${other.id})` }]);
    const undone = said(await undoSave(deps, entries[0], signal));
    assert.equal(undone.ok, true, undone.text);
    const stored = await backend.api.run({ query: '{ person_detail(id: "6") { company { id } } }' });
    assert.equal((stored.data as { person_detail: { company: { id: string } } }).person_detail.company.id, was.id);
  });

  test('Discard writes nothing', async () => {
    await saveLastname('2', 'Weber-Neu');
    const before = await stored('2');
    person.answer = 'discard';
    const outcome = said(await undoSave(deps, (await lastSave(deps))!, signal));
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /the person chose Discard/);
    assert.deepEqual(await stored('2'), before);
  });

  test('the same field changed since: a conflict side by side before any question, nothing overwritten, then asked once', async () => {
    await saveLastname('3', 'Erste');
    const entry = (await lastSave(deps))!;
    await externalWrite('3', { lastname: 'Fremd' });
    person.asked = [];
    const outcome = said(await undoSave(deps, entry, signal));
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /changed by someone else/);
    assert.equal(person.asked.length, 0, 'the change since is found before the person is asked');
    assert.equal((await stored('3')).lastname, 'Fremd', 'the newer value is not overwritten');
    assert.deepEqual(Object.keys(board.snapshot().conflicts ?? {}), ['lastname']);
    assert.equal(board.snapshot().conflicts!.lastname.theirs, 'Fremd');
    // The person keeps the undo's value on purpose, and saves: the one question.
    board.settle('lastname', 'mine');
    const again = said(await saveForm(deps, signal, 'board'));
    assert.equal(again.ok, true, again.text);
    assert.equal(person.asked.length, 1);
    assert.equal((await stored('3')).lastname, (entry.changes.lastname.from as string));
  });

  test('another field changed since: that change is kept, the undo applies on top with one question', async () => {
    await saveLastname('4', 'Zweite');
    const entry = (await lastSave(deps))!;
    await externalWrite('4', { city: 'Rostock' });
    person.asked = [];
    const undone = said(await undoSave(deps, entry, signal));
    assert.equal(undone.ok, true, undone.text);
    assert.deepEqual(person.asked.map((s) => s.changes.map((c) => [c.field, c.from, c.to])), [[['lastname', 'Zweite', entry.changes.lastname.from]]], 'asked once, for the undo only');
    const now = await stored('4');
    assert.deepEqual([now.lastname, now.city], [entry.changes.lastname.from, 'Rostock']);
  });

  test('unsaved work on the Board is never dropped by an undo; a create cannot be undone as a save', async () => {
    await saveLastname('5', 'Dritte');
    const entry = (await lastSave(deps))!;
    board.edit('city', 'Halle');
    const refused = said(await undoSave(deps, entry, signal));
    assert.equal(refused.ok, false);
    assert.match(refused.text, /unsaved changes/);
    assert.equal(board.formValues().city, 'Halle');
    const created = await backend.api.run({ query: 'mutation { insert_person(object: { firstname: "A", lastname: "B" }) { id } }' });
    const id = (created.data as { insert_person: { id: string } }).insert_person.id;
    const [create] = await auditTrail(deps, { entity: 'person', id });
    assert.match(said(await undoSave(deps, create, signal)).text, /Only a save can be undone; entry \d+ is a create/);
  });

  test('undo of a batch whose every record changed since asks nothing until the person decided; then one question', async () => {
    const [six, seven] = [await stored('6'), await stored('7')];
    const batchWrite = await backend.api.run({
      query: 'mutation($u: [person_many_update_input!]!) { update_person_many(updates: $u) { id version } }',
      variables: { u: [{ id: '6', version: six.version, set: { city: 'Batchstadt' } }, { id: '7', version: seven.version, set: { city: 'Batchstadt' } }] },
    });
    assert.equal(batchWrite.errors, undefined);
    const batch = (await auditTrail(deps, { entity: 'person', id: '6' }, 1))[0].batch!;
    assert.ok(batch);
    await externalWrite('6', { city: 'Sechs' });
    await externalWrite('7', { city: 'Sieben' });
    person.asked = [];
    const outcome = await undoBatch(deps, batch, signal);
    assert.equal(outcome.kind, 'review_conflicts', JSON.stringify(outcome));
    assert.equal(person.asked.length, 0, 'nothing left to undo without the person: not asked');
    assert.equal(board.review()!.tally().conflicts, 2);
    assert.deepEqual([(await stored('6')).city, (await stored('7')).city], ['Sechs', 'Sieben']);
    // The person takes the undo for one record over what is stored now, and not for the other: one question, that record only.
    board.reviewDecide(true, '6');
    board.reviewDecide(false, '7');
    const saved = await saveForm(deps, signal, 'board');
    assert.equal(saved.kind, 'batch_saved', JSON.stringify(saved));
    assert.equal(person.asked.length, 1);
    assert.equal(person.asked[0].batch?.records, 1);
    assert.equal(person.asked[0].batch?.changedSince, undefined, 'nothing left out unsaid: the person decided both rows');
    assert.deepEqual([(await stored('6')).city, (await stored('7')).city], [six.city, 'Sieben']);
  });
});
