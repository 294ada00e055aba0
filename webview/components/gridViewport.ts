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
