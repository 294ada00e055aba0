// "XOS: Create App from Database…" in real VS Code (code-server, headless Chromium, the packaged
// extension): in a workspace holding the Chinook SQLite file, the person runs the command from
// the palette, picks "SQLite file", types the file's path into VS Code's file dialog (code-server
// shows its simple dialog, a path box), and gets xos.json opened in an editor, xos.dsn in the
// workspace settings, and a notification whose "Open Board" shows Chinook's lists; "Customers"
// fills the grid with Chinook's 59 customers. Run again, it writes nothing and says so.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/createApp.e2e.ts
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { boardFrame, gridRowCount } from './board.support.ts';
import type { Page } from './support/browser.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { vscodeServer } from './support/codeServer.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { answerNotification } from './support/notifications.ts';
import { packagedExtension } from './support/packaged.ts';
import { runCommand, waitForWorkbench } from './support/workbench.ts';
import { CHINOOK_ROW_COUNTS, createChinookSqlite } from '../support/sampleDatabases.ts';

const browser = fileBrowser();

const TITLE = 'XOS: Create App from Database';

/** Runs the command and answers its questions: SQLite, then the file's path typed into the file dialog. */
async function createFromSqlite(page: Page, database: string): Promise<void> {
  await runCommand(page, TITLE);
  const quickInput = page.locator('.quick-input-widget');
  await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'SQLite file' }).first().click({ timeout: 15_000 });
  // code-server's file dialog is VS Code's simple one: a path box listing the folder's files.
  const pathBox = quickInput.locator('.quick-input-box input');
  await pathBox.waitFor({ state: 'visible', timeout: 15_000 });
  await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'chinook.db' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await pathBox.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(database);
  // The dialog completes what is typed as it goes: Enter only once the box holds exactly the path,
  // and the dialog is only done once it closed (a busy dialog may swallow the first Enter).
  await vscodeServer.waitFor(async () => ((await pathBox.inputValue()) === database ? true : undefined),
    { timeoutMs: 15_000, describe: () => `the file dialog's path box did not hold ${database}` });
  await page.keyboard.press('Enter');
  const closed = await quickInput.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false);
  if (!closed) {
    await page.keyboard.press('Enter');
    await quickInput.waitFor({ state: 'hidden', timeout: 15_000 });
  }
}

test('"XOS: Create App from Database…" on the Chinook SQLite file writes xos.json, sets xos.dsn, and the Board shows Chinook\'s customers', { timeout: 300_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'xos-e2e-create-app-'));
  const workspace = join(root, 'workspace');
  const dirs = { extensionsDir: join(root, 'extensions'), userDataDir: join(root, 'user-data') };
  const database = join(workspace, 'chinook.db');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'README.md'), '# Chinook\n');
  await createChinookSqlite(database);
  await vscodeServer.installExtension(await packagedExtension(), dirs);

  const server = await vscodeServer.startCodeServer({ workspace, ...dirs, settings: { 'xos.locale': 'en' } });
  const page = await browser().newPage({ viewport: { width: 1400, height: 900 } });
  let failed = true;
  try {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);

    await createFromSqlite(page, database);
    const file = join(workspace, 'xos.json');
    const created = await answerNotification(page, /Created .*xos\.json with/, 'Open Board', 'create-app-1-created', { timeoutMs: 120_000 });
    assert.equal(created, `Created ${file} with 11 entities.`);

    // The written AST, opened in an editor; the setting without anything secret.
    const ast = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(ast.app, 'chinook');
    assert.deepEqual(ast.contexts.customer_list.entity, 'customer');
    assert.deepEqual(JSON.parse(readFileSync(join(workspace, '.vscode', 'settings.json'), 'utf8')), { 'xos.dsn': `sqlite:${database}` });
    await page.locator('.tabs-container .tab', { hasText: 'xos.json' }).first().waitFor({ state: 'visible', timeout: 15_000 });

    // "Open Board": Chinook's lists; Customers shows all 59 (aria-rowcount counts the header row).
    const board = await boardFrame(page, { timeoutMs: 60_000 });
    const customers = board.locator('nav[aria-label="Open a list"] button', { hasText: /^\s*Customers\s*$/ });
    await customers.waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'create-app-2-board');
    await customers.click();
    const rows = await vscodeServer.waitFor(async () => {
      const count = await gridRowCount(board).catch(() => undefined);
      return count !== undefined && count > 1 ? count : undefined;
    }, { timeoutMs: 30_000, describe: () => 'the Customers grid did not show its rows' });
    assert.equal(rows, CHINOOK_ROW_COUNTS.Customer + 1);
    const first = board.locator('[role="grid"] [role="row"][aria-rowindex="2"]');
    await first.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await first.innerText()).replace(/\s+/g, ' '), /Luís Gonçalves/);
    // The columns a person scans: names, then where the customer is.
    const headers = (await board.locator('[role="grid"] [role="columnheader"]').allInnerTexts()).map((h) => h.trim());
    assert.ok(headers.includes('City') && headers.includes('Country'), `columns: ${headers.join(', ')}`);
    assert.match((await first.innerText()).replace(/\s+/g, ' '), /São José dos Campos Brazil/);
    await screenshot(page, 'create-app-3-customers');
    // A customer is named by first and last name (the AST's display), in the breadcrumb too.
    await first.click();
    await page.keyboard.press('Enter');
    await board.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 30_000 });
    await board.locator('li[aria-current="page"]', { hasText: 'Customer Luís Gonçalves' }).waitFor({ state: 'visible', timeout: 15_000 });
    await board.locator('button[aria-label="Back"]').click();
    await first.waitFor({ state: 'visible', timeout: 30_000 });

    // Again: xos.json exists, so nothing is written and the notification says so.
    const written = statSync(file).mtimeMs;
    const text = readFileSync(file, 'utf8');
    await createFromSqlite(page, database);
    const again = await answerNotification(page, /exists, so XOS wrote nothing/, 'Show Output', 'create-app-4-exists', { timeoutMs: 60_000 });
    assert.equal(again, `${file} exists, so XOS wrote nothing. It maps everything XOS can serve of the database.`);
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.equal(statSync(file).mtimeMs, written);
    failed = false;
  } finally {
    if (failed) await saveFailureArtifacts('create-app', page, server.logPath);
    await page.close();
    if (failed) await server.stop();
    else {
      await server.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  }
});
