// <xos-list-grid>: a list context as a WAI-ARIA data grid. Virtualised: only the
// rows on screen (plus a few) are in the DOM, whatever the list's size; rows come
// from the state module's window cache. Sort by header click, quick filter, column
// resize, keyboard navigation, copy and CSV export. The columns the form of its rows lets
// the person edit edit in place: F2 or a double-click (and Enter where rows open no record;
// where they do, Enter keeps opening it); the edits stay marked until Save Changes asks once
// for all of them (src/core/gridEdits.ts).
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { fieldKind, type FieldKind, type FormatContext } from '../../src/ast/fieldKinds.ts';
import type { Column, GridRow, ListBlock, ReviewColumn } from '../../src/board/viewTypes.ts';
import { StoreController } from '../storeController.ts';
import { cellEditor, editorHandlers, editorRaw, keyWhileEditing, typedValue } from './cellEditor.ts';
import { fill } from './reviewText.ts';
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
  if (fieldKind(column.type).narrow) return 120;
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
    editing: { state: true },
  };

  /** The active cell: row index in the current query (-1 is the header row) and column index. */
  declare activeRow: number;
  declare activeCol: number;
  declare widths: number[];
  /** The cell being edited in place (its row's key and index, its column), and what the page finds wrong with the typed value. */
  declare editing: { readonly key: string; readonly index: number; readonly col: number; readonly problem?: string } | null;

  private readonly board = new StoreController(this, ['list', 'rows', 'locale', 'presence', 'gridEdits']);
  /** The edited cell's value as its input holds it. */
  private editRaw: string | boolean = '';
  private focusEditor = false;
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
    this.editing = null;
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
        this.editing = null;
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
    if (this.focusEditor) {
      this.focusEditor = false;
      const editor = this.renderRoot.querySelector<HTMLInputElement>('.editor');
      editor?.focus();
      if (editor?.type === 'text') editor.select();
    }
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
        ${this.renderGridEdits()}
        ${list.canCreate ? html`<vscode-button class="new" secondary @click=${() => store.newRecord()}>${texts.create}</vscode-button>` : nothing}
        <vscode-button class="export" secondary ?disabled=${!total} @click=${() => store.exportCsv()}>${texts.exportCsv}</vscode-button>
      </div>
      <div class="grid" role="grid" tabindex="0" style=${styleProps(this.view.sizes(this.widths))}
        data-context=${list.context}
        aria-label=${list.label}
        aria-rowcount=${total === undefined ? -1 : total + 1}
        aria-colcount=${columns.length}
        aria-activedescendant=${this.editing ? nothing : activeId}
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
      <span id="grid-hint" class="visually-hidden">${texts.sortHint} ${texts.copyHint}${Object.keys(list.editors ?? {}).length ? ` ${texts.gridHint}` : ''}</span>
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
      ${columns.map((column, c) => this.renderGridCell(index, row, c, column, activeRow && c === this.activeCol))}
    </div>`;
  }

  private renderGridCell(index: number, row: GridRow | undefined, c: number, column: Column, active: boolean): TemplateResult {
    const id = `c-${index}-${c}`;
    const edit = row ? this.board.store.gridEdit(row.key, column.field) : undefined;
    const editor = row && this.board.store.list?.editors?.[column.field];
    const classes = { numeric: column.numeric, ref: column.type === 'ref', active, edited: edit !== undefined, invalid: edit?.problem !== undefined };
    if (editor && row && this.editing?.key === row.key && this.editing.col === c) {
      return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classMap({ ...classes, editing: true })}>${this.renderEditor(editor)}${this.renderProblem(this.editing.problem, true)}</div>`;
    }
    if (row && edit) {
      const text = this.valueText(edit.value, c);
      const texts = this.board.store.texts!;
      return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classMap(classes)}
        aria-label=${fill(texts.gridCellEdited, { field: column.label, value: text })} aria-invalid=${edit.problem !== undefined ? 'true' : nothing}
        title=${edit.problem ?? nothing}>${c === 0 ? this.editingMark(row.key) : nothing}${text}${active ? this.renderProblem(edit.problem, false) : nothing}</div>`;
    }
    return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classMap(classes)}>${c === 0 && row ? this.editingMark(row.key) : nothing}${row ? this.renderCell(row, c, column) : ''}</div>`;
  }

  private renderEditor(column: ReviewColumn): TemplateResult {
    const texts = this.board.store.texts!;
    return cellEditor(column, this.editRaw, fill(texts.reviewEditLabel, { field: column.label }), this.editing?.problem !== undefined,
      this.editorEvents);
  }

  private renderProblem(problem: string | undefined, editing: boolean): TemplateResult | typeof nothing {
    if (problem === undefined) return nothing;
    return editing ? html`<div class="problem" role="alert">${problem}</div>` : html`<div class="problem" aria-hidden="true">${problem}</div>`;
  }

  /** The count of the person's unsaved cell edits, with Save Changes (one question for all) and Discard Changes. */
  private renderGridEdits(): TemplateResult | typeof nothing {
    const { store } = this.board;
    const edits = store.gridEdits;
    const texts = store.texts!;
    if (!edits?.cells.length) return nothing;
    const count = edits.cells.length;
    const text = count === 1 ? texts.gridChangesOne : texts.gridChangesMany.replace('{count}', new Intl.NumberFormat(store.locale).format(count));
    return html`<span class="grid-edits">
      <span class="changes" role="status">${text}</span>
      <vscode-button class="save-edits" ?disabled=${!edits.canSave} @click=${() => this.saveEdits()}>${texts.gridSave}</vscode-button>
      <vscode-button class="discard-edits" secondary @click=${() => store.gridEditsAction('discard')}>${texts.gridDiscard}</vscode-button>
    </span>`;
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
    const edit = this.board.store.gridEdit(row.key, this.board.store.list?.columns[column]?.field ?? '');
    return this.valueText(edit ? edit.value : row.values[column], column);
  }

  private valueText(value: unknown, column: number): string {
    const format = this.formats[column];
    return format ? format.kind.format(value, format.context) : String(value ?? '');
  }

  // ---- editing in place ----------------------------------------------------------------

  /** The editor of a cell the person may edit (none for others). */
  private editorOf(col: number): ReviewColumn | undefined {
    const list = this.board.store.list;
    const column = list?.columns[col];
    return column ? list?.editors?.[column.field] : undefined;
  }

  private openEditor(index: number, col: number): boolean {
    const editor = this.editorOf(col);
    const row = this.board.store.row(index);
    if (!editor || !row) return false;
    this.moveTo(index, col);
    const edit = this.board.store.gridEdit(row.key, editor.field);
    this.editRaw = fieldKind(editor.type).inputValue(edit ? edit.value : row.values[col]);
    this.editing = { key: row.key, index, col, ...(edit?.problem ? { problem: edit.problem } : {}) };
    this.focusEditor = true;
    return true;
  }

  /** Sends the typed value (converted like the form's) unless the page finds it wrong; then the editor stays open. */
  private commitEdit(refocus: boolean): void {
    const editing = this.editing;
    const editor = editing && this.editorOf(editing.col);
    const texts = this.board.store.texts;
    if (!editing || !editor || !texts) return;
    const kind = fieldKind(editor.type);
    const { value, problem } = typedValue(editor, this.editRaw, texts, this.board.store.locale);
    if (problem !== undefined) {
      this.editing = { ...editing, problem };
      return;
    }
    this.editing = null;
    const row = this.board.store.row(editing.index);
    const shown = row?.key === editing.key ? (this.board.store.gridEdit(row.key, editor.field)?.value ?? row.values[editing.col]) : undefined;
    // An unchanged value is not sent (nothing to save).
    if (row?.key === editing.key && kind.inputValue(shown) !== this.editRaw) this.board.store.editGridCell(editing.key, editor.field, value);
    if (refocus) this.renderRoot.querySelector<HTMLElement>('.grid')?.focus({ preventScroll: true });
  }

  private cancelEdit(): void {
    this.editing = null;
    this.renderRoot.querySelector<HTMLElement>('.grid')?.focus({ preventScroll: true });
  }

  /** Save Changes: a value being typed is kept first. */
  private saveEdits(): void {
    if (this.editing) this.commitEdit(false);
    this.board.store.gridEditsAction('save');
  }

  private onEditorInput = (event: Event): void => {
    const editing = this.editing;
    const editor = editing && this.editorOf(editing.col);
    const texts = this.board.store.texts;
    if (!editing || !editor || !texts) return;
    this.editRaw = editorRaw(event);
    const { problem } = typedValue(editor, this.editRaw, texts, this.board.store.locale);
    if (problem !== editing.problem) this.editing = problem === undefined ? { key: editing.key, index: editing.index, col: editing.col } : { ...editing, problem };
  };

  /** The open editor's keys and blur, as both grids handle them (cellEditor.ts). */
  private readonly editorEvents = editorHandlers({
    editing: () => this.editing !== null,
    input: (event) => this.onEditorInput(event),
    commit: (refocus) => this.commitEdit(refocus),
    cancel: () => this.cancelEdit(),
  });


  /** An edit whose row scrolled out of the DOM is dropped, so the grid's keys work again. */
  private editorGone(): boolean {
    return this.editing !== null && !this.renderRoot.querySelector('.editor');
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
    if (index === undefined || (event.target as HTMLElement).closest('.editor')) return;
    if (this.editorGone()) this.editing = null;
    if (this.editing) this.commitEdit(false);
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

  /** A double-click edits a cell the person may edit, and opens the row's record anywhere else. */
  private onRowOpen = (event: MouseEvent): void => {
    const index = this.rowIndexOf(event);
    const target = event.target as HTMLElement;
    if (index === undefined || target.closest('.editor, a')) return;
    const cell = target.closest<HTMLElement>('[role="gridcell"]');
    const col = cell ? Number(cell.getAttribute('aria-colindex')) - 1 : this.activeCol;
    if (!this.openEditor(index, col)) this.openRow(index);
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
    if (this.editorGone()) this.editing = null;
    if (this.editing) {
      keyWhileEditing(event, this.renderRoot, () => this.cancelEdit());
      return;
    }
    const row = this.activeRow;
    const col = this.activeCol;
    switch (event.key) {
      case 'F2':
        if (row >= 0 && this.openEditor(row, col)) event.preventDefault();
        return;
      case 'Enter':
      case ' ':
        event.preventDefault();
        if (row < 0) this.sortColumn(col);
        // Enter opens the row's record where rows open one (as it always did); in other lists it edits the cell.
        else if (event.key === 'Enter' && (this.board.store.list?.navigable || !this.openEditor(row, col))) this.openCell(row, col);
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
