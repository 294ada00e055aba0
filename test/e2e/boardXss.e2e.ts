// The Board under hostile data, in headless Chromium: an AST whose labels and a set of records,
// a change preview and a mail draft whose every text is an XSS or exfiltration vector (script,
// event handlers, javascript: and command: links, CSS url(), SVG, <meta refresh>, <base>, forms),
// turned into the Board's messages by the host's own view code and rendered by the real bundle
// under the panel's real HTML and CSP. Nothing may run (a vector that runs calls __xosPwned),
// nothing may load from outside (any request to another origin is recorded and blocked), the
// page may not navigate, and every vector is still shown to the person as text.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as esbuild from 'esbuild';
import type { Ast } from '../../src/ast/schema.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { boardHtml, createNonce } from '../../src/board/html.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { BoardState } from '../../src/board/state.ts';
import { detailBlock, listBlock, mailBlock, webviewTexts } from '../../src/board/view.ts';
import { MemoryListSource } from '../../src/core/listSource.ts';
import { BoardHistory } from '../../src/core/history.ts';
import { openableContexts } from '../../src/core/openContext.ts';
import { xssVectors, type Vector } from '../support/xss.ts';
import { saveFailureArtifacts } from './support/artifacts.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import type { Page } from './support/browser.ts';

const root = join(import.meta.dirname, '..', '..');
const vectors = xssVectors(300);
const browser = fileBrowser();

/** The demo app with every label an author writes replaced by vectors. */
function hostileAst(take: () => string): Ast {
  const ast = structuredClone(demoApp()) as Ast & { contexts: Record<string, { label?: unknown }>; entities: Record<string, { label?: unknown; fields: Record<string, { label?: unknown }> }> };
  for (const context of Object.values(ast.contexts)) context.label = take();
  for (const entity of Object.values(ast.entities)) {
    entity.label = take();
    for (const field of Object.values(entity.fields)) field.label = take();
  }
  return ast;
}

/** The Board's messages for hostile data, computed by the host's view code as in VS Code. */
function hostileMessages(): { messages: Array<{ method: string; params: unknown }>; used: Vector[] } {
  let next = 0;
  const used: Vector[] = [];
  const take = () => {
    const vector = vectors[next++ % vectors.length];
    if (next <= vectors.length) used.push(vector);
    return vector.text;
  };
  const ast = hostileAst(take);
  const locale = 'en';
  const model = appModel(ast, locale).context('person_list')!;
  const records = Array.from({ length: 40 }, (_, i) => ({
    id: i + 1, firstname: take(), lastname: take(), email: take(), city: take(), age: 30 + i, net_worth: '1.00',
  }));
  const board = new BoardState();
  // The breadcrumb names the list and the record: hostile labels and values there too.
  const history = new BoardHistory(board);
  const listSource = new MemoryListSource(model, records);
  board.showList({ context: 'person_list', source: listSource });
  const list = listBlock({ ast, locale, list: { context: 'person_list', source: listSource }, listId: 1, listQuery: {} });
  const record: Record<string, unknown> = { id: 1, version: undefined };
  for (const field of Object.keys(ast.entities.person.fields)) if (!['id', 'age', 'net_worth', 'active', 'birthday', 'last_contact', 'status', 'company'].includes(field)) record[field] = take();
  board.showDetail({ context: 'person_detail', record, version: 1 });
  board.preview({ lastname: take(), notes: take(), city: take() });
  const snapshot = board.snapshot();
  const detail = detailBlock({ ast, locale, snapshot, form: board.formValues() });
  board.showMail({ to: { name: take(), email: 'max@nordlicht.example' }, subject: take(), body: vectors.map((v) => v.text).join('\n') });
  const mail = mailBlock({ snapshot: board.snapshot(), locale, from: take(), sending: false });
  // The rest of the vectors go to the status line, one after another.
  const statuses = vectors.slice(next % vectors.length).map((v) => ({ method: 'board/status', params: { status: { kind: 'error', text: v.text } } }));
  return {
    used: vectors,
    messages: [
      { method: 'board/locale', params: { locale, texts: webviewTexts(locale), contexts: openableContexts(ast, locale) } },
      { method: 'board/list', params: { list } },
      { method: 'board/history', params: { history: history.view(ast, locale) } },
      { method: 'board/detail', params: { detail } },
      { method: 'board/mail', params: { mail } },
      ...statuses,
    ],
  };
}

let server: Server;
let origin = '';
let dir = '';
const outside: string[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xos-board-xss-'));
  await esbuild.build({
    entryPoints: { board: join(root, 'webview/main.ts') }, outdir: dir, bundle: true, format: 'esm', platform: 'browser',
    target: 'es2022', minify: true, logLevel: 'silent', define: { 'process.env.NODE_ENV': '"production"' },
  });
  const board = readFileSync(join(dir, 'board.js'), 'utf8');
  const { messages } = hostileMessages();
  // The host's side: provides acquireVsCodeApi and posts the messages once the Board says it is ready.
  const host = `window.__xosPwned = (id) => { (window.__xosRan = window.__xosRan || []).push(String(id)); };
    const messages = ${JSON.stringify(messages).replaceAll('<', '\\u003c')};
    window.acquireVsCodeApi = () => ({ setState() {}, postMessage(message) {
      if (message && message.method === 'board/ready') for (const m of messages) window.postMessage(m, '*');
      (window.__xosFromBoard = window.__xosFromBoard || []).push(message);
    } });`;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/board.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(board);
    if (url.pathname === '/host.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(host);
    if (url.pathname !== '/') {
      outside.push(`same-origin ${url.pathname}`);
      return void res.writeHead(404).end();
    }
    const nonce = createNonce();
    const html = boardHtml({ cspSource: origin, scriptUri: `${origin}/board.js`, nonce, lang: 'en', title: 'XOS Board' })
      .replace('<script type="module"', `<script nonce="${nonce}" src="${origin}/host.js"></script>\n<script type="module"`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

after(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

interface PageExtras {
  evaluate<T>(fn: string | (() => T)): Promise<T>;
  route(pattern: string, handler: (route: { request(): { url(): string }; abort(): Promise<void>; continue(): Promise<void> }) => Promise<void>): Promise<void>;
  on(event: 'framenavigated', listener: (frame: { url(): string }) => void): void;
  mouse: { move(x: number, y: number): Promise<void> };
}

test(`the Board renders ${vectors.length} XSS and exfiltration vectors in grid, form, labels, mail and status as text: nothing runs, nothing loads`, { timeout: 180_000 }, async () => {
  const page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
  const extras = page as unknown as Page & PageExtras;
  const navigations: string[] = [];
  const violations: string[] = [];
  let failed = true;
  try {
    await extras.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(origin)) return route.continue();
      outside.push(url);
      await route.abort();
    });
    extras.on('framenavigated', (frame) => navigations.push(frame.url()));
    const consoleLines: string[] = [];
    page.on('console', (message) => {
      consoleLines.push(message.text());
      if (/Content Security Policy/.test(message.text())) violations.push(message.text());
    });
    page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    // Wait until the Board shows the last status vector, i.e. took every message.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const shown = await extras.evaluate(() => (window as unknown as { __xosFromBoard?: unknown[] }).__xosFromBoard?.length ?? 0);
      const text = await extras.evaluate(boardTextInPage);
      if (shown > 0 && text.includes(vectors.at(-1)!.id)) break;
      if (Date.now() > deadline) throw new Error(`the Board never showed all messages (${shown} from the Board, ${text.length} characters, missing ${JSON.stringify(vectors.filter((v) => !new RegExp(`\\b${v.id}\\b`).test(text)).map((v) => v.id).slice(0, 30))})\nconsole:\n${consoleLines.slice(0, 20).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Hover and focus everything a handler could hang on, then give timers a moment to fire.
    for (let y = 20; y < 1000; y += 40) for (let x = 20; x < 1400; x += 200) await extras.mouse.move(x, y);
    for (let i = 0; i < 60; i++) await page.keyboard.press('Tab');
    await extras.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));

    const ran = await extras.evaluate(() => (window as unknown as { __xosRan?: string[] }).__xosRan ?? []);
    assert.deepEqual(ran, [], 'no vector ran');
    assert.deepEqual(outside, [], 'nothing was loaded from anywhere else');
    assert.deepEqual(navigations.filter((url) => url !== `${origin}/`), [], 'the page never navigated');
    assert.equal(await extras.evaluate(() => document.baseURI), `${origin}/`, 'no <base> took effect');
    // Every vector reached the person as text, in the grid, the form, the labels, the mail or the status line.
    const text = await extras.evaluate(boardTextInPage);
    const missing = vectors.filter((v) => !text.includes(v.id)).map((v) => v.id);
    assert.deepEqual(missing.slice(0, 10), [], `${missing.length} vectors are not shown`);
    // No element from the data made it into the DOM: no script, iframe, object, embed, base, meta, form or on* attribute.
    const injected = await extras.evaluate(injectedElementsInPage);
    assert.deepEqual(injected, []);
    console.log(`xss: ${vectors.length} vectors rendered as text; ran 0, requests elsewhere 0, CSP reports ${violations.length}`);
    failed = false;
  } finally {
    if (failed) await saveFailureArtifacts('board-xss', page, undefined);
    await page.close();
  }
});

/** Runs in the page: the Board's text through every shadow root. */
function boardTextInPage(): string {
  const textOf = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (!(node instanceof Element)) return '';
    if (node.tagName === 'STYLE') return '';
    const own = node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement ? ` ${node.value} ` : '';
    const valued = (node as unknown as { value?: unknown }).value;
    const custom = node.tagName.includes('-') && typeof valued === 'string' ? ` ${valued} ` : '';
    const title = node.getAttribute('title') ?? '';
    return own + custom + title + [...(node.shadowRoot?.childNodes ?? []), ...node.childNodes].map(textOf).join(' ');
  };
  const board = document.querySelector('xos-board');
  return board ? textOf(board) : '';
}

/** Runs in the page: elements and attributes that only injected markup would have. */
function injectedElementsInPage(): string[] {
  const dangerous = ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'BASE', 'META', 'FORM', 'LINK', 'FRAME'];
  const found: string[] = [];
  const visit = (node: ParentNode) => {
    for (const element of node.querySelectorAll('*')) {
      // The Board's own forms have no action; an injected one would.
      const ownForm = element.tagName === 'FORM' && !element.hasAttribute('action');
      if (dangerous.includes(element.tagName.toUpperCase()) && !ownForm) found.push(`${element.tagName}: ${element.outerHTML.slice(0, 80)}`);
      for (const attribute of element.getAttributeNames()) if (/^on/i.test(attribute)) found.push(`${element.tagName}[${attribute}]`);
      if (element.shadowRoot) visit(element.shadowRoot);
    }
  };
  const board = document.querySelector('xos-board');
  if (board?.shadowRoot) visit(board.shadowRoot);
  // In the document itself only the page's own two scripts and its CSP meta belong.
  for (const element of document.querySelectorAll(dangerous.join(','))) {
    const own = (element.tagName === 'SCRIPT' && /\/(host|board)\.js$/.test((element as HTMLScriptElement).src))
      || (element.tagName === 'META' && ['Content-Security-Policy', null].includes(element.getAttribute('http-equiv')) && element.closest('head') !== null);
    if (!own) found.push(`document ${element.tagName}: ${element.outerHTML.slice(0, 80)}`);
  }
  return found;
}
