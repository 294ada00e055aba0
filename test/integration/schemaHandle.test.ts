// The schema rule without MCP sessions: every request gets a fresh MCP server and a fresh
// McpSession that shares only the server's store of handles, as a server of requests without
// sessions builds them. xos_schema returns a handle (text and structuredContent); the data
// tools run only with it (or for a conversation that loaded the schema), and refuse a missing,
// another client's or a forgotten one with the next call to make.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { WorkflowHandles } from '../../src/mcp/handles.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { createXosMcpServer, requesterCredential } from '../../src/mcp/server.ts';
import { CONVERSATION_META_KEY, McpSession } from '../../src/mcp/session.ts';
import type { Confirmer } from '../../src/core/domain.ts';

const LIST = { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' };
const SHOWN = 'All data was successfully displayed in the UI. (240 records of person_list.)';
/** The endpoint's credential, as the HTTP endpoint names it for every request it answers. */
const TOKEN = requesterCredential({ token: 'schema-handle-test-token-0123456789' });
const refuse: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

let backend: Backend;
let deps: XosDeps;
before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: refuse };
});
after(async () => { await backend?.close(); });

interface Reply { readonly text: string; readonly isError: boolean; readonly structured?: Record<string, unknown> }

/** One request: a fresh server and session of `client` on the shared `handles`, one tool call, closed. */
async function once(handles: WorkflowHandles, client: string, tool: string, args: Record<string, unknown> = {}, conversation?: string): Promise<Reply> {
  const server = createXosMcpServer(() => deps, new McpSession({ handles, client, credential: TOKEN }, XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: client, version: '1' });
  await mcp.connect(clientSide);
  try {
    const result = await mcp.callTool({ name: tool, arguments: args, ...(conversation ? { _meta: { [CONVERSATION_META_KEY]: conversation } } : {}) }) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    return { text, isError: result.isError === true, ...(result.structuredContent ? { structured: result.structuredContent as Record<string, unknown> } : {}) };
  } finally {
    await mcp.close();
    await server.close();
  }
}

test('xos_schema returns a handle in its text and its structuredContent; xos_query runs only with it', async () => {
  const handles = new WorkflowHandles();
  const refused = await once(handles, 'agent via http', 'xos_query', LIST);
  assert.deepEqual(refused, {
    isError: true,
    text: 'Call xos_schema first, then pass the handle it returns as `handle` to xos_query (this client has no MCP session, so XOS cannot remember the schema between calls). Then call xos_query again.',
  });

  const schema = await once(handles, 'agent via http', 'xos_schema');
  assert.equal(schema.isError, false);
  const view = JSON.parse(schema.text) as { handle: string; app: string };
  assert.match(view.handle, /^xos_h_[A-Za-z0-9_-]{36}$/);
  assert.ok(schema.text.startsWith(`{"handle":"${view.handle}"`), 'the handle comes first, where the model reads it');
  assert.equal(view.app, 'crm');
  // The SDK client checks structuredContent against the declared outputSchema: a handle it did not declare would throw.
  assert.deepEqual(schema.structured, view);

  assert.deepEqual(await once(handles, 'agent via http', 'xos_query', { ...LIST, handle: view.handle }), { text: SHOWN, isError: false });
  assert.deepEqual(await once(handles, 'agent via http', 'xos_query', LIST), refused, 'a later request without the handle is refused again');
  const status = await once(handles, 'agent via http', 'xos_system_status');
  assert.equal(status.structured?.schema_loaded, false, 'a request that names no conversation and passes no handle has not loaded the schema');
});

test('another client\'s handle, a handle from before a restart and one too long are refused with what to call', async () => {
  const handles = new WorkflowHandles();
  const { handle } = JSON.parse((await once(handles, 'agent via http', 'xos_schema')).text) as { handle: string };
  assert.deepEqual(await once(handles, 'other-agent via http', 'xos_query', { ...LIST, handle }), {
    isError: true,
    text: 'This handle belongs to another client or conversation: call xos_schema in this conversation and pass the handle it returns as `handle` to xos_query. Then call xos_query again.',
  });
  const restarted = new WorkflowHandles();
  assert.deepEqual(await once(restarted, 'agent via http', 'xos_ui_save', { handle }), {
    isError: true,
    text: 'XOS does not know this handle (XOS was restarted since, or the handle was changed): call xos_schema again and pass the handle it returns as `handle` to xos_ui_save. Then call xos_ui_save again.',
  });
  const tooLong = await once(handles, 'agent via http', 'xos_query', { ...LIST, handle: `${handle}${'x'.repeat(100)}` });
  assert.equal(tooLong.isError, true);
  assert.doesNotMatch(tooLong.text, /xxxxxxxxxx/, 'the refusal does not echo the argument');
});

test('a client that names its conversation needs no handle in it, and is refused in a new one', async () => {
  const handles = new WorkflowHandles();
  assert.equal((await once(handles, 'vscode via http', 'xos_schema', {}, 'chat-a')).isError, false);
  assert.deepEqual(await once(handles, 'vscode via http', 'xos_query', LIST, 'chat-a'), { text: SHOWN, isError: false });
  assert.equal((await once(handles, 'vscode via http', 'xos_system_status', {}, 'chat-a')).structured?.schema_loaded, true);
  assert.equal((await once(handles, 'vscode via http', 'xos_query', LIST, 'chat-b')).isError, true);
  assert.equal((await once(handles, 'vscode via http', 'xos_system_status', {}, 'chat-b')).structured?.schema_loaded, false);
});

test('with an MCP session xos_schema returns a handle too, and the data tools take it', async () => {
  const server = createXosMcpServer(() => deps, new McpSession('with-session', XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'with-session', version: '1' });
  await mcp.connect(clientSide);
  try {
    const schema = await mcp.callTool({ name: 'xos_schema', arguments: {} }) as CallToolResult;
    const { handle } = schema.structuredContent as { handle: string };
    assert.match(handle, /^xos_h_/);
    const withHandle = await mcp.callTool({ name: 'xos_query', arguments: { ...LIST, handle } }) as CallToolResult;
    const without = await mcp.callTool({ name: 'xos_query', arguments: LIST }) as CallToolResult;
    assert.deepEqual([withHandle.isError, without.isError], [undefined, undefined]);
  } finally {
    await mcp.close();
    await server.close();
  }
});

test('1,001 xos_schema calls by one client leave another client\'s handle usable', async () => {
  const handles = new WorkflowHandles();
  const { handle } = JSON.parse((await once(handles, 'agent via http', 'xos_schema')).text) as { handle: string };
  for (let i = 0; i < 1_001; i += 1) assert.equal((await once(handles, 'flooding-agent via http', 'xos_schema', {}, `chat-${i}`)).isError, false);
  assert.deepEqual(await once(handles, 'agent via http', 'xos_query', { ...LIST, handle }), { text: SHOWN, isError: false });
});
