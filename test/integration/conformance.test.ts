// The server side of the MCP conformance suite (@modelcontextprotocol/conformance) against
// xos-mcp over Streamable HTTP, under both protocol revisions XOS serves (2025-11-25 with its
// sessions, 2026-07-28 without), for the scenarios that apply to a server with XOS's own tools
// (the others call the suite's reference tools, prompts and resources, which XOS does not
// have). The suite's client sends no Authorization header, so it talks to a loopback relay
// that adds XOS's bearer token and passes every other header on unchanged — the DNS-rebinding
// scenario's foreign Host reaches xos-mcp's own gate as sent.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { startXosMcp, type RunningXosMcp } from '../../src/standalone/xosMcp.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const TOKEN = 'xos-conformance-token-0123456789';
const root = join(import.meta.dirname, '..', '..');
const SUITE = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/**
 * The scenarios that apply to XOS, per protocol revision (XOS serves both); each must pass. Not
 * here, besides those of the suite's reference tools: server-sse-polling (SSE resumability, an
 * event store XOS does not keep) and logging-set-level (XOS does not log to the client).
 */
const SCENARIOS: Readonly<Record<string, readonly string[]>> = {
  '2025-11-25': ['server-initialize', 'server-session-lifecycle', 'ping', 'tools-list', 'prompts-list', 'resources-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'],
  '2026-07-28': ['server-stateless', 'tools-list', 'prompts-list', 'resources-list', 'sep-2164-resource-not-found', 'server-sse-multiple-streams', 'http-header-validation', 'caching', 'dns-rebinding-protection'],
};
/**
 * Where XOS is stricter than the suite, on purpose: the MCP endpoint refuses every request that
 * carries an Origin, its own included (no web page ever needs to call it; docs/security.md).
 * The suite expects a loopback Origin to be accepted.
 */
const STRICTER: Readonly<Record<string, string>> = {
  'localhost-host-valid-accepted': 'got 403',
};
/**
 * Checks of an applying scenario (server-stateless, 2026-07-28) that drive one of the suite's
 * diagnostic tools, which XOS does not have: the suite reports them as failed, "not testable".
 * What they test does hold for XOS: no tool needs a client capability, none sends a request
 * to the client (no elicitation, sampling or roots), none logs.
 */
const NEEDS_SUITE_TOOL: Readonly<Record<string, string>> = {
  'sep-2575-server-rejects-undeclared-capability': 'Not testable: server does not list the diagnostic tool \'test_missing_capability\'',
  'sep-2575-missing-capability-http-400': 'Not testable: server does not list the diagnostic tool \'test_missing_capability\'',
  'sep-2575-http-server-no-independent-requests-on-stream': 'Not testable: server does not list the diagnostic tool \'test_streaming_elicitation\'',
  'sep-2575-server-no-log-without-loglevel': 'Not testable: server does not list the diagnostic tool \'test_logging_tool\'',
};
/** A failure XOS means to have (STRICTER) or cannot take part in (NEEDS_SUITE_TOOL), each known by its message. */
const EXPECTED: Readonly<Record<string, string>> = { ...STRICTER, ...NEEDS_SUITE_TOOL };

interface Check { readonly id: string; readonly status: string; readonly errorMessage?: string }

/** Adds the bearer token; the relay's own loopback Host becomes xos-mcp's, any other Host passes as sent. */
async function startRelay(target: number): Promise<{ port: number; close(): Promise<void> }> {
  let port = 0;
  const server: Server = createServer((req, res) => {
    const own = req.headers.host === `localhost:${port}` || req.headers.host === `127.0.0.1:${port}`;
    const headers = { ...req.headers, host: own ? `127.0.0.1:${target}` : req.headers.host, authorization: `Bearer ${TOKEN}` };
    const upstream = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the MCP conformance suite against xos-mcp', () => {
  let dir: TempDir;
  let running: RunningXosMcp;
  let relay: { port: number; close(): Promise<void> };

  before(async () => {
    dir = await tempDir('xos-conformance');
    running = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, locale: 'en',
      dataDir: join(dir.path, 'data'), exportDir: dir.path, log: () => {},
    });
    relay = await startRelay(running.mcp!.port);
  });

  after(async () => {
    await relay?.close();
    await running?.close();
    await dir?.remove();
  });

  for (const [version, scenarios] of Object.entries(SCENARIOS)) for (const scenario of scenarios) {
    test(`${scenario} (${version})`, async () => {
      const out = join(dir.path, version, scenario);
      const run = await promisify(execFile)(process.execPath, [SUITE, 'server', '--url', `http://localhost:${relay.port}/mcp`, '--spec-version', version, '--scenario', scenario, '-o', out], { timeout: 60_000 })
        .catch((error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: error.stdout ?? '', stderr: `${error.stderr ?? ''} (exit ${error.code})` }));
      const files = readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('checks.json'));
      assert.ok(files.length > 0, `no checks written: ${run.stdout}${run.stderr}`);
      const checks = files.flatMap((f) => JSON.parse(readFileSync(join(out, f), 'utf8')) as Check[]);
      const failed = checks.filter((c) => c.status === 'FAILURE' && !(Object.hasOwn(EXPECTED, c.id) && c.errorMessage?.includes(EXPECTED[c.id])));
      assert.deepEqual(failed, [], `${scenario}: ${failed.map((c) => `${c.id}: ${c.errorMessage}`).join('; ')}`);
      for (const check of checks.filter((c) => Object.hasOwn(STRICTER, c.id))) {
        assert.equal(check.status, 'FAILURE', `${check.id} now passes: XOS's gate changed; update STRICTER and docs/security.md`);
      }
      for (const check of checks.filter((c) => Object.hasOwn(NEEDS_SUITE_TOOL, c.id))) {
        assert.equal(check.status, 'FAILURE', `${check.id} now runs against XOS: check what it found and take it out of NEEDS_SUITE_TOOL`);
      }
      assert.ok(checks.some((c) => c.status === 'SUCCESS'), `${scenario}: no check succeeded: ${JSON.stringify(checks)}`);
    });
  }
});
