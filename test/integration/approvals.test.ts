// Stored pending approvals against a real embedded backend: an agent's guarded writes are
// prepared on a Board, stored as approvals, survive a restart of the store, and are decided by
// the person later — approved ones written exactly once with the bound payload, declined and
// expired ones never; a record changed after its request makes the approval void.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import { BoardState } from '../../src/board/state.ts';
import {
  approvalStatus, boardWriting, decideApproval, pendingApprovals, requestApproval, sweepApprovals,
  type ApprovalDeps, type PendingApproval, type Requester,
} from '../../src/core/approvals.ts';
import { approvedText } from '../../src/core/approvalCommit.ts';
import { auditAction, writeRecords, writtenFields, type PreparedWrite, type RecordPayload } from '../../src/core/boundWrites.ts';
import type { CoreDeps } from '../../src/core/base.ts';
import type { Confirmer, MailDraft } from '../../src/core/domain.ts';
import { prepareSend } from '../../src/core/mailSend.ts';
import { newRecord, prepareDelete } from '../../src/core/records.ts';
import { proposeBatch } from '../../src/core/batch.ts';
import { batchSize, prepareReview } from '../../src/core/batchSave.ts';
import { confirmedText } from '../../src/core/asking.ts';
import { prepareSave } from '../../src/core/save.ts';
import { showRecord } from '../../src/core/show.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { buildAuditQuery } from '../../src/graphql/requests.ts';
import { BackendUnavailableError } from '../../src/graphql/unavailable.ts';
import type { XosClient } from '../../src/graphql/types.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;

/** Nobody is asked in this flow: the question is a stored approval, decided later. */
const nobodyAsked: Confirmer = {
  confirmSave: async () => assert.fail('the approval flow asks nobody at once'),
  confirmSend: async () => assert.fail('the approval flow asks nobody at once'),
};

interface Person { id: string; city: string | null; version: number }

async function people(client: XosClient): Promise<Map<string, Person>> {
  const result = await client.run('{ person_list(limit: 1000) { id city version } }');
  return new Map((result.data!.person_list as Person[]).map((p) => [String(p.id), { ...p, id: String(p.id) }]));
}

/** Audit entries of approved writes (their approval text names the approval), newest first. */
async function approvedEntries(client: XosClient, filter: { entity?: string; id?: string } = {}): Promise<Array<{ record_id: string | null; action: string; approval: string }>> {
  const request = buildAuditQuery(filter, 500);
  const result = await client.run(request.query, request.variables);
  return (result.data![request.root] as Array<{ record_id: string | null; action: string; approval: string | null }>)
    .filter((e): e is { record_id: string | null; action: string; approval: string } => e.approval?.includes('approved by the person [approval ') ?? false);
}

describe('stored pending approvals', () => {
  let backend: Backend;
  let client: XosClient;
  let dir: TempDir;
  let file: string;
  let store: SqliteApprovalStore;
  let now = T0;
  let board: CoreDeps;
  let smtp: TestSmtpServer;
  const deps = (over: Partial<ApprovalDeps> = {}): ApprovalDeps => ({
    client, store, now: () => now, mailer: createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'none', user: '', from: 'XOS <crm@xos.example>' }), ...over,
  });

  /** The Board shows the record and the agent proposes a city: what Save would write, prepared. */
  async function preparedSave(id: string, city: string): Promise<PreparedWrite> {
    await showRecord(board, 'person_detail', id);
    board.board.edit('city', city);
    const prepared = await prepareSave(board);
    assert.ok('payload' in prepared && prepared.kind === 'save', JSON.stringify(prepared));
    return prepared;
  }

  async function request(prepared: PreparedWrite, requester: Requester, ttlMs = 15 * MINUTE): Promise<PendingApproval> {
    const made = await requestApproval(deps(), prepared, requester, { ttlMs });
    assert.equal(made.kind, 'requested', JSON.stringify(made));
    return (made as { approval: PendingApproval }).approval;
  }

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 130 });
    client = embeddedClient(backend);
    dir = await tempDir('approvals');
    file = join(dir.path, 'approvals.sqlite');
    store = new SqliteApprovalStore(file);
    board = { client, board: new BoardState(), confirmer: nobodyAsked, locale: 'en' };
    smtp = await startTestSmtpServer({ certificate: await testCertificate() });
  });
  after(async () => {
    store.close();
    await smtp.close();
    await backend.close();
    await dir.remove();
  });

  test('100 approvals of 10 requesters over a restart: 50 approved are written once each, 25 declined and 25 expired write nothing', async () => {
    const before = await people(client);
    const ids = [...before.keys()].slice(0, 100);
    assert.equal(ids.length, 100);
    const requesters: Requester[] = Array.from({ length: 10 }, (_, i) => ({ credential: `token ${i}`, client: 'xos-mcp', conversation: `chat-${i}`, person: 'anna' }));
    const made: PendingApproval[] = [];
    for (const [i, id] of ids.entries()) {
      now = T0 + i; // oldest first is request order
      made.push(await request(await preparedSave(id, `Approved ${i}`), requesters[i % 10]));
    }
    assert.deepEqual((await approvedEntries(client)).length, 0);
    assert.deepEqual(await people(client), before, 'a request writes nothing');

    // A restart: the store is closed and opened again on the same file.
    store.close();
    store = new SqliteApprovalStore(file);
    const waiting = await pendingApprovals(deps());
    assert.deepEqual(waiting.map((a) => a.id), made.map((a) => a.id));
    assert.deepEqual(waiting[3].summary, made[3].summary);

    for (const approval of made.slice(0, 50)) {
      const decided = await decideApproval(deps(), approval.id, 'approve', 'Anna');
      assert.equal(decided.kind === 'decided' && decided.approval.state, 'approved', JSON.stringify(decided));
    }
    for (const approval of made.slice(50, 75)) assert.equal((await decideApproval(deps(), approval.id, 'decline', 'Anna')).kind, 'decided');
    now = T0 + 16 * MINUTE;
    assert.deepEqual(await sweepApprovals(deps()), { expired: 25, settled: 0, deleted: 0 });
    for (const approval of made.slice(75)) assert.equal((await decideApproval(deps(), approval.id, 'approve', 'Anna')).kind, 'already_decided');

    const entries = await approvedEntries(client, { entity: 'person' });
    assert.equal(entries.length, 50);
    assert.deepEqual(new Set(entries.map((e) => e.record_id)), new Set(ids.slice(0, 50)));
    for (const approval of made.slice(0, 50)) assert.equal(entries.filter((e) => e.approval.includes(approval.id)).length, 1);
    const after = await people(client);
    for (const [i, id] of ids.entries()) {
      if (i < 50) assert.deepEqual(after.get(id), { id, city: `Approved ${i}`, version: before.get(id)!.version + 1 });
      else assert.deepEqual(after.get(id), before.get(id), `record ${id} (#${i}) is unchanged`);
    }

    const mine = requesters[0];
    assert.deepEqual(await approvalStatus(deps(), made[0].id, mine), {
      state: 'approved', id: made[0].id, kind: 'save', decidedAt: new Date(T0 + 99).toISOString(),
      outcome: { kind: 'saved', ok: true, entity: 'person', id: ids[0], versionFrom: before.get(ids[0])!.version, versionTo: before.get(ids[0])!.version + 1, stored: [{ field: 'city', value: 'Approved 0' }] },
    });
    assert.equal((await approvalStatus(deps(), made[50].id, mine)).state, 'declined');
    assert.equal((await approvalStatus(deps(), made[80].id, mine)).state, 'expired');
    assert.deepEqual(await approvalStatus(deps(), made[0].id, requesters[1]), { state: 'unknown', id: made[0].id }, 'another requester learns nothing');
    assert.deepEqual(await approvalStatus(deps(), made[0].id, { ...mine, person: 'ben' }), { state: 'unknown', id: made[0].id });

    // A second approve of an approved one writes nothing.
    assert.equal((await decideApproval(deps(), made[0].id, 'approve', 'Anna')).kind, 'already_decided');
    assert.equal((await approvedEntries(client, { entity: 'person' })).length, 50);
  });

  test('a record edited after its request: approving gives void and writes nothing', async () => {
    now = T0 + 20 * MINUTE;
    const id = '101';
    const approval = await request(await preparedSave(id, 'Mine'), { client: 'xos-mcp' });
    const version = (await people(client)).get(id)!.version;
    await client.run('mutation($id: ID!, $v: Int!) { update_person(id: $id, version: $v, set: { city: "Theirs" }) { version } }', { id, v: version });
    const decided = await decideApproval(deps(), approval.id, 'approve', 'Anna');
    assert.equal(decided.kind === 'decided' && decided.approval.state, 'void');
    assert.deepEqual(await approvalStatus(deps(), approval.id, { client: 'xos-mcp' }), {
      state: 'void', id: approval.id, kind: 'save', why: 'changed', outcome: { kind: 'record_changed', ok: false, entity: 'person', ids: [id], versionNow: version + 1 },
    });
    assert.equal((await people(client)).get(id)!.city, 'Theirs');
    assert.equal((await approvedEntries(client, { entity: 'person', id })).length, 0);
  });

  test('two front ends on one file approve the same approval at once: one write', async () => {
    now = T0 + 21 * MINUTE;
    const id = '102';
    const approval = await request(await preparedSave(id, 'Once'), { client: 'xos-mcp' });
    const other = new SqliteApprovalStore(file);
    try {
      const results = await Promise.all([
        decideApproval(deps(), approval.id, 'approve', 'Anna'),
        decideApproval(deps({ store: other }), approval.id, 'approve', 'Anna in the browser'),
      ]);
      assert.deepEqual(results.map((r) => r.kind).toSorted(), ['already_decided', 'decided']);
    } finally {
      other.close();
    }
    assert.equal((await approvedEntries(client, { entity: 'person', id })).length, 1);
    assert.equal((await people(client)).get(id)!.city, 'Once');
  });

  test('a crash between the write and its record: the sweep finds the write by the approval id and never writes again', async () => {
    now = T0 + 22 * MINUTE;
    const landed = await request(await preparedSave('103', 'Landed'), { client: 'xos-mcp' });
    const lost = await request(await preparedSave('104', 'Lost'), { client: 'xos-mcp' });
    // As decideApproval does up to the write, then the process stops: `committing` stays in the file.
    for (const approval of [landed, lost]) assert.equal(await store.update({ ...approval, state: 'committing', decidedAt: new Date(now).toISOString(), decidedBy: 'Anna' }, 'pending'), true);
    const payload = landed.payload as RecordPayload;
    const write = await writeRecords(client, payload, { path: 'agent', approval: approvedText(auditAction(payload), landed.id, writtenFields(payload)) });
    assert.equal(write.kind, 'written');
    store.close();
    store = new SqliteApprovalStore(file);

    assert.equal((await decideApproval(deps(), landed.id, 'approve', 'Anna')).kind, 'already_decided', 'a committing approval is not written again');
    assert.deepEqual(await sweepApprovals(deps()), { expired: 0, settled: 0, deleted: 0 }, 'within the lease the writer may still be at work');
    now += 3 * MINUTE;
    assert.deepEqual(await sweepApprovals(deps()), { expired: 0, settled: 2, deleted: 0 });
    const settled = await approvalStatus(deps(), landed.id, { client: 'xos-mcp' });
    assert.equal(settled.state, 'approved');
    assert.deepEqual(settled.state === 'approved' && settled.outcome, {
      kind: 'saved', ok: true, entity: 'person', id: '103', versionFrom: payload.kind === 'save' ? payload.version : -1, versionTo: (payload.kind === 'save' ? payload.version : -1) + 1,
      stored: [{ field: 'city', value: 'Landed' }], lostAnswer: 'interrupted',
    });
    assert.deepEqual(await approvalStatus(deps(), lost.id, { client: 'xos-mcp' }), {
      state: 'failed', id: lost.id, kind: 'save', decidedAt: new Date(T0 + 22 * MINUTE).toISOString(), outcome: { kind: 'interrupted', ok: false, mail: false },
    });
    assert.equal((await approvedEntries(client, { entity: 'person', id: '103' })).length, 1);
    assert.equal((await approvedEntries(client, { entity: 'person', id: '104' })).length, 0);
    assert.notEqual((await people(client)).get('104')!.city, 'Lost');
  });

  test('the Board\'s own Save took an approval and the process stopped before recording it: the sweep finds that write too', async () => {
    now = T0 + 23 * MINUTE;
    const taken = await request(await preparedSave('105', 'By the Board'), { client: 'xos-mcp' });
    // As the Board's Save does (BoardDecisions.writing): taken, then written with the person's confirmation naming it; then the stop.
    assert.equal(await boardWriting(deps(), taken.id, 'Anna'), true);
    const payload = taken.payload as RecordPayload;
    const write = await writeRecords(client, payload, { path: 'board', approval: confirmedText('Save', [{ field: 'city' }], [taken.id]) });
    assert.equal(write.kind, 'written');
    now += 3 * MINUTE;
    await sweepApprovals(deps());
    const settled = await approvalStatus(deps(), taken.id, { client: 'xos-mcp' });
    assert.equal(settled.state, 'approved', 'the write the Board made for it is found; it is not called interrupted');
    assert.equal((await people(client)).get('105')!.city, 'By the Board');
  });

  test('a backend that refuses to take the write leaves the approval pending; a write whose answer is lost is found by its approval id', async () => {
    now = T0 + 25 * MINUTE;
    const busy = await request(await preparedSave('107', 'Busy'), { client: 'xos-mcp' });
    const overloaded: XosClient = { ...client, run: async (query, variables, audit) => (audit ? Promise.reject(new BackendUnavailableError('503 Service Unavailable', 503)) : client.run(query, variables)) };
    const notTaken = await decideApproval(deps({ client: overloaded }), busy.id, 'approve', 'Anna');
    assert.deepEqual(notTaken.kind === 'not_committed' && notTaken.why, { kind: 'unavailable', reason: '503 Service Unavailable' });
    assert.equal((await store.get(busy.id))!.state, 'pending');
    assert.equal((await store.get(busy.id))!.decidedBy, undefined);
    assert.equal((await decideApproval(deps(), busy.id, 'approve', 'Anna')).kind, 'decided', 'the person may approve it again');
    assert.equal((await people(client)).get('107')!.city, 'Busy');

    const lost = await request(await preparedSave('108', 'Lost answer'), { client: 'xos-mcp' });
    const hangingUp: XosClient = { ...client, run: async (query, variables, audit) => {
      const result = await client.run(query, variables, audit);
      if (audit) throw new Error('socket hang up');
      return result;
    } };
    const settled = await decideApproval(deps({ client: hangingUp }), lost.id, 'approve', 'Anna');
    assert.equal(settled.kind === 'decided' && settled.approval.state, 'approved', JSON.stringify(settled));
    assert.equal(settled.kind === 'decided' && settled.approval.outcome?.kind === 'saved' && settled.approval.outcome.lostAnswer, 'socket hang up');
    assert.equal((await approvedEntries(client, { entity: 'person', id: '108' })).length, 1);
  });

  test('delete and send: approved ones are done once, exactly as requested; a declined mail is never sent', async () => {
    now = T0 + 30 * MINUTE;
    const inserted = await client.run('mutation { insert_person(object: { firstname: "Ada", lastname: "Gone" }) { id } }');
    const goneId = String((inserted.data!.insert_person as { id: string }).id);
    await showRecord(board, 'person_detail', goneId);
    const deletion = prepareDelete(board);
    assert.ok('payload' in deletion);
    const approvedDelete = await request(deletion, { client: 'xos-mcp' });
    board.board.showMail({ to: { name: 'Kim Example', email: 'kim@example.org' }, subject: 'Your order', body: 'It ships today.' });
    const send = prepareSend(board.board, deps().mailer!.from);
    assert.ok('payload' in send);
    assert.equal(send.payload.from, 'XOS <crm@xos.example>');
    const approvedSend = await request(send, { client: 'xos-mcp' });
    const otherAccount = { send: async () => assert.fail('never sent from another account'), from: 'Someone <else@xos.example>' };
    const refused = await decideApproval(deps({ mailer: otherAccount }), approvedSend.id, 'approve', 'Anna');
    assert.deepEqual(refused.kind === 'not_committed' && refused.why, { kind: 'other_sender', requestedFrom: 'XOS <crm@xos.example>', now: 'Someone <else@xos.example>' });
    assert.equal((await store.get(approvedSend.id))!.state, 'pending');
    const draft: MailDraft = { to: { email: 'nobody@example.org' }, subject: 'Never', body: 'Declined.' };
    const declinedSend = await request({ kind: 'send', payload: { kind: 'send', draft }, summary: draft }, { client: 'xos-mcp' });
    board.board.clearMail();

    const deleted = await decideApproval(deps(), approvedDelete.id, 'approve', 'Anna');
    assert.deepEqual(deleted.kind === 'decided' && deleted.approval.outcome, { kind: 'deleted', ok: true, entity: 'person', id: goneId });
    assert.equal((await people(client)).has(goneId), false);
    assert.equal((await decideApproval(deps(), declinedSend.id, 'decline', 'Anna')).kind, 'decided');
    const sent = await decideApproval(deps(), approvedSend.id, 'approve', 'Anna');
    assert.equal(sent.kind === 'decided' && sent.approval.state, 'approved', JSON.stringify(sent));
    assert.equal((await decideApproval(deps(), approvedSend.id, 'approve', 'Anna')).kind, 'already_decided');
    assert.equal(smtp.received.length, 1);
    assert.deepEqual(smtp.received[0].to, ['kim@example.org']);
    assert.match(smtp.received[0].raw, /Subject: Your order/);
    const audited = await approvedEntries(client);
    assert.equal(audited.filter((e) => e.approval.includes(approvedSend.id) && e.action === 'mail').length, 1);
    assert.equal(audited.filter((e) => e.approval.includes(approvedDelete.id) && e.action === 'delete').length, 1);
  });

  test('a reviewed batch and a new record: approved as requested; a batch with a row changed after the request is void as a whole', async () => {
    now = T0 + 30 * MINUTE;
    const list = client.ast().contexts.person_list;
    const before = await people(client);
    const proposed = await proposeBatch(board, 'person_list', list, [{ id: '110', city: 'B1' }, { id: '111', city: 'B2' }, { id: '112', city: 'B3' }]);
    assert.equal(proposed.ok, true, JSON.stringify(proposed));
    const batch = await prepareSave(board);
    assert.ok('payload' in batch && batch.kind === 'batch', JSON.stringify(batch));
    assert.deepEqual(batch.payload.rows.map((r) => [r.id, r.version, r.set]), ['110', '111', '112'].map((id, i) => [id, before.get(id)!.version, { city: `B${i + 1}` }]));
    const approvedBatch = await request(batch, { client: 'xos-mcp' });
    board.board.closeReview();
    await proposeBatch(board, 'person_list', list, [{ id: '113', city: 'V1' }, { id: '114', city: 'V2' }]);
    const stale = prepareReview(board, board.board.review()!);
    assert.ok('payload' in stale);
    const voidBatch = await request(stale, { client: 'xos-mcp' });
    board.board.closeReview();
    await client.run('mutation($v: Int!) { update_person(id: "114", version: $v, set: { city: "Theirs" }) { version } }', { v: before.get('114')!.version });

    newRecord(board, 'person_list');
    board.board.edit('firstname', 'Neu');
    board.board.edit('lastname', 'Angelegt');
    const creation = await prepareSave(board);
    assert.ok('payload' in creation && creation.kind === 'create', JSON.stringify(creation));
    const approvedCreate = await request(creation, { client: 'xos-mcp' });

    const saved = await decideApproval(deps(), approvedBatch.id, 'approve', 'Anna');
    const outcome = saved.kind === 'decided' ? saved.approval.outcome : undefined;
    assert.ok(outcome?.kind === 'batch_saved' && outcome.batch, JSON.stringify(saved));
    assert.deepEqual(outcome, { kind: 'batch_saved', ok: true, entity: 'person', records: 3, cells: 3, fields: ['city'], batch: outcome.batch });
    assert.equal(await batchSize(board, outcome.batch), 3, 'the audit batch names the three rows (an undo of the whole batch finds them)');
    const voided = await decideApproval(deps(), voidBatch.id, 'approve', 'Anna');
    assert.deepEqual(voided.kind === 'decided' && [voided.approval.state, voided.approval.outcome], ['void', { kind: 'record_changed', ok: false, entity: 'person', ids: ['114'] }]);
    const created = await decideApproval(deps(), approvedCreate.id, 'approve', 'Anna');
    assert.equal(created.kind === 'decided' && created.approval.outcome?.kind, 'created', JSON.stringify(created));
    const newId = created.kind === 'decided' && created.approval.outcome?.kind === 'created' ? created.approval.outcome.id : '';

    const after = await people(client);
    assert.deepEqual(['110', '111', '112', '113', '114'].map((id) => after.get(id)!.city), ['B1', 'B2', 'B3', before.get('113')!.city, 'Theirs']);
    assert.ok(after.has(newId));
    const audited = await approvedEntries(client, { entity: 'person' });
    assert.equal(audited.filter((e) => e.approval.includes(approvedBatch.id)).length, 3);
    assert.equal(audited.filter((e) => e.approval.includes(voidBatch.id)).length, 0);
    assert.deepEqual(audited.filter((e) => e.approval.includes(approvedCreate.id)).map((e) => [e.action, e.record_id]), [['create', newId]]);
  });

  test('decided approvals are deleted after the retention; pending ones stay', async () => {
    now = T0 + 31 * MINUTE;
    const waiting = await request(await preparedSave('106', 'Later'), { client: 'keep' }, 30 * 24 * 60 * MINUTE);
    now = T0 + 8 * 24 * 60 * MINUTE;
    const swept = await sweepApprovals(deps());
    assert.ok(swept.deleted >= 100, JSON.stringify(swept));
    assert.deepEqual((await pendingApprovals(deps())).map((a) => a.id), [waiting.id]);
  });
});
