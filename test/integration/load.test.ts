// Load and leaks on the MCP server over real loopback HTTP: many SDK clients at once, and a
// flood of sessions that are opened and abandoned. No errors, the latency reported, and the
// memory back to where it started once idle sessions expired.
//   XOS_LOAD_CLIENTS=50 XOS_LOAD_CALLS=200 XOS_LOAD_ABANDONED=10000 node --test test/integration/load.test.ts
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startMcpHttpServer, type McpHttpServer } from '../../src/mcp/http.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { testClock } from '../support/clock.ts';
import { until } from '../support/until.ts';

const CLIENTS = Number(process.env.XOS_LOAD_CLIENTS ?? 50);
const CALLS = Number(process.env.XOS_LOAD_CALLS ?? 200);
const ABANDONED = Number(process.env.XOS_LOAD_ABANDONED ?? 10_000);
const TOKEN = 'load-test-token-0123456789';
// The server judges idleness by a clock the test turns: it stands while clients work (so no busy
// client ever looks idle on a loaded machine) and is turned past IDLE_MS to expire what is left;
// the sweep runs every IDLE_MS of real time.
const IDLE_MS = 100;
const refuse: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A raw initialize that is never followed by anything: the client just goes away. */
function abandonedInitialize(url: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('MCP server under load', () => {
  let backend: Backend;
  let server: McpHttpServer;
  const clock = testClock();
  /** Turns the clock past the idle time and waits for the sweep to close every session. */
  const expireIdle = async () => {
    clock.advance(IDLE_MS);
    await until('every idle session closed', () => server.sessionCount() === 0);
  };
  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    server = await startMcpHttpServer({ client: embeddedClient(backend), board: new BoardState(), confirmer: refuse }, { token: TOKEN, idleMs: IDLE_MS, now: clock.now });
  });
  after(async () => {
    await server?.close();
    await backend?.close();
  });

  test(`${CLIENTS} clients × ${CALLS} calls at once: no errors, latency reported`, { timeout: 600_000 }, async () => {
    const latencies: number[] = [];
    const failures: string[] = [];
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, async (_, n) => {
      const client = new Client({ name: `load-${n}`, version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
      await client.connect(transport);
      for (let i = 0; i < CALLS; i++) {
        // The seed's calls in turn: schema, the list on the Board, the status.
        const [name, args] = i % 3 === 0 ? ['xos_schema', {}] : i % 3 === 1
          ? ['xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }]
          : ['xos_system_status', {}];
        const t0 = performance.now();
        try {
          const result = await client.callTool({ name, arguments: args });
          if (result.isError) failures.push(`${name}: ${JSON.stringify(result.content).slice(0, 200)}`);
        } catch (error) {
          failures.push(`${name}: ${String(error)}`);
        }
        latencies.push(performance.now() - t0);
      }
      // Ended as a client should (DELETE), so the next test does not wait for these to expire.
      await transport.terminateSession();
      await client.close();
    }));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const report = { calls: latencies.length, errors: failures.length, p50_ms: +percentile(latencies, 50).toFixed(1), p99_ms: +percentile(latencies, 99).toFixed(1), max_ms: +latencies.at(-1)!.toFixed(1), calls_per_s: Math.round(latencies.length / seconds) };
    console.log(`load: ${JSON.stringify(report)}`);
    assert.deepEqual(failures.slice(0, 5), []);
    assert.equal(latencies.length, CLIENTS * CALLS);
  });

  test(`${ABANDONED} sessions opened and abandoned: every one answered, at most the cap kept, memory back to baseline after expiry`, { timeout: 600_000 }, async () => {
    // Let the sessions of the test before expire first, then measure from there.
    await expireIdle();
    const baseline = heapAfterGc();
    const statuses = new Map<number, number>();
    let most = 0;
    for (let i = 0; i < ABANDONED; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, ABANDONED - i) }, () => abandonedInitialize(server.url)));
      for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      most = Math.max(most, server.sessionCount());
    }
    const peak = heapAfterGc();
    await expireIdle();
    const settled = heapAfterGc();
    const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);
    console.log(`abandoned: ${JSON.stringify({ sessions: ABANDONED, statuses: Object.fromEntries(statuses), most_kept: most, heap_mb: { baseline: mb(baseline), peak: mb(peak), after_expiry: mb(settled) } })}`);
    assert.deepEqual([...statuses.keys()], [200], 'every initialize was answered with a session');
    assert.ok(most <= 256, `at most the cap of sessions kept (${most})`);
    assert.ok(settled - baseline < 8 * 2 ** 20, `memory after expiry ${mb(settled)} MB vs baseline ${mb(baseline)} MB`);
  });
});
