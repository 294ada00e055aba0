// Real VS Code (code-server) in headless Chromium: the workbench comes up, the command
// palette runs a command, and an in-host suite loads the XOS extension from this repository.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/smoke.e2e.ts
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, type Browser, type Page } from './support/browser.ts';
import { repoRoot, vscodeServer, type CodeServer } from './support/codeServer.ts';
import { artifactPath, saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { bundleHostSuite, hostSuiteUrl } from './support/hostSuite.ts';
import { runCommand, waitForWorkbench } from './support/workbench.ts';

const hostSuiteTimeoutMs = 120_000;

let browser: Browser;

before(async () => {
  vscodeServer.assertProvisioned();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

function tempWorkspace(): string {
  const workspace = mkdtempSync(join(tmpdir(), 'xos-e2e-ws-'));
  writeFileSync(join(workspace, 'README.md'), '# XOS e2e workspace\n');
  return workspace;
}

/** Starts code-server and a page; on failure keeps a screenshot and the server log. */
async function withWorkbench(
  name: string,
  body: (server: CodeServer, page: Page, workspace: string) => Promise<void>,
  options: { extensionsDir?: string; userDataDir?: string } = {},
): Promise<void> {
  const workspace = tempWorkspace();
  const server = await vscodeServer.startCodeServer({ workspace, ...options });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  let failed = true;
  try {
    await body(server, page, workspace);
    failed = false;
  } finally {
    if (failed) await saveFailureArtifacts(name, page, server.logPath);
    await page.close();
    if (failed) {
      await server.stop();
    } else {
      await server.dispose();
      rmSync(workspace, { recursive: true, force: true });
    }
  }
}

test('the workbench opens and the command palette runs "Developer: Show Running Extensions"', async () => {
  await withWorkbench('smoke', async (server, page, workspace) => {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);
    await screenshot(page, 'smoke-workbench');

    await runCommand(page, 'Developer: Show Running Extensions');
    // VS Code 1.139 shows this editor in a modal overlay, not as a tab.
    const editor = page.locator('.runtime-extensions-editor');
    await editor.waitFor({ state: 'visible', timeout: 30_000 });
    // The built-in Git extension activates for any folder and shows up in the list.
    const rows = editor.locator('.monaco-list-row');
    const names = await vscodeServer.waitFor(async () => {
      const shown = (await rows.allInnerTexts()).map((text) => text.split('\n')[0].trim());
      return shown.includes('Git') ? shown : undefined;
    }, { timeoutMs: 30_000, describe: () => 'no "Git" row in Running Extensions' });
    await screenshot(page, 'smoke-running-extensions');
    assert.ok(names.includes('Git'), `running extensions: ${names.join(', ')}`);
  });
});

function buildExtension(): void {
  const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(result.status, 0, `npm run build failed:\n${result.stdout}${result.stderr}`);
  assert.ok(existsSync(join(repoRoot, 'dist', 'extension.cjs')), 'dist/extension.cjs missing after the build');
}

test('an in-host suite activates the XOS extension and reports through codeAutomationExit', { timeout: 240_000 }, async () => {
  buildExtension();
  const suiteDir = mkdtempSync(join(tmpdir(), 'xos-host-suite-'));
  const outcomePath = join(suiteDir, 'outcome.json');
  const suitePath = await bundleHostSuite(join(repoRoot, 'test', 'host', 'activation.host.ts'), suiteDir, outcomePath);

  await withWorkbench('host-suite', async (server, page, workspace) => {
    const hostLog: string[] = [];
    let exitCode: number | undefined;
    await page.exposeFunction('codeAutomationExit', (code: number) => { exitCode = code; });
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      hostLog.push(`${type}: ${Array.isArray(args) ? args.join(' ') : String(args)}`);
    });
    await page.goto(hostSuiteUrl(server.url, workspace, repoRoot.replace(/\/$/, ''), suitePath), { waitUntil: 'domcontentloaded' });
    const code = await vscodeServer.waitFor(() => exitCode, {
      timeoutMs: hostSuiteTimeoutMs,
      describe: () => `window.codeAutomationExit was not called; host log:\n${hostLog.join('\n')}`,
    });
    await screenshot(page, 'host-suite-done');
    writeFileSync(artifactPath('host-suite.log'), `${hostLog.join('\n')}\n`);

    assert.ok(existsSync(outcomePath), `the suite wrote no outcome file (exit code ${code}); host log:\n${hostLog.join('\n')}`);
    const outcome = JSON.parse(readFileSync(outcomePath, 'utf8'));
    // Both must agree: a crashed extension host reports 0 too.
    assert.deepEqual({ exitCode: code, outcome }, { exitCode: 0, outcome: {
      passed: true,
      checks: [
        { name: 'extension is installed', ok: true },
        { name: 'extension activates', ok: true },
        { name: 'command xos.showOutput is registered', ok: true },
        { name: 'command xos.showOutput runs', ok: true },
      ],
    } });
  });
  rmSync(suiteDir, { recursive: true, force: true });
});

test('the XOS extension installed from the repository folder runs "XOS: Show Output" from the palette', { timeout: 240_000 }, async () => {
  buildExtension();
  const profile = mkdtempSync(join(tmpdir(), 'xos-e2e-profile-'));
  const dirs = { extensionsDir: join(profile, 'extensions'), userDataDir: join(profile, 'user-data') };
  await vscodeServer.installExtension(repoRoot, dirs);
  assert.deepEqual(await vscodeServer.listExtensions(dirs), ['xos.xos-vscode@0.1.0']);

  await withWorkbench('installed', async (server, page, workspace) => {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);
    await runCommand(page, 'XOS: Show Output');
    // The extension logs its activation to its own output channel.
    const output = page.locator('.part.panel .view-lines');
    const text = await vscodeServer.waitFor(async () => {
      // Monaco renders spaces as non-breaking spaces.
      const shown = (await output.allInnerTexts()).join('\n').replaceAll('\u00a0', ' ');
      return /XOS 0\.1\.0 activated/.test(shown) ? shown : undefined;
    }, { timeoutMs: 30_000, describe: () => 'the XOS output channel never showed "XOS 0.1.0 activated"' });
    await screenshot(page, 'installed-xos-output');
    assert.match(text, /\[info\] XOS 0\.1\.0 activated/);
  }, dirs);
  rmSync(profile, { recursive: true, force: true });
});
