// <xos-list-grid>: a list context as a WAI-ARIA data grid. Virtualised: only the
// rows on screen (plus a few) are in the DOM, whatever the list's size; rows come
// from the state module's window cache. Sort by header click, quick filter, column
// resize, keyboard navigation, copy and CSV export.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { fieldKind, type FieldKind, type FormatContext } from '../../src/ast/fieldKinds.ts';
import type { Column, GridRow, ListBlock } from '../../src/board/viewTypes.ts';
import { StoreController } from '../storeController.ts';
import { scrollTopForRow, spacerHeight, visibleRows, type ViewportInput } from './gridViewport.ts';
import { listGridStyles } from './list-grid.styles.ts';
import { styleProps } from './styleProps.ts';

export const ROW_HEIGHT = 26;
const HEADER_HEIGHT = 30;
/** Rows rendered above and below the screen, so a small scroll shows no gap (each costs layout per frame). */
const OVERSCAN = 2;
const FILTER_DELAY_MS = 200;
const MIN_COLUMN_WIDTH = 48;
/** How often the rows' positioning anchor moves (in rows). */
const ANCHOR_ROWS = 1000;

function defaultWidth(column: Column): number {
  if (column.width) return column.width;
  if (column.type === 'id') return 80;
  if (column.numeric || column.type === 'bool' || column.type === 'date') return 120;
  if (column.type === 'text' || column.type === 'email') return 220;
  return 160;
}

interface CellFormat {
  readonly kind: FieldKind;
  readonly context: FormatContext;
}

export class XosListGrid extends LitElement {
  static override styles = listGridStyles;
  static override properties = {
    scrollTop: { state: true },
    bodyHeight: { state: true },
    activeRow: { state: true },
    activeCol: { state: true },
    widths: { state: true },
  };

  declare scrollTop: number;
  declare bodyHeight: number;
  /** The active cell: row index in the current query (-1 is the header row) and column index. */
  declare activeRow: number;
  declare activeCol: number;
  declare widths: number[];

  private readonly board = new StoreController(this, ['list', 'rows', 'locale']);
  private resizeObserver: ResizeObserver | undefined;
  private filterTimer: ReturnType<typeof setTimeout> | undefined;
  private shownList: ListBlock | null = null;
  private formats: CellFormat[] = [];
  private copyWholeRow = false;
  private visible = { first: 0, last: -1, top: 0 };

  constructor() {
    super();
    this.scrollTop = 0;
    this.bodyHeight = 0;
    this.activeRow = 0;
    this.activeCol = 0;
    this.widths = [];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resizeObserver?.disconnect();
    clearTimeout(this.filterTimer);
  }

  override firstUpdated(): void {
    const viewport = this.viewport;
    if (!viewport) return;
    this.resizeObserver = new ResizeObserver(() => {
      this.bodyHeight = Math.max(0, viewport.clientHeight - HEADER_HEIGHT);
    });
    this.resizeObserver.observe(viewport);
  }

  private get viewport(): HTMLElement | null {
    return this.renderRoot.querySelector('.viewport');
  }

  private get total(): number {
    return this.board.store.total ?? 0;
  }

  private metrics(): ViewportInput {
    return { total: this.total, rowHeight: ROW_HEIGHT, bodyHeight: this.bodyHeight };
  }

  protected override willUpdate(_changed: PropertyValues): void {
    const { store } = this.board;
    const list = store.list;
    if (list !== this.shownList) {
      // Another list (or the same after a reload): widths follow its columns; a new list starts at the top.
      if (list?.listId !== this.shownList?.listId || list?.context !== this.shownList?.context) {
        this.widths = list ? list.columns.map(defaultWidth) : [];
        this.activeRow = 0;
        this.activeCol = 0;
        this.scrollTop = 0;
        const viewport = this.viewport;
        if (viewport) viewport.scrollTop = 0;
      }
      this.shownList = list;
    }
    const texts = store.texts;
    this.formats = (list?.columns ?? []).map((c) => ({
      kind: fieldKind(c.type),
      context: { locale: store.locale, none: texts?.none ?? '—', yes: texts?.yes ?? 'Yes', no: texts?.no ?? 'No', enumLabels: c.enumLabels, widget: c.widget },
    }));
    this.visible = visibleRows(this.metrics(), this.scrollTop);
  }

  protected override updated(): void {
    const { first, last } = this.visible;
    this.board.store.ensureRows(Math.max(0, first - OVERSCAN), last + OVERSCAN);
  }

  override render(): TemplateResult {
    const { store } = this.board;
    const list = store.list;
    const texts = store.texts;
    if (!list || !texts) return html``;
    const columns = list.columns;
    const template = this.widths.map((w) => `${w}px`).join(' ');
    const width = this.widths.reduce((a, b) => a + b, 0);
    const total = store.total;
    const { first, last, top } = this.visible;
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(this.total - 1, last + OVERSCAN);
    // Each row keeps its DOM slot (index % count) while it stays on screen, so a scroll by a
    // few rows rewrites a few rows, not all of them. Rows sit at offsets from an anchor
    // that moves every ANCHOR_ROWS rows; the layer's transform carries the rest.
    const count = to - from + 1;
    const anchor = Math.floor(from / ANCHOR_ROWS) * ANCHOR_ROWS;
    const rows: TemplateResult[] = [];
    for (let slot = 0; slot < count; slot++) {
      const index = from + ((((slot - from) % count) + count) % count);
      rows.push(this.renderRow(index, store.row(index), columns, list.navigable, (index - anchor) * ROW_HEIGHT));
    }
    const activeId = this.activeRow < 0 ? `h-${this.activeCol}` : `c-${this.activeRow}-${this.activeCol}`;
    // One column template for the header and every row, set once on the grid.
    const sizes = { '--xos-row-height': `${ROW_HEIGHT}px`, '--xos-header-height': `${HEADER_HEIGHT}px`, '--xos-columns': template, '--xos-width': `${width}px` };
    return html`
      <div class="toolbar">
        <input type="search" class="filter" aria-label=${texts.filter} placeholder=${texts.filterPlaceholder}
          .value=${store.query.filter ?? ''} @input=${this.onFilterInput} @keydown=${this.onFilterKey}>
        <span class="count" aria-live="polite">${this.countText()}</span>
        <span class="spring"></span>
        ${list.canCreate ? html`<vscode-button class="new" secondary @click=${() => store.newRecord()}>${texts.create}</vscode-button>` : nothing}
        <vscode-button class="export" secondary ?disabled=${!total} @click=${() => store.exportCsv()}>${texts.exportCsv}</vscode-button>
      </div>
      <div class="grid" role="grid" tabindex="0" style=${styleProps(sizes)}
        data-context=${list.context}
        aria-label=${list.label}
        aria-rowcount=${total === undefined ? -1 : total + 1}
        aria-colcount=${columns.length}
        aria-activedescendant=${activeId}
        aria-describedby="grid-hint"
        aria-busy=${total === undefined ? 'true' : 'false'}
        @keydown=${this.onKeyDown} @copy=${this.onCopy}>
        <div class="viewport" @scroll=${this.onScroll}>
          <div class="header" role="row" aria-rowindex="1">
            ${columns.map((column, i) => this.renderHeader(column, i))}
          </div>
          <div class="spacer" style=${styleProps({ height: `${spacerHeight(this.metrics())}px` })}></div>
          <div class="rows" role="rowgroup" style=${styleProps({ transform: `translateY(${top - (first - anchor) * ROW_HEIGHT}px)` })}
            @click=${this.onRowClick} @dblclick=${this.onRowOpen}>
            ${rows}
          </div>
        </div>
        ${this.renderMessage()}
      </div>
      <span id="grid-hint" class="visually-hidden">${texts.sortHint} ${texts.copyHint}</span>
    `;
  }

  private renderHeader(column: Column, i: number): TemplateResult {
    const { store } = this.board;
    const sort = store.query.sort?.field === column.field ? store.query.sort.direction : undefined;
    const classes = classMap({ numeric: column.numeric, sortable: column.sortable, active: this.activeRow === -1 && this.activeCol === i });
    return html`<div role="columnheader" id=${`h-${i}`} class=${classes} aria-colindex=${i + 1}
        aria-sort=${sort === 'asc' ? 'ascending' : sort === 'desc' ? 'descending' : nothing}
        data-field=${column.field} @click=${() => this.sortColumn(i)}>
        <span class="label">${column.label}</span>${sort ? html`<span class="sort-mark" aria-hidden="true">${sort === 'asc' ? '▲' : '▼'}</span>` : nothing}
        <span class="resize" role="separator" aria-orientation="vertical" aria-label=${`${store.texts?.resizeColumn ?? ''} ${column.label}`}
          @pointerdown=${(event: PointerEvent) => this.startResize(event, i)} @click=${(event: Event) => event.stopPropagation()}></span>
      </div>`;
  }

  private renderRow(index: number, row: GridRow | undefined, columns: readonly Column[], navigable: boolean, y: number): TemplateResult {
    const activeRow = index === this.activeRow;
    const classes = classMap({ row: true, navigable, 'active-row': activeRow, placeholder: !row });
    return html`<div role="row" class=${classes} aria-rowindex=${index + 2} data-index=${index} data-key=${row?.key ?? nothing}
      style=${styleProps({ transform: `translateY(${y}px)` })}>
      ${columns.map((column, c) => html`<div role="gridcell" id=${`c-${index}-${c}`} aria-colindex=${c + 1}
        class=${classMap({ numeric: column.numeric, ref: column.type === 'ref', active: activeRow && c === this.activeCol })}>${row ? this.renderCell(row, c, column) : ''}</div>`)}
    </div>`;
  }

  /** A ref that leads to its record is a link (out of the tab order: the grid moves focus with arrows). */
  private renderCell(row: GridRow, c: number, column: Column): TemplateResult | string {
    const text = this.cellText(row, c);
    if (!column.opens || row.values[c] === null || row.values[c] === undefined) return text;
    return html`<a href="#" tabindex="-1" data-field=${column.field}>${text}</a>`;
  }

  private renderMessage(): TemplateResult | typeof nothing {
    const { store } = this.board;
    const texts = store.texts!;
    if (store.rowsError) return html`<div class="message error" role="alert">${texts.rowsFailed.replace('{error}', store.rowsError)}</div>`;
    if (store.total === undefined) return html`<div class="message">${texts.loading}</div>`;
    if (store.total === 0) return html`<div class="message">${store.query.filter ? texts.noMatches : texts.noRows}</div>`;
    return nothing;
  }

  private cellText(row: GridRow, column: number): string {
    const format = this.formats[column];
    return format ? format.kind.format(row.values[column], format.context) : String(row.values[column] ?? '');
  }

  private countText(): string {
    const { store } = this.board;
    const texts = store.texts!;
    const list = store.list!;
    if (store.total === undefined) return texts.loading;
    const number = new Intl.NumberFormat(store.locale);
    if (store.query.filter) return texts.countFiltered.replace('{count}', number.format(store.total)).replace('{total}', number.format(list.total));
    return store.total === 1 ? texts.countOne : texts.countMany.replace('{count}', number.format(store.total));
  }

  private onScroll = (event: Event): void => {
    this.scrollTop = (event.target as HTMLElement).scrollTop;
  };

  private onFilterInput = (event: Event): void => {
    const value = (event.target as HTMLInputElement).value;
    clearTimeout(this.filterTimer);
    this.filterTimer = setTimeout(() => this.applyFilter(value), FILTER_DELAY_MS);
  };

  private onFilterKey = (event: KeyboardEvent): void => {
    // Enter filters at once; ArrowDown moves into the grid.
    if (event.key === 'Enter') {
      clearTimeout(this.filterTimer);
      this.applyFilter((event.target as HTMLInputElement).value);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      this.renderRoot.querySelector<HTMLElement>('.grid')?.focus();
    }
  };

  private applyFilter(value: string): void {
    this.resetPosition();
    this.board.store.setFilter(value);
  }

  private sortColumn(column: number): void {
    const { store } = this.board;
    const target = store.list?.columns[column];
    if (!target?.sortable) return;
    this.resetPosition();
    this.activeCol = column;
    store.sortBy(target.field);
  }

  /** A new sort or filter shows its first rows. */
  private resetPosition(): void {
    this.activeRow = Math.min(this.activeRow, 0);
    this.scrollTop = 0;
    const viewport = this.viewport;
    if (viewport) viewport.scrollTop = 0;
  }

  private rowIndexOf(event: Event): number | undefined {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[role="row"]');
    return row?.dataset.index === undefined ? undefined : Number(row.dataset.index);
  }

  private onRowClick = (event: MouseEvent): void => {
    const index = this.rowIndexOf(event);
    if (index === undefined) return;
    const link = (event.target as HTMLElement).closest<HTMLElement>('a[data-field]');
    if (link) {
      event.preventDefault();
      const { store } = this.board;
      const row = store.row(index);
      if (row) store.openRef(row.key, link.dataset.field!);
      return;
    }
    const cell = (event.target as HTMLElement).closest<HTMLElement>('[role="gridcell"]');
    const column = cell ? Number(cell.getAttribute('aria-colindex')) - 1 : this.activeCol;
    this.moveTo(index, column);
    this.renderRoot.querySelector<HTMLElement>('.grid')?.focus({ preventScroll: true });
  };

  private onRowOpen = (event: MouseEvent): void => {
    const index = this.rowIndexOf(event);
    if (index !== undefined) this.openRow(index);
  };

  /** Enter on a ref link opens the related record, anywhere else the row's detail. */
  private openCell(index: number, col: number): void {
    const { store } = this.board;
    const column = store.list?.columns[col];
    const row = store.row(index);
    if (column?.opens && row && row.values[col] !== null && row.values[col] !== undefined) store.openRef(row.key, column.field);
    else this.openRow(index);
  }

  private openRow(index: number): void {
    const { store } = this.board;
    const row = store.row(index);
    if (row) store.openRow(row.key);
  }

  private onKeyDown = (event: KeyboardEvent): void => {
    const last = this.total - 1;
    const lastCol = (this.board.store.list?.columns.length ?? 1) - 1;
    const page = Math.max(1, Math.floor(this.bodyHeight / ROW_HEIGHT) - 1);
    const ctrl = event.ctrlKey || event.metaKey;
    let row = this.activeRow;
    let col = this.activeCol;
    switch (event.key) {
      case 'ArrowDown': row = Math.min(last, row + 1); break;
      case 'ArrowUp': row = Math.max(-1, row - 1); break;
      case 'ArrowRight': col = Math.min(lastCol, col + 1); break;
      case 'ArrowLeft': col = Math.max(0, col - 1); break;
      case 'PageDown': row = Math.min(last, Math.max(0, row) + page); break;
      case 'PageUp': row = Math.max(0, row - page); break;
      case 'Home':
        col = 0;
        if (ctrl) row = 0;
        break;
      case 'End':
        col = lastCol;
        if (ctrl) row = last;
        break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        if (row < 0) this.sortColumn(col);
        else if (event.key === 'Enter') this.openCell(row, col);
        return;
      case 'c':
      case 'C':
        // Ctrl+C copies through the copy event; with Shift the whole row.
        if (ctrl && event.shiftKey) {
          event.preventDefault();
          // execCommand's copy event is aimed at the document, outside this shadow root: catch it there.
          this.copyWholeRow = true;
          document.addEventListener('copy', this.onCopy, { capture: true });
          try {
            document.execCommand('copy');
          } finally {
            document.removeEventListener('copy', this.onCopy, { capture: true });
            this.copyWholeRow = false;
          }
        }
        return;
      default:
        return;
    }
    event.preventDefault();
    this.moveTo(row, col);
  };

  private moveTo(row: number, col: number): void {
    this.activeRow = row;
    this.activeCol = col;
    if (row < 0) return;
    const viewport = this.viewport;
    if (!viewport) return;
    const metrics = this.metrics();
    const { first, last } = visibleRows(metrics, viewport.scrollTop);
    let scrollTop: number | undefined;
    if (row <= first) scrollTop = scrollTopForRow(metrics, row, 'start');
    else if (row >= last) scrollTop = scrollTopForRow(metrics, row, 'end');
    if (scrollTop !== undefined && scrollTop !== viewport.scrollTop) {
      viewport.scrollTop = scrollTop;
      this.scrollTop = viewport.scrollTop;
    }
  }

  private onCopy = (event: ClipboardEvent): void => {
    const row = this.activeRow >= 0 ? this.board.store.row(this.activeRow) : undefined;
    if (!row || !event.clipboardData) return;
    const text = this.copyWholeRow
      ? row.values.map((_value, c) => this.cellText(row, c)).join('\t')
      : this.cellText(row, this.activeCol);
    event.clipboardData.setData('text/plain', text);
    event.preventDefault();
  };

  private startResize(event: PointerEvent, column: number): void {
    event.preventDefault();
    event.stopPropagation();
    const handle = event.currentTarget as HTMLElement;
    const startX = event.clientX;
    const startWidth = this.widths[column];
    handle.setPointerCapture(event.pointerId);
    handle.classList.add('dragging');
    const move = (e: PointerEvent) => {
      const widths = [...this.widths];
      widths[column] = Math.max(MIN_COLUMN_WIDTH, Math.round(startWidth + e.clientX - startX));
      this.widths = widths;
    };
    const end = () => {
      handle.classList.remove('dragging');
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  }
}

customElements.define('xos-list-grid', XosListGrid);
