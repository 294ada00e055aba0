// The Board's data grid in headless Chromium: the real webview bundle in the
// panel's HTML and CSP, with a page-local host that serves row windows through the
// Board protocol (test/e2e/boardPageHost.ts). WAI-ARIA grid semantics, keyboard,
// sort and filter through the host, formatting per locale, copy, and a DOM that
// stays bounded at 100,000 rows.
//   npm run provision:vscode && node --test test/e2e/boardGrid.e2e.ts
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boardPages, pageErrors, type BoardPage } from './boardPage.ts';

const boards = boardPages();

const grid = (page: BoardPage) => page.locator('[role="grid"]');
const rows = (page: BoardPage) => page.locator('[role="grid"] [role="row"]');
const row = (page: BoardPage, ariaRowIndex: number) => page.locator(`[role="grid"] [role="row"][aria-rowindex="${ariaRowIndex}"]`);
const cells = async (page: BoardPage, ariaRowIndex: number) => row(page, ariaRowIndex).locator('[role="gridcell"]').allInnerTexts();

/** Waits until the row with this aria-rowindex is rendered with data (not a placeholder). */
async function loaded(page: BoardPage, ariaRowIndex: number): Promise<void> {
  await page.waitForFunction((index) => {
    const root = document.querySelector('xos-board')?.shadowRoot?.querySelector('xos-list-grid')?.shadowRoot;
    return root?.querySelector(`[role="row"][aria-rowindex="${index}"]:not(.placeholder)`) != null;
  }, ariaRowIndex, { timeout: 10_000 });
}

/** The id of the cell the grid's aria-activedescendant names, and that cell's text. */
async function activeCell(page: BoardPage): Promise<{ row: string | null; text: string }> {
  return page.evaluate(() => {
    const root = document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-list-grid')!.shadowRoot!;
    const id = root.querySelector('[role="grid"]')!.getAttribute('aria-activedescendant')!;
    const cell = root.getElementById(id);
    return { row: cell?.closest('[role="row"]')?.getAttribute('aria-rowindex') ?? null, text: cell?.textContent?.trim() ?? '' };
  });
}

describe('the Board grid in Chromium', () => {
  test('grid semantics: row count with the header, 1-based row indexes, column headers and cells', async () => {
    const page = await boards.open();
    await page.evaluate(() => window.xosHost.showList(1000));
    assert.equal(await grid(page).getAttribute('aria-rowcount'), '1001');
    assert.equal(await grid(page).getAttribute('aria-colcount'), '7');
    assert.equal(await grid(page).getAttribute('aria-label'), 'People');
    assert.deepEqual(await page.locator('[role="grid"] [role="columnheader"]').allInnerTexts(), ['id', 'First name', 'Last name', 'Email', 'City', 'Age', 'Net worth']);
    assert.equal(await row(page, 1).locator('[role="columnheader"]').count(), 7);
    assert.deepEqual(await cells(page, 2), ['1', 'Max', 'Mustermann', 'max.mustermann.1@example.org', 'Berlin', '18', '0.00']);
    assert.equal(await page.locator('.count').innerText(), '1,000 records');
    await page.close();
  });

  test('values are formatted per locale', async () => {
    const en = await boards.open({ locale: 'en' });
    const de = await boards.open({ locale: 'de' });
    for (const page of [en, de]) await page.evaluate(() => window.xosHost.showList(5000));
    // Person 1235: age 62, net worth "97720.46" (raw, as the backend sends decimals).
    for (const page of [en, de]) {
      await page.locator('.filter').fill('97720.46');
      await page.locator('.filter').press('Enter');
      await loaded(page, 2);
    }
    assert.deepEqual((await cells(en, 2)).slice(5), ['62', '97,720.46']);
    assert.deepEqual((await cells(de, 2)).slice(5), ['62', '97.720,46']);
    assert.equal(await de.locator('.count').innerText(), '1 von 5.000 Datensätzen');
    assert.equal(await de.locator('[role="grid"] [role="columnheader"]').nth(1).innerText(), 'Vorname');
    await en.close();
    await de.close();
  });

  test('keyboard: arrows, PageDown, End, Ctrl+End, Ctrl+Home and Enter', async () => {
    const page = await boards.open();
    await page.evaluate(() => window.xosHost.showList(100_000));
    await grid(page).focus();
    assert.deepEqual(await activeCell(page), { row: '2', text: '1' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await activeCell(page), { row: '3', text: 'Anna' });
    await page.keyboard.press('End');
    assert.equal((await activeCell(page)).text, '79.19');
    await page.keyboard.press('PageDown');
    const afterPage = Number((await activeCell(page)).row);
    assert.ok(afterPage > 10, `PageDown moved a screen (row ${afterPage})`);
    await page.keyboard.press('Control+End');
    await loaded(page, 100_001);
    assert.deepEqual(await activeCell(page), { row: '100001', text: '918,920.81' });
    assert.ok(await rows(page).count() < 200, 'the DOM holds a few screens of rows');
    await page.keyboard.press('Control+Home');
    await loaded(page, 2);
    assert.deepEqual(await activeCell(page), { row: '2', text: '1' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.xosHost.opened.length > 0);
    assert.deepEqual(await page.evaluate(() => window.xosHost.opened), ['2']);
    await page.close();
  });

  test('a header click sorts through the host; aria-sort follows; the filter asks the host too', async () => {
    const page = await boards.open();
    await page.evaluate(() => window.xosHost.showList(20_000));
    const age = page.locator('[role="grid"] [role="columnheader"]').nth(5);
    await age.click();
    assert.equal(await age.getAttribute('aria-sort'), 'ascending');
    await loaded(page, 2);
    assert.equal((await cells(page, 2))[5], '18');
    await age.click();
    assert.equal(await age.getAttribute('aria-sort'), 'descending');
    await loaded(page, 2);
    assert.equal((await cells(page, 2))[5], '87');
    assert.equal(await page.locator('[role="grid"] [role="columnheader"][aria-sort]').count(), 1);

    await page.locator('.filter').fill('köln');
    await page.waitForFunction(() => window.xosHost.requests.some((r) => r.query.filter === 'köln'));
    await loaded(page, 2);
    assert.equal((await cells(page, 2))[4], 'Köln');
    assert.match(await page.locator('.count').innerText(), /^2,857 of 20,000 records$/);
    const requests = await page.evaluate(() => window.xosHost.requests);
    assert.deepEqual(requests.at(-1)!.query, { sort: { field: 'age', direction: 'desc' }, filter: 'köln' });
    assert.ok(requests.every((r) => r.limit <= 100), 'rows come in small windows');

    await page.locator('.filter').fill('nobody here');
    await page.locator('.filter').press('Enter');
    await page.waitForFunction(() => window.xosHost.requests.some((r) => r.query.filter === 'nobody here'));
    await page.waitForFunction(() => document.querySelector('xos-board')?.shadowRoot?.querySelector('xos-list-grid')?.shadowRoot
      ?.querySelector('[role="grid"]')?.getAttribute('aria-busy') === 'false');
    assert.equal(await page.locator('[role="grid"] .message').innerText(), 'No records match the filter.');
    assert.equal(await grid(page).getAttribute('aria-rowcount'), '1');
    await page.close();
  });

  test('Ctrl+C copies the active cell, Ctrl+Shift+C its row; Export CSV asks the host', async () => {
    const page = await boards.open();
    await page.evaluate(() => {
      (window as unknown as { copied: string[] }).copied = [];
      window.addEventListener('copy', (event) => (window as unknown as { copied: string[] }).copied.push((event as ClipboardEvent).clipboardData!.getData('text/plain')));
    });
    await page.evaluate(() => window.xosHost.showList(50));
    await grid(page).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+Shift+C');
    assert.deepEqual(await page.evaluate(() => (window as unknown as { copied: string[] }).copied), [
      'Max', '1\tMax\tMustermann\tmax.mustermann.1@example.org\tBerlin\t18\t0.00',
    ]);
    await page.locator('vscode-button.export').click();
    await page.waitForFunction(() => window.xosHost.exports.length === 1);
    await page.close();
  });

  test('scrolling 100,000 rows top to bottom keeps the DOM bounded and asks only for the windows it shows', async () => {
    const page = await boards.open();
    await page.evaluate(() => window.xosHost.showList(100_000));
    const most = await page.evaluate(async () => {
      const root = document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-list-grid')!.shadowRoot!;
      const viewport = root.querySelector<HTMLElement>('.viewport')!;
      let most = 0;
      for (let step = 0; step <= 50; step++) {
        viewport.scrollTop = (viewport.scrollHeight - viewport.clientHeight) * step / 50;
        await window.xosHost.afterPaint();
        most = Math.max(most, root.querySelectorAll('[role="row"]').length);
      }
      return most;
    });
    assert.ok(most < 200, `at most ${most} rows in the DOM`);
    await loaded(page, 100_001);
    const asked = await page.evaluate(() => window.xosHost.requests.reduce((sum, r) => sum + r.limit, 0));
    assert.ok(asked < 20_000, `asked for ${asked} rows, not the whole list`);
    // Every rendered row is where its index says (positions go through the CSSOM: the CSP blocks style attributes).
    const misplaced = await page.evaluate(() => {
      const root = document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-list-grid')!.shadowRoot!;
      const rows = [...root.querySelectorAll<HTMLElement>('.rows [role="row"]')].map((r) => ({ index: Number(r.dataset.index), top: r.getBoundingClientRect().top }));
      rows.sort((a, b) => a.index - b.index);
      return rows.filter((r, i) => i > 0 && Math.abs(r.top - rows[i - 1].top - 26) > 0.5).map((r) => r.index);
    });
    assert.deepEqual(misplaced, []);
    assert.deepEqual(pageErrors(page), [], 'no errors and no CSP violations in the page');
    await page.close();
  });

  test('a ref is a link to its record: a click or Enter on it opens the ref, Enter elsewhere the row', async () => {
    const page = await boards.open({ context: 'deal_list' });
    await page.evaluate(() => window.xosHost.showList(300));
    const company = row(page, 3).locator('[role="gridcell"] a[data-field="company"]');
    assert.equal(await company.innerText(), 'Company 2');
    assert.equal(await company.getAttribute('tabindex'), '-1', 'links stay out of the tab order');
    await company.click();
    await grid(page).focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.xosHost.opened.length === 1 && window.xosHost.openedRefs.length === 2);
    assert.deepEqual(await page.evaluate(() => window.xosHost.openedRefs), [{ key: '2', field: 'company' }, { key: '1', field: 'contact' }]);
    assert.deepEqual(await page.evaluate(() => window.xosHost.opened), ['1']);
    assert.deepEqual(pageErrors(page), []);
    await page.close();
  });

  test('an empty list says so', async () => {
    const page = await boards.open({ locale: 'de' });
    await page.evaluate(() => window.xosHost.showList(0));
    assert.equal(await page.locator('[role="grid"] .message').innerText(), 'Keine Datensätze.');
    assert.equal(await grid(page).getAttribute('aria-rowcount'), '1');
    await page.close();
  });
});
