// npm run bench:mcp — the XOS MCP endpoint against bare baselines in the same
// process: xos_system_status against an SDK echo tool over the same Streamable
// HTTP transport (and under protocol 2026-07-28 against the 2025-era session),
// and xos_query (tool call to data on the Board) against a raw GraphQL fetch of
// the same query. Ratios are the result; machines are noisy.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { startBackend, type Backend } from '../src/backend/backend.ts';
import { demoApp } from '../src/backend/demo.ts';
import { startHttpServer } from '../src/backend/http.ts';
import { generateRecords } from '../src/backend/seed/generate.ts';
import { seedStorage } from '../src/backend/seed/seed.ts';
import { BoardState } from '../src/board/state.ts';
import { startMcpHttpServer } from '../src/mcp/http.ts';
import type { Confirmer, XosClient } from '../src/core/domain.ts';

const TOKEN = 'bench-token';
const QUERY = '{ person_list { id firstname lastname email city age net_worth } }';
const SIZES = (process.env.XOS_BENCH_SIZES ?? '1000,10000').split(',').map(Number);

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Runs both sides alternately and returns their timings. */
async function alternate(rounds: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number[], number[]]> {
  for (let i = 0; i < 5; i++) { await a(); await b(); }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2) { ta.push(await time(a)); tb.push(await time(b)); }
    else { tb.push(await time(b)); ta.push(await time(a)); }
  }
  return [ta, tb];
}

/** `modern`: pinned to protocol 2026-07-28 (a server per request, no session); else the 2025-era handshake. */
async function connect(url: string, token?: string, era: 'legacy' | 'modern' = 'legacy') {
  const client = new Client({ name: 'xos-bench', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined);
  await client.connect(transport);
  return client;
}

/** A bare SDK server with one echo tool, sessions like the XOS endpoint. */
async function startEchoServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      const sessionId = randomUUID();
      transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
      transports.set(sessionId, transport);
      const server = new McpServer({ name: 'echo', version: '1.0.0' });
      server.registerTool('echo', { description: 'echo', inputSchema: z.object({ text: z.string().optional() }) }, async ({ text }) => ({ content: [{ type: 'text', text: text ?? 'echo' }] }));
      await server.connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => { for (const t of transports.values()) await t.close(); http.closeAllConnections(); await new Promise<void>((r) => http.close(() => r())); },
  };
}

function embeddedClient(backend: Backend): XosClient {
  return {
    run: async (query, variables) => backend.api.run({ query, variables }) as ReturnType<XosClient['run']>,
    ast: () => backend.api.ast,
    status: async () => {
      const started = performance.now();
      await backend.api.storage.ping();
      return { kind: backend.api.storage.kind, description: backend.api.storage.description, ok: true, latency_ms: performance.now() - started };
    },
  };
}

const neverAsked: Confirmer = {
  confirmSave: async () => 'discard',
  confirmSend: async () => 'cancel',
};

async function main() {
  const rows: string[] = [];
  // 1. A tool call's own cost: xos_system_status against an echo tool.
  {
    const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    const board = new BoardState();
    const xos = await startMcpHttpServer({ client: embeddedClient(backend), board, confirmer: neverAsked }, { token: TOKEN });
    const echo = await startEchoServer();
    const xosClient = await connect(xos.url, TOKEN);
    const echoClient = await connect(echo.url);
    const [t, b] = await alternate(300, () => xosClient.callTool({ name: 'xos_system_status', arguments: {} }), () => echoClient.callTool({ name: 'echo', arguments: { text: 'hi' } }));
    rows.push(`| xos_system_status vs echo tool | ${percentile(b, 50).toFixed(2)} / ${percentile(b, 99).toFixed(2)} | ${percentile(t, 50).toFixed(2)} / ${percentile(t, 99).toFixed(2)} | ${(percentile(t, 50) / percentile(b, 50)).toFixed(2)} |`);
    // The same call under 2026-07-28 (a fresh server per request) against the 2025-era session.
    const modernClient = await connect(xos.url, TOKEN, 'modern');
    const [m, l] = await alternate(300, () => modernClient.callTool({ name: 'xos_system_status', arguments: {} }), () => xosClient.callTool({ name: 'xos_system_status', arguments: {} }));
    rows.push(`| xos_system_status 2026-07-28 vs 2025-11-25 session | ${percentile(l, 50).toFixed(2)} / ${percentile(l, 99).toFixed(2)} | ${percentile(m, 50).toFixed(2)} / ${percentile(m, 99).toFixed(2)} | ${(percentile(m, 50) / percentile(l, 50)).toFixed(2)} |`);
    await modernClient.close(); await xosClient.close(); await echoClient.close(); await xos.close(); await echo.close(); await backend.close();
  }
  // 2. xos_query from tool call to data on the Board, against a raw GraphQL fetch.
  for (const n of SIZES) {
    const ast = demoApp();
    delete ast.data;
    const backend = await startBackend({ ast, dsn: 'sqlite::memory:' });
    const generated = generateRecords({ ...ast, entities: { company: ast.entities.company, person: ast.entities.person }, contexts: {} }, n, 11);
    await seedStorage(backend.api.storage, backend.api.model, ast, { company: generated.company.slice(0, 50), person: generated.person.map((p, i) => ({ ...p, company: (i % 50) + 1 })) });
    const board = new BoardState();
    let shown = 0;
    board.onChange((change) => { if (change === 'list') shown = board.list()?.source.total ?? 0; });
    const xos = await startMcpHttpServer({ client: embeddedClient(backend), board, confirmer: neverAsked }, { token: TOKEN });
    const graphql = await startHttpServer(backend.api, {});
    const client = await connect(xos.url, TOKEN);
    await client.callTool({ name: 'xos_schema', arguments: {} });
    const viaMcp = async () => {
      shown = 0;
      const result = await client.callTool({ name: 'xos_query', arguments: { context: 'person_list', query: QUERY } });
      if (result.isError || shown !== n) throw new Error(`xos_query failed: ${JSON.stringify(result.content)} (${shown} shown)`);
    };
    const raw = async () => {
      const res = await fetch(`${graphql.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY }) });
      const body = await res.json() as { data: { person_list: unknown[] } };
      if (body.data.person_list.length !== n) throw new Error('raw fetch returned the wrong count');
    };
    const [t, b] = await alternate(n <= 1000 ? 60 : 20, viaMcp, raw);
    rows.push(`| xos_query ${n} rows vs raw GraphQL fetch | ${percentile(b, 50).toFixed(2)} / ${percentile(b, 99).toFixed(2)} | ${percentile(t, 50).toFixed(2)} / ${percentile(t, 99).toFixed(2)} | ${(percentile(t, 50) / percentile(b, 50)).toFixed(2)} |`);
    await client.close(); await xos.close(); await graphql.close(); await backend.close();
  }
  console.log('\n| measurement | baseline p50 / p99 (ms) | XOS p50 / p99 (ms) | ratio (p50) |');
  console.log('|---|---:|---:|---:|');
  for (const row of rows) console.log(row);
}

await main();
