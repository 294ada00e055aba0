// The keys that move a grid's active cell, as in the WAI-ARIA data grid pattern: the arrows
// by one cell, PageUp/PageDown by a screen, Home/End to the row's ends and Ctrl+Home/End to
// the grid's corners. Row -1 is the header row. A pure function, tested without a browser.

export interface CellPosition {
  readonly row: number;
  readonly col: number;
}

export interface GridBounds {
  /** The last row's index (-1 when there is none). */
  readonly lastRow: number;
  readonly lastCol: number;
  /** How many rows PageUp and PageDown move. */
  readonly page: number;
}

/** A key press as far as moving reads it (a KeyboardEvent is one). */
export interface GridKey {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
}

/** Where the key moves the active cell; undefined for a key that does not move it. */
export function moveActiveCell(event: GridKey, { row, col }: CellPosition, { lastRow, lastCol, page }: GridBounds): CellPosition | undefined {
  const ctrl = event.ctrlKey || event.metaKey;
  switch (event.key) {
    case 'ArrowDown': return { row: Math.min(lastRow, row + 1), col };
    case 'ArrowUp': return { row: Math.max(-1, row - 1), col };
    case 'ArrowRight': return { row, col: Math.min(lastCol, col + 1) };
    case 'ArrowLeft': return { row, col: Math.max(0, col - 1) };
    case 'PageDown': return { row: Math.min(lastRow, Math.max(0, row) + page), col };
    case 'PageUp': return { row: Math.max(0, row - page), col };
    case 'Home': return { row: ctrl ? 0 : row, col: 0 };
    case 'End': return { row: ctrl ? lastRow : row, col: lastCol };
    default: return undefined;
  }
}
