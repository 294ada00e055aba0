// The Board controller with an approval desk (src/board/approvalsPart.ts through
// src/board/controller.ts), over the in-memory desk and a page played by the test: the pending
// list is sent when the page says ready and again on every change of the desk; the person's
// decision reaches the desk once (a second click while it is carried out is dropped), and its
// outcome is said on the status line in the Board's language; a request to see the list opens
// it on the page. Without a desk the Board sends no list.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { ApprovalDecision, DecisionOutcome, PendingApprovalView } from '../../src/board/approvalDesk.ts';
import { MemoryApprovalDesk } from '../support/memoryApprovalDesk.ts';
import { BoardController, type BoardUi } from '../../src/board/controller.ts';
import { MessageEndpoint, type ApprovalItem, type StatusLine, type WireMessage } from '../../src/board/protocol.ts';
import { BoardState } from '../../src/board/state.ts';
import { translator } from '../../src/board/texts.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import type { XosClient } from '../../src/graphql/types.ts';
import { until } from '../support/until.ts';

type Posted = { method: string; params: any };

function approval(id: string, minutesAgo: number, question = `Save changes to Person ${id}? City: Bonn → Kiel`): PendingApprovalView {
  const now = Date.now();
  return {
    id, kind: 'save', question, requester: 'The agent for anna',
    requestedAt: new Date(now - minutesAgo * 60_000).toISOString(), expiresAt: new Date(now + 30 * 60_000).toISOString(),
  };
}

/** A carry-out the test releases: each decision it got, and the outcome it gives once released. */
function heldCarryOut(outcome: DecisionOutcome) {
  const decisions: ApprovalDecision[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  return {
    decisions,
    release: () => release(),
    carryOut: async (decision: ApprovalDecision): Promise<DecisionOutcome> => {
      decisions.push(decision);
      await released;
      return decision === 'approve' ? outcome : { kind: 'declined' };
    },
  };
}

interface Board {
  readonly controller: BoardController;
  readonly endpoint: MessageEndpoint;
  readonly posted: Posted[];
  readonly told: string[];
  readonly shown: boolean[];
  readonly dropped: string[];
  sent(method: string, from?: number): Posted[];
  lastList(): readonly ApprovalItem[];
  lastStatus(): StatusLine | null;
  pageSays(method: string, params: unknown): void;
}

function openBoard(client: XosClient, options: { approvals?: MemoryApprovalDesk; locale?: string } = {}): Board {
  const posted: Posted[] = [];
  const told: string[] = [];
  const shown: boolean[] = [];
  const dropped: string[] = [];
  const locale = options.locale ?? 'en';
  const t = translator(locale);
  const quiet = { info: () => {}, warn: (text: string) => void dropped.push(text), error: () => {} };
  const ui: BoardUi = { t, log: quiet, tell: async (_kind, text) => (told.push(text), undefined), askDiscard: async () => false, setLocale: () => {}, csvExport: async () => undefined };
  const endpoint: MessageEndpoint = new MessageEndpoint((message: WireMessage) => {
    if ('method' in message) posted.push({ method: message.method, params: message.params });
    if ('method' in message && 'id' in message && message.method === 'board/formData') setImmediate(() => endpoint.receive({ id: message.id, result: {} }));
  });
  const controller: BoardController = new BoardController({
    state: new BoardState(), client, locale: () => locale,
    deps: () => ({ client, board: controller.board, confirmer: undefined as never, locale }),
    surface: { show: (preserveFocus) => void shown.push(preserveFocus), isOpen: () => true, isVisible: () => true, setTitle: () => {} },
    ui,
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
  controller.connect(endpoint);
  const sent = (method: string, from = 0) => posted.slice(from).filter((m) => m.method === method);
  return {
    controller, endpoint, posted, told, shown, dropped, sent,
    lastList: () => sent('board/approvals').at(-1)?.params.approvals,
    lastStatus: () => sent('board/status').at(-1)?.params.status ?? null,
    pageSays: (method, params) => endpoint.receive({ method, params }),
  };
}

describe('the approval desk on the Board', () => {
  let backend: Backend;
  let client: XosClient;
  const boards: BoardController[] = [];
  const desks: MemoryApprovalDesk[] = [];
  const desk = () => {
    const made = new MemoryApprovalDesk();
    desks.push(made);
    return made;
  };
  const open = (options: Parameters<typeof openBoard>[1]) => {
    const board = openBoard(client, options);
    boards.push(board.controller);
    return board;
  };

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:' });
    client = embeddedClient(backend);
  });
  after(async () => {
    for (const board of boards) board.dispose();
    for (const made of desks) made.dispose();
    await backend?.close();
  });

  test('the list is sent when the page says ready, and again, read anew, on every change of the desk', async () => {
    const approvals = desk();
    approvals.add(approval('12', 2), heldCarryOut({ kind: 'approved', text: 'Saved' }).carryOut);
    const board = open({ approvals });
    assert.deepEqual(board.sent('board/approvals'), [], 'nothing is sent before the page says ready');
    board.pageSays('board/ready', {});
    const first = await until('the list on the page', () => board.lastList());
    assert.deepEqual(first.map((a) => [a.id, a.kind, a.question, a.requester, a.deciding]),
      [['12', 'save', 'Save changes to Person 12? City: Bonn → Kiel', 'The agent for anna', false]]);
    assert.equal(board.controller.approvals?.count, 1);
    assert.ok(board.controller.approvals);

    const counts: number[] = [];
    board.controller.approvals?.onCount((count) => counts.push(count));
    const sentBefore = board.sent('board/approvals').length;
    const withdraw = approvals.add(approval('13', 1), heldCarryOut({ kind: 'approved', text: 'Saved' }).carryOut);
    await until('the longer list', () => board.lastList().length === 2 && board.lastList());
    assert.deepEqual(board.lastList().map((a) => a.id), ['12', '13'], 'oldest first');
    withdraw();
    await until('the list without the withdrawn one', () => board.lastList().length === 1);
    assert.equal(board.sent('board/approvals').length, sentBefore + 2, 'one list per change, no polling');
    assert.deepEqual(counts, [2, 1]);
  });

  test('a decision reaches the desk once: a second click while it is carried out is dropped; the outcome is said on the status line', async () => {
    const approvals = desk();
    const held = heldCarryOut({ kind: 'approved', text: 'Saved Person 12.' });
    approvals.add(approval('12', 2), held.carryOut);
    const board = open({ approvals });
    board.pageSays('board/ready', {});
    await until('the list on the page', () => board.lastList()?.length === 1);

    const from = board.posted.length;
    board.pageSays('board/decideApproval', { id: '12', decision: 'approve' });
    board.pageSays('board/decideApproval', { id: '12', decision: 'approve' });
    board.pageSays('board/decideApproval', { id: '12', decision: 'decline' });
    await until('the decision under way', () => held.decisions.length === 1);
    assert.deepEqual(board.lastStatus(), { kind: 'busy', text: 'Approving…' });
    held.release();
    await until('the outcome on the status line', () => board.lastStatus()?.kind === 'info' && board.lastStatus());
    assert.deepEqual(held.decisions, ['approve'], 'the desk carried out one decision');
    assert.deepEqual(board.lastStatus(), { kind: 'info', text: 'Saved Person 12.' });
    assert.deepEqual(board.sent('board/approvalDecided', from).map((m) => m.params), [{ id: '12', outcome: 'approved' }]);
    assert.deepEqual(board.lastList(), [], 'the list without the decided one came before the outcome');
    const methods = board.posted.slice(from).map((m) => m.method);
    assert.ok(methods.lastIndexOf('board/approvals') < methods.indexOf('board/approvalDecided'));
    // While it was carried out the page was told, so a page shown anew keeps its buttons off.
    assert.ok(board.sent('board/approvals', from).some((m) => m.params.approvals[0]?.deciding === true));
  });

  test('an unknown or already decided approval is "gone"; a decline and a void one are said in the Board\'s language', async () => {
    const approvals = desk();
    const board = open({ approvals, locale: 'de' });
    board.pageSays('board/ready', {});
    await until('the empty list on the page', () => board.lastList());

    board.pageSays('board/decideApproval', { id: 'nope', decision: 'approve' });
    await until('the outcome', () => board.lastStatus()?.kind === 'error' && board.lastStatus());
    assert.deepEqual(board.lastStatus(), { kind: 'error', text: 'Diese Anfrage wartet nicht mehr: Sie wurde anderswo entschieden oder zurückgezogen.' });
    assert.deepEqual(board.sent('board/approvalDecided').at(-1)?.params, { id: 'nope', outcome: 'gone' });

    const declined = heldCarryOut({ kind: 'approved', text: 'Saved' });
    declined.release();
    approvals.add(approval('7', 1), declined.carryOut);
    approvals.add(approval('8', 1), async () => ({ kind: 'void', why: 'Person 8 was changed after the request.' }));
    await until('both on the page', () => board.lastList().length === 2);
    board.pageSays('board/decideApproval', { id: '7', decision: 'decline' });
    await until('the decline said', () => board.lastStatus()?.text === 'Abgelehnt: Es wurde nichts geschrieben.');
    assert.deepEqual(declined.decisions, ['decline']);
    board.pageSays('board/decideApproval', { id: '8', decision: 'approve' });
    await until('the void outcome said', () => board.lastStatus()?.text === 'Nicht geschrieben: Person 8 was changed after the request.');
    assert.equal(board.lastStatus()?.kind, 'error');
  });

  test('a malformed decision from the page is dropped before the desk', async () => {
    const approvals = desk();
    const held = heldCarryOut({ kind: 'approved', text: 'Saved' });
    approvals.add(approval('12', 2), held.carryOut);
    const board = open({ approvals });
    board.pageSays('board/ready', {});
    await until('the list on the page', () => board.lastList()?.length === 1);
    board.pageSays('board/decideApproval', { id: '12', decision: 'yes please' });
    board.pageSays('board/decideApproval', { id: 12, decision: 'approve' });
    board.pageSays('board/decideApproval', { id: '', decision: 'approve' });
    assert.equal(board.dropped.filter((line) => line.includes('board/decideApproval')).length, 3);
    assert.deepEqual(held.decisions, []);
  });

  test('the status bar\'s and the command\'s request opens the Board with the list in view; none waiting is said instead', async () => {
    const approvals = desk();
    const board = open({ approvals });
    board.pageSays('board/ready', {});
    await until('the empty list on the page', () => board.lastList());
    board.controller.showApprovals();
    assert.deepEqual(board.told, ['Nothing is waiting for your decision.']);
    assert.deepEqual(board.shown, []);

    approvals.add(approval('12', 2), heldCarryOut({ kind: 'approved', text: 'Saved' }).carryOut);
    await until('the list on the page', () => board.lastList().length === 1);
    board.controller.showApprovals();
    assert.deepEqual(board.shown, [false], 'the Board is shown and takes focus');
    assert.equal(board.sent('board/revealApprovals').length, 1);

    // Hidden (the webview discarded): the list opens once the page says ready again, after the list.
    board.controller.hidden();
    board.controller.showApprovals();
    assert.equal(board.sent('board/revealApprovals').length, 1);
    const from = board.posted.length;
    board.pageSays('board/ready', {});
    await until('the list opened on the page', () => board.sent('board/revealApprovals', from).length === 1);
    const methods = board.posted.slice(from).map((m) => m.method);
    assert.ok(methods.indexOf('board/approvals') < methods.indexOf('board/revealApprovals'));
  });

  test('without a desk the Board sends no list and has no approvals part', async () => {
    const board = open({});
    board.pageSays('board/ready', {});
    await until('the Board on the page', () => board.sent('board/status').length > 0);
    board.controller.showApprovals();
    assert.deepEqual(board.sent('board/approvals'), []);
    assert.equal(board.controller.approvals, undefined);
    assert.deepEqual(board.told, ['Nothing is waiting for your decision.']);
  });
});
