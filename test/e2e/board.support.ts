// Runs test/host/xos.host.ts inside code-server while the page is watched: each
// `xos-step:` line the suite logs reaches `onStep`, where the test takes
// screenshots and answers questions the way a person would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from './support/browser.ts';
import { repoRoot, vscodeServer } from './support/codeServer.ts';
import { artifactPath, saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { bundleHostSuite, hostSuiteUrl } from './support/hostSuite.ts';

/** The Playwright calls these suites use beyond the harness's Page type. */
export interface Frame {
  url(): string;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
}

/** An attribute of the first element a locator finds (the harness's Locator type has no getAttribute). */
export function attributeOf(locator: Locator, name: string): Promise<string | null> {
  return (locator as unknown as { getAttribute(name: string): Promise<string | null> }).getAttribute(name);
}

/** Waits until `read` gives `expected` (compared as JSON), polling: the Board updates after the host answered. */
export async function untilShown<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 20_000): Promise<void> {
  let last: T | undefined;
  await vscodeServer.waitFor(async () => {
    last = await read().catch(() => undefined);
    return JSON.stringify(last) === JSON.stringify(expected) || undefined;
  }, { timeoutMs, intervalMs: 100, describe: () => `${what}: ${JSON.stringify(last)}, not ${JSON.stringify(expected)}` });
}

/** The Board grid's aria-rowcount: every row of the list plus the header row. */
export async function gridRowCount(frame: Frame): Promise<number | undefined> {
  const value = await attributeOf(frame.locator('[role="grid"]'), 'aria-rowcount');
  return value === null ? undefined : Number(value);
}

export function frames(page: Page): Frame[] {
  return (page as unknown as { frames(): Frame[] }).frames();
}

/** The Board's content frame (the webview's inner frame holding <xos-board>). */
export async function boardFrame(page: Page, { timeoutMs = 30_000 } = {}): Promise<Frame> {
  return vscodeServer.waitFor(async () => {
    for (const frame of frames(page)) {
      try {
        if (await frame.locator('xos-board').count() > 0) return frame;
      } catch {
        // Frames come and go while the webview loads.
      }
    }
    return undefined;
  }, { timeoutMs, describe: () => 'no frame with <xos-board>' });
}

/** New on the Board's list, then the first and last name typed into the empty form as the person types them, until the form counts them as edits. */
export async function typeNewPerson(board: Frame, page: Page, firstname: string, lastname: string): Promise<void> {
  await board.locator('vscode-button.new').click();
  await board.locator('xos-detail-form div.summary', { hasText: 'New record, not saved yet' }).waitFor({ state: 'visible', timeout: 15_000 });
  for (const [field, value] of [['firstname', firstname], ['lastname', lastname]] as const) {
    await board.locator(`xos-field-editor[data-field="${field}"] vscode-textfield input`).click();
    await page.keyboard.type(value);
  }
  await board.locator('xos-field-editor[data-field="lastname"] vscode-badge.edited').waitFor({ state: 'visible', timeout: 15_000 });
}

/** Builds dist/ for a suite, unless npm test built it already for every file (XOS_BUILT). */
export function buildExtension(): void {
  if (process.env.XOS_BUILT === '1') return;
  const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(result.status, 0, `npm run build failed:\n${result.stdout}${result.stderr}`);
}

export interface HostRun {
  readonly exitCode: number;
  readonly outcome: { passed: boolean; checks: Array<{ name: string; ok: boolean; error?: string }>; facts: Record<string, any> };
  readonly steps: string[];
  readonly errors: string[];
}

export interface SteppedSuite {
  /** Artifact prefix (`<name>-host.log`, `<name>-failure.png`). */
  readonly name: string;
  /** The in-host suite under test/host/. */
  readonly entry: string;
  /** Bundle-time constants besides XOS_HOST_OUTCOME_PATH. */
  readonly defines?: Record<string, unknown>;
  readonly settings?: Record<string, unknown>;
  /** Called for every `xos-step:` line, in order; `<step>.done` then lets the suite go on. */
  readonly onStep: (step: string, page: Page) => Promise<void>;
  /** Sees the run before the profile (and the database in its global storage) is deleted. */
  readonly inspect?: (run: HostRun, places: { readonly userDataDir: string; readonly workspace: string }) => void;
  readonly timeoutMs?: number;
  /** Variables for code-server and its extension hosts. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Builds the extension, bundles the suite `mode` of test/host/xos.host.ts, starts
 * code-server on a fresh workspace and profile, and resolves when the extension host exited.
 */
export function runXosHostSuite(browser: Browser, name: string, mode: 'board' | 'workflow',
  onStep: (step: string, page: Page) => Promise<void>, settings: Record<string, unknown> = {},
  inspect: (run: HostRun) => void = () => {}): Promise<HostRun> {
  return runSteppedHostSuite(browser, { name, entry: 'xos.host.ts', defines: { XOS_HOST_MODE: mode }, settings, onStep, inspect });
}

/** Runs an in-host suite that meets the browser test at named steps (see test/host/support/suite.ts). */
export async function runSteppedHostSuite(browser: Browser, suite: SteppedSuite): Promise<HostRun> {
  const { name, onStep, settings = {}, inspect = () => {}, timeoutMs = 270_000 } = suite;
  buildExtension();
  const dir = mkdtempSync(join(tmpdir(), `xos-${name}-`));
  const workspace = join(dir, 'workspace');
  const outcomePath = join(dir, 'outcome.json');
  const suitePath = await bundleHostSuite(join(repoRoot, 'test', 'host', suite.entry), dir, outcomePath, suite.defines);
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'README.md'), '# XOS e2e workspace\n');
  // The suite waits for `<step>.done` here before it goes on.
  const doneDir = join(workspace, '.xos-e2e');
  mkdirSync(doneDir, { recursive: true });

  const server = await vscodeServer.startCodeServer({ workspace, env: suite.env, settings: { 'workbench.colorTheme': 'Default Dark Modern', ...settings } });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const hostLog: string[] = [];
  const steps: string[] = [];
  const errors: string[] = [];
  let exitCode: number | undefined;
  let chain = Promise.resolve();
  let failed = true;
  const consoleLog: string[] = [];
  page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') consoleLog.push(`${message.type()}: ${message.text()}`); });
  page.on('pageerror', (error) => consoleLog.push(`pageerror: ${error.message}`));
  try {
    await page.exposeFunction('codeAutomationExit', (code: number) => { exitCode = code; });
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      const line = Array.isArray(args) ? args.join(' ') : String(args);
      hostLog.push(`${type}: ${line}`);
      const match = /xos-step: ([\w-]+)/.exec(line);
      if (match) {
        steps.push(match[1]);
        // One step at a time, in order; a failing step is reported, not thrown into the page.
        chain = chain.then(() => onStep(match[1], page))
          .catch((error: unknown) => { errors.push(`${match[1]}: ${String(error)}`); })
          .then(() => writeFileSync(join(doneDir, `${match[1]}.done`), ''));
      }
    });
    await page.goto(hostSuiteUrl(server.url, workspace, repoRoot.replace(/\/$/, ''), suitePath), { waitUntil: 'domcontentloaded' });
    const code = await vscodeServer.waitFor(() => exitCode, {
      timeoutMs,
      describe: () => {
        writeFileSync(artifactPath(`${name}-host.log`), `${hostLog.join('\n')}\n`);
        return `window.codeAutomationExit was not called; steps so far: ${steps.join(', ')}; host log in test-results/e2e/${name}-host.log`;
      },
    });
    await chain;
    writeFileSync(artifactPath(`${name}-host.log`), `${hostLog.join('\n')}\n`);
    writeFileSync(artifactPath(`${name}-console.log`), `${consoleLog.join('\n')}\n`);
    assert.ok(existsSync(outcomePath), `the suite wrote no outcome file (exit code ${code}); host log:\n${hostLog.slice(-40).join('\n')}`);
    const outcome = JSON.parse(readFileSync(outcomePath, 'utf8'));
    const run = { exitCode: code, outcome, steps, errors };
    // Before the profile (and the database in its global storage) is deleted.
    inspect(run, { userDataDir: server.userDataDir, workspace });
    failed = !outcome.passed || errors.length > 0;
    return run;
  } finally {
    if (failed) await saveFailureArtifacts(name, page, server.logPath);
    await page.close();
    if (failed) await server.stop();
    else await server.dispose();
    if (!failed) rmSync(dir, { recursive: true, force: true });
  }
}

export { screenshot };
