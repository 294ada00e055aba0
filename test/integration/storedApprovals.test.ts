// Stored approvals end to end, in process: an agent's request without an MCP session (a fresh
// server and McpSession per request, as a server of requests without sessions builds them) to
// save or send is answered at once with an approval id; the Board's desk lists it in the words of
// the blocking question; the person decides there; the agent's next call with `approval` learns
// the outcome. Written once when approved; nothing when declined, expired, or void after someone
// else changed the record. Another client learns nothing of it.
import { headlessApp } from '../support/headlessApp.ts';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { XosApp } from '../../src/app/xosApp.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import type { Confirmer, Mailer, XosClient } from '../../src/core/domain.ts';
import { sendMailDraft } from '../../src/core/mailSend.ts';
import { showRecord } from '../../src/core/show.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { buildAuditQuery } from '../../src/graphql/requests.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import { WorkflowHandles } from '../../src/mcp/handles.ts';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { createXosMcpServer, requesterCredential } from '../../src/mcp/server.ts';
import { McpSession } from '../../src/mcp/session.ts';
import { requestStored } from '../../src/mcp/approvalFlow.ts';
import { resultText } from '../../src/mcp/result.ts';
import { prepareSave } from '../../src/core/save.ts';
import { startMcpHttpServer } from '../../src/mcp/http.ts';
import { eraClient } from '../support/mcpClient.ts';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

const AGENT = 'agent via http';
/** The endpoint's credential, as the HTTP endpoint names it for every request it answers. */
const CREDENTIAL = requesterCredential({ token: 'stored-approvals-test-token-0123456789' });
const MINUTE = 60_000;

let backend: Backend;
let client: XosClient;
let dir: TempDir;
let smtp: TestSmtpServer;
let app: XosApp;
let now = Date.now();
/** Questions asked at once: none in this flow. */
const asked: string[] = [];
const handles = new WorkflowHandles();

before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  client = embeddedClient(backend);
  dir = await tempDir('stored-approvals');
  smtp = await startTestSmtpServer({ certificate: await testCertificate() });
  const mailer: Mailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'none', user: '', from: 'XOS <crm@xos.example>' });
  app = headlessApp({
    client,
    mailer,
    ask: async ({ message }) => { asked.push(message); return undefined; },
    storedApprovals: {
      store: new SqliteApprovalStore(join(dir.path, APPROVALS_FILE)),
      backend: () => 'sqlite::memory:',
      person: () => 'anna',
      warn: (text) => assert.fail(text),
      now: () => now,
    },
  });
});
after(async () => {
  app?.dispose();
  await smtp?.close();
  await backend?.close();
  await dir?.remove();
});

interface Reply { readonly text: string; readonly isError: boolean }

/** One request without an MCP session: a fresh server and session of `caller`, one tool call, closed. */
async function call(tool: string, args: Record<string, unknown> = {}, caller = AGENT): Promise<Reply> {
  const server = createXosMcpServer(() => app.deps(), new McpSession({ handles, client: caller, credential: CREDENTIAL }, XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: caller, version: '1' });
  await mcp.connect(clientSide);
  try {
    const result = await mcp.callTool({ name: tool, arguments: args }) as CallToolResult;
    return { text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), isError: result.isError === true };
  } finally {
    await mcp.close();
    await server.close();
  }
}

async function handleOf(caller = AGENT): Promise<string> {
  return (JSON.parse((await call('xos_schema', {}, caller)).text) as { handle: string }).handle;
}

async function city(id: string): Promise<{ city: string | null; version: number }> {
  const result = await client.run(`{ person_detail(id: "${id}") { city version } }`);
  return result.data!.person_detail as { city: string | null; version: number };
}

/** Audit entries of writes approved through a stored approval, for one record. */
async function approvedWrites(id: string): Promise<number> {
  const request = buildAuditQuery({ entity: 'person', id }, 500);
  const result = await client.run(request.query, request.variables);
  return (result.data![request.root] as Array<{ approval: string | null }>).filter((e) => e.approval?.includes('[approval ')).length;
}

/** The Board shows the record with the city edited; the agent asks to save it and is answered at once. */
async function requestSave(id: string, newCity: string, handle: string): Promise<{ id: string; reply: Reply }> {
  await showRecord(app.deps(), 'person_detail', id);
  app.controller.board.edit('city', newCity);
  const reply = await call('xos_ui_save', { handle });
  assert.equal(reply.isError, false, reply.text);
  const approval = /approval: "([^"]+)"/.exec(reply.text)?.[1];
  assert.ok(approval, reply.text);
  return { id: approval, reply };
}

test('a save without a session waits on the Board; approved there, the agent\'s next call says saved, written once', async () => {
  const handle = await handleOf();
  const before = await city('2');
  const { id, reply } = await requestSave('2', 'Kiel', handle);
  assert.deepEqual(asked, [], 'nobody is asked at once');
  assert.match(reply.text, /^Nothing is written yet\. Waiting for the person's decision on: save changes to person "2" \(city: "[^"]*" -> "Kiel"\)\.\n/);
  assert.match(reply.text, /The person decides on the XOS Board page \(http:\/\/127\.0\.0\.1:4711\/\); the request expires at \d{4}-\d\d-\d\dT/);
  assert.ok(reply.text.endsWith(`Call xos_ui_save again with approval: "${id}" to learn the outcome.`), reply.text);
  assert.deepEqual(await city('2'), before, 'nothing is written before the decision');

  const desk = app.approvalDesk!;
  const [view] = await desk.pending();
  assert.equal(view.id, id);
  assert.equal(view.requester, 'The agent (agent via http) for anna');
  // The person is asked in their words; the agent was told the same request in its own (src/mcp/wording.ts).
  assert.match(view.question, /^Save changes to Person Michael [^(]+ \(#2\)\? City: .* → Kiel/);

  const waiting = await call('xos_ui_save', { handle, approval: id });
  assert.equal(waiting.isError, false);
  assert.match(waiting.text, /^Still waiting for the person's decision/);

  const decided = await desk.decide(id, 'approve');
  assert.equal(decided.kind, 'approved');
  assert.match((decided as { text: string }).text, /^Saved Person 2\.( |$)/);
  const outcome = await call('xos_ui_save', { handle, approval: id });
  assert.equal(outcome.isError, false, outcome.text);
  assert.match(outcome.text, new RegExp(`^The person approved \\(approval "${id}"\\)\\. .*Kiel`));
  assert.deepEqual(await city('2'), { city: 'Kiel', version: before.version + 1 });
  assert.deepEqual(await call('xos_ui_save', { handle, approval: id }), outcome, 'asking again writes nothing again');
  await until('the Board shows the stored record', () => app.state.snapshot().detail?.version === before.version + 1);
  assert.deepEqual(app.state.snapshot().edited ?? [], [], 'the written change is no longer unsaved on the Board');
  assert.deepEqual(await call('xos_ui_save', { handle }), { text: 'Nothing to save: the form matches the stored record. Propose changes with xos_ui_change_required first.', isError: true }, 'a written change is not asked for again');
  assert.equal(await approvedWrites('2'), 1);
  assert.deepEqual(await desk.decide(id, 'approve'), { kind: 'gone' });
  assert.deepEqual(await desk.pending(), []);
});

test('declined on the Board, expired, or asked about by another client: nothing is written', async () => {
  const handle = await handleOf();
  const before = await city('3');
  const declined = await requestSave('3', 'Declined', handle);
  assert.deepEqual(await app.approvalDesk!.decide(declined.id, 'decline'), { kind: 'declined' });
  const no = await call('xos_ui_save', { handle, approval: declined.id });
  assert.equal(no.isError, true);
  assert.match(no.text, /^The person declined .*nothing was written/);

  const expiring = await requestSave('3', 'Too late', handle);
  now += 16 * MINUTE;
  const late = await call('xos_ui_save', { handle, approval: expiring.id });
  assert.equal(late.isError, true);
  assert.match(late.text, /^The request expired at .* nothing was written\. If it is still wanted, call xos_ui_save without approval to ask again\.$/);
  assert.deepEqual(await app.approvalDesk!.pending(), []);
  assert.deepEqual(await city('3'), before);

  const mine = await requestSave('3', 'Mine', handle);
  const otherHandle = await handleOf('other-agent via http');
  const foreign = await call('xos_ui_save', { handle: otherHandle, approval: mine.id }, 'other-agent via http');
  assert.equal(foreign.isError, true);
  assert.match(foreign.text, /^XOS knows no approval ".*" of this client and conversation .* Call xos_ui_save without approval to ask the person again\.$/);
  assert.deepEqual(await app.approvalDesk!.decide(mine.id, 'decline'), { kind: 'declined' });
});

test('a record changed by someone else after the request makes it void: the Board drops it, the agent is told to show it again', async () => {
  const handle = await handleOf();
  const { id } = await requestSave('4', 'Void', handle);
  const { version } = await city('4');
  const other = embeddedClient(backend);
  const written = await other.run('mutation ($id: ID!, $version: Int!) { update_person(id: $id, version: $version, set: { city: "Elsewhere" }) { version } }', { id: '4', version });
  assert.equal(written.errors, undefined, JSON.stringify(written.errors));
  await until('the change feed voids the approval', async () => (await app.approvalDesk!.pending()).length === 0);
  const reply = await call('xos_ui_save', { handle, approval: id });
  assert.equal(reply.isError, true);
  assert.equal(reply.text, `Not written: the record was changed after your request (approval "${id}"); nothing was written. Show it again with xos_render and ask the person again.`);
  assert.equal((await city('4')).city, 'Elsewhere');
  assert.equal(await approvedWrites('4'), 0);
});

test('a mail without a session waits on the Board; approved there, it is sent once through the mail server', async () => {
  app.controller.board.showMail({ to: { name: 'Kim Example', email: 'kim@example.org' }, subject: 'Your order', body: 'It ships today.' });
  const reply = await call('xos_mail_send');
  assert.equal(reply.isError, false, reply.text);
  assert.match(reply.text, /^Nothing is written yet\. Waiting for the person's decision on: send the mail to "kim@example\.org" \(subject "Your order"\)\./);
  const id = /approval: "([^"]+)"/.exec(reply.text)![1];
  assert.equal(smtp.received.length, 0, 'nothing is sent before the decision');
  const [view] = await app.approvalDesk!.pending();
  assert.equal(view.kind, 'send');
  assert.equal((await app.approvalDesk!.decide(id, 'approve')).kind, 'approved');
  assert.equal(smtp.received.length, 1);
  assert.deepEqual(smtp.received[0].to, ['kim@example.org']);
  const sent = await call('xos_mail_send', { approval: id });
  assert.equal(sent.isError, false, sent.text);
  assert.match(sent.text, /^The person approved .*kim@example\.org/);
  assert.equal(smtp.received.length, 1, 'sent once');
  assert.equal(app.state.snapshot().mail, undefined, 'the sent draft left the Board');
  const again = await call('xos_mail_send');
  assert.match(again.text, /^Already sent to kim@example\.org at .* Compose a new mail with xos_mail_compose to send another\.$/, 'a sent mail is not asked for again');
  assert.deepEqual(await app.approvalDesk!.pending(), []);
  assert.equal(smtp.received.length, 1, 'sent once');
});

test('the person sends the same mail with the Board\'s own Send while it waits on the desk: it goes out once, and the desk\'s approval says so', async () => {
  const draft = { to: { name: 'Lu Example', email: 'lu@example.org' }, subject: 'Your invoice', body: 'It is attached.' };
  app.controller.board.showMail(draft);
  const reply = await call('xos_mail_send');
  assert.equal(reply.isError, false, reply.text);
  const id = /approval: "([^"]+)"/.exec(reply.text)![1];
  const before = smtp.received.length;
  const deps = app.deps();
  assert.ok(deps.boardSending && deps.mailer, 'the app takes stored approvals of the mail the Board sends');
  // The person's own Send on the Board, confirmed.
  const sendAnswer: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'send' };
  const outcome = await sendMailDraft({ board: app.controller.board, confirmer: sendAnswer, mailer: deps.mailer, client: deps.client, claimSend: deps.boardSending }, new AbortController().signal, 'board');
  assert.equal(outcome.kind, 'sent', JSON.stringify(outcome));
  assert.equal(smtp.received.length, before + 1);
  // The desk no longer offers it, and Approve there sends nothing.
  assert.deepEqual((await app.approvalDesk!.pending()).map((view) => view.id).filter((pending) => pending === id), []);
  assert.equal((await app.approvalDesk!.decide(id, 'approve')).kind, 'gone');
  assert.equal(smtp.received.length, before + 1, 'sent once');
  const status = await call('xos_mail_send', { approval: id });
  assert.equal(status.isError, false, status.text);
  assert.match(status.text, /^The person approved .*lu@example\.org/);
});

test('the person edits the mail on the Board while the agent\'s send waits: the desk shows and sends the edited mail, once; a new draft of the agent ends that', async () => {
  const draft = { to: { name: 'Mo Example', email: 'mo@example.org' }, subject: 'Offer', body: 'Our offer, as discussed.' };
  app.controller.board.showMail(draft);
  const reply = await call('xos_mail_send');
  const id = /approval: "([^"]+)"/.exec(reply.text)![1];
  const before = smtp.received.length;
  // The person's edit on the page (what the Board's mail actions do with it).
  app.state.editMail({ ...draft, subject: 'Offer, revised' });
  const [shown] = (await app.approvalDesk!.pending()).filter((view) => view.id === id);
  assert.match(shown.question, /^With your changes on the Board: Send this mail to .*Subject: Offer, revised\./);
  assert.equal((await app.approvalDesk!.decide(id, 'approve', shown.hash)).kind, 'approved');
  assert.equal(smtp.received.length, before + 1, 'sent once');
  assert.match(smtp.received.at(-1)!.raw, /Subject: Offer, revised/);
  assert.equal(app.state.snapshot().mail, undefined, 'the sent draft left the Board');

  // A draft the agent composes anew is not the person's edit: the request waits as it was asked.
  app.controller.board.showMail(draft);
  const second = /approval: "([^"]+)"/.exec((await call('xos_mail_send')).text)![1];
  app.controller.board.showMail({ ...draft, subject: 'Something else' });
  const [asked] = (await app.approvalDesk!.pending()).filter((view) => view.id === second);
  assert.match(asked.question, /^Send this mail to .*Subject: Offer\./);
  assert.equal((await app.approvalDesk!.decide(second, 'decline')).kind, 'declined');
  assert.equal(smtp.received.length, before + 1);

  // The person edits the draft and sends it with the Board's own Send: that decides the waiting request.
  app.controller.board.showMail(draft);
  const third = /approval: "([^"]+)"/.exec((await call('xos_mail_send')).text)![1];
  app.state.editMail({ ...draft, body: 'Our offer, with the discount.' });
  const deps = app.deps();
  const sendAnswer: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'send' };
  const outcome = await sendMailDraft({ board: app.controller.board, confirmer: sendAnswer, mailer: deps.mailer!, client: deps.client, claimSend: deps.boardSending }, new AbortController().signal, 'board');
  assert.equal(outcome.kind, 'sent', JSON.stringify(outcome));
  assert.equal(smtp.received.length, before + 2);
  assert.match(smtp.received.at(-1)!.raw, /with the discount/);
  assert.equal((await app.approvalDesk!.decide(third, 'approve')).kind, 'gone');
  assert.equal(smtp.received.length, before + 2, 'the desk sends nothing more');
  assert.match((await call('xos_mail_send', { approval: third })).text, /^The person approved .*mo@example\.org/);
});

test('a requester with too many approvals waiting is refused with what to do', async () => {
  await showRecord(app.deps(), 'person_detail', '5');
  app.controller.board.edit('city', 'Full');
  const prepared = await prepareSave(app.deps());
  assert.ok('payload' in prepared);
  const full = { approvals: { ...app.approvalDeps()!, maxPending: 0 }, requester: { credential: CREDENTIAL, client: AGENT, person: 'anna' } };
  const reply = await requestStored('xos_ui_save', full, prepared, app.deps());
  assert.equal((reply as CallToolResult).isError, true);
  assert.match(resultText(reply), /^Not asked: 0 requests made with this client's credential \(its token, or this xos-mcp process\) already wait for the person's decision\. Ask the person to decide the waiting requests on the XOS Board page \(http:\/\/127\.0\.0\.1:4711\/\), or wait until they expire; then call xos_ui_save again\.$/);
  assert.deepEqual(await app.approvalDesk!.pending(), []);
});

test('with an MCP session, approval is refused and the question is asked at once as before', async () => {
  const server = createXosMcpServer(() => app.deps(), new McpSession('session-1', XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'vscode', version: '1' });
  await mcp.connect(clientSide);
  try {
    const result = await mcp.callTool({ name: 'xos_mail_send', arguments: { approval: 'x' } }) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), /^This client has an MCP session: xos_mail_send asks the person at once/);
  } finally {
    await mcp.close();
    await server.close();
  }
});

test('protocol 2026-07-28, a client that can be asked: the call waits in rounds, not in one long request; decided on the Board, the same call says saved', async () => {
  const token = 'rounds-test-token-0123456789abcdef';
  const http = await startMcpHttpServer(() => app.deps(), { token });
  const connect = async (answer: (message: string) => Promise<'accept' | 'decline'>) => {
    const mcp = eraClient('rounds-agent', 'modern');
    mcp.registerCapabilities({ elicitation: { form: {} } });
    mcp.setRequestHandler('elicitation/create', async (request) => ({ action: await answer(String(request.params.message)) }));
    await mcp.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    assert.equal(mcp.getProtocolEra(), 'modern');
    return mcp;
  };
  const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  const before = await city('6');
  const asks: string[] = [];
  // The person decides on the Board a moment after the client shows the request: the round waits for the write.
  const approving = await connect(async (message) => {
    asks.push(message);
    const [waiting] = await app.approvalDesk!.pending();
    if (asks.length === 1) setTimeout(() => void app.approvalDesk!.decide(waiting.id, 'approve'), 300);
    return 'accept';
  });
  try {
    const handle = (JSON.parse(text(await approving.callTool({ name: 'xos_schema', arguments: {} }))) as { handle: string }).handle;
    await showRecord(app.deps(), 'person_detail', '6');
    app.controller.board.edit('city', 'Rounds');
    const result = await approving.callTool({ name: 'xos_ui_save', arguments: { handle } }) as CallToolResult;
    assert.equal(result.isError, undefined, text(result));
    assert.match(text(result), /^The person approved \(approval "[^"]+"\)\. .*Rounds/);
    assert.equal(asks.length, 1, 'one round: the person decided');
    assert.match(asks[0], /^XOS waits for your decision on the XOS Board page \(http:\/\/127\.0\.0\.1:4711\/\) on: save changes to person "6" \(city: "[^"]*" -> "Rounds"\)\.\n/);
    assert.deepEqual(await city('6'), { city: 'Rounds', version: before.version + 1 });
    assert.equal(asked.length, 0, 'nobody was asked by a blocking question');

    // A client whose person stops waiting gets the approval's id to ask about later; nothing is lost.
    const stopping = await connect(async () => 'decline');
    try {
      const handle2 = (JSON.parse(text(await stopping.callTool({ name: 'xos_schema', arguments: {} }))) as { handle: string }).handle;
      app.controller.board.edit('city', 'Later');
      const later = await stopping.callTool({ name: 'xos_ui_save', arguments: { handle: handle2 } }) as CallToolResult;
      assert.equal(later.isError, undefined, text(later));
      const id = /approval "([^"]+)"/.exec(text(later))?.[1];
      assert.ok(id, text(later));
      assert.match(text(later), /^Still waiting for the person's decision/);
      assert.deepEqual((await app.approvalDesk!.pending()).map((p) => p.id), [id]);
      assert.deepEqual(await app.approvalDesk!.decide(id, 'decline'), { kind: 'declined' });
      const told = await stopping.callTool({ name: 'xos_ui_save', arguments: { handle: handle2, approval: id } }) as CallToolResult;
      assert.match(text(told), /^The person declined/);
    } finally {
      await stopping.close();
    }
  } finally {
    await approving.close();
    await http.close();
  }
});
