// MCP sessions are kept only after a successful initialize, and only so many
// at a time: refused initializes leave nothing behind, past the cap an
// initialize gets 503 saying what to do (or, by default, the least recently used
// session makes room), and a long-idle session makes room.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { testClock } from '../support/clock.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startMcpHttpServer, type McpHttpServer, type McpHttpOptions } from '../../src/mcp/http.ts';
import type { Confirmer } from '../../src/core/domain.ts';

const TOKEN = 'session-test-token-0123456789';
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const refuse: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

interface Answer { status: number; sessionId?: string; retryAfter?: string; body: string }

function post(server: McpHttpServer, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({
        status: res.statusCode!,
        sessionId: res.headers['mcp-session-id'] as string | undefined,
        retryAfter: res.headers['retry-after'] as string | undefined,
        body: text,
      }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = (server: McpHttpServer, headers?: Record<string, string>) => post(server, JSON.stringify(INITIALIZE), headers);

let backend: Backend;
const servers: McpHttpServer[] = [];
const start = async (options: Partial<McpHttpOptions>) => {
  const server = await startMcpHttpServer({ client: embeddedClient(backend), board: new BoardState(), confirmer: refuse }, { token: TOKEN, ...options });
  servers.push(server);
  return server;
};

before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:' });
});
after(async () => {
  for (const server of servers) await server.close();
  await backend?.close();
});

test('a refused initialize leaves no session behind', async () => {
  const server = await start({});
  assert.equal((await initialize(server, { accept: 'application/json' })).status, 406);
  assert.equal((await initialize(server, { 'content-type': 'text/plain' })).status, 415);
  assert.equal((await post(server, JSON.stringify([INITIALIZE, { ...INITIALIZE, id: 2 }]))).status, 400);
  assert.equal((await post(server, JSON.stringify({ ...INITIALIZE, params: 'not an object' }))).status, 400);
  assert.equal((await post(server, '{"jsonrpc": "2.0"')).status, 400);
  assert.equal(server.sessionCount(), 0);
  const ok = await initialize(server);
  assert.equal(ok.status, 200);
  assert.match(ok.sessionId ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(server.sessionCount(), 1);
});

test('past the cap an initialize gets 503 with what to do; ending a session makes room', async () => {
  const server = await start({ maxSessions: 2, evictIdleMs: 60_000 });
  const first = await initialize(server);
  const second = await initialize(server);
  assert.deepEqual([first.status, second.status], [200, 200]);
  const third = await initialize(server);
  assert.equal(third.status, 503);
  assert.equal(third.retryAfter, '60');
  assert.equal(third.sessionId, undefined);
  assert.equal(JSON.parse(third.body).error.message, 'Service Unavailable: 2 MCP sessions are open, the most this server keeps. '
    + 'End one (DELETE /mcp with its Mcp-Session-Id) or wait 60 s until an idle one can be closed, then initialize again.');
  assert.equal(server.sessionCount(), 2);
  // The open sessions still work.
  const list = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': first.sessionId!, 'mcp-protocol-version': '2025-06-18' });
  assert.equal(list.status, 200);
  await new Promise<void>((resolve, reject) => {
    const req = request(server.url, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': second.sessionId!, 'mcp-protocol-version': '2025-06-18' } }, (res) => { res.resume(); res.on('end', resolve); });
    req.on('error', reject);
    req.end();
  });
  assert.equal(server.sessionCount(), 1);
  assert.equal((await initialize(server)).status, 200);
  assert.equal(server.sessionCount(), 2);
});

test('many initializes at once never open more than the cap', async () => {
  const server = await start({ maxSessions: 3, evictIdleMs: 60_000 });
  const answers = await Promise.all(Array.from({ length: 10 }, () => initialize(server)));
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 503, 503, 503, 503, 503, 503, 503]);
  assert.equal(server.sessionCount(), 3);
});

test('at the cap, a session idle long enough is closed to make room', async () => {
  const clock = testClock();
  const server = await start({ maxSessions: 1, evictIdleMs: 50, now: clock.now });
  const old = await initialize(server);
  assert.equal(old.status, 200);
  assert.equal((await initialize(server)).status, 503, 'quiet for less than 50 ms: kept');
  clock.advance(50);
  const fresh = await initialize(server);
  assert.equal(fresh.status, 200);
  assert.equal(server.sessionCount(), 1);
  const stale = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': old.sessionId!, 'mcp-protocol-version': '2025-06-18' });
  assert.equal(stale.status, 404);
  assert.match(JSON.parse(stale.body).error.message, /Unknown or expired MCP session: initialize a new one\./);
});

test('by default the least recently used session makes room: abandoned sessions never lock a client out', async () => {
  const server = await start({ maxSessions: 3 });
  const opened = [];
  for (let i = 0; i < 3; i++) opened.push(await initialize(server));
  // The first session is the one in use; the others are abandoned.
  const used = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': opened[0].sessionId!, 'mcp-protocol-version': '2025-06-18' });
  assert.equal(used.status, 200);
  const fresh = await initialize(server);
  assert.equal(fresh.status, 200);
  assert.equal(server.sessionCount(), 3);
  const gone = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), { 'mcp-session-id': opened[1].sessionId!, 'mcp-protocol-version': '2025-06-18' });
  assert.equal(gone.status, 404, 'the least recently used one was closed');
  const kept = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }), { 'mcp-session-id': opened[0].sessionId!, 'mcp-protocol-version': '2025-06-18' });
  assert.equal(kept.status, 200, 'the session in use was kept');
});
