// xos-mcp with the Board in a browser: the built CLI (bin/xos-mcp.mjs) started by the MCP SDK
// client over stdio, as Claude Code, Claude Desktop or Cursor start it; the Board page opened
// in headless Chromium from the link xos-mcp printed. The agent's list and record appear on the
// page live; a save asks on the page, and only the person's click there writes (Save: exactly
// the change stored; Discard: nothing). Without the page open a save says where to confirm.
// The key: it leaves no history entry and nothing in storage; a second tab cannot take over
// while a question is open; with xos-mcp down and another program on the port (a squatter),
// the open tab sends it nothing reusable, says the server could not prove the key, and stops.
//   npm run build && npm run provision:vscode && node --test test/e2e/browserBoard.e2e.ts
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { launchChromium, type Browser, type Page } from './support/browser.ts';

const root = join(import.meta.dirname, '..', '..');
const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';

interface Reply { text: string; isError: boolean }

let dir: string;
let client: Client;
let transport: StdioClientTransport;
let browser: Browser;
let page: Page | undefined;
let link: string;
let stderr = '';

async function call(name: string, args: Record<string, unknown> = {}, through: Client = client): Promise<Reply> {
  const result = await through.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  return { text: content.map((c) => c.text ?? '').join(''), isError: result.isError === true };
}

/** Person 1 as stored, read through a second backend on the same SQLite file. */
async function storedCity(): Promise<string> {
  const backend = await startBackend({ ast: demoApp(), dsn: `sqlite:${join(dir, 'xos-mcp', 'xos.db')}` });
  try {
    const result = await backend.api.run({ query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` });
    return (result.data as { person_detail: { city: string } }).person_detail.city;
  } finally {
    await backend.close();
  }
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; stderr:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Another xos-mcp over stdio (its own data), as a client would start it; resolves once its link is printed. */
async function startAnother(args: string[], env: Record<string, string>, data: string): Promise<{ client: Client; link: string; log: () => string }> {
  let log = '';
  const stdio = new StdioClientTransport({
    command: join(root, 'node_modules', '.bin', 'node'),
    args: [join(root, 'bin', 'xos-mcp.mjs'), '--confirm-timeout', '60', '--locale', 'en', ...args],
    env: { ...process.env as Record<string, string>, XDG_DATA_HOME: data, ...env },
    cwd: data,
    stderr: 'pipe',
  });
  stdio.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString('utf8'); });
  const another = new Client({ name: 'xos-browser-e2e-2', version: '1.0.0' });
  await another.connect(stdio);
  const printed = await until('the other Board link', () => /Open the XOS Board: (\S+)/.exec(log)?.[1]);
  return { client: another, link: printed, log: () => log };
}

interface Recorded { method: string; url: string; headers: IncomingHttpHeaders; body: string }

/**
 * Another program on the Board's port while xos-mcp is down: it records everything the open
 * tab sends and answers the handshake as well as it can without the key (a made-up proof).
 */
async function startSquatter(port: number): Promise<{ server: Server; recorded: Recorded[] }> {
  const recorded: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { body += chunk; });
    req.on('end', () => {
      recorded.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.method === 'POST' && req.url === '/board/challenge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ serverNonce: randomBytes(32).toString('base64url'), serverProof: randomBytes(32).toString('base64url') }));
      } else if (req.url === '/board/events' || req.url === '/board/session') {
        // Whatever a real server would answer, the squatter would love to see the request first.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ session: randomBytes(32).toString('base64url') }));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  // The port is free once xos-mcp has exited: try until it is.
  for (const start = Date.now(); ;) {
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) return { server, recorded };
    if (Date.now() - start > 20_000) throw new Error(`port ${port} stayed busy`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xos-mcp-e2e-'));
  transport = new StdioClientTransport({
    command: join(root, 'node_modules', '.bin', 'node'),
    args: [join(root, 'bin', 'xos-mcp.mjs'), '--board-port', '0', '--confirm-timeout', '60', '--locale', 'en'],
    env: { ...process.env as Record<string, string>, XDG_DATA_HOME: dir },
    cwd: dir,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
  client = new Client({ name: 'xos-browser-e2e', version: '1.0.0' });
  await client.connect(transport);
  link = await until('the Board link on stderr', () => /Open the XOS Board: (\S+)/.exec(stderr)?.[1]);
  browser = await launchChromium();
});

after(async () => {
  await page?.close().catch(() => {});
  await browser?.close();
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('xos-mcp and the Board in a browser', () => {
  test('the link carries the key in its fragment; the agent is told the address without it', () => {
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/);
  });

  test('without the Board page open, a save says where to confirm and writes nothing', async () => {
    assert.equal((await call('xos_schema')).isError, false);
    assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` })).isError, false);
    assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Nowhere' } })).isError, false);
    const reply = await call('xos_ui_save');
    assert.equal(reply.isError, true, reply.text);
    const url = link.split('#')[0];
    assert.ok(reply.text.includes(`Board (the link xos-mcp printed when it started, ${url})`), reply.text);
    assert.ok(!reply.text.includes(link.split('#token=')[1]), 'the key never reaches the agent');
    assert.notEqual(await storedCity(), 'Nowhere');
  });

  test('the page shows what the agent shows; Save on the page stores exactly the change, Discard nothing', async (t) => {
    try {
      page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
      const entriesBefore = await page.evaluate(() => history.length);
      await page.goto(link);
      // The kept proposal from before is on the page (the state lives in xos-mcp).
      await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 20_000 });

      // A list from the agent appears live.
      assert.equal((await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' })).isError, false);
      await page.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });

      // A record, a proposal, a save: the question is on the page.
      const before = await storedCity();
      assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` })).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Bremen-Vegesack' } })).isError, false);
      await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 20_000 });
      const saving = call('xos_ui_save');
      const dialog = page.locator('[role="alertdialog"]');
      await dialog.waitFor({ state: 'visible', timeout: 20_000 });
      const question = await dialog.innerText();
      assert.ok(question.includes('Bremen-Vegesack') && question.includes(before), question);
      await screenshot(page as never, 'browser-board-question');
      await dialog.locator('vscode-button.act').click();
      const saved = await saving;
      assert.equal(saved.isError, false, saved.text);
      assert.equal(await storedCity(), 'Bremen-Vegesack');
      await dialog.waitFor({ state: 'hidden', timeout: 10_000 });

      // Discard on the page: nothing is written.
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Köln' } })).isError, false);
      const discarding = call('xos_ui_save');
      await dialog.waitFor({ state: 'visible', timeout: 20_000 });
      await dialog.locator('vscode-button.keep').click();
      const discarded = await discarding;
      assert.equal(discarded.isError, true);
      assert.match(discarded.text, /Not saved: the person chose Discard/);
      assert.equal(await storedCity(), 'Bremen-Vegesack');
      assert.deepEqual(errors, [], 'no page errors (CSP violations included)');

      // The key left the address bar without a history entry that keeps it, and nothing of it is stored.
      const key = link.split('#token=')[1];
      assert.equal(await page.evaluate(() => location.href), link.split('#')[0]);
      assert.equal(await page.evaluate(() => history.length), entriesBefore + 1, 'the #token entry was replaced by the plain address, not kept beside it');
      assert.deepEqual(await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length })), { local: 0, session: 0 });
      assert.deepEqual(await page.evaluate(() => indexedDB.databases().then((all) => all.length)), 0);
      assert.ok(!(await page.evaluate(() => document.documentElement.outerHTML)).includes(key));

      // A second tab while a question is open: refused and told why; the first keeps the question and saves.
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Emden' } })).isError, false);
      const asking = call('xos_ui_save');
      await dialog.waitFor({ state: 'visible', timeout: 20_000 });
      const second = await browser.newPage();
      try {
        await second.goto(link);
        const busy = second.locator('#xos-connection-notice[role="alert"]');
        await busy.waitFor({ state: 'visible', timeout: 20_000 });
        assert.match(await busy.innerText(), /asking a question in another tab or window\. Answer it there/);
        assert.equal(await second.locator('[role="alertdialog"]').count(), 0);
        const told = page.locator('#xos-connection-notice[role="alert"]');
        await told.waitFor({ state: 'visible', timeout: 20_000 });
        assert.match(await told.innerText(), /Another tab or window tried to open the XOS Board; it was refused while this question is open/);
        await dialog.locator('vscode-button.act').click();
        const answered = await asking;
        assert.equal(answered.isError, false, answered.text);
        assert.equal(await storedCity(), 'Emden');
      } finally {
        await second.close();
      }

      // A reload has no key (nothing was kept): the page says to open the link; the link works again.
      await page.goto(link.split('#')[0]);
      const noKey = page.locator('#xos-connection-notice[role="alert"]');
      await noKey.waitFor({ state: 'visible', timeout: 10_000 });
      assert.match(await noKey.innerText(), /Open the link xos-mcp printed when it started/);
      await page.goto(link);
      await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 20_000 });
      // A browser that never had the link gets no data, only what to do.
      const stranger = await browser.newPage();
      try {
        await stranger.goto(link.split('#')[0]);
        const notice = stranger.locator('#xos-connection-notice[role="alert"]');
        await notice.waitFor({ state: 'visible', timeout: 10_000 });
        assert.match(await notice.innerText(), /Open the link xos-mcp printed when it started/);
        assert.equal(await stranger.locator('xos-detail-form').count(), 0);
      } finally {
        await stranger.close();
      }
    } catch (error) {
      await saveFailureArtifacts('browser-board', page as never, undefined);
      t.diagnostic(stderr);
      throw error;
    }
  });
  test('a squatter on the port while xos-mcp is down gets nothing reusable; the tab says the server could not prove the key and stops', async (t) => {
    const key = randomBytes(32).toString('hex');
    const data = mkdtempSync(join(tmpdir(), 'xos-mcp-e2e-squat-'));
    let tab: Page | undefined;
    let squatter: { server: Server; recorded: Recorded[] } | undefined;
    let running = await startAnother(['--board-port', '0'], { XOS_BOARD_KEY: key }, data);
    const port = Number(new URL(running.link).port);
    try {
      assert.equal(running.link, `http://127.0.0.1:${port}/#token=${key}`);
      tab = await browser.newPage();
      await tab.goto(running.link);
      assert.equal((await call('xos_schema', {}, running.client)).isError, false);
      assert.equal((await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }, running.client)).isError, false);
      await tab.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });

      // xos-mcp stops; another program takes the port; the tab reconnects to it.
      await running.client.close();
      squatter = await startSquatter(port);
      const notice = tab.locator('#xos-connection-notice[role="alert"]', { hasText: 'could not prove' });
      await notice.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await notice.innerText(), /The program at this address could not prove it knows this Board's key, so this page sent it nothing and stopped/);
      const sent = squatter.recorded;
      assert.ok(sent.length > 0 && sent.every((r) => r.method === 'POST' && r.url === '/board/challenge'), JSON.stringify(sent.map((r) => `${r.method} ${r.url}`)));
      for (const r of sent) {
        assert.equal(r.headers.authorization, undefined, 'no credential of any kind');
        assert.ok(!JSON.stringify(r).includes(key), 'never the key');
        assert.deepEqual(Object.keys(JSON.parse(r.body)), ['pageNonce'], 'only a random nonce');
      }
      await new Promise<void>((resolve) => squatter!.server.close(() => resolve()));
      squatter.server.closeAllConnections();

      // xos-mcp is back on the port with the same key: everything the squatter saw is replayed; none of it opens the Board.
      running = await startAnother(['--board-port', String(port)], { XOS_BOARD_KEY: key }, data);
      for (const r of sent) {
        const replay = await fetch(`http://127.0.0.1:${port}${r.url}`, { method: r.method, headers: { 'content-type': 'application/json' }, body: r.body });
        const body = await replay.text();
        assert.ok(!/"session"/.test(body), body);
        if (replay.ok) {
          // A replayed nonce buys only a new challenge; answering it needs the key.
          const { serverNonce } = JSON.parse(body) as { serverNonce: string };
          const guess = await fetch(`http://127.0.0.1:${port}/board/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ serverNonce, pageProof: randomBytes(32).toString('base64url') }) });
          assert.equal(guess.status, 401);
        }
      }
      // The tab stopped: it did not come back to the real server either (the person opens the link again).
      assert.equal((await call('xos_schema', {}, running.client)).isError, false);
      assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` }, running.client)).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Squatville' } }, running.client)).isError, false);
      const refused = await call('xos_ui_save', {}, running.client);
      assert.match(refused.text, /^Not saved: the person confirms on the XOS Board page, and it is not open/);
      assert.equal(await notice.count(), 1, "the tab still says why it stopped");
      assert.deepEqual(await tab.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, href: location.href })), { local: 0, session: 0, href: `http://127.0.0.1:${port}/` });
    } catch (error) {
      await saveFailureArtifacts('browser-board-squatter', tab as never, undefined);
      t.diagnostic(running.log());
      throw error;
    } finally {
      await tab?.close().catch(() => {});
      squatter?.server.closeAllConnections();
      squatter?.server.close();
      await running.client.close().catch(() => {});
      rmSync(data, { recursive: true, force: true });
    }
  });
});
