// The Board's status line is about the view it was said on: a save's outcome stays with its record
// (also when the record is shown again after it), and leaves when the person sees another view — a
// list, a review of other rows, another record. A decision on the approval desk is said where the
// person is. Over the embedded backend on SQLite; the page is a recorder of what the host sends.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import { MessageEndpoint, type StatusLine, type WireMessage } from '../../src/board/protocol.ts';
import { proposeBatch } from '../../src/core/batch.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { showRecord } from '../../src/core/show.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startDecisionApp, type DecisionApp } from '../support/decisionApp.ts';
import { openSavingBoard, type SavingBoard } from '../support/savingBoard.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

let backend: Backend;
let client: XosClient;
let board: SavingBoard;
let dir: TempDir;
let decisions: DecisionApp;

before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  client = embeddedClient(backend);
  board = openSavingBoard(client);
  dir = await tempDir('board-status');
  // The Board is open and shown, so the page is sent every change (as in VS Code and the browser).
  decisions = await startDecisionApp(client, new SqliteApprovalStore(join(dir.path, APPROVALS_FILE)), {
    surface: { show: () => {}, isOpen: () => true, isVisible: () => true, setTitle: () => {} },
  });
});
after(async () => {
  board?.controller.dispose();
  await decisions?.close();
  await backend?.close();
  await dir?.remove();
});

/** The status line the page shows now: the last one the host sent. */
function statusOf(posted: readonly WireMessage[]): StatusLine | null {
  const last = posted.findLast((m) => 'method' in m && m.method === 'board/status');
  return last && 'params' in last ? (last.params as { status: StatusLine | null }).status : null;
}

test('a save\'s outcome stays with its record, also shown again, and leaves when a review of other rows opens', async () => {
  const { controller } = board;
  const deps = board.deps();
  assert.equal((await showRecord(deps, 'person_detail', '10')).ok, true);
  controller.board.edit('city', 'Statusstadt');
  await controller.records.save();
  assert.deepEqual(statusOf(board.posted), { kind: 'info', text: 'Saved Person 10. Stored: City: "Statusstadt".' });
  // The record shown again (the agent shows it, the feed reads it back): still the same record, the line stays.
  assert.equal((await showRecord(deps, 'person_detail', '10')).ok, true);
  assert.equal(statusOf(board.posted)?.text, 'Saved Person 10. Stored: City: "Statusstadt".');

  // A bulk review of other rows (the agent's proposal) is another view: the record's line leaves with it.
  const mark = board.posted.length;
  const proposed = await proposeBatch(deps, 'person_list', client.ast().contexts.person_list, [{ id: '11', age: 51 }, { id: '12', age: 52 }]);
  assert.equal(proposed.ok, true, JSON.stringify(proposed));
  assert.ok(board.sent('board/review', mark).length > 0);
  assert.equal(statusOf(board.posted), null);
  board.endpoint.receive({ method: 'board/reviewAction', params: { reviewId: board.sent('board/review').at(-1)!.params.review.reviewId, action: 'discard' } });
});

test('a line said on a list leaves when a review opens over that list', async () => {
  const { controller } = board;
  await controller.navigation.openContext('person_list');
  // Any line the Board says about the list (here the data source's notice from the front end).
  controller.setStatus({ kind: 'info', text: 'About the list' });
  assert.equal(statusOf(board.posted)?.text, 'About the list');
  const proposed = await proposeBatch(board.deps(), 'person_list', client.ast().contexts.person_list, [{ id: '13', age: 53 }]);
  assert.equal(proposed.ok, true, JSON.stringify(proposed));
  assert.equal(statusOf(board.posted), null, 'the review is another view');
  // Deciding rows of the review is the same view: a line said on it stays.
  controller.setStatus({ kind: 'info', text: 'About the review' });
  const { reviewId } = board.sent('board/review').at(-1)!.params.review;
  board.endpoint.receive({ method: 'board/reviewAction', params: { reviewId, action: 'reject', key: '13' } });
  assert.equal(statusOf(board.posted)?.text, 'About the review');
  board.endpoint.receive({ method: 'board/reviewAction', params: { reviewId, action: 'discard' } });
  assert.equal(statusOf(board.posted), null, 'the list again, a view of its own');
});

test('Approve on the desk: the outcome is said where the person is and stays when the record is shown again; another view takes it away', async () => {
  const { app, sessionless } = decisions;
  const posted: WireMessage[] = [];
  const page: MessageEndpoint = new MessageEndpoint((message) => {
    posted.push(message);
    if ('method' in message && 'id' in message && message.method === 'board/formData') setImmediate(() => page.receive({ id: message.id, result: {} }));
  });
  app.controller.connect(page);
  page.receive({ method: 'board/ready', params: {} });
  assert.equal((await showRecord(app.deps(), 'person_detail', '40')).ok, true);
  app.controller.board.edit('city', 'Deskstadt');
  const asked = await sessionless('xos_ui_save');
  const id = /approval: "([^"]+)"/.exec(asked.text)?.[1];
  assert.ok(id, asked.text);
  const [view] = await app.approvalDesk!.pending();
  page.receive({ method: 'board/decideApproval', params: { id, decision: 'approve', hash: view.hash } });
  const said = 'Saved Person 40. Stored: City: "Deskstadt".';
  await until('the decision\'s outcome on the status line', () => statusOf(posted)?.text === said);
  assert.equal(app.state.snapshot().detail?.record.city, 'Deskstadt', 'the form shows the stored record');
  // The agent (or Back and Forward) shows the record again: the outcome is about it and stays.
  assert.equal((await showRecord(app.deps(), 'person_detail', '40')).ok, true);
  assert.equal(statusOf(posted)?.text, said);
  // Another record is another view.
  assert.equal((await showRecord(app.deps(), 'person_detail', '41')).ok, true);
  assert.equal(statusOf(posted), null);
});
