// xos-mcp with the Board in a browser: the built CLI (bin/xos-mcp.mjs) started by the MCP SDK
// client over stdio, as Claude Code, Claude Desktop or Cursor start it; the Board page opened
// in headless Chromium from the link xos-mcp printed. The agent's list and record appear on the
// page live; a save asks on the page, and only the person's click there writes (Save: exactly
// the change stored; Discard: nothing). Without the page open a save says where to confirm.
//   npm run build && npm run provision:vscode && node --test test/e2e/browserBoard.e2e.ts
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
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

async function call(name: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const result = await client.callTool({ name, arguments: args });
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

      // The key left the address bar; the plain address (what the agent names) opens the Board in this browser.
      assert.equal(await page.evaluate(() => location.href), link.split('#')[0]);
      await page.goto(link.split('#')[0]);
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
});
