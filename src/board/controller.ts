// The Board's host side, whatever shows it: the state lives here (BoardState), so a
// surface (VS Code's webview panel, a browser page of xos-mcp) can be discarded when
// hidden and gets every part again when it says ready. The person's actions (open a row,
// save, export) run the same use cases as the agent's tools; list rows are served window
// by window as the person scrolls. The surface and the person's questions come in as
// ports (BoardSurface, BoardUi), so this module needs neither VS Code nor HTTP.
// The actions on records and on the mail draft live in recordActions.ts and mailActions.ts,
// which read this controller through the host it passes in; every action that fails is
// logged, shown on the status line and told the person by runAction (runAction.ts).
import { isDeepStrictEqual } from 'node:util';
import type { AuditEntry } from '../graphql/audit.ts';
import { hasUnsavedWork, type SavedRecord } from '../core/base.ts';
import { listWindow, openRef, openRow } from '../core/show.ts';
import { openFormLink } from '../core/formLinks.ts';
import { newRecord } from '../core/records.ts';
import { refChoices } from '../core/refChoices.ts';
import { BoardHistory } from '../core/history.ts';
import { openableContexts, openContext } from '../core/openContext.ts';
import { appModel } from '../ast/appModel.ts';
import { appName } from '../ast/appName.ts';
import type { ApprovalDesk } from './approvalDesk.ts';
import { ApprovalsPart } from './approvalsPart.ts';
import type { AskedQuestion } from './confirmer.ts';
import { MailActions, type MailActionHost } from './mailActions.ts';
import { personDoor, personFacing, type PersonDoor } from './personFacing.ts';
import * as protocol from './protocol.ts';
import type { MessageEndpoint } from './protocol.ts';
import { RecordActions, type RecordActionHost } from './recordActions.ts';
import { LiveBoard } from './liveBoard.ts';
import { errorText, runAction, type BoardDeps, type OutcomeWording } from './runAction.ts';
import type { BoardState } from './state.ts';
import { boardTexts, translator, type Translate } from './texts.ts';
import { boardTitle } from '../text/boardTitle.ts';
import { costlySort } from '../core/sortHint.ts';
import { personText, personWords } from './outcomeText.ts';
import type { BatchSaved, BoardOutcome, MailOutcome, Saved, ShowOutcome } from '../core/outcomes.ts';
import { buildBoardView, detailBlock, gridRows, listBlock, mailBlock, reviewBlock, reviewCanSave, reviewRows, webviewTexts, type BoardView } from './view.ts';
import { reviewEditValue } from '../core/batch.ts';
import type { Review } from '../core/review.ts';
import type { Board, BoardChange, ListQuery, MailDraft, XosClient } from '../core/domain.ts';

const FORM_DATA_TIMEOUT_MS = 2_000;

/** Where the Board is shown: a VS Code webview panel, or browser pages. */
export interface BoardSurface {
  /** Shows the Board (opens or reveals it where it can). */
  show(preserveFocus: boolean): void;
  isOpen(): boolean;
  isVisible(): boolean;
  /** The surface's title (marked while the form holds unsaved work). */
  setTitle(title: string): void;
}

export type MessageKind = 'info' | 'warning' | 'error';

/** The destination of a CSV export and how its progress is shown. */
export interface CsvExport {
  /** Where it was written, for the message (a path, a file name). */
  readonly where: string;
  /** Runs the export with a chunk sink; the signal aborts it (the person cancelled). */
  run(write: (sink: (chunk: string) => Promise<void>, signal: AbortSignal) => Promise<number>): Promise<number>;
}

/** How the Board speaks to the person outside its page: messages, questions, settings. */
export interface BoardUi {
  /** Texts in the front end's language (vscode.l10n in VS Code, the Board's bundle elsewhere). */
  readonly t: Translate;
  /** A message with optional actions; resolves with the action taken, if any. */
  tell(kind: MessageKind, text: string, ...actions: string[]): Promise<string | undefined>;
  /** Asks before unsaved work is dropped; true only when the person chose `discard`. */
  askDiscard(question: string, detail: string, discard: string): Promise<boolean>;
  /** Makes `locale` the Board's language (the front end's setting). */
  setLocale(locale: string): void;
  /** Where a list's CSV goes (the person picks it), or undefined when they cancelled. */
  csvExport(context: string, label: string): Promise<CsvExport | undefined>;
  readonly log: { info(text: string): void; warn(text: string): void; error(text: string): void };
}

export interface BoardControllerOptions {
  readonly state: BoardState;
  readonly client: XosClient;
  readonly locale: () => string;
  /** What the use cases need for the person's actions (the same the tools get). */
  readonly deps: () => BoardDeps;
  readonly surface: BoardSurface;
  readonly ui: BoardUi;
  /** The writes the agent asked for that wait for the person's decision; without a desk the Board shows no such list. */
  readonly approvals?: ApprovalDesk;
}

export class BoardController {
  private readonly options: BoardControllerOptions;
  /** The front end's port behind the door: every message, question and detail is sanitised (personFacing.ts). */
  private readonly ui: BoardUi;
  /** The same door for what the page itself shows the person: the status line and its questions. */
  private readonly door: PersonDoor;
  private endpoint: MessageEndpoint | undefined;
  private ready = false;
  /** A new list gets a new id, so windows of an old one are not mixed in. */
  private listId = 0;
  /** The list windows being read for the page, each with its way to call it off. */
  private readonly windowReads = new Set<AbortController>();
  private resuming = false;
  /** The review the page was sent last, its id and revision: a new review or revision goes whole, else only its touched rows. */
  private sentReview: { review: Review; id: number; revision: number } | undefined;
  private reviewId = 0;
  /** The status line and the view it is about (scoped): it leaves when the person sees another view. */
  private status: { readonly line: protocol.StatusLine; readonly about: string } | null = null;
  /** Each review the Board showed, numbered: the status line's scope tells one from the next. */
  private readonly reviewNumbers = new WeakMap<Review, number>();
  private reviewsNumbered = 0;
  private connection: protocol.ConnectionLine | null = null;
  /** Set while the host applies the page's own edit, so it is not echoed back mid-typing. */
  private applyingWebviewEdit = false;
  private readonly disposables: Array<{ dispose(): void }> = [];
  /** What the actions read of the controller; the controller's own actions (open, navigate) report through it too. */
  private readonly actionHost: RecordActionHost & MailActionHost;
  /** Save, delete, undo, history, CSV export, form edits (recordActions.ts). */
  private readonly records: RecordActions;
  /** Send, Undo Send, discard, the mail notices, draft edits (mailActions.ts). */
  private readonly mail: MailActions;
  /** What others write and who else is on a record, from the client's change feed (liveBoard.ts); absent without a feed. */
  private readonly live: LiveBoard | undefined;
  /** The pending approvals and the person's decisions of them (approvalsPart.ts); absent without a desk. */
  private readonly approvals: ApprovalsPart | undefined;

  /** The Board the tools use: the host state, with form data flushed from the page. */
  readonly board: Board;
  /** Back, Forward and the breadcrumb over everything the Board showed. */
  readonly history: BoardHistory;

  constructor(options: BoardControllerOptions) {
    this.options = options;
    this.ui = personFacing(options.ui);
    this.door = personDoor(options.ui.t);
    const { state } = options;
    this.board = {
      showList: (view, query) => state.showList(view, query),
      list: () => state.list(),
      showDetail: (view) => state.showDetail(view),
      showNew: (context) => state.showNew(context),
      showMail: (draft) => state.showMail(draft),
      clearMail: () => state.clearMail(),
      mailSource: () => state.mailSource(),
      scheduleMail: (sendAt) => state.scheduleMail(sendAt),
      preview: (changes) => state.preview(changes),
      edit: (field, value) => state.edit(field, value),
      conflict: (current) => state.conflict(current),
      formData: () => this.formData(),
      showReview: (source) => state.showReview(source),
      review: () => state.review(),
      reviewConflicts: (current) => state.reviewConflicts(current),
      closeReview: () => state.closeReview(),
      snapshot: () => state.snapshot(),
      onChange: (listener) => state.onChange(listener),
      othersEditing: (entity, id) => this.live?.othersEditing(entity, id) ?? [],
    };
    this.history = new BoardHistory(state);
    this.actionHost = {
      ui: this.ui,
      state,
      board: this.board,
      deps: () => options.deps(),
      locale: () => options.locale(),
      ast: () => options.client.ast(),
      said: (outcome, wording) => this.said(outcome, wording),
      logged: (outcome) => this.logged(outcome),
      told: (outcome, wording) => this.told(outcome, wording),
      setStatus: (status) => this.setStatus(status),
      setStatusWithMail: (status) => {
        this.status = this.scoped(status);
        this.send({ mail: true, status: true });
      },
      applyPageEdit: (edit) => this.applyPageEdit(edit),
      pageConnected: () => this.connected,
      notifyPage: (type, params) => {
        if (this.connected) this.endpoint?.notify(type, params);
      },
      open: (preserveFocus) => this.open(preserveFocus),
      canGoBack: () => this.history.view(options.client.ast(), options.locale()).canBack,
      navigate: (direction) => this.navigate(direction),
    };
    this.records = new RecordActions(this.actionHost);
    this.mail = new MailActions(this.actionHost);
    this.disposables.push(state.onChange((change) => this.stateChanged(change)), this.history, this.history.onChange(() => this.send({ history: true })));
    const feed = options.client.feed;
    this.live = feed && new LiveBoard(feed, {
      state,
      board: this.board,
      deps: () => options.deps(),
      ast: () => options.client.ast(),
      locale: () => options.locale(),
      listId: () => this.listId,
      pageConnected: () => this.connected,
      notifyPage: (type, params) => {
        if (this.connected) this.endpoint?.notify(type, params);
      },
      setStatus: (status) => this.setStatus(status),
      log: this.ui.log,
    });
    if (this.live) this.disposables.push(this.live);
    this.approvals = options.approvals && new ApprovalsPart(options.approvals, {
      notifyPage: (type, params) => {
        if (this.connected) this.endpoint?.notify(type, params);
      },
      pageConnected: () => this.connected,
      setStatus: (status) => this.setStatus(status),
      locale: () => options.locale(),
      door: this.door,
      log: this.ui.log,
    });
    if (this.approvals) this.disposables.push(this.approvals);
    // A Board that shows a record already (restored) tells the others at once.
    this.live?.stateChanged();
  }

  /** Resolves once the changes the feed told are read and shown (tests). */
  liveSettled(): Promise<void> {
    return this.live?.settled() ?? Promise.resolve();
  }

  /** Whether a page is connected and has said ready. */
  get connected(): boolean {
    return this.ready && this.endpoint !== undefined;
  }

  /** The endpoint a page sends the person's actions through; returns the function that disconnects it. */
  connect(endpoint: MessageEndpoint): () => void {
    const { ui } = this;
    this.disconnect('another Board page took over');
    this.endpoint = endpoint;
    this.ready = false;
    endpoint.onDropped = (method) => ui.log.warn(`the Board sent a malformed or unknown message (${method}); dropped`);
    endpoint.onNotification(protocol.ready, () => {
      if (this.endpoint !== endpoint) return;
      this.ready = true;
      this.updateTitle();
      this.sendAll();
    });
    endpoint.onNotification(protocol.edit, ({ field, value }) => this.records.applyEdit(field, value));
    endpoint.onNotification(protocol.editMail, ({ field, value }) => this.mail.applyEdit(field, value));
    endpoint.onNotification(protocol.mailAction, ({ action }) => {
      if (action === 'send') void this.mail.send();
      else if (action === 'undo') this.mail.undoSend();
      else this.mail.discard();
    });
    endpoint.onNotification(protocol.openRow, ({ listId, key }) => {
      if (listId === this.listId) void this.openFromList(key, () => openRow(this.options.deps(), key));
    });
    endpoint.onNotification(protocol.openRef, ({ listId, key, field }) => {
      if (listId === this.listId) void this.openFromList(key, () => openRef(this.options.deps(), key, field));
    });
    endpoint.onNotification(protocol.openContext, ({ context }) => void this.openContext(context));
    endpoint.onNotification(protocol.navigate, ({ direction }) => void this.mayLeaveForm().then(async (leave) => {
      if (leave) await this.navigate(direction);
    }));
    endpoint.onNotification(protocol.setLocale, ({ locale }) => {
      // The front end's setting is the one place the Board's locale lives; its change re-renders the Board.
      if (this.options.client.ast().locales.includes(locale)) ui.setLocale(locale);
    });
    endpoint.onNotification(protocol.formAction, ({ action, field }) => this.records.formAction(action, field));
    endpoint.onNotification(protocol.newRecord, ({ listId }) => {
      const list = this.options.state.list();
      if (listId !== this.listId || !list) return;
      const outcome = newRecord(this.options.deps(), list.context);
      if (!outcome.ok) this.setStatus({ kind: 'error', text: this.said(outcome) });
    });
    endpoint.onNotification(protocol.deleteRecord, () => void this.records.delete());
    endpoint.onNotification(protocol.openFormLink, ({ field, item }) => {
      const context = this.options.state.snapshot().context ?? '';
      void this.openFromList(item ?? field, () => openFormLink(this.options.deps(), field, item), context);
    });
    endpoint.onNotification(protocol.save, () => void this.save());
    endpoint.onRequest(protocol.reviewRows, (params) => this.reviewWindow(params));
    endpoint.onNotification(protocol.reviewAction, ({ reviewId, action, key, field }) => {
      if (reviewId !== this.sentReview?.id) return;
      if (action === 'discard') this.options.state.closeReview();
      else this.options.state.reviewDecide(action === 'accept', key, field);
    });
    endpoint.onNotification(protocol.reviewEdit, ({ reviewId, key, field, value }) => {
      const review = this.options.state.review();
      if (!review || reviewId !== this.sentReview?.id) return;
      const checked = reviewEditValue(this.options.client.ast(), review, field, value);
      if (checked) this.options.state.reviewEdit(key, field, checked.value, checked.problem);
    });
    endpoint.onNotification(protocol.exportCsv, ({ listId, query }) => {
      if (listId === this.listId) void this.exportCsv(query);
    });
    endpoint.onRequest(protocol.rows, (params) => this.rows(params));
    endpoint.onRequest(protocol.refChoices, ({ field, search }) => refChoices(this.options.deps(), field, search));
    endpoint.onRequest(protocol.recordHistory, ({ key }) => this.records.history(key));
    endpoint.onNotification(protocol.undoSave, ({ entry }) => void this.records.undoFromHistory(entry));
    // The person's decision, from their own Board page: the agent's tools have no way to send it.
    endpoint.onNotification(protocol.decideApproval, ({ id, decision, hash }) => void this.approvals?.decide(id, decision, hash));
    return () => {
      if (this.endpoint === endpoint) this.disconnect('the Board was closed');
    };
  }

  /** The page was hidden or closed: it says ready again when it comes back. */
  hidden(reason = 'the Board was hidden'): void {
    this.ready = false;
    this.endpoint?.cancelPending(reason);
  }

  private disconnect(reason: string): void {
    this.endpoint?.cancelPending(reason);
    this.endpoint = undefined;
    this.ready = false;
  }

  private nextQuestion = 1;

  /**
   * Asks the person on the connected page itself (the browser Board, where no VS Code
   * notification exists): the clicked button's title, or undefined when the dialog was closed,
   * the question withdrawn (`signal`) or no page is connected.
   */
  async ask(question: Omit<protocol.Question, 'id'> & Pick<AskedQuestion, 'onWaiting'>, signal: AbortSignal): Promise<string | undefined> {
    const endpoint = this.endpoint;
    if (!this.ready || !endpoint || signal.aborted) return undefined;
    const id = this.nextQuestion++;
    const withdraw = () => endpoint.notify(protocol.withdrawQuestion, { id });
    signal.addEventListener('abort', withdraw, { once: true });
    const { onWaiting, ...asked } = question;
    // The open question shows how many wait behind it, live.
    const stopWaiting = onWaiting?.((waiting) => endpoint.notify(protocol.questionWaiting, { id, waiting }));
    try {
      // The page shows the question as the door lets it out; the answer is the caller's button title.
      const buttons = this.door.actions(asked.buttons);
      const shown = { ...asked, message: this.door.text(asked.message), buttons: buttons.shown };
      // The asker keeps its own time limit and withdraws the question then; this one only bounds a lost page.
      const { choice } = await endpoint.request(protocol.ask, { id, ...shown }, 24 * 60 * 60 * 1000);
      return buttons.original(choice);
    } catch {
      return undefined;
    } finally {
      stopWaiting?.();
      signal.removeEventListener('abort', withdraw);
    }
  }

  /** Shows the Board where it is shown (the tools' and the person's actions reveal it). */
  open(preserveFocus = false): void {
    this.options.surface.show(preserveFocus);
  }

  /** What the Board shows now, in one object (the in-host tests read it). */
  view(): BoardView {
    const { state, client } = this.options;
    return buildBoardView({
      ast: client.ast(), locale: this.options.locale(), snapshot: state.snapshot(), list: state.list(), listId: this.listId, listQuery: state.listQuery(), form: state.formValues(),
      mailFrom: this.mailFrom(), mailSending: this.mail.sending,
    });
  }

  /** Re-sends every part, e.g. after the locale or the backend changed. */
  render(): void {
    this.updateTitle();
    this.sendAll();
  }

  private send(parts: { locale?: boolean; list?: boolean; detail?: boolean; mail?: boolean; status?: boolean; history?: boolean; connection?: boolean; review?: boolean }): void {
    if (!this.ready || !this.endpoint) return;
    const { state, client } = this.options;
    const output = this.ui.log;
    const endpoint = this.endpoint;
    try {
      const ast = client.ast();
      const locale = this.options.locale();
      if (parts.locale) endpoint.notify(protocol.locale, { locale, texts: webviewTexts(locale), contexts: openableContexts(ast, locale), locales: ast.locales, app: appName(ast, locale) });
      if (parts.list) endpoint.notify(protocol.list, { list: listBlock({ ast, locale, list: state.list(), listId: this.listId, listQuery: state.listQuery() }) ?? null });
      if (parts.detail) endpoint.notify(protocol.detail, { detail: detailBlock({ ast, locale, snapshot: state.snapshot(), form: state.formValues() }) ?? null });
      if (parts.mail) endpoint.notify(protocol.mail, { mail: mailBlock({ snapshot: state.snapshot(), locale, from: this.mailFrom(), sending: this.mail.sending }) ?? null });
      if (parts.status) endpoint.notify(protocol.status, { status: this.door.status(this.status?.line ?? null) });
      if (parts.history) endpoint.notify(protocol.history, { history: this.history.view(ast, locale) });
      if (parts.connection) endpoint.notify(protocol.connection, { connection: this.connection });
      if (parts.review) this.sendReview(endpoint, ast, locale);
    } catch (error) {
      output.error(`updating the Board failed: ${errorText(error)}`);
    }
  }

  private sendAll(): void {
    this.sentReview = undefined;
    this.send({ locale: true, list: true, detail: true, mail: true, status: true, history: true, connection: true, review: true });
    this.live?.sendPresence();
    void this.approvals?.pageReady();
  }

  /** Whether the Board has an approval desk (the front end offers its list only then). */
  get hasApprovalDesk(): boolean {
    return this.approvals !== undefined;
  }

  /** How many approvals wait for the person's decision (0 without a desk). */
  get approvalsWaiting(): number {
    return this.approvals?.count ?? 0;
  }

  /** Told the number of approvals waiting whenever the list was read again; returns unsubscribe (never told without a desk). */
  onApprovalsWaiting(listener: (count: number) => void): () => void {
    return this.approvals?.onCount(listener) ?? (() => {});
  }

  /** Shows the Board with the list of pending approvals open (the status bar, the command); says so when none wait. */
  showApprovals(): void {
    if (!this.approvals?.count) {
      void this.ui.tell('info', this.ui.t('Nothing is waiting for your decision.'));
      return;
    }
    this.open(false);
    this.approvals.reveal();
  }

  /** A line for the person from outside the Board (the data source went away or came back). */
  announce(status: protocol.StatusLine | null): void {
    this.setStatus(status);
  }

  /** What the Board works on and whether it answers (from the connection watch). */
  setConnection(connection: protocol.ConnectionLine | null): void {
    this.connection = connection;
    this.send({ connection: true });
  }

  private setStatus(status: protocol.StatusLine | null): void {
    this.status = this.scoped(status);
    this.send({ status: true });
  }

  /**
   * The one rule of the status line: a line (an outcome, a failure, "Saving…", a notice) is about
   * the view shown when it was set — this record, this list, this review, the start page — and
   * leaves when the person sees another one (the record shown again after its save keeps it; a
   * decision on the desk is said where the person is then). Only "live updates are paused" stays.
   */
  private scoped(line: protocol.StatusLine | null): { readonly line: protocol.StatusLine; readonly about: string } | null {
    return line && { line, about: this.viewShown() };
  }

  /** What the Board shows, as a status line's scope: a record (or a new one's form), a list (each shown anew its own), a review, or nothing. */
  private viewShown(): string {
    const { state } = this.options;
    const { kind, context, detail } = state.snapshot();
    if (kind === 'detail' && detail) return `detail:${context ?? ''}:${detail.isNew ? '(new)' : String(detail.record.id)}`;
    if (kind === 'list') return `list:${this.listId}`;
    const review = state.review();
    if (kind === 'review' && review) {
      let number = this.reviewNumbers.get(review);
      if (number === undefined) this.reviewNumbers.set(review, number = ++this.reviewsNumbered);
      return `review:${number}`;
    }
    return 'start';
  }

  /** The view changed: a status line about another one leaves (while the feed is lost, that line stays); true when it did. */
  private statusLeft(): boolean {
    if (!this.status || this.status.about === this.viewShown()) return false;
    this.status = this.scoped(this.live?.pausedStatus() ?? null);
    return true;
  }

  private stateChanged(change: BoardChange): void {
    if (change === 'list') this.listId++;
    const statusLeft = this.statusLeft();
    this.updateTitle();
    this.live?.stateChanged();
    if (this.applyingWebviewEdit) return;
    // A tool showed something: the person should see it.
    const { surface } = this.options;
    if (!surface.isOpen() || (change !== 'form' && !surface.isVisible())) surface.show(true);
    if (!surface.isOpen()) return;
    if (change === 'list' || change === 'detail') {
      this.send({ list: true, detail: true, status: true, review: true });
      this.live?.sendPresence();
    } else if (change === 'review') this.send({ review: true, status: statusLeft });
    else if (change === 'form') this.send({ detail: true, status: statusLeft });
    else this.send({ mail: true, status: statusLeft });
  }

  private async rows({ listId, offset, limit, query }: protocol.RowsParams): Promise<protocol.RowsResult> {
    const { state, client } = this.options;
    const list = state.list();
    if (listId !== this.listId || !list) throw new Error('the list changed');
    const earlierSort = state.listQuery().sort?.field;
    const changed = !isDeepStrictEqual(state.listQuery(), query);
    state.setListQuery(query);
    // Kept on disk at once, so a reload brings the list back sorted and filtered as the person left it.
    if (changed) this.history.listQueryChanged();
    if (changed && query.sort && query.sort.field !== earlierSort) void this.warnCostlySort(list.context, query.sort.field, listId);
    // Windows of the sort or filter the person just left are not wanted any more (the page drops
    // their answers): those not yet read are not read, so the new one does not wait behind them.
    if (changed) {
      for (const earlier of this.windowReads) earlier.abort(new Error('the sort or filter changed'));
      this.windowReads.clear();
    }
    const read = new AbortController();
    this.windowReads.add(read);
    try {
      const window = await listWindow(this.board, offset, limit, query, read.signal);
      const context = appModel(client.ast(), this.options.locale()).context(list.context);
      if (!window || !context || listId !== this.listId) throw new Error('the list changed');
      this.live?.served(listId, offset, limit, query);
      return { listId, offset: window.offset, rows: gridRows(context.fields, window.records), total: window.total };
    } finally {
      this.windowReads.delete(read);
    }
  }

  /** The review part: the whole block when the review or its revision is new, else only the rows changed in place. */
  private sendReview(endpoint: MessageEndpoint, ast: ReturnType<XosClient['ast']>, locale: string): void {
    const review = this.options.state.review();
    if (!review) {
      if (this.sentReview) endpoint.notify(protocol.review, { review: null });
      this.sentReview = undefined;
      return;
    }
    const sent = this.sentReview;
    if (sent?.review === review && sent.revision === review.revision) {
      const rows = reviewRows(ast, locale, review, review.takeTouched());
      endpoint.notify(protocol.reviewState, { reviewId: sent.id, revision: review.revision, counts: review.tally(), canSave: reviewCanSave(review, review.asking), rows });
      return;
    }
    const id = sent?.review === review ? sent.id : ++this.reviewId;
    review.takeTouched();
    this.sentReview = { review, id, revision: review.revision };
    endpoint.notify(protocol.review, { review: reviewBlock({ ast, locale, review, reviewId: id, asking: review.asking }) });
  }

  private async reviewWindow({ reviewId, filter, offset, limit }: protocol.ReviewRowsParams): Promise<protocol.ReviewRowsResult> {
    const review = this.options.state.review();
    if (!review || reviewId !== this.sentReview?.id) throw new Error('the review changed');
    this.options.state.setReviewFilter(filter);
    const rows = review.inFilter(filter);
    const { client, locale } = this.options;
    return { reviewId, revision: review.revision, filter, offset, total: rows.length, rows: reviewRows(client.ast(), locale(), review, rows.slice(offset, offset + limit)) };
  }

  /** A sort no index serves on a large table: the person is told what it costs and which index would help. */
  private async warnCostlySort(context: string, field: string, listId: number): Promise<void> {
    const costly = await costlySort(this.options.deps(), context, field);
    if (!costly || listId !== this.listId) return;
    const locale = this.options.locale();
    const label = appModel(this.options.client.ast(), locale).context(context)?.fields.find((f) => f.field === field)?.label ?? field;
    const text = translator(locale)('Sorting by {0} reads all {1} rows for every window (no index serves it), so it may take seconds. An index would help: {2}',
      label, new Intl.NumberFormat(locale).format(costly.rows), costly.index);
    this.ui.log.warn(`sorting ${context} by ${field}: no index serves it on ${costly.rows} rows; ${costly.index}`);
    this.setStatus({ kind: 'info', text });
  }

  /** The tab says when the Board holds unsaved changes. */
  private updateTitle(): void {
    const { state, locale, surface } = this.options;
    const snapshot = state.snapshot();
    const dirty = hasUnsavedWork(snapshot);
    // The app's name too: two Boards (two apps) are told apart by their tabs.
    const title = boardTitle(boardTexts(locale()).title, appName(this.options.client.ast(), locale()));
    surface.setTitle(dirty ? `● ${title}` : title);
  }

  /** Applies the page's own edit to the state; the state's change is not echoed back to the page mid-typing. */
  private applyPageEdit(edit: () => void): void {
    this.applyingWebviewEdit = true;
    try {
      edit();
    } finally {
      this.applyingWebviewEdit = false;
    }
  }

  /** The configured sender, or null when mail is not set up. */
  private mailFrom(): string | null {
    return this.options.deps().mailer?.from ?? null;
  }

  /** Undo Send (the Board's button or the notification's) while the confirmed mail waits: it stays a draft. */
  undoSend(): void {
    this.mail.undoSend();
  }

  /** A confirmed mail waits out its window: a notification with Undo (the Board shows the same). */
  mailScheduledNotice(draft: MailDraft, sendAt: Date): void {
    this.mail.scheduledNotice(draft, sendAt);
  }

  /** The window ended: the mail went out, or why not. */
  mailSettled(outcome: MailOutcome): void {
    this.mail.settled(outcome);
  }

  /** An outcome in the Board's language, for its status line. */
  private said(outcome: BoardOutcome, wording: OutcomeWording = personText): string {
    const locale = this.options.locale();
    return wording(personWords(translator(locale), this.options.client.ast(), locale), outcome);
  }

  /** An outcome for the log: its kind and the person's words in English. */
  private logged(outcome: BoardOutcome): string {
    return `${outcome.kind}: ${personText(personWords(translator('en'), this.options.client.ast(), 'en'), outcome)}`;
  }

  /** An outcome in the front end's language, for a notification (as its other messages). */
  private told(outcome: BoardOutcome, wording: OutcomeWording = personText): string {
    return wording(personWords(this.ui.t, this.options.client.ast(), this.options.locale()), outcome);
  }

  /** A failed outcome becomes an error in the Board's words, so it takes the action's failure path. */
  private throwUnlessOk(outcome: BoardOutcome): void {
    if (!outcome.ok) throw new Error(this.said(outcome));
  }

  /** The person's form: the webview flushes their latest edits first; when hidden, the host state is current. */
  private async formData(): Promise<Record<string, unknown>> {
    const { state } = this.options;
    const output = this.ui.log;
    if (this.options.surface.isVisible() && this.ready && this.endpoint && state.snapshot().detail) {
      try {
        const edits = await this.endpoint.request(protocol.formData, {}, FORM_DATA_TIMEOUT_MS);
        const known = await state.formData();
        for (const [field, value] of Object.entries(edits ?? {})) {
          if (JSON.stringify(known[field]) !== JSON.stringify(value)) this.records.applyEdit(field, value);
        }
      } catch (error) {
        output.warn(`the Board did not send its form (${errorText(error)}); using the host state`);
      }
    }
    return state.formData();
  }

  /** Save on the form: the use case xos_ui_save runs, confirmation included. */
  async save(): Promise<void> {
    await this.records.save();
  }

  /**
   * Before the person leaves a form for another list or record (Back, Forward, a link, a list from
   * the start page or the palette): unsaved edits, proposals or open conflicts are only dropped
   * when they answer Discard Changes. The agent's tools are not asked: their approvals hold.
   */
  private async mayLeaveForm(): Promise<boolean> {
    const { state, client, locale } = this.options;
    const snapshot = state.snapshot();
    if (!hasUnsavedWork(snapshot)) return true;
    if (snapshot.kind === 'review') {
      const label = (snapshot.context && appModel(client.ast(), locale()).context(snapshot.context)?.label) ?? '';
      return this.ui.askDiscard(this.ui.t('Discard the unsaved changes to {0}?', label), this.ui.t('They are not saved yet. Save them first to keep them.'), this.ui.t('Discard Changes'));
    }
    if (!snapshot.detail) return true;
    // As the breadcrumb names a stored record ("Person Max"); a new one (not a step) by its context.
    const crumb = snapshot.detail.isNew ? undefined : this.history.view(client.ast(), locale()).crumbs.at(-1)?.label;
    const name = crumb ?? (snapshot.context && appModel(client.ast(), locale()).context(snapshot.context)?.label) ?? '';
    const discard = this.ui.t('Discard Changes');
    const question = this.ui.t('Discard the unsaved changes to {0}?', name);
    const detail = this.ui.t('They are not saved yet. Save them first to keep them.');
    // Asked like XOS's other questions: a notification, a modal dialog in production.
    return this.ui.askDiscard(question, detail, discard);
  }

  /** The "saved" notification of every stored save (the Board's or the agent's), with Undo. */
  savedNotice(saved: SavedRecord, outcome: Saved): void {
    this.records.savedNotice(saved, outcome);
  }

  /** The notification of a stored batch, with Undo of the whole batch. */
  batchSavedNotice(outcome: BatchSaved): void {
    this.records.batchSavedNotice(outcome);
  }

  /** Undo of a save: its old values go into the form against the version it produced; saving asks the person as always. */
  async undo(entry: AuditEntry): Promise<void> {
    await this.records.undo(entry);
  }

  /** "XOS: Undo Last Save": the newest save in the audit trail. */
  async undoLastSave(): Promise<void> {
    await this.records.undoLastSave();
  }

  /** Opens a list context for the person (start page, palette, XOS view): the agent's xos_query path. */
  async openContext(context: string): Promise<void> {
    const { locale } = this.options;
    if (!(await this.mayLeaveForm())) return;
    this.open(true);
    this.setStatus({ kind: 'busy', text: boardTexts(locale()).loading });
    await runAction(this.actionHost, async () => {
      this.throwUnlessOk(await openContext(this.options.deps(), context));
      this.ui.log.info(`Board opened ${context}`);
    }, {
      log: `opening ${context} failed`,
      status: (message) => boardTexts(locale()).openFailed(context, message),
      notice: ['XOS could not open {0}: {1}', context],
    });
  }

  /** A Board that shows nothing yet (a restored tab after a restart) shows where the person was. */
  async resume(): Promise<void> {
    if (this.resuming || this.options.state.snapshot().kind !== undefined || !this.history.hasCurrent) return;
    this.resuming = true;
    try {
      this.throwUnlessOk(await this.history.showCurrent(this.options.deps()));
    } catch (error) {
      // The start page stays; Back and Forward still lead to the other steps.
      this.ui.log.warn(`the Board could not show where it was: ${errorText(error)}`);
    } finally {
      this.resuming = false;
    }
  }

  /** Back or Forward: the list as it was, or the record loaded again. */
  async navigate(direction: 'back' | 'forward'): Promise<void> {
    const { locale } = this.options;
    const deps = this.options.deps();
    await runAction(this.actionHost, async () => {
      this.throwUnlessOk(await (direction === 'back' ? this.history.back(deps) : this.history.forward(deps)));
    }, {
      log: `going ${direction} failed`,
      status: (message) => {
        const texts = boardTexts(locale());
        return texts.openFailed(direction === 'back' ? texts.back : texts.forward, message);
      },
    });
  }

  /** Opens a row's detail or a ref's record; a failure is said on the Board and in a notification. */
  private async openFromList(key: string, open: () => Promise<ShowOutcome>, from?: string): Promise<void> {
    const { state, locale } = this.options;
    const context = from ?? state.list()?.context ?? '';
    if (!(await this.mayLeaveForm())) return;
    await runAction(this.actionHost, async () => {
      this.throwUnlessOk(await open());
    }, {
      log: `opening row ${key} of ${context} failed`,
      status: (message) => boardTexts(locale()).openFailed(`${context} ${key}`, message),
      notice: ['XOS could not open {0} {1}: {2}', context, key],
    });
  }

  /** Writes the shown list (with the person's sort and filter) to a CSV file the person picks. */
  async exportCsv(query: ListQuery = this.options.state.listQuery()): Promise<void> {
    await this.records.exportCsv(query);
  }

  dispose(): void {
    this.mail.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
