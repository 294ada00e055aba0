// Requesters are bounded by who they are: requests without an MCP session (a fresh server and
// McpSession per request, as the serving entries build them) are capped per credential (the
// endpoint's token, the stdio process), whatever client names and conversation ids they send;
// the same write asked again returns the approval that already waits; and the approvals file
// has a size budget whose refusal says what to do. Over the HTTP endpoint the credential is its
// bearer token (hashed), whatever client names connect with it.
import { headlessApp } from '../support/headlessApp.ts';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client, InMemoryTransport, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { XosApp } from '../../src/app/xosApp.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import { decideApproval, requestApproval, type PendingApproval } from '../../src/core/approvals.ts';
import type { PreparedWrite } from '../../src/core/boundWrites.ts';
import { proposeBatch } from '../../src/core/batch.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { prepareSave } from '../../src/core/save.ts';
import { showRecord } from '../../src/core/show.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { requestStored } from '../../src/mcp/approvalFlow.ts';
import { WorkflowHandles } from '../../src/mcp/handles.ts';
import { startMcpHttpServer } from '../../src/mcp/http.ts';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { resultText } from '../../src/mcp/result.ts';
import { createXosMcpServer, requesterCredential } from '../../src/mcp/server.ts';
import { CONVERSATION_META_KEY, McpSession } from '../../src/mcp/session.ts';
import { eraClient } from '../support/mcpClient.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

const TOKEN = requesterCredential({ token: 'requesters-test-token-0123456789abcdef' });
const OTHER_TOKEN = requesterCredential({ token: 'requesters-test-other-token-0123456789' });

let backend: Backend;
let client: XosClient;
let dir: TempDir;
let app: XosApp;
const handles = new WorkflowHandles();

before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  client = embeddedClient(backend);
  dir = await tempDir('requesters');
  app = headlessApp({
    client,
    ask: async () => assert.fail('nobody is asked at once without a session'),
    storedApprovals: {
      store: new SqliteApprovalStore(join(dir.path, APPROVALS_FILE)),
      backend: () => 'sqlite::memory:',
      person: () => 'anna',
      warn: (text) => assert.fail(text),
    },
  });
});
after(async () => {
  app?.dispose();
  await backend?.close();
  await dir?.remove();
});

interface Caller { readonly credential: string; readonly client: string; readonly conversation?: string }
interface Reply { readonly text: string; readonly isError: boolean }

/** One request without an MCP session: a fresh server and session of `caller`, one tool call, closed. */
async function call(caller: Caller, tool: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const server = createXosMcpServer(() => app.deps(), new McpSession({ handles, client: caller.client, credential: caller.credential }, XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: caller.client, version: '1' });
  await mcp.connect(clientSide);
  try {
    const meta = caller.conversation ? { _meta: { [CONVERSATION_META_KEY]: caller.conversation } } : {};
    const result = await mcp.callTool({ name: tool, arguments: args, ...meta }) as CallToolResult;
    return { text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), isError: result.isError === true };
  } finally {
    await mcp.close();
    await server.close();
  }
}

/** Asks to save the record on the Board as `caller` (its own schema handle): the approval id, or the refusal. */
async function save(caller: Caller): Promise<{ id?: string; reply: Reply }> {
  const { handle } = JSON.parse((await call(caller, 'xos_schema')).text) as { handle: string };
  const reply = await call(caller, 'xos_ui_save', { handle });
  return { id: /Approval id: "([^"]+)"/.exec(reply.text)?.[1], reply };
}

async function showEdited(id: string, city: string): Promise<void> {
  await showRecord(app.deps(), 'person_detail', id);
  app.controller.board.edit('city', city);
}

async function declineAll(): Promise<void> {
  for (const waiting of await app.approvalDesk!.pending()) await app.approvalDesk!.decide(waiting.id, 'decline');
}

test('one credential gets 20 pending approvals, whatever client names and conversation ids it sends; another credential still gets its own', async () => {
  const asked: Array<{ id?: string; reply: Reply }> = [];
  for (let i = 0; i < 25; i += 1) {
    await showEdited(String(10 + i), `Desk ${i}`);
    asked.push(await save({ credential: TOKEN, client: `agent-${i % 5} via http`, conversation: `chat-${i}` }));
  }
  const stored = asked.filter((a) => a.id !== undefined);
  assert.equal(stored.length, 20, 'the first 20 wait for the person');
  assert.equal((await app.approvalDesk!.pending()).length, 20);
  for (const refused of asked.slice(20)) {
    assert.equal(refused.reply.isError, true);
    assert.match(refused.reply.text, /^Not asked: 20 requests made with this client's credential \(its token, or this xos-mcp process\) already wait for the person's decision\. Ask the person to decide the waiting requests on the XOS Board page \(http:\/\/127\.0\.0\.1:4711\/\), or wait until they expire \(the first at \d{4}-[^)]+\); then call xos_ui_save again\.$/);
  }

  await showEdited('40', 'Other token');
  const other = await save({ credential: OTHER_TOKEN, client: 'agent-0 via http', conversation: 'chat-0' });
  assert.ok(other.id, other.reply.text);
  assert.equal((await app.approvalDesk!.pending()).length, 21);
  await declineAll();
});

test('one preview and 22 saves leave one approval: every call gets its id; another conversation of the credential gets it too and learns its outcome', async () => {
  await showEdited('50', 'Once');
  const me: Caller = { credential: TOKEN, client: 'agent via http', conversation: 'chat-a' };
  const replies = [];
  for (let i = 0; i < 22; i += 1) replies.push(await save(me));
  const ids = new Set(replies.map((r) => r.id));
  assert.equal(ids.size, 1, replies.map((r) => r.reply.text).join('\n'));
  const [id] = ids;
  assert.ok(id);
  assert.deepEqual((await app.approvalDesk!.pending()).map((p) => p.id), [id], 'one approval waits for the person');

  const elsewhere: Caller = { credential: TOKEN, client: 'another agent via http', conversation: 'chat-b' };
  assert.equal((await save(elsewhere)).id, id, 'the same write from another conversation of the same credential');
  assert.deepEqual((await app.approvalDesk!.pending()).map((p) => p.id), [id]);

  assert.equal((await app.approvalDesk!.decide(id, 'approve')).kind, 'approved');
  const { handle } = JSON.parse((await call(elsewhere, 'xos_schema')).text) as { handle: string };
  const outcome = await call(elsewhere, 'xos_ui_save', { handle, approval: id });
  assert.match(outcome.text, /^The person approved/, outcome.text);
  const stranger = await call({ credential: TOKEN, client: 'stranger via http', conversation: 'chat-c' }, 'xos_ui_save', { handle, approval: id });
  assert.match(stranger.text, /^(XOS knows no approval|This handle belongs)/, 'a requester that never asked for it learns nothing');
  const written = await client.run('{ person_detail(id: "50") { city version } }');
  const stored = written.data!.person_detail as { city: string; version: number };
  assert.equal(stored.city, 'Once');
  await until('the Board shows the stored record', () => app.state.snapshot().detail?.version === stored.version);
});

/** A review of `rows` records of person_list, each city changed: what Save would write. */
async function review(rows: number, tag: string): Promise<PreparedWrite> {
  const board = app.deps();
  const ids = ((await client.run(`{ person_list(limit: ${rows}) { id } }`)).data!.person_list as Array<{ id: string }>).map((p) => String(p.id));
  const proposed = await proposeBatch(board, 'person_list', client.ast().contexts.person_list, ids.map((id) => ({ id, city: `${tag} ${id}` })));
  assert.equal(proposed.ok, true, JSON.stringify(proposed));
  const prepared = await prepareSave(board);
  assert.ok('payload' in prepared && prepared.kind === 'batch', JSON.stringify(prepared));
  board.board.closeReview();
  return prepared;
}

test('the approvals file has a size budget: a request, a credential\'s waiting ones and the whole file; the refusal says what to do', async () => {
  const small = await review(20, 'Small');
  const size = Buffer.byteLength(JSON.stringify(small)) + 1_000;
  const store = new SqliteApprovalStore(join(dir.path, 'budget.sqlite'), { budget: { requestBytes: 2 * size, pendingBytes: 3 * size, fileBytes: 5 * size } });
  try {
    const approvals = { ...app.approvalDeps()!, store };
    const ask = async (prepared: PreparedWrite, credential: string) => requestStored('xos_ui_save', { approvals, requester: { credential, client: 'agent via http', person: 'anna' } }, prepared, app.deps());

    const tooLarge = await ask(await review(100, 'Large'), TOKEN);
    assert.equal((tooLarge as CallToolResult).isError, true);
    assert.match(resultText(tooLarge), /^Not asked: this change is too large to keep for the person's decision \(\d+ KB; at most \d+ KB per request\)\. Narrow the change \(fewer records, e\.g\. a narrower `where` in xos_ui_change_required, or fewer fields\), then call xos_ui_save again\.$/);

    const mine: PendingApproval[] = [];
    for (const tag of ['A', 'B', 'C']) {
      const made = await requestApproval(approvals, await review(20, tag), { credential: TOKEN, client: 'agent via http', person: 'anna' });
      if (made.ok) mine.push(made.approval);
    }
    assert.equal(mine.length, 2, 'the third passes this credential\'s budget');
    const full = await ask(await review(20, 'D'), TOKEN);
    assert.match(resultText(full), /^Not asked: the requests made with this client's credential that wait for the person's decision would take \d+ KB, more than the \d+ KB XOS keeps for one credential\. Ask the person to decide the waiting requests on the XOS Board page \(http:\/\/127\.0\.0\.1:4711\/\), or wait until they expire \(the first at [^)]+\), or narrow the change; then call xos_ui_save again\.$/);

    const others = [];
    for (const tag of ['E', 'F', 'G']) others.push(await requestApproval(approvals, await review(20, tag), { credential: OTHER_TOKEN, client: 'agent via http', person: 'anna' }));
    assert.deepEqual(others.map((o) => o.kind), ['requested', 'requested', 'too_large'], 'the file is full with four waiting');
    const fileFull = await ask(await review(20, 'H'), requesterCredential('stdio'));
    assert.match(resultText(fileFull), /^Not asked: the requests waiting for the person's decision fill the space XOS keeps for them \(\d+ KB\)\. Ask the person to decide the waiting requests on the XOS Board page \(http:\/\/127\.0\.0\.1:4711\/\), or narrow the change; then call xos_ui_save again\.$/);

    // Decided approvals make room, oldest first; waiting ones never do.
    for (const approval of mine) assert.equal((await decideApproval(approvals, approval.id, 'decline', 'anna')).kind, 'decided');
    const later = await requestApproval(approvals, await review(20, 'I'), { credential: requesterCredential('stdio'), client: 'agent via stdio', person: 'anna' });
    assert.equal(later.kind, 'requested', JSON.stringify(later.ok ? later.kind : later));
    assert.equal(await store.get(mine[0].id), undefined, 'the oldest decided one made room');
    for (const other of others.filter((o) => o.ok)) assert.equal((await store.get(other.approval.id))?.state, 'pending');
  } finally {
    store.close();
  }
});

test('over the HTTP endpoint the credential is its token: two client names in two conversations share one bound; the name of the credential holds no token', async () => {
  const token = 'requesters-http-token-0123456789abcdef';
  assert.equal(requesterCredential({ token }), requesterCredential({ token }), 'the same token, the same credential (also after a restart)');
  assert.notEqual(requesterCredential({ token }), requesterCredential({ token: `${token}x` }));
  assert.ok(!requesterCredential({ token }).includes(token));
  assert.notEqual(requesterCredential('stdio'), requesterCredential('stdio'), 'each stdio process is a credential of its own');

  const deps = () => {
    const now = app.deps();
    return { ...now, approvals: { ...now.approvals!, maxPending: 2 } };
  };
  const http = await startMcpHttpServer(deps, { token });
  const connect = async (name: string) => {
    const mcp = eraClient(name, 'modern');
    await mcp.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return mcp;
  };
  const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  const clients = [await connect('first-agent'), await connect('second-agent'), await connect('third-agent')];
  try {
    const replies: string[] = [];
    for (const [i, mcp] of clients.entries()) {
      const _meta = { [CONVERSATION_META_KEY]: `chat-http-${i}` };
      const { handle } = JSON.parse(text(await mcp.callTool({ name: 'xos_schema', arguments: {}, _meta }))) as { handle: string };
      await showEdited(String(60 + i), `Http ${i}`);
      replies.push(text(await mcp.callTool({ name: 'xos_ui_save', arguments: { handle }, _meta })));
    }
    assert.match(replies[0], /Approval id: "/);
    assert.match(replies[1], /Approval id: "/);
    assert.match(replies[2], /^Not asked: 2 requests made with this client's credential/, 'a third client name on the same token is the same credential');
  } finally {
    for (const mcp of clients) await mcp.close();
    await http.close();
    await declineAll();
  }
});
