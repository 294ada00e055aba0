// A person working alone on the browser Board of xos-mcp, no agent call, on an app `init` made from
// the person's own database (Chinook, SQLite; the audit trail switched on as the docs say): from the
// start page to a list, filter and sort it, edit five cells in the grid, save them with one
// question (one transaction, one batch), follow a ref from a record, go back to the start, read the
// record's History and undo the save as one. Screenshots of the edited grid in light, dark and
// high-contrast (forced colours) themes.
//   npm run build && npm run provision:vscode && node --test test/e2e/personAlone.e2e.ts
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import type { Locator, Page } from './support/browser.ts';
import { boardOnInitApp, until as waitUntil, type BoardOnInitApp } from './support/initApp.ts';
import { vscodeServer } from './support/codeServer.ts';
import { createChinookSqlite } from '../support/sampleDatabases.ts';

const CITY_COLUMN = 5;
const EDITS = 5;

let dir: string;
let board: BoardOnInitApp | undefined;
let page: Page;

/** Reads the person's own database (the Chinook file), read-only. */
function reading<T>(read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(join(dir, 'chinook.db'), { readOnly: true, timeout: 10_000 });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The stored cities of the customers with these ids, by id. */
function stored(ids: readonly string[]): Map<string, string | null> {
  const rows = reading((db) => db.prepare('SELECT "CustomerId" AS id, "City" AS city FROM "Customer" ORDER BY "CustomerId"').all() as Array<Record<string, unknown>>);
  return new Map(rows.filter((r) => ids.includes(String(r.id))).map((r) => [String(r.id), r.city as string | null]));
}

/** The audit trail XOS keeps in its one table of the person's database: entries and batches. */
function trail(): { entries: number; batches: number } {
  return reading((db) => ({ ...db.prepare('SELECT COUNT(*) AS entries, COUNT(DISTINCT "batch") AS batches FROM "xos_audit"').get() as { entries: number; batches: number } }));
}

const until = <T>(what: string, read: () => Promise<T> | T, expected: T) => waitUntil(what, read, expected, board?.xosMcp);

const listGrid = () => page.locator('xos-list-grid [role="grid"]');
const listRow = (index: number) => page.locator(`xos-list-grid [role="row"][data-index="${index}"]`);
const rowOf = (key: string) => page.locator(`xos-list-grid [role="row"][data-key="${key}"]`);
const cellOf = (key: string, column: number) => rowOf(key).locator(`[role="gridcell"][aria-colindex="${column}"]`);
const dialog = () => page.locator('[role="alertdialog"]');
const attr = (locator: Locator, name: string) => locator.getAttribute(name, { timeout: 5_000 });

/** Answers the page's own question with its act button (Save) and waits until it is gone. */
async function answerSave(expected: RegExp): Promise<void> {
  await dialog().waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await dialog().innerText(), expected);
  await dialog().locator('vscode-button.act').click();
  await dialog().waitFor({ state: 'hidden', timeout: 30_000 });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xos-person-alone-'));
  // The person's own database, and the app init makes of it, with History and Undo switched on.
  await createChinookSqlite(join(dir, 'chinook.db'));
  board = await boardOnInitApp({
    name: 'xos-person-alone-e2e', dir, database: 'chinook.db', viewport: { width: 1300, height: 900 },
    adjust: (ast) => {
      assert.equal(ast.audit, false, 'init leaves the audit trail off');
      return { ...ast, audit: true };
    },
  });
  page = board.page;
});

after(async () => {
  await board?.close();
});

describe('a person alone on the browser Board', () => {
  test('lists, filter, sort, five cells edited in the grid and saved with one question, a ref followed, the start page, History, undo as one', { timeout: 240_000 }, async (t) => {
    try {
      // The start page offers the app's lists; People opens.
      await page.locator('xos-start-page button[data-context="customer_list"]').click();
      await listGrid().waitFor({ state: 'visible', timeout: 30_000 });
      const total = Number(await attr(listGrid(), 'aria-rowcount')) - 1;
      assert.equal(total, 59, 'Chinook\'s customers');

      // Filter, then sort by Country; the filter says what it filters.
      await page.locator('xos-list-grid input[type="search"]').fill('an');
      await page.locator('xos-list-grid input[type="search"]').press('Enter');
      await vscodeServer.waitFor(async () => /^\d[\d,]* of [\d,]+ records$/.test(await page.locator('xos-list-grid .count').innerText()) || undefined, { timeoutMs: 30_000, describe: () => 'the filtered count' });
      await page.locator('xos-list-grid [role="columnheader"][data-field="country"]').click();
      await until('the sort by Country', () => attr(page.locator('xos-list-grid [role="columnheader"][data-field="country"]'), 'aria-sort'), 'ascending');
      await listRow(EDITS - 1).waitFor({ state: 'visible', timeout: 30_000 });

      // Five City cells of the first five rows, each by a double-click, typed, Enter.
      const keys: string[] = [];
      for (let i = 0; i < EDITS; i++) keys.push((await attr(listRow(i), 'data-key'))!);
      const before = stored(keys);
      for (const [i, key] of keys.entries()) {
        await cellOf(key, CITY_COLUMN).dblclick();
        const editor = page.locator('xos-list-grid .editor');
        await editor.waitFor({ state: 'visible', timeout: 10_000 });
        assert.equal(await attr(editor, 'aria-label'), 'New value of City');
        await page.keyboard.press('Control+A');
        await page.keyboard.type(`Gridtown ${i + 1}`);
        await page.keyboard.press('Enter');
        await until(`the edited cell of customer ${key}`, () => attr(cellOf(key, CITY_COLUMN), 'aria-label'), `City: Gridtown ${i + 1}, changed, not saved`);
      }
      await until('the count of unsaved changes', () => page.locator('xos-list-grid .grid-edits .changes').innerText(), `${EDITS} unsaved changes`);
      assert.deepEqual(stored(keys), before, 'an edit in the grid writes nothing');
      await screenshot(page, 'person-alone-1-edited-light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'person-alone-1-edited-dark');
      await page.emulateMedia({ colorScheme: 'dark', forcedColors: 'active' });
      await screenshot(page, 'person-alone-1-edited-high-contrast');
      await page.emulateMedia({ colorScheme: 'light', forcedColors: 'none' });

      // Save Changes: the changes show as one review while one question names them; Save writes them in one transaction.
      await page.locator('xos-list-grid vscode-button.save-edits').click();
      await answerSave(new RegExp(`^Save changes to ${EDITS} records of Customer\\?[\\s\\S]*City`));
      await listGrid().waitFor({ state: 'visible', timeout: 30_000 });
      await until('the saved cities', async () => { const now = stored(keys); return keys.map((key) => now.get(key)); }, keys.map((_key, i) => `Gridtown ${i + 1}`));
      assert.deepEqual(trail(), { entries: EDITS, batches: 1 }, 'one write of five records, one batch');
      await until('no unsaved changes left', () => page.locator('xos-list-grid .grid-edits').count(), 0);
      assert.deepEqual((await page.locator('xos-nav-bar li').allInnerTexts()).map((text) => text.trim()), ['Chinook', 'Customers'], 'the list as stored is the same step');
      await screenshot(page, 'person-alone-2-saved');

      // The list came back sorted and filtered as the person had it; a filter finds the first edited record.
      await until('the sort kept', () => attr(page.locator('xos-list-grid [role="columnheader"][data-field="country"]'), 'aria-sort'), 'ascending');
      const first = keys[0];
      const findFirst = async () => {
        await page.locator('xos-list-grid input[type="search"]').fill('Gridtown 1');
        await page.locator('xos-list-grid input[type="search"]').press('Enter');
        await until('the one person of Gridtown 1', () => page.locator('xos-list-grid .count').innerText(), `1 of ${total} records`);
        await rowOf(first).waitFor({ state: 'visible', timeout: 30_000 });
      };
      await findFirst();

      // A record, and the ref on its form: the company opens.
      await cellOf(first, 1).dblclick();
      await page.locator('xos-detail-form').waitFor({ state: 'visible', timeout: 30_000 });
      await page.locator('xos-field-editor[data-field="support_rep"] a.opens').click();
      await until('the support rep on the breadcrumb', async () => /^Employee \S+ \S+/.test(await page.locator('xos-nav-bar li[aria-current="page"]').innerText()), true);

      // The app's name leads back to the start page, from where People opens again.
      await page.locator('xos-nav-bar button.home').click();
      await page.locator('xos-start-page').waitFor({ state: 'visible', timeout: 30_000 });
      await page.locator('xos-start-page button[data-context="customer_list"]').click();
      await listGrid().waitFor({ state: 'visible', timeout: 30_000 });
      await findFirst();

      // History of that record names the save; its Undo undoes the whole save as one (one question, one transaction).
      await cellOf(first, 1).dblclick();
      await page.locator('xos-record-history summary').click();
      const entry = page.locator('xos-record-history li.entry').first();
      await entry.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await entry.innerText(), /City[\s\S]*Gridtown 1/);
      await screenshot(page, 'person-alone-3-history');
      await entry.locator('vscode-button.undo').click();
      await answerSave(new RegExp(`^Undo[\\s\\S]*${EDITS} records`));
      await until('the cities as before', async () => [...stored(keys).values()], [...before.values()]);
      assert.deepEqual(trail(), { entries: 2 * EDITS, batches: 2 }, 'the undo: one more batch of five');
      assert.deepEqual(board!.errors, [], 'no page errors (CSP violations included)');
    } catch (error) {
      await saveFailureArtifacts('person-alone', page, undefined);
      t.diagnostic(board?.xosMcp.log() ?? '');
      throw error;
    }
  });
});
