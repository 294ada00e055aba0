// Unsaved Board work survives a crash of the real extension host: test/host/crash.host.ts has the
// agent propose a change; once XOS kept it on disk, this test kills that extension host with
// SIGKILL and reloads VS Code like a person would. The new host offers the work back in a
// notification ("Open Board"), and the Board shows the proposal again, nothing saved.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { boardFrame, buildExtension } from './board.support.ts';
import { artifactPath, saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { repoRoot, vscodeServer } from './support/codeServer.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { bundleHostSuite, hostSuiteUrl } from './support/hostSuite.ts';
import { answerNotification } from './support/notifications.ts';

const browser = fileBrowser();

test('a SIGKILL of the extension host loses no unsaved Board work: after a reload XOS offers it back, the Board shows it, and Back leads to the list shown before', { timeout: 300_000 }, async () => {
  buildExtension();
  const dir = mkdtempSync(join(tmpdir(), 'xos-crash-'));
  const workspace = join(dir, 'workspace');
  const marks = join(workspace, '.xos-e2e');
  mkdirSync(marks, { recursive: true });
  writeFileSync(join(workspace, 'README.md'), '# XOS crash workspace\n');
  const outcomePath = join(dir, 'outcome.json');
  const suite = await bundleHostSuite(join(repoRoot, 'test', 'host', 'crash.host.ts'), dir, outcomePath);
  const server = await vscodeServer.startCodeServer({ workspace });
  const page = await browser().newPage({ viewport: { width: 1400, height: 900 } });
  const log: string[] = [];
  let killed: number | undefined;
  let reloaded: Promise<unknown> | undefined;
  let failed = true;
  try {
    await page.exposeFunction('codeAutomationExit', () => { /* the outcome file decides, not the (crashed) host's exit */ });
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      const line = Array.isArray(args) ? args.join(' ') : String(args);
      log.push(`${type}: ${line}`);
      const kill = /xos-step: kill-(\d+)/.exec(line);
      if (kill && killed === undefined) {
        killed = Number(kill[1]);
        writeFileSync(join(marks, 'after-crash'), '');
        process.kill(killed, 'SIGKILL');
        reloaded = page.goto(hostSuiteUrl(server.url, workspace, repoRoot.replace(/\/$/, ''), suite), { waitUntil: 'domcontentloaded' });
      }
    });
    await page.goto(hostSuiteUrl(server.url, workspace, repoRoot.replace(/\/$/, ''), suite), { waitUntil: 'domcontentloaded' });

    // The new host offers the work back; a person opens the Board from the notification.
    await vscodeServer.waitFor(() => (killed !== undefined ? true : undefined), { timeoutMs: 180_000, describe: () => `the suite never asked for the kill; log:\n${log.slice(-30).join('\n')}` });
    await reloaded;
    const question = await answerNotification(page, /XOS restored unsaved work on the Board/, 'Open Board', 'crash-1-restored', { timeoutMs: 120_000 });
    assert.match(question, /^XOS restored unsaved work on the Board from /);
    const board = await boardFrame(page, { timeoutMs: 60_000 });
    // The person sees the proposal again (old → new) on the form.
    await board.locator('xos-board', { hasText: 'Nach-dem-Absturz' }).waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'crash-2-board');
    // Where the Board was came back too: the breadcrumb, and Back to the list the agent showed first.
    const crumbs = board.locator('nav[aria-label="Breadcrumb"] li');
    await crumbs.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.deepEqual((await crumbs.allInnerTexts()).map((text) => text.trim()), ['XOS CRM', 'People', 'Person Max Mustermann']);
    await board.locator('button.back:not([disabled])').click();
    // The restored proposal is unsaved: leaving the form asks first, and only Discard Changes drops it.
    const leave = await answerNotification(page, /Discard the unsaved changes to/, 'Discard Changes', 'crash-3-leave-form-question');
    assert.equal(leave, 'Discard the unsaved changes to Person Max Mustermann? They are not saved yet. Save them first to keep them.');
    await board.locator('[role="grid"]').waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'crash-4-back-to-list');
    // Only now may the suite end (its end stops the extension host, and the Board with it).
    writeFileSync(join(marks, 'restored.done'), '');
    const outcome = await vscodeServer.waitFor(() => (existsSync(outcomePath) ? JSON.parse(readFileSync(outcomePath, 'utf8')) as { passed: boolean; checks: unknown[] } : undefined),
      { timeoutMs: 120_000, describe: () => `no outcome after the reload; log:\n${log.slice(-30).join('\n')}` });
    writeFileSync(artifactPath('crash-host.log'), `${log.join('\n')}\n`);
    assert.equal(outcome.passed, true, JSON.stringify(outcome.checks));
    assert.ok(killed && killed > 0);
    failed = false;
  } finally {
    if (failed) {
      writeFileSync(artifactPath('crash-host.log'), `${log.join('\n')}\n`);
      await saveFailureArtifacts('crash', page, server.logPath);
    }
    await page.close();
    if (failed) await server.stop();
    else {
      await server.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
