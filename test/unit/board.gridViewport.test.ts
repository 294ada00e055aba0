// Which rows the grid renders for a scroll position, with scaled scrolling past
// the browser's element height limit (1,000,000 rows of 26 px = 26 million px).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SCROLL_HEIGHT, pageRows, rowSlots, scrollTopForRow, scrollTopToShow, spacerHeight, visibleRows } from '../../webview/components/gridViewport.ts';
import { moveActiveCell } from '../../webview/components/gridKeys.ts';

const rowHeight = 26;
const bodyHeight = 520; // 20 rows

describe('grid viewport', () => {
  test('a short list scrolls 1:1', () => {
    const input = { total: 1000, rowHeight, bodyHeight };
    assert.equal(spacerHeight(input), 26_000);
    assert.deepEqual(visibleRows(input, 0), { first: 0, last: 19, top: 0 });
    assert.deepEqual(visibleRows(input, 13), { first: 0, last: 20, top: 0 });
    assert.deepEqual(visibleRows(input, 26 * 500), { first: 500, last: 519, top: 13_000 });
    assert.deepEqual(visibleRows(input, 26_000 - 520), { first: 980, last: 999, top: 25_480 });
    assert.equal(scrollTopForRow(input, 500, 'start'), 13_000);
    assert.equal(scrollTopForRow(input, 500, 'end'), 26 * 501 - 520);
  });

  test('a million rows: the spacer is clamped and every row, the last included, can be reached', () => {
    const input = { total: 1_000_000, rowHeight, bodyHeight };
    const spacer = spacerHeight(input);
    assert.equal(spacer, MAX_SCROLL_HEIGHT);
    const maxScroll = spacer - bodyHeight;
    assert.equal(visibleRows(input, 0).first, 0);
    const bottom = visibleRows(input, maxScroll);
    assert.equal(bottom.last, 999_999);
    assert.equal(bottom.first, 999_980);
    // The rows layer stays within the spacer, where the browser can lay it out.
    assert.ok(bottom.top >= 0 && bottom.top + bodyHeight <= spacer + rowHeight, `top ${bottom.top}`);
    for (const row of [0, 1, 123_456, 562_000, 999_998, 999_999]) {
      for (const align of ['start', 'end'] as const) {
        const { first, last } = visibleRows(input, scrollTopForRow(input, row, align));
        assert.ok(first <= row && row <= last, `row ${row} (${align}) is on screen: ${first}..${last}`);
      }
    }
  });

  test('the first row only moves forward as the scrollbar does', () => {
    const input = { total: 1_000_000, rowHeight, bodyHeight };
    let previous = -1;
    for (let scrollTop = 0; scrollTop <= MAX_SCROLL_HEIGHT; scrollTop += 99_991) {
      const { first } = visibleRows(input, scrollTop);
      assert.ok(first >= previous);
      previous = first;
    }
  });

  test('an empty list shows no rows', () => {
    assert.deepEqual(visibleRows({ total: 0, rowHeight, bodyHeight }, 0), { first: 0, last: -1, top: 0 });
  });

  test('a page is a screen less one row; a row is scrolled to only when it is not wholly on screen', () => {
    const input = { total: 1000, rowHeight, bodyHeight };
    assert.equal(pageRows(input), 19);
    assert.equal(pageRows({ ...input, bodyHeight: 0 }), 1);
    assert.equal(scrollTopToShow(input, 5, 0), undefined, 'on screen');
    assert.equal(scrollTopToShow(input, 0, 0), undefined, 'the first row at the top already');
    assert.equal(scrollTopToShow(input, 19, 0), undefined, 'the last row on screen, wholly on it');
    assert.equal(scrollTopToShow(input, 20, 13), 26, 'the row under the screen, half in, is brought wholly in');
    assert.equal(scrollTopToShow(input, 500, 0), 26 * 501 - 520);
    assert.equal(scrollTopToShow(input, 100, 26 * 500), 26 * 100);
  });

  test('the rows to render keep their DOM slot while on screen and sit from an anchor', () => {
    const input = { total: 1000, rowHeight, bodyHeight };
    const at0 = rowSlots(input, visibleRows(input, 0), 2, 1000);
    assert.deepEqual(at0.rows.map((r) => r.index), Array.from({ length: 22 }, (_, i) => i));
    assert.equal(at0.layerTop, 0);
    const down = rowSlots(input, visibleRows(input, 26 * 3), 2, 1000);
    // Rows 3..22 on screen, 1..24 rendered: 24 rows, row 24 in slot 0 (24 % 24), the others in theirs.
    assert.deepEqual(down.rows.map((r) => r.index), [24, ...Array.from({ length: 23 }, (_, i) => i + 1)]);
    assert.deepEqual(down.rows[0], { index: 24, y: 24 * 26 });
    assert.equal(down.layerTop, 26 * 3 - 3 * 26);
    const anchored = rowSlots(input, visibleRows(input, 26 * 990), 2, 100);
    assert.equal(anchored.rows.find((r) => r.index === 988)?.y, (988 - 900) * 26);
    assert.equal(rowSlots({ ...input, total: 0 }, visibleRows({ ...input, total: 0 }, 0), 2, 1000).rows.length, 0);
  });
});

describe('grid keys', () => {
  const bounds = { lastRow: 99, lastCol: 4, page: 19 };
  const key = (name: string, ctrl = false) => ({ key: name, ctrlKey: ctrl, metaKey: false });
  test('arrows, pages, Home and End move the active cell within the grid, the header row being -1', () => {
    assert.deepEqual(moveActiveCell(key('ArrowDown'), { row: 99, col: 2 }, bounds), { row: 99, col: 2 });
    assert.deepEqual(moveActiveCell(key('ArrowUp'), { row: 0, col: 2 }, bounds), { row: -1, col: 2 });
    assert.deepEqual(moveActiveCell(key('ArrowUp'), { row: -1, col: 2 }, bounds), { row: -1, col: 2 });
    assert.deepEqual(moveActiveCell(key('ArrowRight'), { row: 3, col: 4 }, bounds), { row: 3, col: 4 });
    assert.deepEqual(moveActiveCell(key('ArrowLeft'), { row: 3, col: 0 }, bounds), { row: 3, col: 0 });
    assert.deepEqual(moveActiveCell(key('PageDown'), { row: -1, col: 1 }, bounds), { row: 19, col: 1 });
    assert.deepEqual(moveActiveCell(key('PageDown'), { row: 90, col: 1 }, bounds), { row: 99, col: 1 });
    assert.deepEqual(moveActiveCell(key('PageUp'), { row: 10, col: 1 }, bounds), { row: 0, col: 1 });
    assert.deepEqual(moveActiveCell(key('Home'), { row: 10, col: 3 }, bounds), { row: 10, col: 0 });
    assert.deepEqual(moveActiveCell(key('Home', true), { row: 10, col: 3 }, bounds), { row: 0, col: 0 });
    assert.deepEqual(moveActiveCell({ key: 'End', ctrlKey: false, metaKey: true }, { row: 10, col: 3 }, bounds), { row: 99, col: 4 });
    assert.deepEqual(moveActiveCell(key('End'), { row: 10, col: 3 }, bounds), { row: 10, col: 4 });
    assert.equal(moveActiveCell(key('Enter'), { row: 10, col: 3 }, bounds), undefined);
    assert.deepEqual(moveActiveCell(key('ArrowDown'), { row: 0, col: 0 }, { lastRow: -1, lastCol: 0, page: 1 }), { row: -1, col: 0 }, 'an empty grid keeps to its header');
  });
});
