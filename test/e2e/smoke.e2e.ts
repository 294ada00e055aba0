// Real VS Code (code-server) in headless Chromium: the packaged XOS extension installs, the
// workbench comes up, the command palette runs VS Code's commands and XOS's, and XOS runs. (The in-host
// suites, test/host/*.host.ts, run in npm test's host stage: support/hostStage.ts.)
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/smoke.e2e.ts
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import type { Page } from './support/browser.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { vscodeServer, type CodeServer } from './support/codeServer.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { packagedExtension } from './support/packaged.ts';
import { answerNotification } from './support/notifications.ts';
import { runCommand, runCommandUntil, waitForWorkbench } from './support/workbench.ts';
import { attributeOf, boardFrame, gridRowCount, typeNewPerson } from './board.support.ts';

const browser = fileBrowser();

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
  const page = await browser().newPage({ viewport: { width: 1280, height: 800 } });
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

test('the packaged XOS extension (.vsix) runs "XOS: Show Output" and "XOS: Open Board" from the palette, "Developer: Show Running Extensions" runs beside them, and the Board opens a list without an agent', { timeout: 240_000 }, async () => {
  const profile = mkdtempSync(join(tmpdir(), 'xos-e2e-profile-'));
  const dirs = { extensionsDir: join(profile, 'extensions'), userDataDir: join(profile, 'user-data') };
  await vscodeServer.installExtension(await packagedExtension(), dirs);
  assert.deepEqual(await vscodeServer.listExtensions(dirs), ['xos.xos-vscode@0.1.0']);

  await withWorkbench('installed', async (server, page, workspace) => {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);
    // The extension logs its activation to its own output channel.
    const output = page.locator('.part.panel .view-lines');
    const text = await runCommandUntil(page, 'XOS: Show Output', async () => {
      // Monaco renders only the lines in view, and start-up logs enough to scroll the first
      // line away: the activation line is read from the top of the log, not from wherever it ends.
      if (await output.count() === 0) return undefined;
      await output.first().click({ timeout: 5_000 }).catch(() => undefined);
      await page.keyboard.press('Control+Home');
      // Monaco renders spaces as non-breaking spaces.
      const shown = (await output.allInnerTexts()).join('\n').replaceAll('\u00a0', ' ');
      return /XOS 0\.1\.0 activated/.test(shown) ? shown : undefined;
    });
    await screenshot(page, 'installed-xos-output');
    assert.match(text, /\[info\] XOS 0\.1\.0 activated/);

    // VS Code's own command from the palette, with XOS installed. VS Code 1.139 shows this editor
    // in a modal overlay, not as a tab.
    await runCommand(page, 'Developer: Show Running Extensions');
    const running = page.locator('.runtime-extensions-editor');
    await running.waitFor({ state: 'visible', timeout: 30_000 });
    // XOS, activated above, is listed among them. The list is virtual (only the rows in view
    // exist) and sorted by activation time, so it is paged through from the top until XOS shows.
    const list = running.locator('.monaco-list').first();
    await list.press('Home');
    const seen = new Set<string>();
    const xosRow = await vscodeServer.waitFor(async () => {
      const rows = (await running.locator('.monaco-list-row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
      for (const row of rows) seen.add(row);
      const xos = rows.find((row) => /^XOS 0\.1\.0\b/.test(row));
      if (!xos) await list.press('PageDown');
      return xos;
    }, { timeoutMs: 30_000, describe: () => `no "XOS" row in Running Extensions; seen: ${[...seen].join(' | ')}` });
    await screenshot(page, 'installed-running-extensions');
    assert.ok(seen.size > 1, `more than XOS runs: ${[...seen].join(' | ')}`);
    assert.match(xosRow, /Activation: \d+ ?ms/);
    await page.keyboard.press('Escape');
    await running.waitFor({ state: 'hidden', timeout: 15_000 });

    // "XOS: Open Board" from the palette opens the Board; with nothing shown yet it offers the app's lists.
    const shown = await runCommandUntil(page, 'XOS: Open Board', async () => {
      const board = await boardFrame(page, { timeoutMs: 3_000 }).catch(() => undefined);
      const text = await board?.locator('xos-board p.empty').innerText().catch(() => '');
      return text && /Nothing is shown yet/.test(text) ? text : undefined;
    });
    await screenshot(page, 'installed-open-board');
    assert.match(shown, /Nothing is shown yet\. Open a list below, or ask the agent in the chat\./);
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'XOS Board' }).count(), 1);

    // Without any agent: the person opens "People" from the start page and the grid shows them.
    const board = await boardFrame(page);
    const buttons = board.locator('nav[aria-label="Open a list"] button');
    assert.deepEqual((await buttons.allInnerTexts()).map((text) => text.trim()), ['People', 'Companies', 'Deals']);
    await board.locator('nav[aria-label="Open a list"] button', { hasText: 'People' }).click();
    const rowCount = await vscodeServer.waitFor(async () => {
      const count = await gridRowCount(board).catch(() => undefined);
      return count !== undefined && count > 1 ? count : undefined;
    }, { timeoutMs: 30_000, describe: () => 'the People grid did not show its rows' });
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').waitFor({ state: 'visible' });
    await screenshot(page, 'installed-open-people');
    assert.ok(rowCount > 10, `aria-rowcount ${rowCount}`);
    assert.equal(await board.locator('xos-board section.list h1').innerText(), 'People');

    // The first person's detail (Enter on the row), then Back to the list and Forward again.
    const breadcrumb = board.locator('nav[aria-label="Breadcrumb"]');
    const crumbs = async () => (await breadcrumb.locator('li').allInnerTexts()).map((text) => text.trim());
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').click();
    await page.keyboard.press('Enter');
    await board.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 30_000 });
    // The breadcrumb's root is the app's name, the way to the start page.
    const toDetail = await vscodeServer.waitFor(async () => ((await crumbs()).length === 3 ? crumbs() : undefined), { timeoutMs: 10_000, describe: () => 'no breadcrumb after opening a row' });
    assert.equal(toDetail[0], 'XOS CRM');
    assert.equal(toDetail[1], 'People');
    assert.match(toDetail[2], /^Person \S/);
    await screenshot(page, 'installed-person-detail');
    await board.locator('button[aria-label="Back"]').click();
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await board.locator('xos-detail-form').count(), 0);
    assert.equal(await board.locator('li[aria-current="page"]').innerText(), 'People');
    // Back from the first list: the start page with the app's lists; Forward returns to the list.
    await board.locator('button[aria-label="Back"]').click();
    await board.locator('nav[aria-label="Open a list"] button', { hasText: 'People' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await board.locator('li[aria-current="page"]').innerText(), 'XOS CRM');
    await board.locator('button[aria-label="Forward"]').click();
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').waitFor({ state: 'visible', timeout: 30_000 });
    await board.locator('button[aria-label="Forward"]').click();
    await board.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await board.locator('li[aria-current="page"]').innerText(), toDetail[2]);
    // From the record, the app's name in the breadcrumb leads to the start page; Back returns.
    await board.locator('nav[aria-label="Breadcrumb"] button', { hasText: 'XOS CRM' }).click();
    await board.locator('nav[aria-label="Open a list"] button', { hasText: 'People' }).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await board.locator('xos-detail-form').count(), 0);
    await board.locator('button[aria-label="Back"]').click();
    await board.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 30_000 });

    // The person form's own layout from the AST: sections with a legend, net worth as money.
    assert.deepEqual((await board.locator('xos-detail-form fieldset.section legend').allInnerTexts()).map((t) => t.trim()), ['Contact', 'Address', 'Sales']);

    // Inline validation: an address that is none is marked as the person types and Save waits.
    const email = board.locator('xos-field-editor[data-field="email"]');
    await email.locator('vscode-textfield input').click();
    // Not Ctrl+A: VS Code runs its own Select All in the webview a moment later, over the typing.
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('not-an-address');
    const alert = email.locator('[role="alert"]');
    await alert.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await alert.innerText(), 'Enter an email address like name@example.com.');
    assert.equal(await attributeOf(email.locator('vscode-textfield'), 'aria-invalid'), 'true');
    assert.notEqual(await attributeOf(board.locator('vscode-button.save'), 'disabled'), null);
    await screenshot(page, 'installed-invalid-email');
    await page.keyboard.type('@example.com');
    await alert.waitFor({ state: 'hidden', timeout: 15_000 });
    assert.equal(await attributeOf(email.locator('vscode-textfield'), 'aria-invalid'), 'false');
    assert.equal(await attributeOf(board.locator('vscode-button.save'), 'disabled'), null);
    // The person's edit is marked, the form and the tab say that something is unsaved; Discard drops it.
    await email.locator('vscode-badge.edited').waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await board.locator('xos-detail-form .unsaved').innerText(), /Unsaved changes/);
    await page.locator('.tabs-container .tab', { hasText: '● XOS Board' }).waitFor({ state: 'visible', timeout: 15_000 });
    await board.locator('vscode-button.discard').click();
    await email.locator('vscode-badge.edited').waitFor({ state: 'hidden', timeout: 15_000 });
    assert.equal(await vscodeServer.waitFor(async () => {
      const value = await (email.locator('vscode-textfield input') as unknown as { inputValue(): Promise<string> }).inputValue();
      return value.includes('not-an-address') ? undefined : value;
    }, { timeoutMs: 15_000, describe: () => 'the email field still shows the discarded edit' }).then((v) => v.includes('@')), true);
    await page.locator('.tabs-container .tab', { hasText: '● XOS Board' }).waitFor({ state: 'hidden', timeout: 15_000 });

    // A conflict, resolved field by field: the person edits the city, another program stores
    // another city meanwhile (raw SQL, no audit entry: the file's data_version tells the Board
    // someone wrote, and it compares the open record with the row); the form shows both at once,
    // before any Save; the person keeps theirs and saves.
    const summaryBox = board.locator('xos-detail-form div.summary');
    const summary = await summaryBox.innerText();
    const personId = /^#(\d+)/.exec(summary)?.[1];
    const loadedVersion = await attributeOf(summaryBox, 'data-version');
    assert.ok(personId && loadedVersion, summary);
    assert.doesNotMatch(summary, /version/i, 'row state is not shown to the person');
    const database = new DatabaseSync(join(dirs.userDataDir, 'User', 'globalStorage', 'xos.xos-vscode', 'xos.db'), { timeout: 10_000 });
    try {
      const city = board.locator('xos-field-editor[data-field="city"]');
      await city.locator('vscode-textfield input').click();
      await page.keyboard.press('End');
      await page.keyboard.press('Shift+Home');
      await page.keyboard.type('Kiel');
      await city.locator('vscode-badge.edited').waitFor({ state: 'visible', timeout: 15_000 });
      database.prepare('UPDATE person SET city = ?, version = version + 1 WHERE id = ?').run('Lübeck', Number(personId));
      const conflict = city.locator('.conflict');
      await conflict.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await conflict.locator('dd.theirs').innerText(), 'Lübeck');
      assert.equal(await conflict.locator('dd.mine').innerText(), 'Kiel');
      assert.notEqual(await attributeOf(board.locator('vscode-button.save'), 'disabled'), null, 'Save waits for the choice');
      await screenshot(page, 'installed-conflict');
      const storedRow = () => database.prepare('SELECT city, version FROM person WHERE id = ?').get(Number(personId)) as { city: string; version: number };
      assert.deepEqual({ ...storedRow() }, { city: 'Lübeck', version: Number(loadedVersion) + 1 }, 'the other write stands');
      await city.locator('button.keepMine').click();
      await conflict.waitFor({ state: 'hidden', timeout: 15_000 });
      await board.locator('vscode-button.save').click();
      await answerNotification(page, /Save changes to Person/, 'Save', 'installed-conflict-resolved');
      await vscodeServer.waitFor(async () => (storedRow().version === Number(loadedVersion) + 2 || undefined), { timeoutMs: 30_000, describe: () => `not saved: ${JSON.stringify(storedRow())}` });
      assert.equal(storedRow().city, 'Kiel');
      await board.locator(`xos-detail-form div.summary[data-version="${Number(loadedVersion) + 2}"]`).waitFor({ state: 'visible', timeout: 15_000 });
    } finally {
      database.close();
    }

    // The person's company is a link on the form: it opens the company, whose employees link back.
    const companyLink = board.locator('xos-field-editor[data-field="company"] a.opens').first();
    const companyName = (await companyLink.innerText()).trim();
    await companyLink.click();
    await vscodeServer.waitFor(async () => ((await board.locator('li[aria-current="page"]').innerText().catch(() => '')) === `Company ${companyName}` || undefined),
      { timeoutMs: 30_000, describe: () => `the company ${companyName} did not open from the person's form` });
    const employees = board.locator('xos-field-editor[data-field="employees"] a.opens');
    assert.ok((await employees.count()) >= 1, 'the company lists its employees as links');
    await screenshot(page, 'installed-company-detail');
    // The status strip says what the Board works on; development data has no production banner.
    const line = await vscodeServer.waitFor(async () => {
      const text = await board.locator('xos-status-strip .connection').innerText().catch(() => '');
      return /connected, (<1|\d+) ms/.test(text) ? text : undefined;
    }, { timeoutMs: 30_000, describe: () => 'no connection line on the Board' });
    assert.match(line, /^XOS CRM · Company · SQLite · connected, (<1|\d+) ms$/);
    assert.equal(await board.locator('xos-board .production').count(), 0);

    // The Board's language switch: German, then English again.
    const language = board.locator('xos-status-strip select.locale') as unknown as { selectOption(value: string): Promise<unknown> };
    await language.selectOption('de');
    await board.locator('nav[aria-label="Navigationspfad"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await board.locator('xos-status-strip .connection').innerText(), /^XOS CRM · Firma · SQLite · verbunden, /);
    await screenshot(page, 'installed-german');
    await language.selectOption('en');
    await board.locator('nav[aria-label="Breadcrumb"]').waitFor({ state: 'visible', timeout: 30_000 });

    // Create a person from the People list (New), then delete them again; both asked for in VS Code.
    await board.locator('nav[aria-label="Breadcrumb"]').waitFor({ state: 'visible' });
    await runCommandUntil(page, 'XOS: Open Context…', async () => {
      const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'People' }).first();
      if (!(await pick.count())) return undefined;
      await pick.click();
      return true;
    });
    await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').waitFor({ state: 'visible', timeout: 30_000 });
    const peopleBefore = (await gridRowCount(board))! - 1;
    await typeNewPerson(board, page, 'Erika', 'Neuanlage');
    // The company through the ref picker: type part of a name, pick the first match with Enter.
    const picker = board.locator('xos-field-editor[data-field="company"] xos-ref-picker');
    await picker.locator('input[role="combobox"]').click();
    await page.keyboard.type('Nordlicht');
    const option = picker.locator('li[role="option"][aria-selected="true"]', { hasText: 'Nordlicht' });
    await option.waitFor({ state: 'visible', timeout: 15_000 });
    const companyId = Number(await attributeOf(option, 'data-id'));
    const picked = (await option.innerText()).trim();
    await page.keyboard.press('Enter');
    await board.locator('xos-field-editor[data-field="company"] vscode-badge.edited').waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'installed-new-person');
    await board.locator('vscode-button.save').click();
    await answerNotification(page, /Create a new Person\?/, 'Save', 'installed-create-question');
    const created = await vscodeServer.waitFor(async () => {
      // Stored: the form names the new record by its id and was read at its first version.
      const text = await board.locator('xos-detail-form div.summary[data-version="1"]').innerText({ timeout: 1_000 }).catch(() => '');
      return /^#(\d+)/.exec(text)?.[1];
    }, { timeoutMs: 30_000, describe: () => 'the new person was not shown as stored' });
    const createdRow = () => {
      const db = new DatabaseSync(join(dirs.userDataDir, 'User', 'globalStorage', 'xos.xos-vscode', 'xos.db'), { timeout: 10_000 });
      try {
        return db.prepare('SELECT firstname, lastname, company_id FROM person WHERE id = ?').get(Number(created)) as { firstname: string; lastname: string; company_id: number } | undefined;
      } finally {
        db.close();
      }
    };
    assert.deepEqual({ ...createdRow() }, { firstname: 'Erika', lastname: 'Neuanlage', company_id: companyId }, `picked ${picked}`);
    await board.locator('vscode-button.delete').click();
    await answerNotification(page, /Delete Person Erika/, 'Delete', 'installed-delete-question');
    await vscodeServer.waitFor(async () => (createdRow() === undefined || undefined), { timeoutMs: 30_000, describe: () => 'the person was not deleted' });
    // Back on the list, which shows what is stored now.
    await board.locator('[role="grid"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await vscodeServer.waitFor(async () => ((await gridRowCount(board)) === peopleBefore + 1 ? true : undefined),
      { timeoutMs: 15_000, describe: () => 'the list does not show the stored count' }), true);

    // A form with its sections in the light, high-contrast and dark themes (docs/screenshots/board-theme-*.png).
    await board.locator('[role="grid"] [role="row"][aria-rowindex="3"]').click();
    await page.keyboard.press('Enter');
    await board.locator('xos-detail-form fieldset.section').first().waitFor({ state: 'visible', timeout: 30_000 });
    for (const [theme, workbenchClass, webviewClass, shot] of [
      ['Light Modern', 'vs', 'vscode-light', 'light'],
      ['Dark High Contrast', 'hc-black', 'vscode-high-contrast', 'high-contrast'],
      ['Dark Modern', 'vs-dark', 'vscode-dark', 'dark'],
    ] as const) {
      await runCommand(page, 'Preferences: Color Theme');
      const pick = page.locator('.quick-input-widget .quick-input-box input');
      await pick.waitFor({ state: 'visible', timeout: 30_000 });
      await page.keyboard.type(theme);
      // The theme is listed before Enter takes the first match (the workbench's class below proves which one it was).
      await page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.press('Enter');
      await page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ state: 'attached', timeout: 30_000 });
      // The webview takes the theme's colours after the workbench.
      await (await boardFrame(page)).locator(`body.${webviewClass}`).waitFor({ state: 'attached', timeout: 30_000 });
      await screenshot(page, `board-theme-${shot}`);
    }
  }, dirs);
  rmSync(profile, { recursive: true, force: true });
});
