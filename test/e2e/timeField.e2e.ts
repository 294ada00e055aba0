// A time of day on the browser Board of xos-mcp, on an app `init` made from the person's own SQLite
// file with a TIME column: the list shows it in the Board's language, the grid edits it in a time
// input, Save writes it in canonical form into the person's table, and the form edits it in a time
// input too. The field type's row (src/ast/fieldTypes.ts) is all the Board knows of it.
//   npm run build && node --test test/e2e/timeField.e2e.ts
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import type { Page } from './support/browser.ts';
import { boardOnInitApp, until as waitUntil, type BoardOnInitApp } from './support/initApp.ts';

let dir: string;
let board: BoardOnInitApp | undefined;
let page: Page;

function storedStarts(): string[] {
  const db = new DatabaseSync(join(dir, 'shifts.db'), { readOnly: true, timeout: 10_000 });
  try {
    return (db.prepare('SELECT "Starts" AS starts FROM "Shift" ORDER BY "Id"').all() as Array<{ starts: string }>).map((r) => r.starts);
  } finally {
    db.close();
  }
}

const until = <T>(what: string, read: () => Promise<T> | T, expected: T) => waitUntil(what, read, expected, board?.xosMcp);

/** A cell of the list grid, by its row's key and its column's field (the header's aria-colindex). */
const columns = new Map<string, string>();
async function columnOf(field: string): Promise<string> {
  if (!columns.has(field)) columns.set(field, (await page.locator(`xos-list-grid [role="columnheader"][data-field="${field}"]`).getAttribute('aria-colindex', { timeout: 30_000 }))!);
  return columns.get(field)!;
}
const cell = async (key: string, field: string) => page.locator(`xos-list-grid [role="row"][data-key="${key}"] [role="gridcell"][aria-colindex="${await columnOf(field)}"]`);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xos-time-field-'));
  const db = new DatabaseSync(join(dir, 'shifts.db'));
  db.exec(`CREATE TABLE "Shift" ("Id" INTEGER PRIMARY KEY, "Name" TEXT NOT NULL, "Starts" TIME NOT NULL);
    INSERT INTO "Shift" VALUES (1, 'Early', '06:00'), (2, 'Late', '14:00:00'), (3, 'Night', '22:00:00');`);
  db.close();
  board = await boardOnInitApp({
    name: 'xos-time-field-e2e', dir, database: 'shifts.db', viewport: { width: 1100, height: 700 },
    adjust: (ast) => {
      assert.equal(ast.entities.shift.fields.starts.type, 'time', 'init reads a TIME column as a time of day');
      assert.ok(ast.contexts.shift_list.list_fields.includes('starts'), 'and lists it');
      return ast;
    },
  });
  page = board.page;
});

after(async () => {
  await board?.close();
});

describe('a time of day on the browser Board', () => {
  test('shown in the Board\'s language, edited in a time input in the grid and on the form, stored as HH:MM:SS', { timeout: 180_000 }, async (t) => {
    try {
      await page.locator('xos-start-page button[data-context="shift_list"]').click();
      await (await cell('1', 'starts')).waitFor({ state: 'visible', timeout: 30_000 });
      // The person's "06:00" is read in canonical form and shown as the Board's language writes it (en: 6:00 AM).
      await until('the times as shown', async () => [await (await cell('1', 'starts')).innerText(), await (await cell('2', 'starts')).innerText()], ['6:00 AM', '2:00 PM']);

      // The grid's editor for a time is a time input; its value goes back in canonical form.
      await (await cell('1', 'starts')).dblclick();
      const editor = page.locator('xos-list-grid .editor');
      await editor.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await editor.getAttribute('type'), 'time');
      assert.equal(await editor.inputValue(), '06:00');
      await editor.fill('05:45');
      await editor.press('Enter');
      await until('the edited cell', async () => (await cell('1', 'starts')).getAttribute('aria-label'), 'Starts: 5:45 AM, changed, not saved');
      await screenshot(page, 'time-field-1-edited');
      await page.locator('xos-list-grid vscode-button.save-edits').click();
      const dialog = page.locator('[role="alertdialog"]');
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await dialog.innerText(), /Starts[\s\S]*5:45 AM|Starts[\s\S]*05:45/);
      await dialog.locator('vscode-button.act').click();
      await until('the stored times', storedStarts, ['05:45:00', '14:00:00', '22:00:00']);

      // The form edits it in a time input as well.
      await (await cell('2', 'id')).dblclick();
      const field = page.locator('xos-field-editor[data-field="starts"] vscode-textfield');
      await field.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await field.getAttribute('type'), 'time');
      assert.equal(await field.locator('input').inputValue(), '14:00', 'HH:MM where the seconds are none');
      await screenshot(page, 'time-field-2-form');
      assert.deepEqual(board!.errors, [], 'no page errors (CSP violations included)');
    } catch (error) {
      await saveFailureArtifacts('time-field', page, undefined);
      t.diagnostic(board?.xosMcp.log() ?? '');
      throw error;
    }
  });
});
