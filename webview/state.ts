// The Board's state in the webview, and the only module that talks to the host
// (through the endpoint it is given: transport.ts's in the page, a test's own in Node).
// Components get it from the element tree (storeController.ts) and call its actions;
// it tells them which part changed. List rows are kept in a bounded cache of chunks and
// asked for as the grid needs them, so a million-row list never sits here whole. A review of
// many proposed changes pages the same way: one cache (rowChunks.ts) serves both grids. The
// approvals and the page's own questions are parts of their own (approvalsState.ts,
// questionsState.ts), registered on the same endpoint.
import type { HistoryView, ListQuery, ListSort, OpenableContext, RefChoice } from '../src/core/domain.ts';
import type { RecordHistoryView } from '../src/board/recordHistory.ts';
import * as protocol from '../src/board/protocol.ts';
import type { DetailBlock, GridEditsBlock, GridRow, ListBlock, MailBlock, PresenceView, ReviewBlock, ReviewFilter, ReviewRow, WebviewTexts } from '../src/board/viewTypes.ts';
import { ApprovalsState } from './approvalsState.ts';
import type { BoardEndpoint } from './endpoint.ts';
import { QuestionsState } from './questionsState.ts';
import { CHUNK_ROWS, RowChunks } from './rowChunks.ts';

export type { BoardEndpoint } from './endpoint.ts';

/** What the store uses of the page: its language (`<html lang>`), the Board's locale until the host sends one, then set to it. */
export interface BoardPage {
  readonly lang: string;
  setLang(locale: string): void;
}

export type Topic = 'locale' | 'list' | 'rows' | 'detail' | 'mail' | 'status' | 'history' | 'connection' | 'problems' | 'question' | 'presence'
  /** The writes waiting for the person's decision, and the person asking to see them. */
  | 'approvals'
  /** The review block, its filter, counts and canSave; its rows have their own topic. */
  | 'review' | 'reviewRows'
  /** The start page shown over what the Board holds (the person went to the app's lists). */
  | 'home'
  /** The person's unsaved edits of the list grid's cells. */
  | 'gridEdits';

const ROWS_TIMEOUT_MS = 30_000;

export { CHUNK_ROWS } from './rowChunks.ts';

export class BoardStore {
  locale: string;
  texts: WebviewTexts | undefined;
  /** The lists the person can open from the start page. */
  contexts: readonly OpenableContext[] = [];
  /** The app's locales, for the Board's language switch. */
  locales: readonly string[] = [];
  /** The app's name: the start page's heading and the breadcrumb's root. */
  app = '';
  /**
   * The start page shown over what the Board holds, by the person's choice: `root` when they chose
   * the app's name in the breadcrumb (Back returns), `back` when Back went past the first step
   * (Forward returns); null otherwise. The host's Board stays as it is until they open a list,
   * so unsaved work is asked about only then; anything new the host shows takes its place.
   */
  home: 'root' | 'back' | null = null;
  list: ListBlock | null = null;
  /** The person's sort and filter over the list. */
  query: ListQuery = {};
  detail: DetailBlock | null = null;
  mail: MailBlock | null = null;
  /** What is wrong with the mail's recipient as the person typed it (the host checks it). */
  mailProblem: string | null = null;
  status: protocol.StatusLine | null = null;
  history: HistoryView = { canBack: false, canForward: false, crumbs: [] };
  connection: protocol.ConnectionLine | null = null;
  /** What is wrong with the shown form's values (field -> text), as the host checked them. */
  problems: Readonly<Record<string, string>> = {};
  /** The fields the person changed, and whether the form holds anything unsaved (as the host counts them). */
  edited: ReadonlySet<string> = new Set();
  dirty = false;
  /** The review of many proposed changes shown instead of the list, or null. */
  review: ReviewBlock | null = null;
  /** The review's filter as the page shows it (the block's until the person picks another). */
  reviewFilter: ReviewFilter = 'changed';
  /** The person's unsaved edits of the list grid's cells, as the host holds them (null when none). */
  gridEdits: GridEditsBlock | null = null;
  /** The same by cell (`key` and field), with the values the person typed since the host last said. */
  private gridCells = new Map<string, { readonly value: unknown; readonly problem?: string }>();
  /** Others on the shown record, and the shown list's rows others are editing (key -> names). */
  presence: PresenceView['detail'] = [];
  private rowEditors = new Map<string, readonly string[]>();
  /** Counts the rows swapped in after others wrote (the grid then finds its active row's record again). */
  rowSwaps = 0;
  /** The writes the agent asked for that wait for the person's decision (approvalsState.ts). */
  readonly approvals: ApprovalsState;
  /** The question the host asks on the page itself (questionsState.ts). */
  readonly questions: QuestionsState;

  private readonly listeners = new Map<Topic, Set<() => void>>();
  /** The list's rows under the current query (reset for a new list or query). */
  private readonly listRows = new RowChunks<GridRow>(() => this.emit('rows'));
  /** The review's rows in its filter (reset for a new review, revision or filter). */
  private readonly reviewRows = new RowChunks<ReviewRow>(() => this.emit('reviewRows'));
  /** The person's edits of the shown record, for the host's formData request. */
  private readonly edits = new Map<string, unknown>();
  /** What the person typed, as typed: the input keeps showing it when the form re-renders (the host does not echo edits). */
  private readonly typed = new Map<string, string | boolean>();

  private readonly host: BoardEndpoint;

  /** Rows matching the current query; undefined until the host said. */
  get total(): number | undefined {
    return this.listRows.total;
  }

  get rowsError(): string | undefined {
    return this.listRows.error;
  }

  /** Rows in the review's filter; undefined while the host has not said. */
  get reviewTotal(): number | undefined {
    return this.reviewRows.total;
  }

  get reviewRowsError(): string | undefined {
    return this.reviewRows.error;
  }

  constructor(host: BoardEndpoint, page: BoardPage) {
    this.host = host;
    this.approvals = new ApprovalsState(host, () => this.emit('approvals'));
    this.questions = new QuestionsState(host, () => this.emit('question'));
    this.locale = page.lang || 'en';
    host.onNotification(protocol.locale, ({ locale, texts, contexts, locales, app }) => {
      this.locale = locale;
      this.texts = texts;
      this.contexts = contexts ?? [];
      this.locales = locales ?? [];
      this.app = app ?? '';
      page.setLang(locale);
      this.emit('locale');
    });
    host.onNotification(protocol.list, ({ list }) => this.showList(list));
    host.onNotification(protocol.listRows, (changed) => this.swapRows(changed));
    host.onNotification(protocol.gridEdits, ({ gridEdits }) => this.showGridEdits(gridEdits));
    host.onNotification(protocol.presence, ({ detail, rows }) => {
      this.presence = detail;
      this.rowEditors = new Map(rows.map((r) => [r.key, r.people]));
      this.emit('presence');
    });
    host.onNotification(protocol.review, ({ review }) => this.showReview(review));
    host.onNotification(protocol.reviewState, (state) => this.applyReviewState(state));
    host.onNotification(protocol.detail, ({ detail }) => {
      if (detail?.key !== this.detail?.key) {
        this.edits.clear();
        this.typed.clear();
      }
      // A field the host no longer counts as the person's edit (reverted, discarded, saved) is not sent again.
      else {
        for (const field of detail?.fields ?? []) {
          if (field.edited) continue;
          this.edits.delete(field.field);
          this.typed.delete(field.field);
        }
      }
      if (detail && detail.key !== this.detail?.key) this.leaveHome();
      this.detail = detail;
      this.problems = Object.fromEntries((detail?.fields ?? []).filter((f) => f.problem).map((f) => [f.field, f.problem!]));
      this.edited = new Set((detail?.fields ?? []).filter((f) => f.edited).map((f) => f.field));
      this.dirty = detail?.dirty ?? false;
      this.emit('problems');
      this.emit('detail');
    });
    host.onNotification(protocol.mail, ({ mail }) => {
      if (mail && !this.mail) this.leaveHome();
      this.mail = mail;
      this.mailProblem = mail?.problem ?? null;
      this.emit('mail');
    });
    host.onNotification(protocol.mailState, ({ problem }) => {
      this.mailProblem = problem;
      this.emit('mail');
    });
    host.onNotification(protocol.formState, ({ key, problems, edited, dirty }) => {
      if (key !== this.detail?.key) return;
      this.problems = problems;
      this.edited = new Set(edited);
      this.dirty = dirty;
      this.emit('problems');
    });
    host.onNotification(protocol.connection, ({ connection }) => {
      this.connection = connection;
      this.emit('connection');
    });
    host.onNotification(protocol.history, ({ history }) => {
      this.history = history;
      this.emit('history');
    });
    host.onNotification(protocol.status, ({ status }) => {
      this.status = status;
      this.emit('status');
    });
    host.onRequest(protocol.formData, () => Object.fromEntries(this.edits));
  }

  /** Says the webview listens; the host answers with every part of the Board. */
  start(): void {
    this.host.notify(protocol.ready, {});
  }

  subscribe(topics: readonly Topic[], listener: () => void): () => void {
    for (const topic of topics) {
      let set = this.listeners.get(topic);
      if (!set) this.listeners.set(topic, (set = new Set()));
      set.add(listener);
    }
    return () => topics.forEach((topic) => this.listeners.get(topic)?.delete(listener));
  }

  private emit(topic: Topic): void {
    for (const listener of [...(this.listeners.get(topic) ?? [])]) listener();
  }

  private showList(list: ListBlock | null): void {
    if (list && list.listId !== this.list?.listId) this.leaveHome();
    if (list?.listId !== this.gridEdits?.listId) this.showGridEdits(null);
    this.list = list;
    this.query = list?.query ?? {};
    this.listRows.reset();
    if (list && !this.query.sort && !this.query.filter) {
      this.listRows.total = list.total;
      this.listRows.store(0, list.rows);
    }
    this.emit('list');
    this.emit('rows');
  }

  /**
   * Someone else wrote: the windows the host read again replace what is cached, in place; chunks it
   * did not read are dropped (asked for again when scrolled to). The list, its scroll position, active
   * row, sort and filter stay: only the rows change.
   */
  private swapRows({ listId, query, total, windows }: { listId: number; query: ListQuery; total: number; windows: readonly { offset: number; rows: readonly GridRow[] }[] }): void {
    if (listId !== this.list?.listId || JSON.stringify(query) !== JSON.stringify(this.query)) return;
    this.listRows.reset();
    this.listRows.total = total;
    for (const { offset, rows } of windows) this.listRows.store(offset, rows);
    this.rowSwaps++;
    this.emit('rows');
  }

  private showGridEdits(edits: GridEditsBlock | null): void {
    this.gridEdits = edits && edits.listId === this.list?.listId ? edits : null;
    this.gridCells = new Map((this.gridEdits?.cells ?? []).map((cell) => [gridCellKey(cell.key, cell.field), cell]));
    this.emit('gridEdits');
  }

  /** The person's unsaved value of a list cell (and what is wrong with it), if they changed it. */
  gridEdit(key: string, field: string): { readonly value: unknown; readonly problem?: string } | undefined {
    return this.gridCells.get(gridCellKey(key, field));
  }

  /** The person's value for a cell of the list grid: shown at once, checked and kept by the host (its answer replaces it). */
  editGridCell(key: string, field: string, value: unknown): void {
    const list = this.list;
    if (!list?.editors?.[field]) return;
    this.host.notify(protocol.gridEdit, { listId: list.listId, key, field, value });
    this.gridCells.set(gridCellKey(key, field), { value });
    this.emit('gridEdits');
  }

  /** Save (one question for all of them) or discard the list grid's edits. */
  gridEditsAction(action: protocol.GridEditsAction): void {
    if (this.list) this.host.notify(protocol.gridEditsAction, { listId: this.list.listId, action });
  }

  /** Where the row with this key is among the loaded rows, if loaded. */
  indexOfKey(key: string): number | undefined {
    return this.listRows.indexOfKey(key);
  }

  /** Who else is editing the row with this key (the grid marks it). */
  rowEditing(key: string): readonly string[] {
    return this.rowEditors.get(key) ?? [];
  }

  /** The row at a 0-based index of the current query, if loaded. */
  row(index: number): GridRow | undefined {
    return this.listRows.row(index);
  }

  /** Asks the host for the chunks of rows first..last that are missing (and keeps the visible ones fresh in the cache). */
  ensureRows(first: number, last: number): void {
    const list = this.list;
    if (!list) return;
    const { listId } = list;
    const query = this.query;
    this.listRows.ensure(first, last, async (offset, limit) => {
      const result = await this.host.request(protocol.rows, { listId, offset, limit, query }, ROWS_TIMEOUT_MS);
      return result.listId === listId ? result : undefined;
    });
  }

  // ---- the review of many proposed changes ----------------------------------------------

  private showReview(review: ReviewBlock | null): void {
    const current = this.review;
    if (review && review.reviewId !== current?.reviewId) this.leaveHome();
    const same = review !== null && current !== null && review.reviewId === current.reviewId && review.revision === current.revision
      && review.filter === this.reviewFilter;
    this.review = review;
    if (!same) {
      this.reviewRows.reset();
      this.reviewFilter = review?.filter ?? 'changed';
    }
    if (review) {
      // The block's rows are the filter's first ones as the host holds them now.
      this.reviewRows.total = review.total;
      this.reviewRows.store(0, review.rows);
    }
    this.emit('review');
    this.emit('reviewRows');
  }

  /** Rows the host changed in place (an accept, reject or edit): swapped by key where cached; the counts are the host's. */
  private applyReviewState(state: { readonly reviewId: number; readonly revision: number; readonly counts: ReviewBlock['counts']; readonly canSave: boolean; readonly rows: readonly ReviewRow[] }): void {
    const review = this.review;
    if (!review || state.reviewId !== review.reviewId || state.revision !== review.revision) return;
    this.review = { ...review, counts: state.counts, canSave: state.canSave };
    if (state.rows.length) this.reviewRows.swap(state.rows);
    this.emit('review');
    this.emit('reviewRows');
  }

  /** The review row at a 0-based index of the current filter, if loaded. */
  reviewRow(index: number): ReviewRow | undefined {
    return this.reviewRows.row(index);
  }

  /** Asks the host for the chunks of review rows first..last that are missing (and keeps the visible ones fresh in the cache). */
  ensureReviewRows(first: number, last: number): void {
    const review = this.review;
    if (!review) return;
    const { reviewId, revision } = review;
    const filter = this.reviewFilter;
    this.reviewRows.ensure(first, last, async (offset, limit) => {
      const result = await this.host.request(protocol.reviewRows, { reviewId, revision, filter, offset, limit }, ROWS_TIMEOUT_MS);
      return result.reviewId === reviewId && result.revision === revision && result.filter === filter ? result : undefined;
    });
  }

  /** Shows the review's rows in another filter (the host keeps it as the review's filter). */
  setReviewFilter(filter: ReviewFilter): void {
    if (!this.review || filter === this.reviewFilter) return;
    this.reviewFilter = filter;
    this.reviewRows.reset();
    this.emit('review');
    this.emit('reviewRows');
    this.ensureReviewRows(0, CHUNK_ROWS - 1);
  }

  /** Accepts or rejects one cell (`key` and `field`), one row (`key`) or every row; or discards the review. */
  reviewAct(action: protocol.ReviewActionKind, key?: string, field?: string): void {
    const review = this.review;
    if (!review) return;
    const params: { reviewId: number; action: protocol.ReviewActionKind; key?: string; field?: string } = { reviewId: review.reviewId, action };
    if (key !== undefined && action !== 'discard') {
      params.key = key;
      if (field !== undefined) params.field = field;
    }
    this.host.notify(protocol.reviewAction, params);
  }

  /**
   * The person's own value for a proposed cell, in the field's value form. Shown at once (the host's
   * answer, a reviewState with the row as it checked it, replaces it).
   */
  reviewEditCell(key: string, field: string, value: unknown): void {
    const review = this.review;
    if (!review) return;
    const column = review.changed.findIndex((c) => c.field === field);
    if (column < 0) return;
    this.host.notify(protocol.reviewEdit, { reviewId: review.reviewId, key, field, value });
    this.reviewRows.swap(key, (row) => {
      const cell = row.cells[column];
      return cell ? { ...row, cells: row.cells.map((c, i) => (i === column ? { from: cell.from, to: value, accepted: true, edited: true } : c)) } : row;
    });
    this.emit('reviewRows');
  }

  /** A click on a header: ascending, then descending, then the agent's order again. */
  sortBy(field: string): void {
    const current = this.query.sort;
    const sort: ListSort | undefined = current?.field !== field ? { field, direction: 'asc' } : current.direction === 'asc' ? { field, direction: 'desc' } : undefined;
    this.setQuery({ ...this.query, sort });
  }

  setFilter(filter: string): void {
    if ((this.query.filter ?? '') === filter) return;
    this.setQuery({ ...this.query, filter });
  }

  private setQuery(query: ListQuery): void {
    const clean: { sort?: ListSort; filter?: string } = {};
    if (query.sort) clean.sort = query.sort;
    if (query.filter) clean.filter = query.filter;
    this.query = clean;
    this.listRows.reset();
    this.emit('list');
    this.emit('rows');
    this.ensureRows(0, CHUNK_ROWS - 1);
  }

  openRow(key: string): void {
    if (this.list?.navigable) this.host.notify(protocol.openRow, { listId: this.list.listId, key });
  }

  openRef(key: string, field: string): void {
    if (this.list) this.host.notify(protocol.openRef, { listId: this.list.listId, key, field });
  }

  openFormLink(field: string, item?: string): void {
    this.host.notify(protocol.openFormLink, item === undefined ? { field } : { field, item });
  }

  formAction(action: protocol.FormAction, field?: string): void {
    this.host.notify(protocol.formAction, field === undefined ? { action } : { action, field });
  }

  setLocale(locale: string): void {
    if (locale !== this.locale) this.host.notify(protocol.setLocale, { locale });
  }

  navigate(direction: 'back' | 'forward'): void {
    this.host.notify(protocol.navigate, { direction });
  }

  /** Whether the Board holds a list, record, review or mail draft (without, it shows its start page anyway). */
  get showsSomething(): boolean {
    return Boolean(this.list || this.detail || this.review || this.mail);
  }

  /** Whether Back leads somewhere: an earlier step, back from the start page, or from the first step to the start page. */
  get canBack(): boolean {
    if (this.home) return this.home === 'root';
    return this.history.canBack || this.showsSomething;
  }

  get canForward(): boolean {
    if (this.home) return this.home === 'back';
    return this.history.canForward;
  }

  /** Back (the button, Alt+Left): the step before; from the first step, the start page with the app's lists. */
  back(): void {
    if (this.home === 'root') this.leaveHome();
    else if (this.home) return;
    else if (this.history.canBack) this.navigate('back');
    else if (this.showsSomething) this.goHome('back');
  }

  /** Forward (the button, Alt+Right): the next step, or from the start page back to what the Board holds. */
  forward(): void {
    if (this.home === 'back') this.leaveHome();
    else if (!this.home && this.history.canForward) this.navigate('forward');
  }

  /** Shows the start page (the app's lists) over whatever the Board holds. */
  goHome(how: 'root' | 'back' = 'root'): void {
    if (!this.showsSomething || this.home === how) return;
    this.home = how;
    this.emit('home');
  }

  private leaveHome(): void {
    if (!this.home) return;
    this.home = null;
    this.emit('home');
  }

  /** Records of the related entity for the ref picker, by name. */
  refChoices(field: string, search: string): Promise<readonly RefChoice[]> {
    return this.host.request(protocol.refChoices, { field, search }, 10_000);
  }

  newRecord(): void {
    if (this.list?.canCreate) this.host.notify(protocol.newRecord, { listId: this.list.listId });
  }

  /** The shown record's audit trail (the History under the form). */
  recordHistory(key: string): Promise<RecordHistoryView> {
    return this.host.request(protocol.recordHistory, { key }, 10_000);
  }

  undoSave(entry: number): void {
    this.host.notify(protocol.undoSave, { entry });
  }

  deleteRecord(): void {
    this.host.notify(protocol.deleteRecord, {});
  }

  openContext(context: string): void {
    this.host.notify(protocol.openContext, { context });
  }

  exportCsv(): void {
    if (this.list) this.host.notify(protocol.exportCsv, { listId: this.list.listId, query: this.query });
  }

  /** The value an input of the form shows: what the person typed, else what the host sent. */
  inputValue(field: string, sent: string | boolean): string | boolean {
    return this.typed.get(field) ?? sent;
  }

  edit(field: string, value: unknown, raw?: string | boolean): void {
    this.edits.set(field, value);
    if (raw !== undefined) this.typed.set(field, raw);
    this.host.notify(protocol.edit, { field, value });
  }

  save(): void {
    this.host.notify(protocol.save, {});
  }

  editMail(field: protocol.MailField, value: string): void {
    // Kept here as typed, so a re-render shows it (the host does not echo edits).
    if (this.mail) this.mail = { ...this.mail, [field]: value };
    this.host.notify(protocol.editMail, { field, value });
  }

  mailAction(action: protocol.MailAction): void {
    this.host.notify(protocol.mailAction, { action });
  }
}

/** A list cell's key in the grid's edits. */
const gridCellKey = (key: string, field: string): string => `${key}\u0000${field}`;
