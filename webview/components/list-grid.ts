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
import { moveActiveCell } from './gridKeys.ts';
import { spacerHeight } from './gridViewport.ts';
import { GridViewportController } from './gridViewportController.ts';
import { listGridStyles } from './list-grid.styles.ts';
import { styleProps } from './styleProps.ts';

export const ROW_HEIGHT = 26;
const HEADER_HEIGHT = 30;
const FILTER_DELAY_MS = 200;
const MIN_COLUMN_WIDTH = 48;

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
    activeRow: { state: true },
    activeCol: { state: true },
    widths: { state: true },
  };

  /** The active cell: row index in the current query (-1 is the header row) and column index. */
  declare activeRow: number;
  declare activeCol: number;
  declare widths: number[];

  private readonly board = new StoreController(this, ['list', 'rows', 'locale', 'presence']);
  private readonly view = new GridViewportController(this, { rowHeight: ROW_HEIGHT, headerHeight: HEADER_HEIGHT, total: () => this.total });
  private filterTimer: ReturnType<typeof setTimeout> | undefined;
  private shownList: ListBlock | null = null;
  private formats: CellFormat[] = [];
  private copyWholeRow = false;
  /** The active row's record and the store's swap count it was seen at: after others wrote, the active row follows its record. */
  private activeKey: string | undefined;
  private seenSwaps = 0;

  constructor() {
    super();
    this.activeRow = 0;
    this.activeCol = 0;
    this.widths = [];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.filterTimer);
  }

  private get total(): number {
    return this.board.store.total ?? 0;
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
        this.view.toTop();
      }
      this.shownList = list;
    }
    if (store.rowSwaps !== this.seenSwaps) {
      this.seenSwaps = store.rowSwaps;
      const moved = this.activeKey === undefined ? undefined : store.indexOfKey(this.activeKey);
      if (moved !== undefined && this.activeRow >= 0) this.activeRow = moved;
    }
    if (this.activeRow >= 0) this.activeKey = store.row(this.activeRow)?.key ?? this.activeKey;
    const texts = store.texts;
    this.formats = (list?.columns ?? []).map((c) => ({
      kind: fieldKind(c.type),
      context: { locale: store.locale, none: texts?.none ?? '—', yes: texts?.yes ?? 'Yes', no: texts?.no ?? 'No', enumLabels: c.enumLabels, widget: c.widget, refFields: c.refFields },
    }));
  }

  protected override updated(): void {
    const { from, to } = this.view.wanted;
    this.board.store.ensureRows(from, to);
  }

  override render(): TemplateResult {
    const { store } = this.board;
    const list = store.list;
    const texts = store.texts;
    if (!list || !texts) return html``;
    const columns = list.columns;
    const total = store.total;
    const { rows, layerTop } = this.view.slots();
    const activeId = this.activeRow < 0 ? `h-${this.activeCol}` : `c-${this.activeRow}-${this.activeCol}`;
    return html`
      <div class="toolbar">
        <input type="search" class="filter" aria-label=${texts.filter} placeholder=${texts.filterPlaceholder}
          .value=${store.query.filter ?? ''} @input=${this.onFilterInput} @keydown=${this.onFilterKey}>
        <span class="count" aria-live="polite">${this.countText()}</span>
        <span class="spring"></span>
        ${list.canCreate ? html`<vscode-button class="new" secondary @click=${() => store.newRecord()}>${texts.create}</vscode-button>` : nothing}
        <vscode-button class="export" secondary ?disabled=${!total} @click=${() => store.exportCsv()}>${texts.exportCsv}</vscode-button>
      </div>
      <div class="grid" role="grid" tabindex="0" style=${styleProps(this.view.sizes(this.widths))}
        data-context=${list.context}
        aria-label=${list.label}
        aria-rowcount=${total === undefined ? -1 : total + 1}
        aria-colcount=${columns.length}
        aria-activedescendant=${activeId}
        aria-describedby="grid-hint"
        aria-busy=${total === undefined ? 'true' : 'false'}
        @keydown=${this.onKeyDown} @copy=${this.onCopy}>
        <div class="viewport" @scroll=${this.view.onScroll}>
          <div class="header" role="row" aria-rowindex="1">
            ${columns.map((column, i) => this.renderHeader(column, i))}
          </div>
          <div class="spacer" style=${styleProps({ height: `${spacerHeight(this.view.metrics())}px` })}></div>
          <div class="rows" role="rowgroup" style=${styleProps({ transform: `translateY(${layerTop}px)` })}
            @click=${this.onRowClick} @dblclick=${this.onRowOpen}>
            ${rows.map(({ index, y }) => this.renderRow(index, store.row(index), columns, list.navigable, y))}
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
        class=${classMap({ numeric: column.numeric, ref: column.type === 'ref', active: activeRow && c === this.activeCol })}>${c === 0 && row ? this.editingMark(row.key) : nothing}${row ? this.renderCell(row, c, column) : ''}</div>`)}
    </div>`;
  }

  /** Someone else is editing this row's record: a small mark, its text said to screen readers. */
  private editingMark(key: string): TemplateResult | typeof nothing {
    const { store } = this.board;
    const people = store.rowEditing(key);
    if (!people.length || !store.texts) return nothing;
    const text = store.texts.rowEditing.replace('{name}', people.join(', '));
    return html`<span class="editing-mark" role="img" aria-label=${text} title=${text}>✎</span>`;
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
    if (store.total === 0) {
      const narrowed = store.query.filter ? store.list?.narrowed : undefined;
      // Within a list the agent narrowed, the filter searched only its records: the way to all of them is offered.
      if (narrowed) {
        return html`<div class="message">${texts.noMatchesNarrowed.replace('{where}', () => narrowed)}
          <button type="button" class="show-all" @click=${() => store.openContext(store.list!.context)}>${texts.showAll}</button></div>`;
      }
      return html`<div class="message">${store.query.filter ? texts.noMatches : texts.noRows}</div>`;
    }
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
    this.view.toTop();
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
    const row = this.activeRow;
    const col = this.activeCol;
    switch (event.key) {
      case 'Enter':
      case ' ':
        event.preventDefault();
        if (row < 0) this.sortColumn(col);
        else if (event.key === 'Enter') this.openCell(row, col);
        return;
      case 'c':
      case 'C':
        // Ctrl+C copies through the copy event; with Shift the whole row.
        if ((event.ctrlKey || event.metaKey) && event.shiftKey) {
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
    }
    const lastCol = (this.board.store.list?.columns.length ?? 1) - 1;
    const to = moveActiveCell(event, { row, col }, { lastRow: this.total - 1, lastCol, page: this.view.page });
    if (!to) return;
    event.preventDefault();
    this.moveTo(to.row, to.col);
  };

  private moveTo(row: number, col: number): void {
    this.activeRow = row;
    this.activeCol = col;
    this.view.showRow(row);
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
