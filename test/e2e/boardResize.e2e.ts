// Resizing a column of the Board's grid by dragging its header's edge, like a person with a
// mouse: the real webview bundle in headless Chromium with the page-local host
// (test/e2e/boardPage.ts, test/e2e/boardPageHost.ts). The header cell and the cells below it
// take the new width, the other columns keep theirs, and the drag does not sort.
//   npm run provision:vscode && node --test test/e2e/boardResize.e2e.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardPages, pageErrors, type BoardPage } from './boardPage.ts';

const boards = boardPages();

interface Box { readonly x: number; readonly y: number; readonly width: number; readonly height: number }

/** The grid's boxes in page coordinates: each header cell, each cell of the first row, and each resize handle. */
function boxes(page: BoardPage): Promise<{ headers: Box[]; cells: Box[]; handles: Box[]; sorted: number }> {
  return page.evaluate(() => {
    const root = document.querySelector('xos-board')!.shadowRoot!.querySelector('xos-list-grid')!.shadowRoot!;
    const box = (element: Element) => {
      const r = element.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    return {
      headers: [...root.querySelectorAll('[role="row"][aria-rowindex="1"] [role="columnheader"]')].map(box),
      cells: [...root.querySelectorAll('[role="row"][aria-rowindex="2"] [role="gridcell"]')].map(box),
      handles: [...root.querySelectorAll('[role="columnheader"] .resize')].map(box),
      sorted: root.querySelectorAll('[role="columnheader"][aria-sort]').length,
    };
  });
}

/** Playwright's mouse (the harness's BoardPage type leaves it out). */
function mouse(page: BoardPage): { move(x: number, y: number, options?: { steps?: number }): Promise<void>; down(): Promise<void>; up(): Promise<void> } {
  return (page as unknown as { mouse: ReturnType<typeof mouse> }).mouse;
}

test('dragging a header\'s edge resizes that column, header and cells alike, and sorts nothing', async () => {
  const page = await boards.open();
  await page.evaluate(() => window.xosHost.showList(100));
  const before = await boxes(page);
  assert.equal(before.headers.length, 7);
  assert.equal(before.handles.length, 7, 'every column header has a resize handle');
  const city = 4; // id, First name, Last name, Email, City, ...
  assert.equal(await page.locator('[role="grid"] [role="columnheader"]').nth(city).innerText(), 'City');
  const handle = before.handles[city];
  const x = handle.x + handle.width / 2;
  const y = handle.y + handle.height / 2;
  await mouse(page).move(x, y);
  await mouse(page).down();
  await mouse(page).move(x + 60, y, { steps: 6 });
  await mouse(page).move(x + 120, y, { steps: 6 });
  await mouse(page).up();
  await page.evaluate(() => window.xosHost.afterPaint());
  const after = await boxes(page);
  assert.ok(Math.abs(after.headers[city].width - (before.headers[city].width + 120)) <= 2,
    `City header ${before.headers[city].width} px -> ${after.headers[city].width} px, expected +120`);
  assert.ok(Math.abs(after.cells[city].width - after.headers[city].width) <= 1, `the cells follow the header: ${after.cells[city].width} vs ${after.headers[city].width}`);
  for (const other of [0, 1, 2, 3, 5, 6]) {
    assert.ok(Math.abs(after.headers[other].width - before.headers[other].width) <= 1, `column ${other} changed: ${before.headers[other].width} -> ${after.headers[other].width}`);
  }
  assert.equal(after.sorted, 0, 'the drag sorted the list');
  assert.deepEqual(pageErrors(page), []);
  await page.close();
});
