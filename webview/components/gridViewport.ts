// Which rows of a virtual list are on screen, with scaled scrolling for lists taller
// than a browser can lay out (Chromium clamps an element near 16.7 million px, about
// 560,000 rows of 30 px). Up to MAX_SCROLL_HEIGHT the scrollbar maps pixels 1:1;
// beyond, the spacer stays at that height and a scroll position maps to a row by
// proportion, as SlickGrid does. Pure functions, tested without a browser.

/** Tall enough for 1:1 scrolling of most lists, well below Chromium's limit. */
export const MAX_SCROLL_HEIGHT = 8_000_000;

export interface ViewportInput {
  readonly total: number;
  readonly rowHeight: number;
  /** Height of the row area (the viewport without the sticky header). */
  readonly bodyHeight: number;
  readonly maxScrollHeight?: number;
}

/** The spacer's height: the rows' height, clamped. */
export function spacerHeight({ total, rowHeight, maxScrollHeight = MAX_SCROLL_HEIGHT }: ViewportInput): number {
  return Math.min(total * rowHeight, maxScrollHeight);
}

/** How many virtual pixels one scrolled pixel moves (1 unless the list is taller than the spacer). */
function scale(input: ViewportInput): number {
  const virtualRange = input.total * input.rowHeight - input.bodyHeight;
  const scrollRange = spacerHeight(input) - input.bodyHeight;
  return virtualRange <= 0 || scrollRange <= 0 ? 1 : virtualRange / scrollRange;
}

export interface VisibleRows {
  /** First row at least partly on screen (0-based). */
  readonly first: number;
  /** Last row at least partly on screen. */
  readonly last: number;
  /** Where the first row's top is, relative to the top of the spacer, in layout pixels. */
  readonly top: number;
}

export function visibleRows(input: ViewportInput, scrollTop: number): VisibleRows {
  const { total, rowHeight, bodyHeight } = input;
  if (total === 0) return { first: 0, last: -1, top: 0 };
  const maxScroll = Math.max(0, spacerHeight(input) - bodyHeight);
  const clamped = Math.min(Math.max(0, scrollTop), maxScroll);
  const virtualTop = clamped * scale(input);
  const first = Math.min(total - 1, Math.floor(virtualTop / rowHeight));
  const last = Math.min(total - 1, Math.floor((virtualTop + bodyHeight - 1) / rowHeight));
  // The rows layer sits at the scroll position, shifted by the part of the first row scrolled away.
  return { first, last, top: clamped + (first * rowHeight - virtualTop) };
}

/** The scrollTop that shows `row` at the top (`align: 'start'`) or at the bottom (`'end'`) of the body. */
export function scrollTopForRow(input: ViewportInput, row: number, align: 'start' | 'end'): number {
  const { total, rowHeight, bodyHeight } = input;
  const virtualTop = align === 'start' ? row * rowHeight : (row + 1) * rowHeight - bodyHeight;
  const maxVirtual = Math.max(0, total * rowHeight - bodyHeight);
  const clamped = Math.min(Math.max(0, virtualTop), maxVirtual);
  // Exact at both ends of a scaled list: the last row must be reachable, the first must be at 0.
  if (clamped === maxVirtual) return Math.max(0, spacerHeight(input) - bodyHeight);
  // Rounded toward the row, so it is wholly on screen even when one scrolled pixel moves several.
  return align === 'start' ? Math.floor(clamped / scale(input)) : Math.ceil(clamped / scale(input));
}

/** Rows a PageUp or PageDown moves: a screen less one, at least one. */
export function pageRows({ rowHeight, bodyHeight }: ViewportInput): number {
  return Math.max(1, Math.floor(bodyHeight / rowHeight) - 1);
}

/**
 * The scrollTop that brings `row` wholly on screen from `scrollTop`: at the top when it is at or
 * above the first row on screen, at the bottom when at or below the last; undefined when it stays.
 */
export function scrollTopToShow(input: ViewportInput, row: number, scrollTop: number): number | undefined {
  const { first, last } = visibleRows(input, scrollTop);
  let target: number | undefined;
  if (row <= first) target = scrollTopForRow(input, row, 'start');
  else if (row >= last) target = scrollTopForRow(input, row, 'end');
  return target === scrollTop ? undefined : target;
}

/** The rows to render, `overscan` above and below the screen (`to` may pass the last row: it is what to load). */
export function overscanned({ first, last }: VisibleRows, overscan: number): { readonly from: number; readonly to: number } {
  return { from: Math.max(0, first - overscan), to: last + overscan };
}

export interface RowSlots {
  /** The rows in DOM order: each keeps its slot (index % count) while on screen, so a scroll by a few rows rewrites a few rows. */
  readonly rows: ReadonlyArray<{ readonly index: number; readonly y: number }>;
  /** Where the rows layer sits (its translateY): each row's `y` is from there. */
  readonly layerTop: number;
}

/**
 * The rows on screen and `overscan` around them, in their DOM slots. Rows sit at offsets from an
 * anchor that moves every `anchorRows` rows; the layer's transform carries the rest.
 */
export function rowSlots(input: ViewportInput, visible: VisibleRows, overscan: number, anchorRows: number): RowSlots {
  const { total, rowHeight } = input;
  const { from } = overscanned(visible, overscan);
  const to = Math.min(total - 1, visible.last + overscan);
  const count = to - from + 1;
  const anchor = Math.floor(from / anchorRows) * anchorRows;
  const rows: Array<{ index: number; y: number }> = [];
  for (let slot = 0; slot < count; slot++) {
    const index = from + ((((slot - from) % count) + count) % count);
    rows.push({ index, y: (index - anchor) * rowHeight });
  }
  return { rows, layerTop: visible.top - (visible.first - anchor) * rowHeight };
}
