// What the Board shows: the active context, the shown list (a window source, not
// its rows), the loaded detail record with its version, the agent's pending preview
// changes, the person's own edits and the mail draft. The host renders it; the use
// cases read and change it. It knows nothing of the AST: values are kept as shown.
import { isDeepStrictEqual } from 'node:util';
import { ownValue } from '../ast/lookup.ts';
import type {
  Board, BoardChange, BoardRecord, BoardSnapshot, DetailView, ListQuery, ListView, MailDraft,
} from '../core/domain.ts';
import { Review, type CurrentRecord, type ReviewSource } from '../core/review.ts';
import type { FieldProblem } from '../core/outcomes.ts';

type Author = 'agent' | 'person';

/** The part of the Board that survives a crash (see src/store/drafts.ts). */
export interface BoardDraft {
  readonly detail?: DetailView;
  readonly form: ReadonlyArray<{ readonly field: string; readonly value: unknown; readonly by: Author }>;
  readonly mail?: MailDraft;
  /** The draft was confirmed and waiting to go out at this time (ISO) when it was kept: it was never sent. */
  readonly mailSendAt?: string;
  /** Cells of a list the person edited in the grid and had not saved (gridEdits.ts), each row with the version it was read at. */
  readonly grid?: GridDraft;
}

/** The grid's unsaved edits as kept: they come back with the next list of their context. */
export interface GridDraft {
  readonly context: string;
  readonly entity: string;
  readonly fields: readonly string[];
  readonly shown: readonly string[];
  readonly rows: ReadonlyArray<{ readonly id: string; readonly version: number; readonly record: BoardRecord; readonly cells: ReadonlyArray<{ readonly field: string; readonly value: unknown; readonly problem?: FieldProblem }> }>;
}

export class BoardState implements Board {
  private context: string | undefined;
  private kind: BoardSnapshot['kind'];
  private shownList: ListView | undefined;
  /** The person's sort and filter per list (kept while the webview is hidden, and for Back to a list). */
  private readonly queries = new WeakMap<ListView, ListQuery>();
  private detail: DetailView | undefined;
  /** Form values over the loaded record; the latest write of a field wins, whoever made it. */
  private form = new Map<string, { value: unknown; by: Author }>();
  private mail: MailDraft | undefined;
  /** Which draft is shown: one object per draft composed or restored, kept while only the person edits it. */
  private mailLineage: object | undefined;
  /** Many proposed changes waiting for the person's review (shown instead of the list or form). */
  private shownReview: Review | undefined;
  /** The person's edits of the shown list's cells (gridEdits.ts): a review not shown yet, bound to that list. */
  private grid: Review | undefined;
  /** Grid edits restored after a crash, waiting for the next list of their context. */
  private restoredGrid: GridDraft | undefined;
  private mailSendAt: string | undefined;
  /** Fields both the form and someone else changed, after a save met a newer version. */
  private readonly conflicts = new Map<string, { base: unknown; theirs: unknown }>();
  private readonly listeners = new Set<(change: BoardChange) => void>();

  showList(view: ListView, query?: ListQuery): void {
    this.context = view.context;
    this.kind = 'list';
    this.shownList = view;
    if (query) this.queries.set(view, query);
    this.detail = undefined;
    this.shownReview = undefined;
    this.grid = undefined;
    if (this.restoredGrid?.context === view.context) {
      this.grid = gridFromDraft(this.restoredGrid);
      this.restoredGrid = undefined;
    }
    this.form.clear();
    this.conflicts.clear();
    this.emit('list');
  }

  showDetail(view: DetailView): void {
    this.context = view.context;
    this.kind = 'detail';
    this.shownList = undefined;
    this.shownReview = undefined;
    this.grid = undefined;
    this.detail = structuredClone(view);
    this.form.clear();
    this.conflicts.clear();
    this.emit('detail');
  }

  /** An empty form of a detail context that creates a record when saved. */
  showNew(context: string): void {
    this.showDetail({ context, record: {}, isNew: true });
  }

  conflict(current: DetailView): string[] {
    const loaded = this.detail;
    if (!loaded) throw new Error('a conflict needs a loaded detail record');
    this.detail = structuredClone(current);
    this.conflicts.clear();
    for (const field of this.form.keys()) {
      const base = ownValue(loaded.record, field) ?? null;
      const theirs = ownValue(current.record, field) ?? null;
      if (!isDeepStrictEqual(base, theirs)) this.conflicts.set(field, { base: structuredClone(base), theirs: structuredClone(theirs) });
    }
    this.emit('detail');
    return [...this.conflicts.keys()];
  }

  /**
   * Someone else stored a newer version of the shown record and the form holds nothing unsaved:
   * the form shows what is stored now (no new step of Back and Forward).
   */
  refreshDetail(current: DetailView): void {
    if (!this.detail || this.form.size) return;
    this.detail = structuredClone(current);
    this.conflicts.clear();
    this.emit('form');
  }

  /** Someone else deleted the shown record: the form says so and nothing can be saved. */
  markDeleted(): void {
    if (!this.detail || this.detail.deleted) return;
    this.detail = { ...this.detail, deleted: true };
    this.emit('form');
  }

  /** The person settles a conflicting field: keep their value (mine) or the one stored now (theirs). */
  settle(field: string, keep: 'mine' | 'theirs'): void {
    if (!this.conflicts.delete(field)) return;
    const entry = this.form.get(field);
    if (keep === 'theirs') this.form.delete(field);
    else if (entry) this.form.set(field, { value: entry.value, by: 'person' });
    this.emit('form');
  }

  showReview(source: ReviewSource): void {
    this.context = source.context;
    this.kind = 'review';
    // The list stays the Board's list: closing the review shows it again.
    if (this.shownList?.context !== source.context) this.shownList = undefined;
    this.detail = undefined;
    this.form.clear();
    this.conflicts.clear();
    this.shownReview = new Review(source);
    this.grid = undefined;
    this.emit('review');
  }

  gridEdits(): Review | undefined {
    return this.grid;
  }

  startGridEdits(source: ReviewSource): Review | undefined {
    if (this.kind !== 'list' || !this.shownList || this.shownList.context !== source.context) return undefined;
    this.grid = new Review(source);
    return this.grid;
  }

  gridEdited(): void {
    if (this.grid && this.grid.size === 0) this.grid = undefined;
    this.emit('gridEdits');
  }

  discardGridEdits(): void {
    this.restoredGrid = undefined;
    if (!this.grid) return;
    this.grid = undefined;
    this.emit('gridEdits');
  }

  reviewGridEdits(): Review | undefined {
    const edits = this.grid;
    if (!edits || this.kind !== 'list') return undefined;
    // The review shows only the columns the person changed, each cell as their own value.
    const kept = gridDraft(edits);
    const review = gridFromDraft({ ...kept, fields: kept.fields.filter((field) => kept.rows.some((row) => row.cells.some((cell) => cell.field === field))) });
    this.grid = undefined;
    this.kind = 'review';
    this.shownReview = review;
    this.emit('review');
    return review;
  }

  review(): Review | undefined {
    return this.shownReview;
  }

  /** The person accepts or rejects a cell, a row or every row of the review. */
  reviewDecide(accept: boolean, id?: string, field?: string): void {
    if (this.shownReview?.decide(accept, id, field)) this.emit('review');
  }

  /** The person's own value for a cell of the review (checked by the caller). */
  reviewEdit(id: string, field: string, value: unknown, problem?: FieldProblem): void {
    if (this.shownReview?.edit(id, field, value, problem)) this.emit('review');
  }

  /** The person chose another filter of the review grid (what it shows, not what is saved: no change is emitted). */
  setReviewFilter(filter: Review['filter']): void {
    if (this.shownReview) this.shownReview.filter = filter;
  }

  reviewConflicts(current: readonly CurrentRecord[]): void {
    if (!this.shownReview) return;
    this.shownReview.markConflicts(current);
    this.emit('review');
  }

  closeReview(): void {
    if (!this.shownReview) return;
    const context = this.shownReview.context;
    this.shownReview = undefined;
    this.kind = this.shownList ? 'list' : undefined;
    this.context = this.shownList ? context : undefined;
    this.emit('list');
  }

  showMail(draft: MailDraft): void {
    this.mail = structuredClone(draft);
    this.mailSendAt = undefined;
    this.mailLineage = {};
    this.emit('mail');
  }

  /** The person's edit of the draft shown: the same draft, changed (a stored request for it follows the edit). */
  editMail(draft: MailDraft): void {
    if (!this.mail) return;
    this.mail = structuredClone(draft);
    this.mailSendAt = undefined;
    this.emit('mail');
  }

  clearMail(): void {
    this.mail = undefined;
    this.mailSendAt = undefined;
    this.mailLineage = undefined;
    this.emit('mail');
  }

  mailSource(): object | undefined {
    return this.mail ? this.mailLineage : undefined;
  }

  scheduleMail(sendAt: string | undefined): void {
    if (!this.mail) return;
    this.mailSendAt = sendAt;
    this.emit('mail');
  }

  preview(changes: Readonly<Record<string, unknown>>): void {
    if (!this.detail) throw new Error('preview needs a loaded detail record');
    for (const [field, value] of Object.entries(changes)) this.form.set(field, { value: structuredClone(value), by: 'agent' });
    this.emit('form');
  }

  /** The person typed into the form. */
  edit(field: string, value: unknown): void {
    if (!this.detail) throw new Error('edit needs a loaded detail record');
    this.form.set(field, { value: structuredClone(value), by: 'person' });
    // Typing a new value settles a conflict on that field: it is the person's choice.
    this.conflicts.delete(field);
    this.emit('form');
  }

  /** The person took the agent's proposal for a field as their own edit. */
  accept(field: string): void {
    const entry = this.form.get(field);
    if (entry?.by !== 'agent') return;
    this.form.set(field, { value: entry.value, by: 'person' });
    this.emit('form');
  }

  /** A field goes back to the stored value (the person's edit or the agent's proposal is dropped). */
  revert(field: string): void {
    this.conflicts.delete(field);
    if (this.form.delete(field)) this.emit('form');
  }

  /** Accept or revert every proposal of the agent at once. */
  acceptAll(): void {
    let changed = false;
    for (const [field, entry] of this.form) {
      if (entry.by !== 'agent') continue;
      this.form.set(field, { value: entry.value, by: 'person' });
      changed = true;
    }
    if (changed) this.emit('form');
  }

  revertProposals(): void {
    let changed = false;
    for (const [field, entry] of [...this.form]) {
      if (entry.by !== 'agent') continue;
      this.form.delete(field);
      this.conflicts.delete(field);
      changed = true;
    }
    if (changed) this.emit('form');
  }

  /** Drops every unsaved change of the shown record, the person's and the agent's. */
  discard(): void {
    if (!this.form.size) return;
    this.form.clear();
    this.conflicts.clear();
    this.emit('form');
  }

  async formData(): Promise<Record<string, unknown>> {
    return this.formValues();
  }

  /** The loaded record with every edit and preview applied (what the form shows). */
  formValues(): Record<string, unknown> {
    const data: Record<string, unknown> = structuredClone(this.detail?.record ?? {});
    for (const [field, { value }] of this.form) data[field] = structuredClone(value);
    return data;
  }

  list(): ListView | undefined {
    return this.shownList;
  }

  /** The records of the list's first window (what paints first; empty without a list). */
  shownRecords(): readonly BoardRecord[] {
    return this.shownList?.source.first.records ?? [];
  }

  /** The person's sort and filter of a list shown before. */
  queryOf(view: ListView): ListQuery {
    return this.queries.get(view) ?? {};
  }

  listQuery(): ListQuery {
    return (this.shownList && this.queries.get(this.shownList)) ?? {};
  }

  /** The person sorted or filtered the grid; the list itself is unchanged, so no change is emitted. */
  setListQuery(query: ListQuery): void {
    if (this.shownList) this.queries.set(this.shownList, query);
  }

  snapshot(): BoardSnapshot {
    const pending: Record<string, unknown> = {};
    const edited: string[] = [];
    for (const [field, { value, by }] of this.form) {
      if (by === 'agent') pending[field] = value;
      else edited.push(field);
    }
    const conflicts = Object.fromEntries([...this.conflicts].map(([field, c]) => [field, structuredClone(c)]));
    const gridEdits = this.grid?.cells().length ?? 0;
    return {
      context: this.context, kind: this.kind, detail: this.detail, pending, edited, conflicts, mail: this.mail,
      ...(this.mailSendAt ? { mailSendAt: this.mailSendAt } : {}), ...(gridEdits ? { gridEdits } : {}),
    };
  }

  /** What is worth keeping across a crash: the loaded record with its unsaved edits and proposals, and the mail draft. */
  draft(): BoardDraft {
    return {
      ...(this.kind === 'detail' && this.detail && this.context ? { detail: structuredClone(this.detail) } : {}),
      form: [...this.form].map(([field, { value, by }]) => ({ field, value: structuredClone(value), by })),
      ...(this.mail ? { mail: structuredClone(this.mail) } : {}),
      ...(this.mail && this.mailSendAt ? { mailSendAt: this.mailSendAt } : {}),
      ...(this.grid ? { grid: gridDraft(this.grid) } : this.restoredGrid ? { grid: this.restoredGrid } : {}),
    };
  }

  /** Puts a kept draft back: the record, then its edits and proposals as they were, and the mail draft. */
  restore(draft: BoardDraft): void {
    if (draft.detail) {
      this.showDetail(draft.detail);
      for (const { field, value, by } of draft.form) this.form.set(field, { value: structuredClone(value), by });
      this.emit('form');
    }
    if (draft.mail) this.showMail(draft.mail);
    // The grid's edits come back with the next list of their context (Back, the person's or the agent's).
    if (draft.grid) this.restoredGrid = structuredClone(draft.grid);
  }

  onChange(listener: (change: BoardChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(change: BoardChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

/** The Board the tools use: the state, with the person's form flushed from the page first and who else edits a record (the controller gives both). */
export function toolsBoard(state: BoardState, page: Required<Pick<Board, 'formData' | 'othersEditing'>>): Board {
  return {
    showList: (view, query) => state.showList(view, query),
    list: () => state.list(),
    listQuery: () => state.listQuery(),
    showDetail: (view) => state.showDetail(view),
    showNew: (context) => state.showNew(context),
    showMail: (draft) => state.showMail(draft),
    clearMail: () => state.clearMail(),
    mailSource: () => state.mailSource(),
    scheduleMail: (sendAt) => state.scheduleMail(sendAt),
    preview: (changes) => state.preview(changes),
    edit: (field, value) => state.edit(field, value),
    conflict: (current) => state.conflict(current),
    formData: () => page.formData(),
    showReview: (source) => state.showReview(source),
    review: () => state.review(),
    reviewConflicts: (current) => state.reviewConflicts(current),
    closeReview: () => state.closeReview(),
    gridEdits: () => state.gridEdits(),
    startGridEdits: (source) => state.startGridEdits(source),
    gridEdited: () => state.gridEdited(),
    discardGridEdits: () => state.discardGridEdits(),
    reviewGridEdits: () => state.reviewGridEdits(),
    snapshot: () => state.snapshot(),
    onChange: (listener) => state.onChange(listener),
    othersEditing: (entity, id) => page.othersEditing(entity, id),
  };
}

/** The grid's edits as kept on disk. */
function gridDraft(edits: Review): GridDraft {
  const rows = new Map<string, { id: string; version: number; record: BoardRecord; cells: Array<{ field: string; value: unknown; problem?: FieldProblem }> }>();
  for (const { id, field, cell } of edits.cells()) {
    let row = rows.get(id);
    if (!row) {
      const state = edits.row(id)!;
      rows.set(id, row = { id, version: state.version, record: structuredClone(state.record), cells: [] });
    }
    row.cells.push({ field, value: structuredClone(cell.to), ...(cell.problem ? { problem: cell.problem } : {}) });
  }
  return { context: edits.context, entity: edits.entity, fields: [...edits.fields], shown: [...edits.shown], rows: [...rows.values()] };
}

/** The kept grid edits as the person's review again, each cell their own value against the version it was read at. */
function gridFromDraft(draft: GridDraft): Review {
  const review = new Review({ context: draft.context, entity: draft.entity, fields: draft.fields, shown: draft.shown, unchanged: 0, rows: [] });
  for (const row of draft.rows) {
    review.addRow({ id: row.id, version: row.version, record: row.record, proposed: {} });
    for (const cell of row.cells) review.edit(row.id, cell.field, cell.value, cell.problem);
  }
  return review;
}
