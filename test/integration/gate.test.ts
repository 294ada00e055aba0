// The gates of both loopback listeners, as a cross product of what a request
// can get wrong: Host (loopback forms, hostile and rebinding-style names,
// none), Origin (none, a VS Code webview, a foreign site, `null`), token (none,
// wrong, stale from a previous start, valid), method and content type. Only
// the fully valid requests may reach a tool or a resolver (counted), no answer
// carries a CORS header, and nothing listens beyond loopback unless configured.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect as netConnect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { XosApi } from '../../src/backend/graphql/api.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startMcpHttpServer, type McpHttpServer } from '../../src/mcp/http.ts';
import type { Confirmer, XosClient } from '../../src/core/domain.ts';

interface Answer { status: number; headers: IncomingHttpHeaders; body: string }

/** One raw request to 127.0.0.1:port with exactly the given headers (no Host unless given). */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const hosts = (port: number) => ({
  '127.0.0.1': `127.0.0.1:${port}`,
  localhost: `localhost:${port}`,
  '[::1]': `[::1]:${port}`,
  hostile: `evil.example:${port}`,
  rebinding: `127.0.0.1.evil.example:${port}`,
  'other port': `127.0.0.1:${port === 65535 ? 1 : port + 1}`,
  missing: undefined,
} as Record<string, string | undefined>);
const VALID_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const origins: Record<string, string | undefined> = {
  absent: undefined,
  webview: 'vscode-webview://1a2b3c4d5e6f',
  foreign: 'https://evil.example',
  null: 'null',
};
const methods = ['POST', 'PUT'];
const contentTypes = ['application/json', 'text/plain'];

interface Combination { host: string; origin: string; token: string; method: string; contentType: string }

function* combinations(tokenNames: readonly string[]): Generator<Combination> {
  for (const host of Object.keys(hosts(1))) {
    for (const origin of Object.keys(origins)) {
      for (const token of tokenNames) {
        for (const method of methods) {
          for (const contentType of contentTypes) yield { host, origin, token, method, contentType };
        }
      }
    }
  }
}

const isValid = (c: Combination) => VALID_HOSTS.has(c.host) && c.origin === 'absent' && c.token === 'valid' && c.method === 'POST' && c.contentType === 'application/json';
const describeCombination = (c: Combination) => `Host ${c.host}, Origin ${c.origin}, token ${c.token}, ${c.method} ${c.contentType}`;
const corsHeaders = (headers: IncomingHttpHeaders) => Object.keys(headers).filter((name) => name.toLowerCase().startsWith('access-control-'));

/** The machine's addresses other than loopback, to show nothing listens there. */
function outsideAddresses(): string[] {
  return Object.values(networkInterfaces()).flat().filter((i) => i && !i.internal && i.family === 'IPv4').map((i) => i!.address);
}

function reachable(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: address, port, timeout: 2000 });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

const STALE = 'previous-start-token-0123456789';
const VALID = 'current-start-token-9876543210';
const tokenHeader: Record<string, string | undefined> = { none: undefined, wrong: 'Bearer not-the-token', stale: `Bearer ${STALE}`, valid: `Bearer ${VALID}` };

function headersFor(c: Combination, port: number, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...extra, 'content-type': c.contentType };
  const host = hosts(port)[c.host];
  if (host !== undefined) headers.host = host;
  if (origins[c.origin] !== undefined) headers.origin = origins[c.origin]!;
  if (tokenHeader[c.token] !== undefined) headers.authorization = tokenHeader[c.token]!;
  return headers;
}

const refuse: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

describe('the MCP listener gate', () => {
  let backend: Backend;
  let server: McpHttpServer;
  let toolRuns = 0;
  let sessionId: string;
  let protocolVersion: string;
  let client: Client;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:' });
    const inner = embeddedClient(backend);
    // xos_system_status asks the client for its status: one call per tool run.
    const counting: XosClient = { run: inner.run, ast: inner.ast, status: async () => { toolRuns += 1; return inner.status(); } };
    const deps = { client: counting, board: new BoardState(), confirmer: refuse };
    // A previous start, with its own token, that is gone now.
    const previous = await startMcpHttpServer(deps, { token: STALE });
    await previous.close();
    server = await startMcpHttpServer(deps, { token: VALID });
    client = new Client({ name: 'gate-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${VALID}` } } });
    await client.connect(transport);
    sessionId = transport.sessionId!;
    protocolVersion = transport.protocolVersion ?? '2025-06-18';
  });
  after(async () => {
    await client?.close();
    await server?.close();
    await backend?.close();
  });

  test('only Host, Origin, token, method and content type all valid reach a tool', async () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'xos_system_status', arguments: {} } });
    const all = [...combinations(Object.keys(tokenHeader))];
    assert.ok(all.length >= 48, `${all.length} combinations`);
    let valid = 0;
    for (const c of all) {
      const before = toolRuns;
      const headers = headersFor(c, server.port, { accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion });
      const answer = await raw(server.port, c.method, '/mcp', headers, call);
      assert.deepEqual(corsHeaders(answer.headers), [], describeCombination(c));
      if (isValid(c)) {
        valid += 1;
        assert.equal(answer.status, 200, `${describeCombination(c)}: ${answer.body}`);
        assert.match(answer.body, /active_context/, describeCombination(c));
        assert.equal(toolRuns, before + 1, describeCombination(c));
      } else {
        assert.ok(answer.status >= 400 && answer.status < 500, `${describeCombination(c)}: ${answer.status}`);
        assert.equal(toolRuns, before, `${describeCombination(c)} reached the tool`);
      }
    }
    assert.equal(valid, 3);
    assert.equal(toolRuns, 3);
  });

  test('each refusal says why', async () => {
    const base = { accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
    const at = (c: Partial<Combination>) => headersFor({ host: '127.0.0.1', origin: 'absent', token: 'valid', method: 'POST', contentType: 'application/json', ...c }, server.port, base);
    const body = '{}';
    assert.match((await raw(server.port, 'POST', '/mcp', at({ host: 'rebinding' }), body)).body, /only answers requests for its loopback address/);
    assert.match((await raw(server.port, 'POST', '/mcp', at({ origin: 'null' }), body)).body, /with an Origin\) are not accepted/);
    assert.equal((await raw(server.port, 'POST', '/mcp', at({ token: 'stale' }), body)).status, 401);
    assert.match((await raw(server.port, 'POST', '/mcp', at({ contentType: 'text/plain' }), body)).body, /Content-Type: application\/json/);
    const preflight = await raw(server.port, 'OPTIONS', '/mcp', { ...at({ origin: 'foreign' }), 'access-control-request-method': 'POST' });
    assert.equal(preflight.status, 403);
    assert.deepEqual(corsHeaders(preflight.headers), []);
  });

  test('it listens on 127.0.0.1 only', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    for (const address of outsideAddresses()) assert.equal(await reachable(address, server.port), false, `reachable on ${address}`);
    assert.equal(await reachable('127.0.0.1', server.port), true);
  });
});

describe('the xos-server gate', () => {
  let backend: Backend;
  let http: RunningHttpServer;
  let resolverRuns = 0;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    const counting: XosApi = { ...backend.api, run: async (request) => { resolverRuns += 1; return backend.api.run(request); } };
    const previous = await startHttpServer(counting, { token: STALE });
    await previous.close();
    http = await startHttpServer(counting, { token: VALID });
  });
  after(async () => {
    await http?.close();
    await backend?.close();
  });

  test('only Host, Origin, token, method and content type all valid reach a resolver', async () => {
    const query = JSON.stringify({ query: '{ person_list_count }' });
    const all = [...combinations(Object.keys(tokenHeader))];
    assert.ok(all.length >= 48, `${all.length} combinations`);
    let valid = 0;
    for (const c of all) {
      const before = resolverRuns;
      const answer = await raw(http.port, c.method, '/graphql', headersFor(c, http.port, {}), query);
      assert.deepEqual(corsHeaders(answer.headers), [], describeCombination(c));
      if (isValid(c)) {
        valid += 1;
        assert.equal(answer.status, 200, `${describeCombination(c)}: ${answer.body}`);
        assert.deepEqual(JSON.parse(answer.body), { data: { person_list_count: 240 } });
        assert.equal(resolverRuns, before + 1, describeCombination(c));
      } else {
        assert.ok(answer.status >= 400 && answer.status < 500, `${describeCombination(c)}: ${answer.status} ${answer.body}`);
        assert.equal(resolverRuns, before, `${describeCombination(c)} reached a resolver`);
      }
    }
    assert.equal(valid, 3);
    assert.equal(resolverRuns, 3);
  });

  test('the AST and the health check refuse web pages too; the server\'s own origin is accepted', async () => {
    const host = `127.0.0.1:${http.port}`;
    const auth = `Bearer ${VALID}`;
    for (const origin of ['null', 'https://evil.example', 'vscode-webview://abc', `http://localhost:${http.port}`]) {
      for (const path of ['/xos/ast', '/healthz']) {
        const answer = await raw(http.port, 'GET', path, { host, origin, authorization: auth });
        assert.equal(answer.status, 403, `${path} with Origin ${origin}`);
        assert.equal(JSON.parse(answer.body).errors[0].message, `Requests from web pages (Origin "${origin}") are not accepted; call the XOS API from a program, without an Origin header.`);
        assert.deepEqual(corsHeaders(answer.headers), []);
      }
    }
    assert.equal((await raw(http.port, 'GET', '/xos/ast', { host, origin: `http://${host}`, authorization: auth })).status, 200);
    const preflight = await raw(http.port, 'OPTIONS', '/graphql', { host, origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    assert.equal(preflight.status, 403);
    assert.deepEqual(corsHeaders(preflight.headers), []);
  });

  test('it listens on loopback by default and refuses another address without a token', async () => {
    assert.match(http.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    for (const address of outsideAddresses()) assert.equal(await reachable(address, http.port), false, `reachable on ${address}`);
    await assert.rejects(startHttpServer(backend.api, { host: '0.0.0.0' }), { message: /^refusing to serve 0\.0\.0\.0 without a token/ });
    await assert.rejects(startHttpServer(backend.api, { host: '::' }), { message: /^refusing to serve :: without a token/ });
    const loopback = await startHttpServer(backend.api, { host: 'localhost' });
    await loopback.close();
  });
});
