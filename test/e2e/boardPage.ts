// The Board's webview bundle in a plain page, for the grid's browser tests and
// bench:board: webview/main.ts bundled with the production options of esbuild.mjs,
// the panel's own HTML and CSP (src/board/html.ts), and boardPageHost.ts as the
// host side of the protocol. Served on loopback to headless Chromium.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import * as esbuild from 'esbuild';
import { demoApp } from '../../src/backend/demo.ts';
import { boardHtml, createNonce } from '../../src/board/html.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { columnsOf, webviewTexts } from '../../src/board/view.ts';
import type { PageConfig } from './boardPageHost.ts';
import { launchChromium } from './support/browser.ts';

const root = join(import.meta.dirname, '..', '..');

export interface BoardPageServer {
  /** The page for a locale: `${url}/?locale=de` */
  readonly url: string;
  close(): Promise<void>;
}

/** Bundles the webview and the page host, and serves them with the Board's HTML. */
export async function serveBoardPage(): Promise<BoardPageServer> {
  const dir = mkdtempSync(join(tmpdir(), 'xos-board-page-'));
  await esbuild.build({
    entryPoints: { board: join(root, 'webview/main.ts') },
    outdir: dir, bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  await esbuild.build({
    entryPoints: { host: join(root, 'test/e2e/boardPageHost.ts') },
    outdir: dir, bundle: true, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'silent',
  });
  const files: Record<string, string> = { '/board.js': readFileSync(join(dir, 'board.js'), 'utf8'), '/host.js': readFileSync(join(dir, 'host.js'), 'utf8') };
  const ast = demoApp();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (files[url.pathname]) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(files[url.pathname]);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname !== '/') {
      res.writeHead(404).end();
      return;
    }
    const locale = url.searchParams.get('locale') ?? 'en';
    const context = appModel(ast, locale).context(url.searchParams.get('context') ?? 'person_list')!;
    const config: PageConfig = { locale, context: context.name, texts: webviewTexts(locale), columns: columnsOf(context), label: context.label };
    const origin = `http://${req.headers.host}`;
    const nonce = createNonce();
    const html = boardHtml({ cspSource: origin, scriptUri: `${origin}/board.js`, nonce, lang: locale, title: 'XOS Board' })
      .replace('<script type="module"', `<script type="application/json" id="xos-page-config">${JSON.stringify(config).replaceAll('<', '\\u003c')}</script>\n<script nonce="${nonce}" src="${origin}/host.js"></script>\n<script type="module"`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// The parts of Playwright these pages use (playwright-core is provisioned outside the repository).
export interface GridLocator {
  count(): Promise<number>;
  first(): GridLocator;
  nth(index: number): GridLocator;
  locator(selector: string): GridLocator;
  innerText(): Promise<string>;
  allInnerTexts(): Promise<string[]>;
  getAttribute(name: string): Promise<string | null>;
  click(options?: { timeout?: number }): Promise<void>;
  dblclick(): Promise<void>;
  fill(value: string): Promise<void>;
  focus(): Promise<void>;
  press(key: string): Promise<void>;
  waitFor(options?: { state?: 'attached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
}

export interface BoardPage {
  goto(url: string): Promise<unknown>;
  locator(selector: string): GridLocator;
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  waitForFunction<A>(fn: (arg: A) => unknown, arg?: A, options?: { timeout?: number; polling?: number | 'raf' }): Promise<unknown>;
  readonly keyboard: { press(key: string): Promise<void> };
  on(event: 'pageerror', listener: (error: Error) => void): void;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  close(): Promise<void>;
  context(): { newCDPSession(page: BoardPage): Promise<{ send(method: string, params?: object): Promise<any> }>; grantPermissions(permissions: string[], options?: { origin?: string }): Promise<void> };
}

export interface BoardBrowser {
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<BoardPage>;
  version(): string;
  close(): Promise<void>;
}

/** Headless Debian Chromium through the provisioned playwright-core: the run's shared one where there is one. */
export async function launchBoardBrowser(): Promise<BoardBrowser> {
  return await launchChromium() as unknown as BoardBrowser;
}

const consoleErrors = new WeakMap<BoardPage, string[]>();

/** Errors the page reported so far (uncaught exceptions, console errors such as CSP violations). */
export function pageErrors(page: BoardPage): readonly string[] {
  return consoleErrors.get(page) ?? [];
}

/** Opens the Board page and waits until the webview said ready (the empty Board shows its title). */
export async function openBoardPage(browser: BoardBrowser, server: BoardPageServer, options: { locale?: string; context?: string; width?: number; height?: number } = {}): Promise<BoardPage> {
  const page = await browser.newPage({ viewport: { width: options.width ?? 1200, height: options.height ?? 800 } });
  const errors: string[] = [];
  consoleErrors.set(page, errors);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${server.url}/?locale=${options.locale ?? 'en'}&context=${options.context ?? 'person_list'}`);
  await page.locator('xos-board h1').waitFor({ state: 'visible', timeout: 20_000 }).catch((error: Error) => {
    throw new Error(`the Board did not start: ${errors.join(' | ') || error.message}`);
  });
  return page;
}

/** For a test file: the Board page's server and a browser, started before its tests and closed after; `open` opens a page. */
export function boardPages(): { open(options?: Parameters<typeof openBoardPage>[2]): Promise<BoardPage> } {
  let server: BoardPageServer | undefined;
  let browser: BoardBrowser | undefined;
  before(async () => {
    server = await serveBoardPage();
    browser = await launchBoardBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return { open: (options) => openBoardPage(browser!, server!, options) };
}
