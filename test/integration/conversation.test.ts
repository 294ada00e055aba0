// The schema rule per conversation: VS Code keeps one MCP session per server for all its
// chats and names the chat in each tool call's `_meta` (`vscode.conversationId`). A new chat
// whose model never loaded the schema is refused like a new session; a client that names no
// conversation is held to the rule per MCP session.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { CONVERSATION_META_KEY } from '../../src/mcp/session.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { connectInMemory, type InMemoryMcp } from '../support/mcpClient.ts';

const LIST = { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' };
const refuse: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

let backend: Backend;
let mcp: InMemoryMcp;
before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  mcp = await connectInMemory({ client: embeddedClient(backend), board: new BoardState(), confirmer: refuse }, 'one-session-for-all-chats');
});
after(async () => { await backend?.close(); });

function call(name: string, args: Record<string, unknown>, conversation?: string): Promise<{ text: string; isError: boolean }> {
  return mcp.call(name, args, conversation ? { [CONVERSATION_META_KEY]: conversation } : undefined);
}

test('one MCP session, two chats: the chat that loaded the schema may query, the new chat is refused until it loads it', async () => {
  assert.equal((await call('xos_schema', {}, 'chat-a')).isError, false);
  assert.equal((await call('xos_query', LIST, 'chat-a')).isError, false);
  const newChat = await call('xos_query', LIST, 'chat-b');
  assert.deepEqual(newChat, { isError: true, text: 'Call xos_schema first: xos_query needs the schema loaded in this conversation (contexts, list_fields, prompts). Then call xos_query again.' });
  assert.equal((await call('xos_schema', {}, 'chat-b')).isError, false);
  assert.equal((await call('xos_query', LIST, 'chat-b')).isError, false);
  const status = JSON.parse((await call('xos_system_status', {}, 'chat-c')).text);
  assert.equal(status.schema_loaded, false, 'the status speaks for the calling chat');
});

test('a client that names no conversation is held to the rule per MCP session', async () => {
  const unnamed = await call('xos_query', LIST);
  assert.equal(unnamed.isError, true);
  assert.match(unnamed.text, /loaded in this session/);
  assert.equal((await call('xos_schema', {})).isError, false);
  assert.equal((await call('xos_query', LIST)).isError, false);
});
