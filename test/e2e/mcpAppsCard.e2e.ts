// The inline card as an MCP Apps host shows it, in headless Chromium: the HTML comes from the
// server's ui:// resource, runs in a sandboxed iframe under the card CSP (default-src 'none'),
// and a minimal host page speaks the MCP Apps postMessage protocol with it: the ui/initialize
// handshake, then tool-input and tool-result with a real result of the XOS MCP server. The card
// shows the count, the rows and "Open in Board"; a click asks the host for the right thing
// (tools/call of the same read-only tool, answered by the real server, or ui/open-link).
//   npm run provision:vscode && node --test test/e2e/mcpAppsCard.e2e.ts
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { CARD_URI } from '../../src/mcp/apps/card.ts';
import { CARD_META_KEY, type CardOf } from '../../src/mcp/apps/cardTypes.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, Mailer } from '../../src/core/domain.ts';
import { buildCardBundle } from '../support/cardBundle.ts';
import { connectInMemory, type InMemoryMcp } from '../support/mcpClient.ts';
import { launchBoardBrowser, type BoardBrowser } from './boardPage.ts';

const LIST_QUERY = '{ person_list { id firstname lastname email city age net_worth } }';
const BOARD_URL = 'http://127.0.0.1:4799/board';
/** The CSP an MCP Apps host gives a card without declared domains. */
const CARD_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; connect-src 'none'";

/** What the host page hands the card: the host context's locale, the tool's arguments and result. */
interface Scenario {
  readonly locale: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolResult: CallToolResult;
}

interface HostMessage { jsonrpc: '2.0'; id?: number; method?: string; params?: any; result?: unknown }

// The parts of Playwright this test uses (playwright-core is provisioned outside the repository).
interface Locator {
  count(): Promise<number>;
  innerText(): Promise<string>;
  allInnerTexts(): Promise<string[]>;
  click(): Promise<void>;
  waitFor(options?: { state?: 'visible' | 'attached'; timeout?: number }): Promise<void>;
  locator(selector: string): Locator;
}
interface Page {
  goto(url: string): Promise<unknown>;
  frameLocator(selector: string): { locator(selector: string): Locator };
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options?: { timeout?: number }): Promise<unknown>;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  close(): Promise<void>;
}

/** The host page: an iframe for the card and the host side of the protocol; tools/call waits for the test. */
function hostPage(scenario: Scenario): string {
  const setup = JSON.stringify(scenario).replaceAll('<', '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<iframe id="card" sandbox="allow-scripts" src="/card.html" style="width:720px;height:600px;border:0"></iframe>
<script type="application/json" id="setup">${setup}</script>
<script>
const setup = JSON.parse(document.getElementById('setup').textContent);
const frame = document.getElementById('card');
window.hostLog = [];
const send = (message) => frame.contentWindow.postMessage(message, '*');
window.reply = (id, result) => send({ jsonrpc: '2.0', id, result });
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  const message = event.data;
  if (!message || message.jsonrpc !== '2.0') return;
  window.hostLog.push(message);
  if (message.method === 'ui/initialize') {
    window.reply(message.id, {
      protocolVersion: message.params.protocolVersion,
      hostInfo: { name: 'xos-test-host', version: '1.0.0' },
      hostCapabilities: { openLinks: {}, serverTools: {} },
      hostContext: { theme: 'dark', locale: setup.locale, displayMode: 'inline' },
    });
  } else if (message.method === 'ui/notifications/initialized') {
    send({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: setup.toolInput } });
    send({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: setup.toolResult });
  } else if (message.method === 'ui/open-link') {
    window.reply(message.id, {});
  } else if (message.method === 'tools/call') {
    // answered by the test, through the real MCP server
  } else if (message.method && message.id !== undefined) {
    window.reply(message.id, {});
  }
});
</script></body></html>`;
}

describe('the inline card in an MCP Apps host (Chromium)', () => {
  let backend: Backend;
  let mcp: InMemoryMcp;
  let boardUrl: string | undefined;
  let cardHtml: string;
  let http: Server;
  let origin: string;
  let browser: BoardBrowser;
  const scenarios = new Map<string, Scenario>();

  before(async () => {
    await buildCardBundle();
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    const client = embeddedClient(backend);
    const board = new BoardState();
    const confirmer: Confirmer = {
      confirmSave: async () => { throw new Error('a card never saves'); },
      confirmSend: async () => { throw new Error('a card never sends'); },
    };
    const mailer: Mailer = { from: 'crm@xos.example', send: async () => { throw new Error('a card never sends'); } };
    mcp = await connectInMemory((): XosDeps => ({ client, board, confirmer, mailer, locale: 'en', boardUrl: () => boardUrl }), 'card-e2e');
    assert.equal((await mcp.call('xos_schema')).isError, false);
    const { contents } = await mcp.client.readResource({ uri: CARD_URI });
    cardHtml = (contents[0] as { text: string }).text;

    http = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/card.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CARD_CSP }).end(cardHtml);
        return;
      }
      const scenario = scenarios.get(url.searchParams.get('scenario') ?? '');
      if (url.pathname === '/' && scenario) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(scenario));
        return;
      }
      res.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    browser = await launchBoardBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    await backend?.close();
  });

  async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return await mcp.client.callTool({ name, arguments: args }) as CallToolResult;
  }

  /** Opens the host page for a scenario; returns the page, the card's frame and the page's errors. */
  async function open(name: string, scenario: Scenario) {
    scenarios.set(name, scenario);
    const page = await browser.newPage({ viewport: { width: 800, height: 700 } }) as unknown as Page;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${origin}/?scenario=${name}`);
    const card = page.frameLocator('#card');
    await card.locator('h1').waitFor({ state: 'visible', timeout: 20_000 }).catch((error: Error) => {
      throw new Error(`the card did not show: ${errors.join(' | ') || error.message}`);
    });
    return { page, card, errors };
  }

  const hostLog = (page: Page) => page.evaluate(() => (window as unknown as { hostLog: HostMessage[] }).hostLog);

  test('a list: the count, ten rows with their labels, and Open in Board calls the same tool again through the host', async () => {
    boardUrl = undefined;
    const input = { context: 'person_list', query: LIST_QUERY };
    const result = await callTool('xos_query', input);
    const data = result._meta![CARD_META_KEY] as CardOf<'list'>;
    const { page, card, errors } = await open('list', { locale: 'en-US', toolInput: input, toolResult: result });

    assert.equal(await card.locator('h1').innerText(), data.title);
    assert.equal(await card.locator('p.meta').innerText(), '240 records, the first 10 shown here');
    assert.deepEqual(await card.locator('thead th').allInnerTexts(), data.columns.map((c) => c.label));
    assert.equal(await card.locator('tbody tr').count(), 10);
    const firstRow = await card.locator('tbody tr').locator('td').allInnerTexts();
    assert.deepEqual(firstRow.slice(0, data.columns.length), [...data.rows[0]]);
    const button = card.locator('button');
    assert.equal(await button.count(), 1, 'one button, and it is not save or send');
    assert.equal(await button.innerText(), 'Open in Board');

    const log = await hostLog(page);
    assert.equal(log[0].method, 'ui/initialize', 'the card starts with the handshake');
    assert.ok(log.some((m) => m.method === 'ui/notifications/initialized'));

    await button.click();
    await page.waitForFunction(() => (window as unknown as { hostLog: HostMessage[] }).hostLog.some((m) => m.method === 'tools/call'), undefined, { timeout: 10_000 });
    const request = (await hostLog(page)).find((m) => m.method === 'tools/call')!;
    assert.deepEqual({ name: request.params.name, arguments: request.params.arguments }, { name: 'xos_query', arguments: input });
    assert.ok(!(await hostLog(page)).some((m) => m.method === 'ui/open-link'));
    // The host forwards the call to the server (without asking: it only shows read-only data again).
    const again = await callTool(request.params.name, request.params.arguments);
    assert.equal(again.isError, undefined);
    await page.evaluate((reply) => (window as unknown as { reply(id: number, result: unknown): void }).reply(reply.id, reply.result), { id: request.id!, result: again });
    await card.locator('p[role="status"]').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await card.locator('p[role="status"]').innerText(), 'Shown on the Board.');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('German host, browser Board known: the card is in German and opens the Board URL through ui/open-link', async () => {
    boardUrl = BOARD_URL;
    const input = { context: 'person_list', query: LIST_QUERY };
    const result = await callTool('xos_query', input);
    const { page, card, errors } = await open('url-de', { locale: 'de-DE', toolInput: input, toolResult: result });
    assert.equal(await card.locator('p.meta').innerText(), '240 Datensätze, die ersten 10 hier');
    const button = card.locator('button');
    assert.equal(await button.innerText(), 'Im Board öffnen');
    await button.click();
    await page.waitForFunction(() => (window as unknown as { hostLog: HostMessage[] }).hostLog.some((m) => m.method === 'ui/open-link'), undefined, { timeout: 10_000 });
    const log = await hostLog(page);
    assert.deepEqual(log.find((m) => m.method === 'ui/open-link')!.params, { url: BOARD_URL });
    assert.ok(!log.some((m) => m.method === 'tools/call'), 'opening a URL calls no tool');
    assert.deepEqual(errors, []);
    boardUrl = undefined;
    await page.close();
  });

  test('a mail draft: to, subject and body, no button at all; the note says the Board in VS Code shows it', async () => {
    boardUrl = undefined;
    const input = { to: 'Max Mustermann <max@example.org>', subject: 'Our meeting', body: 'Hello Max,\nsee you on Monday.' };
    const result = await callTool('xos_mail_compose', input);
    const { page, card, errors } = await open('mail', { locale: 'en', toolInput: input, toolResult: result });
    assert.equal(await card.locator('h1').innerText(), 'Mail draft, not sent');
    assert.deepEqual(await card.locator('tbody td').allInnerTexts(), ['Max Mustermann <max@example.org>', 'Our meeting']);
    assert.equal(await card.locator('pre.body').innerText(), 'Hello Max,\nsee you on Monday.');
    assert.equal(await card.locator('button').count(), 0, 'no send, no open: re-showing a draft is not offered');
    assert.ok((await card.locator('p.note').allInnerTexts()).includes('The Board in VS Code shows it.'));
    assert.ok(!(await hostLog(page)).some((m) => m.method === 'tools/call' || m.method === 'ui/open-link'));
    assert.deepEqual(errors, []);
    await page.close();
  });
});
