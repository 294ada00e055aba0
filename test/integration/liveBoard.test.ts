// The Board live, over the embedded backend on a real PostgreSQL: a second writer changes, creates
// and deletes records for real, a scripted change feed tells the Board so (as the client's feed
// would), and the page's messages show what the person sees — the list's rows swapped in place
// with its sort kept, the form refreshed, unsaved edits turned into a conflict at once, a deleted
// record said, the others' presence on the form and in the Save question, and the feed lost and back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { BoardController } from '../../src/board/controller.ts';
import { MessageEndpoint, type Question, type RowsResult } from '../../src/board/protocol.ts';
import type { DetailBlock, GridRow, PresenceView } from '../../src/board/viewTypes.ts';
import { showRecord } from '../../src/core/show.ts';
import { proposeBatch } from '../../src/core/batch.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { buildDeleteMutation, buildDetailQuery, buildInsertMutation, buildUpdateMutation } from '../../src/graphql/requests.ts';
import type { RecordChange, XosClient } from '../../src/graphql/types.ts';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { ScriptedFeed } from '../support/scriptedFeed.ts';
import { openSavingBoard, type SavingBoard, type Sent } from '../support/savingBoard.ts';

describe('the Board live over a real backend', () => {
  let postgres: PostgresServer;
  let dsn: string;
  let backend: Backend;
  let writer: XosClient;
  let controller: BoardController;
  let endpoint: MessageEndpoint;
  const feed = new ScriptedFeed();
  let board: SavingBoard;
  /** Reads of one record by the Board (person_detail by id), to see an echo cost nothing. */
  let detailReads = 0;

  before(async () => {
    postgres = await startPostgres();
    dsn = await postgres.createDatabase('live_board');
    backend = await startBackend({ ast: demoApp(), dsn, seed: true });
    const base = embeddedClient(backend);
    writer = embeddedClient(backend);
    const client: XosClient = {
      run: (query, variables, audit, signal) => {
        if (query.startsWith('query XosRead(')) detailReads++;
        return base.run(query, variables, audit, signal);
      },
      ast: () => base.ast(),
      status: () => base.status(),
      feed,
    };
    board = openSavingBoard(client);
    controller = board.controller;
    endpoint = board.endpoint;
  });
  after(async () => {
    controller?.dispose();
    await backend?.close();
    await postgres?.stop();
  });

  const sent = (method: string, from = 0): Sent[] => board.sent(method, from);
  const lastDetail = (): DetailBlock => board.lastDetail();
  const field = (detail: DetailBlock, name: string) => detail.fields.find((f) => f.field === name)!;

  const pageAsks = <R>(method: string, params: unknown): Promise<R> => board.pageAsks<R>(method, params);

  /** The second writer: a real write, then the feed tells it (as the client's feed would, after the commit). */
  async function write(id: string, set: Record<string, unknown>, tell = true): Promise<RecordChange> {
    const ast = writer.ast();
    const read = buildDetailQuery(ast, 'person_detail', id);
    const version = ((await writer.run(read.query, read.variables)).data![read.root] as { version: number }).version;
    const update = buildUpdateMutation(ast, 'person_detail', id, version, set);
    const result = await writer.run(update.query, update.variables, { path: 'api', approval: 'test' });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    const change: RecordChange = { entity: 'person', id, action: 'update', version: (result.data![update.root] as { version: number }).version, person: 'anna' };
    if (tell) feed.emit({ kind: 'changes', changes: [change] });
    return change;
  }

  async function create(values: Record<string, unknown>): Promise<RecordChange> {
    const insert = buildInsertMutation(writer.ast(), 'person_detail', values);
    const result = await writer.run(insert.query, insert.variables, { path: 'api', approval: 'test' });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    const row = result.data![insert.root] as { id: string; version: number };
    return { entity: 'person', id: String(row.id), action: 'create', version: row.version };
  }

  async function remove(id: string): Promise<RecordChange> {
    const ast = writer.ast();
    const read = buildDetailQuery(ast, 'person_detail', id);
    const version = ((await writer.run(read.query, read.variables)).data![read.root] as { version: number }).version;
    const deletion = buildDeleteMutation(ast, 'person_detail', id, version);
    const result = await writer.run(deletion.query, deletion.variables, { path: 'api', approval: 'test' });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    return { entity: 'person', id, action: 'delete', version: null };
  }

  const deps = () => ({ client: writer, board: controller.board, confirmer: undefined as never });

  test('the list: rows others changed swap in place with the person\'s sort; a deleted row leaves, a created one appears where the order puts it', async () => {
    // A record nothing refers to, near the top of the sort: the one deleted below.
    const doomed = await create({ firstname: 'Doomed', lastname: 'Aabel' });
    await controller.navigation.openContext('person_list');
    const listId: number = sent('board/list').at(-1)!.params.list.listId;
    const query = { sort: { field: 'lastname', direction: 'asc' as const } };
    // The person sorted by last name and scrolled: the page holds two windows.
    const top = await pageAsks<RowsResult>('board/rows', { listId, offset: 0, limit: 100, query });
    const further = await pageAsks<RowsResult>('board/rows', { listId, offset: 100, limit: 100, query });
    assert.equal(top.total, 241);
    const at = (rows: readonly GridRow[], i: number) => rows[i];
    const cityColumn = 4;
    const moved = at(further.rows, 10);
    const mark = board.posted.length;
    await write(moved.key, { city: 'Live City' });
    await controller.liveSettled();
    assert.deepEqual(sent('board/list', mark), [], 'the list is not shown anew: scroll, active row, sort and filter stay');
    const swapped = sent('board/listRows', mark);
    assert.equal(swapped.length, 1);
    assert.equal(swapped[0].params.listId, listId);
    assert.deepEqual(swapped[0].params.query, query);
    assert.equal(swapped[0].params.total, 241);
    assert.deepEqual(swapped[0].params.windows.map((w: { offset: number }) => w.offset), [0, 100]);
    const window100: GridRow[] = swapped[0].params.windows[1].rows;
    assert.equal(window100[10].key, moved.key, 'the row keeps its place in the order');
    assert.equal(window100[10].values[cityColumn], 'Live City');

    // A delete and a create in one burst: read once, the count follows, the new row sorts first.
    const gone = top.rows.find((r) => r.key === doomed.id)!;
    assert.ok(gone, 'the record to delete is in the first window');
    const mark2 = board.posted.length;
    const deleted = await remove(gone.key);
    const created = await create({ firstname: 'Ada', lastname: 'Aaaberg', city: 'Kiel' });
    feed.emit({ kind: 'changes', changes: [deleted] });
    feed.emit({ kind: 'changes', changes: [created] });
    await controller.liveSettled();
    const burst = sent('board/listRows', mark2);
    assert.equal(burst.length, 1, 'changes within the batch window are read once');
    assert.equal(burst[0].params.total, 241);
    const first: GridRow[] = burst[0].params.windows[0].rows;
    assert.equal(first[0].key, created.id);
    assert.ok(!first.some((r) => r.key === gone.key), 'the deleted row left');

    // A write of another entity the list does not show: nothing is read.
    const mark3 = board.posted.length;
    feed.emit({ kind: 'changes', changes: [{ entity: 'deal', id: '1', action: 'update', version: 5 }] });
    await controller.liveSettled();
    assert.deepEqual(sent('board/listRows', mark3), []);
  });

  test('the form: no unsaved edits, the new values show at once; the echo of its own save is no change', async () => {
    assert.equal((await showRecord(deps(), 'person_detail', '1')).ok, true);
    await controller.liveSettled();
    assert.deepEqual(feed.announced.at(-1), { entity: 'person', id: '1', editing: false });
    const loaded = controller.board.snapshot().detail!.version!;
    const mark = board.posted.length;
    const change = await write('1', { city: 'Flensburg' });
    await controller.liveSettled();
    assert.equal(field(lastDetail(), 'city').value, 'Flensburg');
    assert.equal(controller.board.snapshot().detail!.version, change.version);
    assert.ok(change.version! > loaded);
    assert.ok(sent('board/detail', mark).length >= 1);
    assert.equal(lastDetail().conflicts, 0);
    assert.equal(lastDetail().dirty, false);

    // This Board saves; the feed then tells of that very version: nothing is read, nothing changes.
    controller.board.edit('city', 'Husum');
    assert.deepEqual(feed.announced.at(-1), { entity: 'person', id: '1', editing: true });
    await controller.records.save();
    const saved = controller.board.snapshot().detail!.version!;
    assert.equal(controller.board.snapshot().detail!.record.city, 'Husum');
    assert.deepEqual(feed.announced.at(-1), { entity: 'person', id: '1', editing: false });
    const reads = detailReads;
    feed.emit({ kind: 'changes', changes: [{ entity: 'person', id: '1', action: 'update', version: saved }] });
    await controller.liveSettled();
    assert.equal(detailReads, reads, 'the echo is not read');
    assert.equal(controller.board.snapshot().detail!.version, saved);
    assert.deepEqual(controller.board.snapshot().conflicts, {});
  });

  test('the form with unsaved edits: someone else\'s save of the same field is a conflict at once, not at Save', async () => {
    assert.equal((await showRecord(deps(), 'person_detail', '2')).ok, true);
    controller.board.edit('city', 'Mine');
    controller.board.edit('lastname', 'Mine too');
    await write('2', { city: 'Theirs' });
    await controller.liveSettled();
    const snapshot = controller.board.snapshot();
    assert.deepEqual(Object.keys(snapshot.conflicts ?? {}), ['city'], 'only the field both changed');
    assert.equal(snapshot.conflicts!.city.theirs, 'Theirs');
    const detail = lastDetail();
    assert.equal(detail.conflicts, 1);
    assert.deepEqual(field(detail, 'city').conflict && { theirs: field(detail, 'city').conflict!.theirs, mine: field(detail, 'city').conflict!.mine }, { theirs: 'Theirs', mine: 'Mine' });
    assert.equal(field(detail, 'lastname').value, 'Mine too', 'the person\'s other edit stays');
    endpoint.receive({ method: 'board/formAction', params: { action: 'discard' } });
  });

  test('a conflict is said once: the status line says what happened, the form beside Save what to do (heard at Save, or at once from the feed)', async () => {
    const note = sent('board/locale').at(-1)!.params.texts.settleConflicts as string;
    const status = () => sent('board/status').at(-1)!.params.status as { kind: string; text: string } | null;
    /** Everything the page shows about the conflict, as the person reads it: the status line and, while fields wait for a choice, the note beside Save. */
    const shown = () => [status()?.text ?? '', lastDetail().conflicts > 0 ? note : ''].join(' ');
    const count = (text: string, words: RegExp) => text.match(new RegExp(words.source, 'gi'))?.length ?? 0;

    // Someone else's save the feed has not told yet: the person's Save meets it.
    assert.equal((await showRecord(deps(), 'person_detail', '9')).ok, true);
    controller.board.edit('city', 'Mine');
    await write('9', { city: 'Theirs' }, false);
    await controller.records.save();
    assert.equal(lastDetail().conflicts, 1);
    assert.deepEqual(status(), { kind: 'error', text: 'Not saved: Person 9 was changed by someone else meanwhile.' });
    assert.equal(count(shown(), /someone else saved/), 1, shown());
    assert.equal(count(shown(), /choose per marked field/), 1, shown());
    endpoint.receive({ method: 'board/formAction', params: { action: 'discard' } });

    // Told by the feed at once: the form marks the field; a Save then (the agent's, an undo) says only that it waits.
    assert.equal((await showRecord(deps(), 'person_detail', '10')).ok, true);
    controller.board.edit('city', 'Mine');
    await write('10', { city: 'Theirs' });
    await controller.liveSettled();
    assert.equal(lastDetail().conflicts, 1);
    await controller.records.save();
    assert.deepEqual(status(), { kind: 'error', text: 'Not saved: the marked fields wait for your choice.' });
    assert.equal(count(shown(), /someone else saved/), 1, shown());
    assert.equal(count(shown(), /choose per marked field/), 1, shown());
    endpoint.receive({ method: 'board/formAction', params: { action: 'discard' } });
  });

  test('presence: the form names who else is there, list rows mark who edits, and the Save question says who else is editing', async () => {
    assert.equal((await showRecord(deps(), 'person_detail', '3')).ok, true);
    const mark = board.posted.length;
    feed.emit({ kind: 'presence', presence: [
      { person: 'anna', entity: 'person', id: '3', editing: true },
      { person: 'ben', entity: 'person', id: '3', editing: false },
      { person: 'cleo', entity: 'person', id: '9', editing: true },
    ] });
    const presence: PresenceView = sent('board/presence', mark).at(-1)!.params;
    assert.deepEqual(presence.detail, [{ person: 'anna', editing: true }, { person: 'ben', editing: false }]);
    controller.board.edit('city', 'Plön');
    const asked = board.posted.length;
    await controller.records.save();
    const question = sent('board/ask', asked).at(-1)!.params as Question;
    assert.match(question.message, /^Save changes to Person Ava [^(]+ \(#3\)\? City: .* → Plön anna is editing this record too\.$/);

    await controller.navigation.openContext('person_list');
    const rows: PresenceView = sent('board/presence').at(-1)!.params;
    assert.deepEqual(rows, { detail: [], rows: [{ key: '3', people: ['anna'] }, { key: '9', people: ['cleo'] }] });
    assert.equal(feed.announced.at(-1), undefined, 'a list open: no record announced');
    feed.emit({ kind: 'presence', presence: [] });
  });

  test('a change whose version is smaller than the shown one is read, not taken for the form\'s own: a person\'s row\'s version is a digest, not a count', async () => {
    assert.equal((await showRecord(deps(), 'person_detail', '9')).ok, true);
    const shown = controller.board.snapshot().detail!.version!;
    // Another program writes the row and leaves a version below the shown one, as a row digest may be.
    const sql = new pg.Client({ connectionString: dsn });
    await sql.connect();
    try {
      await sql.query('UPDATE person SET city = $1, version = $2 WHERE id = 9', ['Digest City', shown - 1]);
    } finally {
      await sql.end();
    }
    feed.emit({ kind: 'changes', changes: [{ entity: 'person', id: '9', action: 'update', version: shown - 1 }] });
    await controller.liveSettled();
    assert.equal(field(lastDetail(), 'city').value, 'Digest City');
    assert.equal(controller.board.snapshot().detail!.version, shown - 1);
  });

  test('a record deleted by someone else: the form says so and Save is not offered', async () => {
    const made = await create({ firstname: 'Gone', lastname: 'Soon' });
    assert.equal((await showRecord(deps(), 'person_detail', made.id)).ok, true);
    assert.equal(lastDetail().canSave, true);
    controller.board.edit('city', 'Unsaved');
    feed.emit({ kind: 'changes', changes: [await remove(made.id)] });
    await controller.liveSettled();
    const detail = lastDetail();
    assert.equal(detail.deleted, true);
    assert.equal(detail.canSave, false);
    assert.equal(detail.canDelete, false);
    assert.equal(field(detail, 'city').value, 'Unsaved', 'what the person typed is still there to copy');
    endpoint.receive({ method: 'board/formAction', params: { action: 'discard' } });
  });

  test('the feed lost and back: the status line says so, then how many changes came, and what is shown is read again', async () => {
    assert.equal((await showRecord(deps(), 'person_detail', '4')).ok, true);
    const mark = board.posted.length;
    feed.emit({ kind: 'connection', live: false });
    assert.equal(sent('board/status', mark).at(-1)!.params.status.text, 'Live updates are paused: the connection to the change feed was lost, so what the Board shows may be out of date.');
    // Opening another record keeps the line while the feed is away.
    assert.equal((await showRecord(deps(), 'person_detail', '5')).ok, true);
    assert.match(sent('board/status').at(-1)!.params.status.text, /^Live updates are paused/);
    await write('5', { city: 'Meanwhile' }, false);
    const back = board.posted.length;
    feed.emit({ kind: 'connection', live: true, caughtUp: 3 });
    await controller.liveSettled();
    assert.equal(sent('board/status', back).at(-1)!.params.status.text, 'Up to date again: 3 changes made meanwhile');
    assert.equal(field(lastDetail(), 'city').value, 'Meanwhile');

    // A reset reads what is shown again too.
    await write('5', { city: 'After reset' }, false);
    feed.emit({ kind: 'reset', reason: 'unknown' });
    await controller.liveSettled();
    assert.equal(field(lastDetail(), 'city').value, 'After reset');
  });

  test('a review whose rows someone else changed or deleted: those rows become conflicts at once; others stay as they were', async () => {
    await controller.navigation.openContext('person_list');
    const doomed = await create({ firstname: 'Review', lastname: 'Gone' });
    const proposed = await proposeBatch({ client: writer, board: controller.board, confirmer: undefined as never, locale: 'en' }, 'person_list', writer.ast().contexts.person_list,
      [{ id: '6', age: 60 }, { id: '7', age: 61 }, { id: '8', age: 62 }, { id: '5', age: 64 }, { id: doomed.id, age: 63 }]);
    assert.equal(proposed.ok, true, JSON.stringify(proposed));
    const review = controller.board.review()!;
    const changed = await write('7', { age: 70 }, false);
    const deleted = await remove(doomed.id);
    // The echo-like case: row 8 now holds exactly the proposed value (written elsewhere), no conflict to decide.
    const same = await write('8', { age: 62 }, false);
    // Row 5 written by another program that left a smaller version, as a row digest may be: still a conflict.
    const lower = review.row('5')!.version - 1;
    const sql = new pg.Client({ connectionString: dsn });
    await sql.connect();
    try {
      await sql.query('UPDATE person SET age = 55, version = $1 WHERE id = 5', [lower]);
    } finally {
      await sql.end();
    }
    feed.emit({ kind: 'changes', changes: [changed, deleted, same, { entity: 'company', id: '1', action: 'update', version: 9 }, { entity: 'person', id: '5', action: 'update', version: lower }] });
    await controller.liveSettled();
    assert.equal(review.row('5')!.conflict, true, 'a smaller version is a change too');
    assert.equal(review.row('5')!.record.age, 55);
    assert.equal(review.row('7')!.conflict, true);
    assert.equal(review.row('7')!.record.age, 70);
    assert.equal(review.row(doomed.id)!.gone, true);
    assert.equal(review.row('6')!.conflict, false);
    assert.equal(review.row('8')!.conflict, false);
    const block = sent('board/review').at(-1)!.params.review;
    assert.equal(block.counts.conflicts, 2, JSON.stringify(block.counts));
    endpoint.receive({ method: 'board/reviewAction', params: { reviewId: block.reviewId, action: 'discard' } });
  });

  test('disposed: the Board stops listening and says it has nothing open', () => {
    assert.equal(feed.listening, 1);
    controller.dispose();
    assert.equal(feed.listening, 0);
    assert.equal(feed.announced.at(-1), undefined);
  });
});
