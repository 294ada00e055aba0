// The Board without an agent, in real VS Code (code-server, headless Chromium, the packaged
// .vsix): the XOS view in the activity bar lists the app's lists and opens one on the Board;
// two cells edited in the grid are saved with one question (a VS Code notification); then
// Back and Forward from the keyboard: Alt+← and Alt+→ anywhere on the Board step through
// what it showed, like the buttons (test/e2e/smoke.e2e.ts clicks those); in a text field they
// are left to the field (Alt+arrows move the caret by word there).
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/boardHistoryKeys.e2e.ts
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { boardFrame } from './board.support.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { vscodeServer } from './support/codeServer.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { answerNotification } from './support/notifications.ts';
import { packagedExtension } from './support/packaged.ts';
import { waitForWorkbench } from './support/workbench.ts';

const browser = fileBrowser();

test('the XOS view in the activity bar opens People on the Board; two cells edited in the grid are saved with one question; Alt+← and Alt+→ go Back and Forward between the list and a record, not in a text field', { timeout: 240_000 }, async () => {
  const profile = mkdtempSync(join(tmpdir(), 'xos-e2e-keys-'));
  const dirs = { extensionsDir: join(profile, 'extensions'), userDataDir: join(profile, 'user-data') };
  const workspace = join(profile, 'workspace');
  await vscodeServer.installExtension(await packagedExtension(), dirs);
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), '# XOS e2e workspace\n');
  const server = await vscodeServer.startCodeServer({ workspace, settings: { 'xos.locale': 'en' }, ...dirs });
  const page = await browser().newPage({ viewport: { width: 1280, height: 800 } });
  let failed = true;
  try {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);
    // The XOS view in the activity bar lists the app's lists; a click on "People" opens it on the Board.
    await page.locator('.part.activitybar .action-item .action-label[aria-label^="XOS"]').first().click({ timeout: 30_000 });
    // Each row: the list's label, and its entity as the description.
    const people = page.locator('.part.sidebar .monaco-list-row', { hasText: 'People' }).first();
    await people.waitFor({ state: 'visible', timeout: 60_000 });
    const lists = (await page.locator('.part.sidebar .monaco-list-row .label-name').allInnerTexts()).map((text) => text.trim());
    assert.deepEqual(lists, ['People', 'Companies', 'Deals']);
    await people.click();
    const board = await boardFrame(page);
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await board.locator('xos-board section.list h1').innerText(), 'People');
    await screenshot(page, 'keys-view-people');

    // Two cells edited in the grid (a double-click, typed, Enter) and saved with one question, a VS Code notification.
    const city = (index: number) => board.locator(`[role="grid"] [role="row"][aria-rowindex="${index}"] [role="gridcell"][aria-colindex="5"]`);
    for (const [index, value] of [[2, 'Codetown'], [3, 'Codeville']] as const) {
      await city(index).dblclick();
      await board.locator('xos-list-grid .editor').waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.press('Control+A');
      await page.keyboard.type(value);
      await page.keyboard.press('Enter');
      await board.locator(`[role="grid"] [role="row"][aria-rowindex="${index}"] [role="gridcell"].edited`, { hasText: value }).waitFor({ state: 'visible', timeout: 30_000 });
    }
    await board.locator('xos-list-grid .grid-edits .changes', { hasText: '2 unsaved changes' }).waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'keys-grid-edited');
    await board.locator('xos-list-grid vscode-button.save-edits').click();
    await answerNotification(page, /Save changes to 2 records of Person\?/, 'Save', 'keys-grid-question');
    await board.locator('xos-list-grid .grid-edits').waitFor({ state: 'hidden', timeout: 30_000 });
    await vscodeServer.waitFor(async () => (await city(2).innerText().catch(() => '')) === 'Codetown' || undefined, { timeoutMs: 30_000, describe: () => 'the saved city never showed in the list' });
    // The list as stored after the save is the same step of Back and Forward.
    assert.deepEqual((await board.locator('nav[aria-label="Breadcrumb"] li').allInnerTexts()).map((text) => text.trim()), ['XOS CRM', 'People']);
    const current = () => board.locator('li[aria-current="page"]').innerText().then((text) => text.trim());
    const becomes = (what: RegExp | string, describe: string) => vscodeServer.waitFor(async () => {
      const text = await current().catch(() => '');
      return (typeof what === 'string' ? text === what : what.test(text)) ? text : undefined;
    }, { timeoutMs: 30_000, describe: () => describe });

    // The first person's record (Enter on the row).
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').click();
    await page.keyboard.press('Enter');
    await board.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 30_000 });
    const person = await becomes(/^Person \S/, 'the record did not open');

    // Alt+← from a text field is the field's own: the record stays.
    await board.locator('xos-field-editor[data-field="lastname"] vscode-textfield input').click();
    await page.keyboard.press('Alt+ArrowLeft');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await current(), person, 'Alt+← in a text field navigated');
    assert.equal(await board.locator('xos-detail-form').count(), 1);

    // Outside a field: Back to the list, Forward to the record again.
    await board.locator('xos-detail-form div.summary').click();
    await page.keyboard.press('Alt+ArrowLeft');
    await becomes('People', 'Alt+← did not go back to the list');
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await board.locator('xos-detail-form').count(), 0);
    await screenshot(page, 'keys-back');
    // Alt+← from the first list: the start page with the app's lists; Alt+→ back to the list.
    await page.keyboard.press('Alt+ArrowLeft');
    await becomes('XOS CRM', 'Alt+← from the first list did not show the start page');
    await board.locator('nav[aria-label="Open a list"] button', { hasText: 'People' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.press('Alt+ArrowRight');
    await becomes('People', 'Alt+→ did not leave the start page for the list');
    await page.keyboard.press('Alt+ArrowRight');
    await becomes(person, 'Alt+→ did not go forward to the record');
    await board.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 30_000 });
    failed = false;
  } finally {
    if (failed) await saveFailureArtifacts('keys', page, server.logPath);
    await page.close();
    if (failed) await server.stop();
    else {
      await server.dispose();
      rmSync(profile, { recursive: true, force: true });
    }
  }
});
