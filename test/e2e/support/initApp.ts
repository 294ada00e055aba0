// An app `xos-server init` made from the person's own SQLite file, served by xos-mcp, with a browser
// page on its Board: what the browser-Board tests of the person's own database start from.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, type Browser, type Page } from './browser.ts';
import { vscodeServer } from './codeServer.ts';
import { startXosMcp, type StartedXosMcp } from './xosMcp.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** The AST init wrote, as JSON. */
export type InitAst = Record<string, unknown> & {
  readonly entities: Record<string, { readonly fields: Record<string, { readonly type: string }> }>;
  readonly contexts: Record<string, { readonly list_fields: string[] }>;
};

export interface BoardOnInitApp {
  readonly xosMcp: StartedXosMcp;
  readonly browser: Browser;
  readonly page: Page;
  /** The page's errors and console errors (CSP violations included). */
  readonly errors: string[];
  close(): Promise<void>;
}

/**
 * Runs `xos-server init --from sqlite:./<database>` in `dir` (the file is there already), lets `adjust`
 * change the AST as a person would (it gets what init wrote and returns what to serve), starts xos-mcp
 * on it and opens its Board in Chromium.
 */
export async function boardOnInitApp(options: {
  readonly name: string;
  readonly dir: string;
  readonly database: string;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly adjust?: (ast: InitAst) => InitAst;
}): Promise<BoardOnInitApp> {
  const { dir, database } = options;
  execFileSync(process.execPath, [join(repoRoot, 'bin', 'xos-server.mjs'), 'init', '--from', `sqlite:./${database}`], { cwd: dir, stdio: 'pipe' });
  const written = JSON.parse(readFileSync(join(dir, 'xos.json'), 'utf8')) as InitAst;
  if (options.adjust) writeFileSync(join(dir, 'xos.json'), JSON.stringify(options.adjust(written), null, 2));
  const xosMcp = await startXosMcp({ name: options.name, data: dir, args: ['--board-port', '0', '--ast', 'xos.json', '--dsn', `sqlite:./${database}`] });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: options.viewport });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await page.goto(xosMcp.link);
  return {
    xosMcp, browser, page, errors,
    async close() {
      await page.close().catch(() => {});
      await browser.close();
      await xosMcp.client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `read` gives `expected` (compared as JSON); the failure says the last value and what xos-mcp said. */
export async function until<T>(what: string, read: () => Promise<T> | T, expected: T, xosMcp: StartedXosMcp | undefined, timeoutMs = 30_000): Promise<void> {
  let last: T | undefined;
  await vscodeServer.waitFor(async () => {
    last = await Promise.resolve().then(read).catch(() => undefined);
    return JSON.stringify(last) === JSON.stringify(expected) || undefined;
  }, { timeoutMs, intervalMs: 100, describe: () => `${what}: ${JSON.stringify(last)}, not ${JSON.stringify(expected)}; xos-mcp said:\n${xosMcp?.log() ?? ''}` });
}
