// Which rows the grid renders for a scroll position, with scaled scrolling past
// the browser's element height limit (1,000,000 rows of 26 px = 26 million px).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SCROLL_HEIGHT, scrollTopForRow, spacerHeight, visibleRows } from '../../webview/components/gridViewport.ts';

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
});
