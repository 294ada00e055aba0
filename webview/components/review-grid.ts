// <xos-review-grid>: the review of many proposed changes as a WAI-ARIA data grid. Only the
// rows the proposal touches, each changed cell old -> new, accepted or rejected per cell and
// per row, edited in place (the value checked as typed, by the field kind here and by the
// host's rules on Enter). Virtualised like <xos-list-grid>: only the rows on screen (plus a
// few) are in the DOM; rows come from the store's review cache, in chunks.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { fieldKind, type FieldKind, type FormatContext } from '../../src/ast/fieldKinds.ts';
import type { Column, ReviewBlock, ReviewColumn, ReviewFilter, ReviewRow, WebviewTexts } from '../../src/board/viewTypes.ts';
import { StoreController } from '../storeController.ts';
import { cellEditor, editorHandlers, editorRaw, keyWhileEditing, numberFormat, typedValue } from './cellEditor.ts';
import { moveActiveCell } from './gridKeys.ts';
import { spacerHeight } from './gridViewport.ts';
import { GridViewportController } from './gridViewportController.ts';
import { reviewGridStyles } from './review-grid.styles.ts';
import { fill, reviewCellName, reviewCountText, reviewNote, rowChecked } from './reviewText.ts';
import { styleProps } from './styleProps.ts';

export const REVIEW_ROW_HEIGHT = 26;
const HEADER_HEIGHT = 30;
const APPLY_WIDTH = 44;
const CHANGE_WIDTH = 260;
const NOTE_WIDTH = 320;
/** The accept/reject mark at a changed cell's end (review-grid.styles.ts draws it as wide). */
const TOGGLE_WIDTH = 22;

/** A column of the grid: the row's toggle, an identifying column, a changed field, or the row's note. */
type GridColumn =
  | { readonly kind: 'apply'; readonly width: number }
  | { readonly kind: 'id'; readonly index: number; readonly column: Column; readonly width: number }
  | { readonly kind: 'change'; readonly index: number; readonly column: ReviewColumn; readonly width: number }
  | { readonly kind: 'note'; readonly width: number };

interface CellFormat {
  readonly kind: FieldKind;
  readonly context: FormatContext;
}

/** The in-place editor: which cell, what the input holds, and what is wrong with it (as typed, or as the host said). */
interface Editing {
  readonly key: string;
  readonly change: number;
  readonly problem?: string;
}

function idWidth(column: Column): number {
  if (column.width) return column.width;
  if (column.type === 'id') return 80;
  if (fieldKind(column.type).narrow) return 120;
  return 180;
}

export class XosReviewGrid extends LitElement {
  static override styles = reviewGridStyles;
  static override properties = {
    activeRow: { state: true },
    activeCol: { state: true },
    editing: { state: true },
  };

  /** The active cell: row index in the filter (-1 is the header row) and column index (0 is the row's toggle). */
  declare activeRow: number;
  declare activeCol: number;
  declare editing: Editing | null;

  private readonly board = new StoreController(this, ['review', 'reviewRows', 'locale']);
  private readonly view = new GridViewportController(this, { rowHeight: REVIEW_ROW_HEIGHT, headerHeight: HEADER_HEIGHT, total: () => this.total });
  private shown: ReviewBlock | null = null;
  private columns: GridColumn[] = [];
  private idFormats: CellFormat[] = [];
  private changeFormats: CellFormat[] = [];
  /** What the editor's input holds now (kept out of the render state: typing re-renders only when the problem changes). */
  private editRaw: string | boolean = '';
  private focusEditor = false;

  constructor() {
    super();
    this.activeRow = 0;
    this.activeCol = 0;
    this.editing = null;
  }

  private get grid(): HTMLElement | null {
    return this.renderRoot.querySelector('.grid');
  }

  private get total(): number {
    return this.board.store.reviewTotal ?? 0;
  }

  protected override willUpdate(_changed: PropertyValues): void {
    const { store } = this.board;
    const review = store.review;
    if (review !== this.shown) {
      if (review?.reviewId !== this.shown?.reviewId) {
        // Another review starts at the top, without an open editor.
        this.activeRow = 0;
        this.activeCol = 0;
        this.editing = null;
        this.view.toTop();
      }
      if (review && (review.columns !== this.shown?.columns || review.changed !== this.shown?.changed)) {
        this.columns = [
          { kind: 'apply', width: APPLY_WIDTH },
          ...review.columns.map((column, index) => ({ kind: 'id' as const, index, column, width: idWidth(column) })),
          ...review.changed.map((column, index) => ({ kind: 'change' as const, index, column, width: Math.max(CHANGE_WIDTH, (column.width ?? 0) * 2) })),
          { kind: 'note', width: NOTE_WIDTH },
        ];
      }
      this.shown = review;
    }
    const texts = store.texts;
    const format = (c: Column): CellFormat => ({
      kind: fieldKind(c.type),
      context: { locale: store.locale, none: texts?.none ?? '—', yes: texts?.yes ?? 'Yes', no: texts?.no ?? 'No', enumLabels: c.enumLabels, widget: c.widget, refFields: c.refFields },
    });
    this.idFormats = (review?.columns ?? []).map(format);
    this.changeFormats = (review?.changed ?? []).map(format);
    if (store.reviewTotal !== undefined && this.activeRow > store.reviewTotal - 1) this.activeRow = Math.max(0, store.reviewTotal - 1);
  }

  protected override updated(): void {
    const { from, to } = this.view.wanted;
    this.board.store.ensureReviewRows(from, to);
    if (this.focusEditor) {
      const input = this.renderRoot.querySelector<HTMLInputElement | HTMLSelectElement>('.editor');
      if (input) {
        this.focusEditor = false;
        input.focus();
        // The value is selected, so typing replaces it, as in every editor with text (a whole number's too).
        if (input instanceof HTMLInputElement && (input.type === 'text' || input.type === 'search' || input.type === 'number')) input.select();
      }
    }
  }

  override render(): TemplateResult {
    const { store } = this.board;
    const review = store.review;
    const texts = store.texts;
    if (!review || !texts) return html``;
    const columns = this.columns;
    const total = store.reviewTotal;
    const { rows, layerTop } = this.view.slots();
    const activeId = this.activeRow < 0 ? `h-${this.activeCol}` : `c-${this.activeRow}-${this.activeCol}`;
    return html`
      ${this.renderToolbar(review, texts)}
      <div class="grid" role="grid" tabindex="0" style=${styleProps(this.view.sizes(columns.map((c) => c.width)))}
        data-context=${review.context}
        aria-label=${review.label}
        aria-rowcount=${total === undefined ? -1 : total + 1}
        aria-colcount=${columns.length}
        aria-activedescendant=${this.editing ? nothing : activeId}
        aria-describedby="review-hint"
        aria-busy=${total === undefined ? 'true' : 'false'}
        @keydown=${this.onKeyDown}>
        <div class="viewport" @scroll=${this.view.onScroll}>
          <div class="header" role="row" aria-rowindex="1">
            ${columns.map((column, i) => this.renderHeader(column, i, texts))}
          </div>
          <div class="spacer" style=${styleProps({ height: `${spacerHeight(this.view.metrics())}px` })}></div>
          <div class="rows" role="rowgroup" style=${styleProps({ transform: `translateY(${layerTop}px)` })}
            @click=${this.onRowClick} @dblclick=${this.onRowDoubleClick}>
            ${rows.map(({ index, y }) => this.renderRow(index, store.reviewRow(index), texts, y))}
          </div>
        </div>
        ${this.renderMessage(texts)}
      </div>
      <span id="review-hint" class="visually-hidden">${texts.reviewHint}</span>
    `;
  }

  private renderToolbar(review: ReviewBlock, texts: WebviewTexts): TemplateResult {
    const { store } = this.board;
    const filters: Array<[ReviewFilter, string]> = [
      ['changed', texts.reviewFilterChanged],
      ['invalid', texts.reviewFilterInvalid],
      ...(review.counts.conflicts > 0 || store.reviewFilter === 'conflicts' ? [['conflicts', texts.reviewFilterConflicts] as [ReviewFilter, string]] : []),
      ['all', texts.reviewFilterAll],
    ];
    const blocked = review.canSave ? undefined
      : review.counts.conflicts > 0 ? texts.reviewSettleConflicts
        : review.counts.accepted === 0 ? texts.reviewNothingToSave : undefined;
    return html`
      <div class="toolbar">
        <span class="count" aria-live="polite">${reviewCountText(review.counts, texts, numberFormat(store.locale))}</span>
        <div class="filters" role="group" aria-label=${texts.reviewFilters}>
          ${filters.map(([filter, label]) => html`<button type="button" class="filter" data-filter=${filter}
            aria-pressed=${store.reviewFilter === filter ? 'true' : 'false'} @click=${() => this.showFilter(filter)}>${label}</button>`)}
        </div>
        <span class="spring"></span>
        <vscode-button secondary class="accept-all" @click=${() => store.reviewAct('accept')}>${texts.reviewAcceptAll}</vscode-button>
        <vscode-button secondary class="reject-all" @click=${() => store.reviewAct('reject')}>${texts.reviewRejectAll}</vscode-button>
        <vscode-button class="save" ?disabled=${!review.canSave} aria-describedby=${blocked ? 'save-blocked' : nothing}
          @click=${() => this.save()}>${texts.save}</vscode-button>
        <vscode-button secondary class="discard" @click=${() => store.reviewAct('discard')}>${texts.reviewDiscard}</vscode-button>
      </div>
      ${blocked ? html`<div id="save-blocked" class="blocked">${blocked}</div>` : nothing}
    `;
  }

  private renderHeader(column: GridColumn, i: number, texts: WebviewTexts): TemplateResult {
    const active = this.activeRow === -1 && this.activeCol === i;
    const classes = classMap({ active, apply: column.kind === 'apply', numeric: column.kind === 'id' && column.column.numeric });
    const label = column.kind === 'apply' ? texts.reviewApplyColumn : column.kind === 'note' ? texts.reviewStatusColumn : column.column.label;
    return html`<div role="columnheader" id=${`h-${i}`} class=${classes} aria-colindex=${i + 1}
      data-field=${column.kind === 'id' || column.kind === 'change' ? column.column.field : nothing}>
      ${column.kind === 'apply'
        ? html`<span aria-hidden="true">✓</span><span class="visually-hidden">${label}</span>`
        : html`<span class="label">${label}</span>`}
    </div>`;
  }

  private renderRow(index: number, row: ReviewRow | undefined, texts: WebviewTexts, y: number): TemplateResult {
    const activeRow = index === this.activeRow;
    const checked = row ? rowChecked(row) : 'false';
    const invalid = row?.problem !== undefined;
    const classes = classMap({
      row: true, 'active-row': activeRow, placeholder: !row, invalid, conflict: row?.conflict === true, rejected: row !== undefined && checked === 'false',
    });
    return html`<div role="row" class=${classes} aria-rowindex=${index + 2} aria-invalid=${invalid ? 'true' : nothing}
      data-index=${index} data-key=${row?.key ?? nothing} style=${styleProps({ transform: `translateY(${y}px)` })}>
      ${row ? this.columns.map((column, c) => this.renderCell(index, row, column, c, checked, texts)) : nothing}
    </div>`;
  }

  private renderCell(index: number, row: ReviewRow, column: GridColumn, c: number, checked: 'true' | 'false' | 'mixed', texts: WebviewTexts): TemplateResult {
    const active = this.activeRow === index && this.activeCol === c;
    // Only the active cell has an id (aria-activedescendant names it): a scrolled row rewrites no ids.
    const id = active ? `c-${index}-${c}` : nothing;
    switch (column.kind) {
      case 'apply':
        return html`<div role="rowheader" aria-colindex=${c + 1} class=${classMap({ apply: true, active })}>
          <span role="checkbox" id=${id} class="check" aria-checked=${checked} aria-label=${fill(texts.reviewAcceptRow, { row: this.rowName(row) })}
            aria-invalid=${row.problem !== undefined ? 'true' : nothing}>${checked === 'true' ? '✓' : checked === 'mixed' ? '–' : ''}</span>
        </div>`;
      case 'id':
        return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classMap({ numeric: column.column.numeric, active })}>${this.idText(row, column.index)}</div>`;
      case 'note': {
        const note = reviewNote(row, texts);
        return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classMap({ note: true, active, invalid: row.problem !== undefined, conflict: row.conflict === true })}
          title=${note || nothing}>${note}</div>`;
      }
      case 'change':
        return this.renderChange(index, row, column.index, column.column, c, active, texts);
    }
  }

  private renderChange(index: number, row: ReviewRow, change: number, column: ReviewColumn, c: number, active: boolean, texts: WebviewTexts): TemplateResult {
    const id = active ? `c-${index}-${c}` : nothing;
    const cell = row.cells[change];
    if (!cell) {
      return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classMap({ change: true, kept: true, active })}
        aria-label=${fill(texts.reviewCellKept, { field: column.label })}></div>`;
    }
    const editing = this.editing?.key === row.key && this.editing.change === change;
    const classes = classMap({ change: true, active, editing, accepted: cell.accepted, rejected: !cell.accepted, edited: cell.edited === true, invalid: cell.problem !== undefined, numeric: column.numeric });
    if (editing) {
      return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classes}>${this.renderEditor(column, texts)}${this.renderProblem(this.editing?.problem, true)}</div>`;
    }
    const from = this.changeText(cell.from, change);
    const to = this.changeText(cell.to, change);
    // Three nodes a cell (the arrow and the accept/reject mark at its end are drawn by CSS): a screen
    // of rows stays a few hundred elements, which a review grid made anew lays out and paints at once.
    return html`<div role="gridcell" id=${id} aria-colindex=${c + 1} class=${classes}
      aria-label=${reviewCellName(column, cell, from, to, texts)} aria-invalid=${cell.problem !== undefined ? 'true' : nothing}
      title=${cell.problem ?? fill(cell.accepted ? texts.reviewRejectCell : texts.reviewAcceptCell, { field: column.label })}
      data-field=${column.field}><del>${from}</del><ins>${to}</ins>${active ? this.renderProblem(cell.problem, false) : nothing}</div>`;
  }

  /** The input for the edited cell, chosen by the field's input kind like the form's. */
  private renderEditor(column: ReviewColumn, texts: WebviewTexts): TemplateResult {
    return cellEditor(column, this.editRaw, fill(texts.reviewEditLabel, { field: column.label }), this.editing?.problem !== undefined,
      this.editorEvents);
  }

  /**
   * Under the active cell: what is wrong with the value being typed (announced), or with the
   * cell's value as the host checked it (already part of the cell's name).
   */
  private renderProblem(problem: string | undefined, editing: boolean): TemplateResult | typeof nothing {
    if (problem === undefined) return nothing;
    return editing
      ? html`<div class="problem" role="alert">${problem}</div>`
      : html`<div class="problem" aria-hidden="true">${problem}</div>`;
  }

  private renderMessage(texts: WebviewTexts): TemplateResult | typeof nothing {
    const { store } = this.board;
    if (store.reviewRowsError) return html`<div class="message error" role="alert">${fill(texts.rowsFailed, { error: store.reviewRowsError })}</div>`;
    if (store.reviewTotal === undefined) return html`<div class="message">${texts.loading}</div>`;
    if (store.reviewTotal === 0) return html`<div class="message">${texts.reviewNoRows}</div>`;
    return nothing;
  }

  private idText(row: ReviewRow, column: number): string {
    const format = this.idFormats[column];
    return format ? format.kind.format(row.values[column], format.context) : String(row.values[column] ?? '');
  }

  private changeText(value: unknown, change: number): string {
    const format = this.changeFormats[change];
    return format ? format.kind.format(value, format.context) : String(value ?? '');
  }

  /** The row as a person names it: its identifying values. */
  private rowName(row: ReviewRow): string {
    return row.values.map((_value, i) => this.idText(row, i)).join(' ');
  }

  private showFilter(filter: ReviewFilter): void {
    this.editing = null;
    this.activeRow = Math.min(this.activeRow, 0);
    this.view.toTop();
    this.board.store.setReviewFilter(filter);
  }

  private save(): void {
    // A value being typed is kept first (Save runs the host's question on what it holds).
    if (this.editing) this.commitEdit(false);
    this.board.store.save();
  }

  private toggleRow(index: number): void {
    const row = this.board.store.reviewRow(index);
    if (row) this.board.store.reviewAct(rowChecked(row) === 'true' ? 'reject' : 'accept', row.key);
  }

  private toggleCell(index: number, col: number): void {
    const column = this.columns[col];
    const row = this.board.store.reviewRow(index);
    if (column?.kind !== 'change' || !row) return;
    const cell = row.cells[column.index];
    if (cell) this.board.store.reviewAct(cell.accepted ? 'reject' : 'accept', row.key, column.column.field);
  }

  private openEditor(index: number, col: number): void {
    const column = this.columns[col];
    const row = this.board.store.reviewRow(index);
    if (column?.kind !== 'change' || !row) return;
    const cell = row.cells[column.index];
    if (!cell) return;
    this.moveTo(index, col);
    this.editRaw = fieldKind(column.column.type).inputValue(cell.to);
    this.editing = { key: row.key, change: column.index, problem: cell.problem };
    this.focusEditor = true;
  }

  /** Sends the typed value (converted like the form's) unless the page finds it wrong; then the editor stays open. */
  private commitEdit(refocus: boolean): void {
    const editing = this.editing;
    const review = this.board.store.review;
    const texts = this.board.store.texts;
    if (!editing || !review || !texts) return;
    const column = review.changed[editing.change];
    const kind = fieldKind(column.type);
    const { value, problem } = typedValue(column, this.editRaw, texts, this.board.store.locale);
    if (problem !== undefined) {
      this.editing = { ...editing, problem };
      return;
    }
    this.editing = null;
    const row = this.findRow(editing.key);
    const cell = row?.cells[editing.change];
    // An unchanged value is not sent again (the host would mark it the person's own).
    if (!cell || kind.inputValue(cell.to) !== this.editRaw) this.board.store.reviewEditCell(editing.key, column.field, value);
    if (refocus) this.grid?.focus({ preventScroll: true });
  }

  private cancelEdit(): void {
    this.editing = null;
    this.grid?.focus({ preventScroll: true });
  }

  private findRow(key: string): ReviewRow | undefined {
    const { from, to } = this.view.wanted;
    for (let i = from; i <= to; i++) {
      const row = this.board.store.reviewRow(i);
      if (row?.key === key) return row;
    }
    const active = this.board.store.reviewRow(this.activeRow);
    return active?.key === key ? active : undefined;
  }

  private onEditorInput = (event: Event): void => {
    const editing = this.editing;
    const review = this.board.store.review;
    const texts = this.board.store.texts;
    if (!editing || !review || !texts) return;
    this.editRaw = editorRaw(event);
    const column = review.changed[editing.change];
    const { problem } = typedValue(column, this.editRaw, texts, this.board.store.locale);
    if (problem !== editing.problem) this.editing = { ...editing, problem };
  };

  /** The open editor's keys and blur, as both grids handle them (cellEditor.ts). */
  private readonly editorEvents = editorHandlers({
    editing: () => this.editing !== null,
    input: (event) => this.onEditorInput(event),
    commit: (refocus) => this.commitEdit(refocus),
    cancel: () => this.cancelEdit(),
  });


  private cellOf(event: Event): { index: number; col: number } | undefined {
    const target = event.target as HTMLElement;
    const row = target.closest<HTMLElement>('[role="row"]');
    if (row?.dataset.index === undefined) return undefined;
    const cell = target.closest<HTMLElement>('[aria-colindex]');
    return { index: Number(row.dataset.index), col: cell ? Number(cell.getAttribute('aria-colindex')) - 1 : this.activeCol };
  }

  private onRowClick = (event: MouseEvent): void => {
    const at = this.cellOf(event);
    if (!at) return;
    const target = event.target as HTMLElement;
    if (target.closest('.editor')) return;
    if (this.editorGone()) this.editing = null;
    if (this.editing) this.commitEdit(false);
    this.moveTo(at.index, at.col);
    if (target.closest('.check')) this.toggleRow(at.index);
    else if (this.onToggle(event)) this.toggleCell(at.index, at.col);
    if (!this.editing) this.grid?.focus({ preventScroll: true });
  };

  private onRowDoubleClick = (event: MouseEvent): void => {
    const at = this.cellOf(event);
    const target = event.target as HTMLElement;
    if (!at || target.closest('.editor, .check') || this.onToggle(event)) return;
    this.openEditor(at.index, at.col);
  };

  /** An edit whose row scrolled out of the DOM (or left the filter) is dropped, so the grid's keys work again. */
  private editorGone(): boolean {
    return this.editing !== null && !this.renderRoot.querySelector('.editor');
  }

  /** Whether a click hit a changed cell's accept/reject mark (its ::after, at the cell's end). */
  private onToggle(event: MouseEvent): boolean {
    const cell = event.target as HTMLElement;
    return cell.classList.contains('change') && !cell.classList.contains('kept') && !cell.classList.contains('editing')
      && event.offsetX >= cell.clientWidth - TOGGLE_WIDTH;
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
      case ' ':
        event.preventDefault();
        if (row < 0) return;
        if (col === 0) this.toggleRow(row);
        else this.toggleCell(row, col);
        return;
      case 'Enter':
      case 'F2':
        event.preventDefault();
        if (row < 0) return;
        if (col === 0 && event.key === 'Enter') this.toggleRow(row);
        else this.openEditor(row, col);
        return;
    }
    const to = moveActiveCell(event, { row, col }, { lastRow: this.total - 1, lastCol: this.columns.length - 1, page: this.view.page });
    if (!to) return;
    event.preventDefault();
    this.moveTo(to.row, to.col);
  };

  private moveTo(row: number, col: number): void {
    this.activeRow = row;
    this.activeCol = col;
    const viewport = this.view.element;
    if (!viewport) return;
    // The active column in view.
    const left = this.columns.slice(0, col).reduce((sum, c) => sum + c.width, 0);
    const right = left + (this.columns[col]?.width ?? 0);
    if (left < viewport.scrollLeft) viewport.scrollLeft = left;
    else if (right > viewport.scrollLeft + viewport.clientWidth) viewport.scrollLeft = Math.min(left, right - viewport.clientWidth);
    this.view.showRow(row);
  }
}

customElements.define('xos-review-grid', XosReviewGrid);

declare global {
  interface HTMLElementTagNameMap {
    'xos-review-grid': XosReviewGrid;
  }
}
