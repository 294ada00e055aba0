// Runs an in-host suite the way @vscode/test-electron does, but in code-server: the suite is
// bundled to CommonJS exporting run(), and the workbench URL carries the test payload.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { artifactPath, saveFailureArtifacts } from './artifacts.ts';
import type { Browser } from './browser.ts';
import { repoRoot, vscodeServer } from './codeServer.ts';

/**
 * Bundles `entry` to `<outDir>/suite.cjs`; the suite writes its outcome to `outcomePath`.
 * `defines` are further compile-time constants, given as JSON values.
 */
export async function bundleHostSuite(entry: string, outDir: string, outcomePath: string, defines: Record<string, unknown> = {}): Promise<string> {
  const outfile = join(outDir, 'suite.cjs');
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    define: Object.fromEntries(Object.entries({ ...defines, XOS_HOST_OUTCOME_PATH: outcomePath }).map(([key, value]) => [key, JSON.stringify(value)])),
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * `/?folder=<ws>&payload=<...>`: the workbench loads `extensionDevelopmentPath` as a development
 * extension and runs `extensionTestsPath` (needs --vscode-option enable-smoke-test-driver).
 */
export function hostSuiteUrl(serverUrl: string, folder: string, extensionDevelopmentPath: string, extensionTestsPath: string): string {
  const authority = new URL(serverUrl).host;
  const remote = (path: string) => `vscode-remote://${authority}${path}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionDevelopmentPath)],
    ['extensionTestsPath', remote(extensionTestsPath)],
    ['skipWelcome', 'true'],
  ];
  const query = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `${serverUrl}/?${query.toString()}`;
}

/** What an in-host suite writes to its outcome file. */
export interface HostOutcome {
  readonly passed: boolean;
  readonly checks: ReadonlyArray<{ readonly name: string; readonly ok: boolean; readonly error?: string }>;
}

export interface HostSuiteRun {
  /** What the workbench passed to codeAutomationExit: 0 when run() resolved, 1 when it rejected. */
  readonly exitCode: number;
  /** The suite's own outcome file, undefined when it wrote none (a crashed host reports 0 too). */
  readonly outcome: HostOutcome | undefined;
  /** The workbench log lines, the suite's console among them. */
  readonly log: readonly string[];
}

export interface HostSuiteOptions {
  readonly browser: Browser;
  /** The suite's entry (`test/host/<name>.host.ts`), exporting run(). */
  readonly entry: string;
  /** Extra compile-time constants besides XOS_HOST_OUTCOME_PATH, as JSON values. */
  readonly defines?: Record<string, unknown>;
  readonly settings?: Record<string, unknown>;
  /** The extension under test, loaded as a development extension (default: this repository). */
  readonly extensionDevelopmentPath?: string;
  readonly timeoutMs?: number;
  /** Name for the artifacts in test-results/e2e/ (`<name>-host.log`, and on failure a screenshot and the server log). */
  readonly name: string;
}

/**
 * Bundles one in-host suite, starts code-server on a scratch workspace, opens the payload URL
 * and waits for codeAutomationExit. Keeps the host log; on a failed run also a screenshot
 * and the code-server log.
 */
export async function runHostSuite(options: HostSuiteOptions): Promise<HostSuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'xos-host-suite-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# XOS in-host suite workspace\n');
  const outcomePath = join(dir, 'outcome.json');
  const outfile = await bundleHostSuite(options.entry, dir, outcomePath, options.defines);
  const server = await vscodeServer.startCodeServer({ workspace, settings: options.settings ?? {} });
  const page = await options.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const log: string[] = [];
  let exitCode: number | undefined;
  let passed = false;
  try {
    await page.exposeFunction('codeAutomationExit', (code: number) => { exitCode = code; });
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      log.push(`${type}: ${Array.isArray(args) ? args.join(' ') : String(args)}`);
    });
    const developmentPath = (options.extensionDevelopmentPath ?? repoRoot).replace(/\/$/, '');
    await page.goto(hostSuiteUrl(server.url, workspace, developmentPath, outfile), { waitUntil: 'domcontentloaded' });
    const code = await vscodeServer.waitFor(() => exitCode, {
      timeoutMs: options.timeoutMs ?? 180_000,
      describe: () => `window.codeAutomationExit was not called; host log:\n${log.slice(-40).join('\n')}`,
    });
    const outcome = existsSync(outcomePath) ? JSON.parse(readFileSync(outcomePath, 'utf8')) as HostOutcome : undefined;
    passed = code === 0 && outcome?.passed === true;
    return { exitCode: code, outcome, log };
  } finally {
    writeFileSync(artifactPath(`${options.name}-host.log`), `${log.join('\n')}\n`);
    if (!passed) await saveFailureArtifacts(options.name, page, server.logPath);
    await page.close();
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
