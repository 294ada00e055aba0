// The Board's webview bundle in a plain page, for the grid's browser tests and
// bench:board: webview/main.ts bundled with the production options of esbuild.mjs,
// the panel's own HTML and CSP (src/board/html.ts), and boardPageHost.ts as the
// host side of the protocol. Served on loopback to headless Chromium.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { demoApp } from '../../src/backend/demo.ts';
import { boardHtml, createNonce } from '../../src/board/html.ts';
import { appModel } from '../../src/board/model.ts';
import { columnsOf, webviewTexts } from '../../src/board/view.ts';
import type { PageConfig } from './boardPageHost.ts';

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
    if (url.pathname !== '/') {
      res.writeHead(404).end();
      return;
    }
    const locale = url.searchParams.get('locale') ?? 'en';
    const context = appModel(ast, locale).context('person_list')!;
    const config: PageConfig = { locale, texts: webviewTexts(locale), columns: columnsOf(context), label: context.label };
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
