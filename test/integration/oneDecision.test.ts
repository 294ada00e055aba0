// A pending approval and the review or form the person sees are one decision. The agent proposes
// a bulk change (xos_ui_change_required with where/set) and asks to save it without an MCP
// session, so it waits on the desk; the person unchecks a row in the review grid, types their own
// value, edits the form: the desk's question shows the result before the click, Approve writes
// exactly that (approve-with-changes), bound to the hash the desk showed, once; and when the
// person's changes leave nothing to write, Approve says so and writes nothing.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { showRecord } from '../../src/core/show.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { buildAuditQuery } from '../../src/graphql/requests.ts';
import { startMcpHttpServer } from '../../src/mcp/http.ts';
import { startDecisionApp, type DecisionApp } from '../support/decisionApp.ts';
import { eraClient } from '../support/mcpClient.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

let backend: Backend;
let client: XosClient;
let dir: TempDir;
let decisions: DecisionApp;

before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  client = embeddedClient(backend);
  dir = await tempDir('one-decision');
  decisions = await startDecisionApp(client, new SqliteApprovalStore(join(dir.path, APPROVALS_FILE)));
});
after(async () => {
  await decisions?.close();
  await backend?.close();
  await dir?.remove();
});

interface Person { readonly id: string; readonly city: string | null; readonly version: number }

async function people(ids: readonly string[]): Promise<Person[]> {
  const result = await client.run('query ($where: person_bool_exp) { person_list(where: $where, order_by: [{ id: asc }]) { id city version } }', { where: { id: { _in: ids } } });
  return (result.data!.person_list as Person[]).map((p) => ({ id: String(p.id), city: p.city, version: p.version }));
}

/** Audit entries of writes made through a stored approval, per record. */
async function approvedWrites(id: string): Promise<number> {
  const request = buildAuditQuery({ entity: 'person', id }, 500);
  const result = await client.run(request.query, request.variables);
  return (result.data![request.root] as Array<{ approval: string | null }>).filter((e) => e.approval?.includes('[approval ')).length;
}

const approvalOf = (text: string) => {
  const id = /approval: "([^"]+)"/.exec(text)?.[1];
  assert.ok(id, text);
  return id;
};

const EIGHT = ['7', '8', '9', '10', '11', '12', '13', '14'];

test('finding 2: a row unchecked in the review grid is not written when the person approves on the desk', async () => {
  const { app, sessionless } = decisions;
  const before = await people(EIGHT);
  const proposed = await sessionless('xos_ui_change_required', { context: 'person_list', changes: { where: { id: { _in: EIGHT } }, set: { city: 'Bulkhausen' } } });
  assert.equal(proposed.isError, false, proposed.text);
  assert.equal(app.state.review()?.size, 8);
  const reply = await sessionless('xos_ui_save');
  assert.equal(reply.isError, false, reply.text);
  const id = approvalOf(reply.text);
  const desk = app.approvalDesk!;
  const [asked] = await desk.pending();
  assert.match(asked.question, /^Save changes to 8 records of Person\?/);

  // The person unchecks row 14 in the grid: the desk's question follows before any click.
  app.state.reviewDecide(false, '14');
  const [view] = await desk.pending();
  assert.equal(view.id, id);
  assert.match(view.question, /^With your changes on the Board: Save changes to 7 records of Person\?/);
  assert.ok(view.hash && view.hash !== asked.hash, 'the desk binds the question it shows by its own hash');

  const outcome = await desk.decide(id, 'approve', view.hash);
  assert.equal(outcome.kind, 'approved', JSON.stringify(outcome));
  const after = await people(EIGHT);
  for (const [i, person] of after.entries()) {
    if (person.id === '14') assert.deepEqual(person, before[i], 'the unchecked row is untouched');
    else assert.deepEqual(person, { id: person.id, city: 'Bulkhausen', version: before[i].version + 1 });
  }
  assert.equal(await approvedWrites('14'), 0);
  assert.equal(await approvedWrites('13'), 1);
  assert.equal(app.state.review(), undefined, 'the written review is done: no row of it is "changed meanwhile"');
  assert.deepEqual(await desk.pending(), []);
  assert.deepEqual(await desk.decide(id, 'approve', view.hash), { kind: 'gone' }, 'written at most once');
  const told = await sessionless('xos_ui_save', { approval: id });
  assert.match(told.text, /^The person approved .*7 person records/, told.text);
});

test('a value typed into the grid after the desk showed the request: Approve with the old hash writes nothing; with the new one, exactly the typed value', async () => {
  const { app, sessionless } = decisions;
  const ids = ['20', '21', '22'];
  const before = await people(ids);
  await sessionless('xos_ui_change_required', { context: 'person_list', changes: { where: { id: { _in: ids } }, set: { city: 'Agentstadt' } } });
  const id = approvalOf((await sessionless('xos_ui_save')).text);
  const desk = app.approvalDesk!;
  const [shown] = await desk.pending();
  app.state.reviewEdit('21', 'city', 'Personenhausen');
  const stale = await desk.decide(id, 'approve', shown.hash);
  assert.equal(stale.kind, 'failed');
  assert.match((stale as { text: string }).text, /changed after the list showed it/);
  assert.deepEqual(await people(ids), before, 'nothing written on a hash the person did not see');

  const [now] = await desk.pending();
  assert.notEqual(now.hash, shown.hash);
  assert.match(now.question, /Personenhausen/);
  assert.equal((await desk.decide(id, 'approve', now.hash)).kind, 'approved');
  assert.deepEqual((await people(ids)).map((p) => p.city), ['Agentstadt', 'Personenhausen', 'Agentstadt']);
});

test('every row unchecked: Approve says nothing is left to write and writes nothing; the request still waits', async () => {
  const { app, sessionless } = decisions;
  const ids = ['30', '31'];
  const before = await people(ids);
  await sessionless('xos_ui_change_required', { context: 'person_list', changes: { where: { id: { _in: ids } }, set: { city: 'Nirgendwo' } } });
  const id = approvalOf((await sessionless('xos_ui_save')).text);
  app.state.reviewDecide(false);
  const desk = app.approvalDesk!;
  const [view] = await desk.pending();
  assert.match(view.question, /^Nothing left to write/);
  assert.equal(view.hash, undefined);
  const outcome = await desk.decide(id, 'approve');
  assert.equal(outcome.kind, 'failed');
  assert.match((outcome as { text: string }).text, /leave nothing to write/);
  assert.deepEqual(await people(ids), before);
  assert.deepEqual((await desk.pending()).map((p) => p.id), [id]);
  assert.deepEqual(await desk.decide(id, 'decline'), { kind: 'declined' });
});

test('the form: a field the person edits after the request is part of what Approve writes; once the Board shows another record, the request stands as asked', async () => {
  const { app, sessionless } = decisions;
  await showRecord(app.deps(), 'person_detail', '40');
  app.controller.board.edit('city', 'Formstadt');
  const id = approvalOf((await sessionless('xos_ui_save')).text);
  app.controller.board.edit('zip', '24103');
  const desk = app.approvalDesk!;
  const [view] = await desk.pending();
  assert.match(view.question, /^With your changes on the Board: Save changes to Person Ole [^(]+ \(#40\)\? ZIP code: .* → 24103; City: .* → Formstadt$/);
  assert.equal((await desk.decide(id, 'approve', view.hash)).kind, 'approved');
  const stored = (await client.run('{ person_detail(id: "40") { city zip version } }')).data!.person_detail as { city: string; zip: string; version: number };
  assert.deepEqual({ city: stored.city, zip: stored.zip }, { city: 'Formstadt', zip: '24103' });
  // The form shows the stored record: nothing unsaved, no conflict with its own write (also once the change feed told it).
  await until('the form shows the stored record', () => app.state.snapshot().detail?.version === stored.version);
  const shown = app.state.snapshot();
  assert.deepEqual([shown.edited, shown.pending, shown.conflicts, shown.detail?.version], [[], {}, {}, stored.version]);

  await showRecord(app.deps(), 'person_detail', '41');
  app.controller.board.edit('city', 'Asked');
  const second = approvalOf((await sessionless('xos_ui_save')).text);
  await showRecord(app.deps(), 'person_detail', '42');
  const [asRequested] = await desk.pending();
  assert.match(asRequested.question, /^Save changes to Person Paul [^(]+ \(#41\)\? City: .* → Asked/);
  assert.equal((await desk.decide(second, 'approve', asRequested.hash)).kind, 'approved');
  assert.equal(((await client.run('{ person_detail(id: "41") { city } }')).data!.person_detail as { city: string }).city, 'Asked');
});

test('a proposal the agent makes on the form after its request is not the person\'s: the request stands as asked, and Approve writes only that', async () => {
  const { app, sessionless } = decisions;
  await showRecord(app.deps(), 'person_detail', '43');
  app.controller.board.edit('city', 'Gefragt');
  const id = approvalOf((await sessionless('xos_ui_save')).text);
  const sneaked = await sessionless('xos_ui_change_required', { context: 'person_detail', changes: { notes: 'added after the request' } });
  assert.equal(sneaked.isError, false, sneaked.text);
  const desk = app.approvalDesk!;
  const [view] = await desk.pending();
  assert.match(view.question, /^Save changes to Person Helga [^(]+ \(#43\)\? City: .* → Gefragt$/);
  assert.equal((await desk.decide(id, 'approve', view.hash)).kind, 'approved');
  const stored = (await client.run('{ person_detail(id: "43") { city notes } }')).data!.person_detail as { city: string; notes: string | null };
  assert.equal(stored.city, 'Gefragt');
  assert.notEqual(stored.notes, 'added after the request');
});

test('the Board\'s own Save of the review an approval was asked from decides that approval: it leaves the desk, and the agent learns what was written', async () => {
  const { app, sessionless, withSession, questions } = decisions;
  const ids = ['50', '51', '52'];
  app.state.discard(); // the form the last test left
  const proposed = await sessionless('xos_ui_change_required', { context: 'person_list', changes: { where: { id: { _in: ids } }, set: { city: 'Boardstadt' } } });
  assert.equal(proposed.isError, false, proposed.text);
  const id = approvalOf((await sessionless('xos_ui_save')).text);
  app.state.reviewDecide(false, '51');
  questions.answers = ['save'];
  const saved = await withSession('xos_ui_save');
  assert.equal(saved.isError, false, saved.text);
  assert.deepEqual(await app.approvalDesk!.pending(), [], 'nothing the person decided still waits');
  const told = await sessionless('xos_ui_save', { approval: id });
  assert.match(told.text, /^The person approved .*2 person records/, told.text);
  assert.deepEqual((await people(ids)).map((p) => p.city === 'Boardstadt'), [true, false, true]);
});

test('a new record asked for and approved on the desk is created once: the form then shows the created record; saved on the Board instead, the approval is decided by that Save', async () => {
  const { app, sessionless, withSession, questions } = decisions;
  const count = async () => Number((await client.run('{ person_list_count }')).data!.person_list_count);
  const before = await count();
  app.controller.board.showNew('person_detail');
  app.controller.board.edit('firstname', 'Neu');
  app.controller.board.edit('lastname', 'Angelegt');
  const id = approvalOf((await sessionless('xos_ui_save')).text);
  const [view] = await app.approvalDesk!.pending();
  assert.match(view.question, /^Create a new Person\?/);
  assert.equal((await app.approvalDesk!.decide(id, 'approve', view.hash)).kind, 'approved');
  assert.equal(await count(), before + 1);
  assert.equal(app.state.snapshot().detail?.isNew, undefined, 'the form shows the created record, not the new one again');
  const again = await sessionless('xos_ui_save');
  assert.equal(again.isError, true, again.text);
  assert.equal(await count(), before + 1, 'created once');

  app.controller.board.showNew('person_detail');
  app.controller.board.edit('firstname', 'Zweite');
  app.controller.board.edit('lastname', 'Person');
  const second = approvalOf((await sessionless('xos_ui_save')).text);
  questions.answers = ['save'];
  assert.equal((await withSession('xos_ui_save')).isError, false);
  assert.deepEqual(await app.approvalDesk!.pending(), [], 'the Board\'s Save decided it');
  assert.match((await sessionless('xos_ui_save', { approval: second })).text, /^The person approved/);
  assert.equal(await count(), before + 2, 'each created once');
});

test('protocol 2026-07-28 with a client that waits in rounds: the person unchecks a row while the call waits and approves on the desk; the same call says what was written', async () => {
  const { app } = decisions;
  const token = 'one-decision-token-0123456789abcdef';
  const http = await startMcpHttpServer(() => app.deps(), { token });
  const mcp = eraClient('rounds-agent', 'modern');
  mcp.registerCapabilities({ elicitation: { form: {} } });
  const ids = ['60', '61', '62', '63'];
  const before = await people(ids);
  let rounds = 0;
  mcp.setRequestHandler('elicitation/create', async () => {
    rounds++;
    // While the agent's call waits, the person works on the grid and decides on the desk what it shows.
    app.state.reviewDecide(false, '62');
    const [view] = await app.approvalDesk!.pending();
    assert.match(view.question, /^With your changes on the Board: Save changes to 3 records of Person\?/);
    assert.equal((await app.approvalDesk!.decide(view.id, 'approve', view.hash)).kind, 'approved');
    return { action: 'accept' };
  });
  try {
    await mcp.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    assert.equal(mcp.getProtocolEra(), 'modern');
    const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    const handle = (JSON.parse(text(await mcp.callTool({ name: 'xos_schema', arguments: {} }))) as { handle: string }).handle;
    app.state.discard();
    const proposed = await mcp.callTool({ name: 'xos_ui_change_required', arguments: { handle, context: 'person_list', changes: { where: { id: { _in: ids } }, set: { city: 'Rundenstadt' } } } });
    assert.equal(proposed.isError, undefined, text(proposed));
    const saved = await mcp.callTool({ name: 'xos_ui_save', arguments: { handle } });
    assert.equal(rounds, 1);
    assert.match(text(saved), /^The person approved \(approval "[^"]+"\)\. .*3 person records/, text(saved));
    const after = await people(ids);
    assert.deepEqual(after.map((p) => p.city === 'Rundenstadt'), [true, true, false, true]);
    assert.deepEqual(after[2], before[2], 'the unchecked row is untouched');
  } finally {
    await mcp.close();
    await http.close();
  }
});
