// The review grid (<xos-review-grid>) in headless Chromium: the real webview bundle in the
// panel's HTML and CSP, with the page-local host of test/e2e/boardPageHost.ts playing the
// review (its rows, counts, filters and checks). What the person does with keyboard and mouse
// and what the page sends for it: the active cell follows the arrows (aria-activedescendant),
// Space accepts or rejects a cell or a row (aria-checked true / mixed / false), Enter, F2 or
// a double click opens a cell's editor, Enter keeps the value, Escape cancels, a wrong value
// shows its problem and keeps the editor open, the filters and the toolbar's buttons.
//   npm run provision:vscode && node --test test/e2e/boardReviewGrid.e2e.ts
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boardPages, pageErrors, type BoardPage, type GridLocator } from './boardPage.ts';
import { saveFailureArtifacts } from './support/artifacts.ts';

const boards = boardPages();

/** Playwright's calls these tests use beyond GridLocator. */
interface Target extends GridLocator {
  click(options?: { timeout?: number; position?: { x: number; y: number } }): Promise<void>;
  boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null>;
}
interface Keys {
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
}

// Columns: 0 the row's box, 1–3 id, first and last name, 4 city, 5 age, 6 net worth (the changes), 7 the note.
const CITY = 4;
const AGE = 5;
const NET_WORTH = 6;

const grid = (page: BoardPage) => page.locator('xos-review-grid [role="grid"]') as Target;
const row = (page: BoardPage, key: string) => page.locator(`xos-review-grid [role="row"][data-key="${key}"]`) as Target;
const cell = (page: BoardPage, key: string, col: number) => row(page, key).locator(`[aria-colindex="${col + 1}"]`) as Target;
const box = (page: BoardPage, key: string) => row(page, key).locator('[role="checkbox"]') as Target;
const editor = (page: BoardPage) => page.locator('xos-review-grid .editor') as Target;
const filter = (page: BoardPage, name: string) => page.locator(`xos-review-grid button.filter[data-filter="${name}"]`) as Target;
const keys = (page: BoardPage) => page.keyboard as unknown as Keys;

/** Waits until `read` gives `expected` (the page updates after the host's answer). */
async function until<T>(page: BoardPage, what: string, read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(last)}, not ${JSON.stringify(expected)}`);
    await page.evaluate(() => window.xosHost.afterPaint());
  }
}

/** The active cell as aria-activedescendant names it: its row index in the filter and its column, or null while editing. */
function active(page: BoardPage): Promise<{ row: number; col: number; text: string } | null> {
  return page.evaluate(() => {
    const root = document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-review-grid')!.shadowRoot!;
    const id = root.querySelector('[role="grid"]')!.getAttribute('aria-activedescendant');
    if (!id) return null;
    const element = root.getElementById(id);
    const [, r, c] = /^c-(\d+)-(\d+)$/.exec(id) ?? /^h-()(\d+)$/.exec(id) ?? [];
    return { row: r === '' ? -1 : Number(r), col: Number(c), text: element?.textContent?.trim() ?? '' };
  });
}

/** What the page sent the host about the review since `from`. */
function sent(page: BoardPage, from = 0): Promise<{ actions: Array<{ action: string; key?: string; field?: string }>; edits: Array<{ key: string; field: string; value: unknown }>; saves: number }> {
  return page.evaluate((start) => ({ actions: window.xosHost.reviewActions.slice(start), edits: window.xosHost.reviewEdits.slice(), saves: window.xosHost.saves }), from);
}

/** What the open editor holds. */
function editorValue(page: BoardPage): Promise<string> {
  return page.evaluate(() => document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-review-grid')!.shadowRoot!.querySelector<HTMLInputElement>('.editor')!.value);
}

const attr = (locator: GridLocator, name: string) => locator.getAttribute(name);

/** A click in a changed cell's text (its accept/reject mark is at its end). */
async function clickText(target: Target): Promise<void> {
  await target.click({ position: { x: 12, y: 10 } });
}

/** A click on a changed cell's accept/reject mark, drawn at its end. */
async function clickMark(target: Target): Promise<void> {
  const bounds = await target.boundingBox();
  assert.ok(bounds, 'the cell is laid out');
  await target.click({ position: { x: bounds.width - 10, y: bounds.height / 2 } });
}

/** Opens a page, shows a review of `rows` people and waits for its first rows. */
async function openReview(rows: number, options: { conflictEvery?: number } = {}): Promise<BoardPage> {
  const page = await boards.open({ height: 700 });
  await page.evaluate(({ n, o }) => window.xosHost.showReview(n, o), { n: rows, o: options });
  await row(page, '1').waitFor({ state: 'visible', timeout: 10_000 });
  return page;
}

/** Runs a test on its own page; a failure leaves a screenshot in test-results/e2e/. */
async function onPage(name: string, open: () => Promise<BoardPage>, body: (page: BoardPage) => Promise<void>): Promise<void> {
  const page = await open();
  try {
    await body(page);
    assert.deepEqual(pageErrors(page), [], 'no page errors (CSP violations included)');
  } catch (error) {
    await saveFailureArtifacts(`board-review-grid-${name}`, page as never, undefined);
    throw error;
  } finally {
    await page.close();
  }
}

describe('the review grid in Chromium', () => {
  test('grid semantics: the row count with the header, the columns, a box per row, the filters and the counts', () => onPage('semantics', () => openReview(50), async (page) => {
    assert.equal(await attr(grid(page), 'aria-rowcount'), '51');
    assert.equal(await attr(grid(page), 'aria-colcount'), '8');
    assert.equal(await attr(grid(page), 'aria-label'), 'People');
    assert.equal(await attr(grid(page), 'aria-activedescendant'), 'c-0-0');
    assert.deepEqual((await page.locator('xos-review-grid [role="columnheader"]').allInnerTexts()).map((t) => t.trim()),
      ['✓\nApply', 'id', 'First name', 'Last name', 'City', 'Age', 'Net worth', 'Note']);
    assert.equal(await page.locator('xos-review-grid .count').innerText(), '50 of 50 rows will change · 0 invalid · 0 unchanged');
    assert.deepEqual(await page.locator('xos-review-grid button.filter').allInnerTexts(), ['Changed', 'Invalid', 'All'], 'no Conflicts filter without conflicts');
    assert.equal(await attr(filter(page, 'changed'), 'aria-pressed'), 'true');
    assert.equal(await attr(filter(page, 'invalid'), 'aria-pressed'), 'false');
    // Person 1: city and net worth change, age stays (an empty cell); person 2: city and age.
    assert.equal(await attr(box(page, '1'), 'aria-checked'), 'true');
    assert.equal(await attr(box(page, '1'), 'aria-label'), 'Apply the changes of 1 Max Mustermann');
    assert.match(await attr(cell(page, '1', CITY), 'aria-label') ?? '', /^City: Berlin → Köln, accepted$/);
    assert.equal(await attr(cell(page, '1', AGE), 'aria-label'), 'Age: not changed');
    assert.equal(await attr(cell(page, '2', AGE), 'aria-label'), 'Age: 19 → 20, accepted');
    assert.equal(await cell(page, '2', AGE).innerText(), '1920', 'old and new (the arrow is drawn by CSS)');
  }));

  test('keyboard: arrows move the active cell, Space accepts or rejects a cell and a row (aria-checked mixed), Enter on the box too', () => onPage('keys', () => openReview(50), async (page) => {
    await cell(page, '1', 1).click();
    assert.deepEqual(await active(page), { row: 0, col: 1, text: '1' });
    for (let i = 0; i < 3; i++) await keys(page).press('ArrowRight');
    assert.deepEqual(await active(page), { row: 0, col: CITY, text: 'BerlinKöln' });
    const before = (await sent(page)).actions.length;

    // Space on a changed cell: rejected; the row is now partly applied.
    await keys(page).press(' ');
    await until(page, 'the box after rejecting the city', () => attr(box(page, '1'), 'aria-checked'), 'mixed');
    assert.equal(await attr(cell(page, '1', CITY), 'aria-label'), 'City: Berlin → Köln, rejected');
    assert.equal(await attr(cell(page, '1', CITY), 'title'), 'Accept City');
    await keys(page).press(' ');
    await until(page, 'the box after accepting the city again', () => attr(box(page, '1'), 'aria-checked'), 'true');

    // Space on a cell the proposal leaves alone does nothing.
    await keys(page).press('ArrowRight');
    assert.deepEqual(await active(page), { row: 0, col: AGE, text: '' });
    await keys(page).press(' ');

    // Home: the row's box; Space rejects the whole row, again accepts it; Enter on the box does the same.
    await keys(page).press('Home');
    assert.deepEqual(await active(page), { row: 0, col: 0, text: '✓' });
    await keys(page).press(' ');
    await until(page, 'the box after rejecting the row', () => attr(box(page, '1'), 'aria-checked'), 'false');
    assert.equal(await attr(cell(page, '1', NET_WORTH), 'aria-label'), 'Net worth: 0.00 → 0.00, rejected');
    assert.match(await attr(row(page, '1'), 'class') ?? '', /\brejected\b/);
    await keys(page).press('Enter');
    await until(page, 'the box after Enter', () => attr(box(page, '1'), 'aria-checked'), 'true');
    assert.deepEqual((await sent(page, before)).actions, [
      { action: 'reject', key: '1', field: 'city' },
      { action: 'accept', key: '1', field: 'city' },
      { action: 'reject', key: '1' },
      { action: 'accept', key: '1' },
    ]);
    await until(page, 'the counts', () => page.locator('xos-review-grid .count').innerText(), '50 of 50 rows will change · 0 invalid · 0 unchanged');

    // Down, End, Ctrl+End, Ctrl+Home; Up from the first row reaches the header, where Space does nothing.
    await keys(page).press('ArrowDown');
    assert.deepEqual(await active(page), { row: 1, col: 0, text: '✓' });
    await keys(page).press('End');
    assert.equal((await active(page))?.col, 7);
    await keys(page).press('Control+End');
    await until(page, 'the last row active', async () => (await active(page))?.row, 49);
    await row(page, '50').waitFor({ state: 'visible', timeout: 10_000 });
    await keys(page).press('Control+Home');
    assert.equal((await active(page))?.row, 0);
    await keys(page).press('ArrowUp');
    assert.deepEqual(await active(page), { row: -1, col: 0, text: '✓Apply' });
    await keys(page).press(' ');
    await keys(page).press('Enter');
    assert.equal((await sent(page, before)).actions.length, 4, 'nothing sent from the header row');
  }));

  test('mouse: the box toggles a row, the mark at a cell\'s end toggles the cell, a click elsewhere in the cell only selects it', () => onPage('mouse', () => openReview(50), async (page) => {
    const before = (await sent(page)).actions.length;
    await box(page, '2').click();
    await until(page, 'the box after a click', () => attr(box(page, '2'), 'aria-checked'), 'false');
    await box(page, '2').click();
    await until(page, 'the box after a second click', () => attr(box(page, '2'), 'aria-checked'), 'true');
    await clickText(cell(page, '2', AGE));
    assert.deepEqual(await active(page), { row: 1, col: AGE, text: '1920' });
    assert.equal(await attr(box(page, '2'), 'aria-checked'), 'true', 'a click in the text decides nothing');
    await clickMark(cell(page, '2', AGE));
    await until(page, 'the box after a click on the age\'s mark', () => attr(box(page, '2'), 'aria-checked'), 'mixed');
    assert.equal(await attr(cell(page, '2', AGE), 'aria-label'), 'Age: 19 → 20, rejected');
    assert.deepEqual((await sent(page, before)).actions, [
      { action: 'reject', key: '2' },
      { action: 'accept', key: '2' },
      { action: 'reject', key: '2', field: 'age' },
    ]);
  }));

  test('editing: Enter, F2 and a double click open the editor; Enter keeps the value, Escape cancels; a wrong value shows its problem and keeps the editor open', () => onPage('edit', () => openReview(50), async (page) => {
    // Enter on person 2's age: the number editor with the proposed value, focused.
    await clickText(cell(page, '2', AGE));
    await keys(page).press('Enter');
    await editor(page).waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await attr(editor(page), 'aria-label'), 'New value of Age');
    assert.equal(await attr(grid(page), 'aria-activedescendant'), null, 'while editing, focus is in the editor');
    assert.equal(await page.evaluate(() => {
      const input = document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-review-grid')!.shadowRoot!.querySelector<HTMLInputElement>('.editor')!;
      return `${input.type} ${input.value} ${input.matches(':focus')}`;
    }), 'number 20 true');
    // The value is selected: typing replaces it. Over the field's maximum the problem shows as typed,
    // Enter keeps the editor open and sends nothing.
    await keys(page).type('151');
    assert.equal(await editorValue(page), '151');
    const problem = page.locator('xos-review-grid .editing .problem[role="alert"]');
    await problem.waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await problem.innerText(), 'At most 150.');
    assert.equal(await attr(editor(page), 'aria-invalid'), 'true');
    await keys(page).press('Enter');
    assert.equal(await editor(page).count(), 1, 'a wrong value keeps the editor open');
    assert.deepEqual((await sent(page)).edits, []);
    // Fixed and kept: sent, shown as the person's own value, focus back on the grid's cell.
    await keys(page).press('Backspace');
    await keys(page).press('Backspace');
    await keys(page).press('Backspace');
    await keys(page).type('42');
    await problem.waitFor({ state: 'hidden', timeout: 5_000 });
    await keys(page).press('Enter');
    await editor(page).waitFor({ state: 'hidden', timeout: 5_000 });
    // The page posts the edit as the editor closes; the host hears it a task later.
    await until(page, 'the edit sent', async () => (await sent(page)).edits, [{ key: '2', field: 'age', value: 42 }]);
    await until(page, 'the edited age', () => attr(cell(page, '2', AGE), 'aria-label'), 'Age: 19 → 42, accepted, your value');
    assert.deepEqual(await active(page), { row: 1, col: AGE, text: '1942' });

    // F2 on the city: the text is selected, so typing replaces it; Escape cancels and sends nothing.
    await keys(page).press('ArrowLeft');
    await keys(page).press('F2');
    await editor(page).waitFor({ state: 'visible', timeout: 5_000 });
    await keys(page).type('Kiel');
    assert.equal(await editorValue(page), 'Kiel');
    await keys(page).press('Escape');
    await editor(page).waitFor({ state: 'hidden', timeout: 5_000 });
    assert.deepEqual(await active(page), { row: 1, col: CITY, text: 'KölnMünchen' });
    assert.equal((await sent(page)).edits.length, 1);

    // A double click on person 1's net worth: a decimal that is not one shows its problem; Escape drops it.
    await cell(page, '1', NET_WORTH).dblclick();
    await editor(page).waitFor({ state: 'visible', timeout: 5_000 });
    await keys(page).type('12,5');
    await problem.waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await problem.innerText(), 'Enter a number like 1234.50 (no thousands separators).');
    await keys(page).press('Enter');
    assert.equal(await editor(page).count(), 1);
    await keys(page).press('Escape');
    await editor(page).waitFor({ state: 'hidden', timeout: 5_000 });
    assert.equal((await sent(page)).edits.length, 1, 'nothing sent for the cancelled edits');
    assert.equal(await attr(cell(page, '1', NET_WORTH), 'aria-label'), 'Net worth: 0.00 → 0.00, accepted');

    // A click on the mark toggles the cell and opens no editor; F2 on the box opens none either.
    await page.evaluate(() => window.xosHost.afterPaint());
    const actions = (await sent(page)).actions.length;
    await clickMark(cell(page, '1', CITY));
    await until(page, 'the city rejected by its mark', () => attr(cell(page, '1', CITY), 'aria-label'), 'City: Berlin → Köln, rejected');
    assert.equal(await editor(page).count(), 0);
    await keys(page).press('Home');
    await keys(page).press('F2');
    assert.equal(await editor(page).count(), 0);
    assert.equal((await sent(page)).actions.length, actions + 1);

    // A value still being typed when Save is clicked is kept first, then the page asks for the save.
    await clickText(cell(page, '3', CITY));
    await keys(page).press('F2');
    await editor(page).waitFor({ state: 'visible', timeout: 5_000 });
    await keys(page).type('Husum');
    await page.locator('xos-review-grid vscode-button.save').click();
    await until(page, 'the save sent', async () => (await sent(page)).saves, 1);
    assert.deepEqual((await sent(page)).edits.at(-1), { key: '3', field: 'city', value: 'Husum' });
  }));

  test('an edit left open with a wrong value: a click elsewhere keeps it, F2 goes back to it, Escape drops it', () => onPage('left-open', () => openReview(50), async (page) => {
    await clickText(cell(page, '4', AGE));
    await keys(page).press('F2');
    await editor(page).waitFor({ state: 'visible', timeout: 5_000 });
    await keys(page).type('-3');
    const problem = page.locator('xos-review-grid .editing .problem[role="alert"]');
    await problem.waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await problem.innerText(), 'At least 0.');
    // A click on another row: the value did not pass, so the editor stays with its problem; the grid has the keys.
    await cell(page, '6', 1).click();
    assert.equal(await editor(page).count(), 1);
    assert.equal(await editorValue(page), '-3');
    await keys(page).press('F2');
    assert.equal(await page.evaluate(() => document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-review-grid')!.shadowRoot!.activeElement?.className), 'editor');
    await keys(page).press('Escape');
    await editor(page).waitFor({ state: 'hidden', timeout: 5_000 });
    // The grid's keys work again, and nothing was sent.
    await keys(page).press('ArrowDown');
    assert.notEqual(await active(page), null);
    assert.deepEqual((await sent(page)).edits, []);
    assert.equal(await attr(cell(page, '4', AGE), 'aria-label'), 'Age: 21 → 22, accepted');
  }));

  test('filters: Invalid, Conflicts and All show their rows (aria-pressed); conflicts block Save; Accept all, Reject all and Discard', () => onPage('filters', () => openReview(2000, { conflictEvery: 300 }), async (page) => {
    // Rows 1000 and 2000 are over the age limit; every 300th row was changed meanwhile.
    assert.equal(await page.locator('xos-review-grid .count').innerText(), '1,992 of 2,000 rows will change · 2 invalid · 6 changed meanwhile · 0 unchanged');
    assert.deepEqual(await page.locator('xos-review-grid button.filter').allInnerTexts(), ['Changed', 'Invalid', 'Conflicts', 'All']);
    assert.equal(await attr(grid(page), 'aria-rowcount'), '1993');
    const save = page.locator('xos-review-grid vscode-button.save');
    assert.equal(await attr(save, 'disabled'), '');
    assert.equal(await page.locator('xos-review-grid #save-blocked').innerText(), 'Someone else changed some rows meanwhile: accept or reject them again, then save.');

    await filter(page, 'invalid').click();
    await until(page, 'the invalid rows', () => attr(grid(page), 'aria-rowcount'), '3');
    assert.equal(await attr(filter(page, 'invalid'), 'aria-pressed'), 'true');
    assert.equal(await attr(filter(page, 'changed'), 'aria-pressed'), 'false');
    await row(page, '1000').waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await attr(row(page, '1000'), 'aria-invalid'), 'true');
    assert.equal(await attr(box(page, '1000'), 'aria-invalid'), 'true');
    assert.equal(await cell(page, '1000', 7).innerText(), 'Not saved: At most 150.');
    assert.equal(await attr(cell(page, '1000', AGE), 'aria-label'), 'Age: 37 → 200, accepted, At most 150.');

    await filter(page, 'conflicts').click();
    await until(page, 'the conflicting rows', () => attr(grid(page), 'aria-rowcount'), '7');
    await row(page, '300').waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await attr(row(page, '300'), 'class') ?? '', /\bconflict\b/);
    assert.equal(await cell(page, '300', 7).innerText(), 'Changed by someone else meanwhile: accept or reject it again.');

    await filter(page, 'all').click();
    await until(page, 'every row', () => attr(grid(page), 'aria-rowcount'), '2001');
    await filter(page, 'changed').click();
    await until(page, 'the changed rows', () => attr(grid(page), 'aria-rowcount'), '1993');
    const requested = await page.evaluate(() => window.xosHost.reviewRequests.map((r) => r.filter));
    assert.deepEqual([...new Set(requested)], ['invalid', 'conflicts', 'all', 'changed'], 'each filter asked the host for its rows');

    await page.locator('xos-review-grid vscode-button.reject-all').click();
    await until(page, 'every row rejected', () => attr(box(page, '1'), 'aria-checked'), 'false');
    await until(page, 'the counts after Reject all', () => page.locator('xos-review-grid .count').innerText(), '0 of 2,000 rows will change · 2 invalid · 6 changed meanwhile · 0 unchanged');
    await page.locator('xos-review-grid vscode-button.accept-all').click();
    await until(page, 'every row accepted', () => attr(box(page, '1'), 'aria-checked'), 'true');
    await page.locator('xos-review-grid vscode-button.discard').click();
    await page.locator('xos-review-grid').waitFor({ state: 'hidden', timeout: 5_000 });
    assert.deepEqual((await sent(page)).actions, [{ action: 'reject' }, { action: 'accept' }, { action: 'discard' }]);
  }));
});
