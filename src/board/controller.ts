// The Board's host side, whatever shows it: the state lives here (BoardState), so a surface
// (VS Code's webview panel, a browser page of xos-mcp) can be discarded when hidden and gets
// every part again when it says ready. This file is wiring: the ports come in (BoardSurface,
// BoardUi in ports.ts), the controller implements the one host every part uses (boardHost.ts),
// and each part registers its own messages from the page and sends its own part of it:
// records (recordActions.ts), the mail draft (mailActions.ts), the list (listPart.ts), the
// review (reviewPart.ts), navigation (navigationPart.ts), the approval desk (approvalsPart.ts)
// and live updates (liveBoard.ts). Every action that fails is logged, put on the status line
// (statusScope.ts) and told the person by runAction (runAction.ts).
import { hasUnsavedWork } from '../core/base.ts';
import { BoardHistory } from '../core/history.ts';
import { openableContexts } from '../core/openContext.ts';
import { appName } from '../ast/appName.ts';
import { boardTitle } from '../text/boardTitle.ts';
import type { Board, BoardChange, XosClient } from '../core/domain.ts';
import type { BoardOutcome } from '../core/outcomes.ts';
import type { ApprovalDesk } from './approvalDesk.ts';
import { ApprovalsPart } from './approvalsPart.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import { ListPart } from './listPart.ts';
import { LiveBoard } from './liveBoard.ts';
import { MailActions } from './mailActions.ts';
import { NavigationPart } from './navigationPart.ts';
import { PageQuestions } from './pageQuestions.ts';
import { personText, personWords } from './outcomeText.ts';
import { personDoor, personFacing, type PersonDoor } from './personFacing.ts';
import type { BoardSurface, BoardUi } from './ports.ts';
import * as protocol from './protocol.ts';
import type { MessageEndpoint } from './protocol.ts';
import { RecordActions } from './recordActions.ts';
import { ReviewPart } from './reviewPart.ts';
import { errorText, type BoardDeps, type OutcomeWording } from './runAction.ts';
import { toolsBoard, type BoardState } from './state.ts';
import { StatusScope } from './statusScope.ts';
import { boardTexts, translator } from './texts.ts';
import { buildBoardView, detailBlock, listBlock, mailBlock, webviewTexts, type BoardView } from './view.ts';

export type { BoardSurface, BoardUi, CsvExport, MessageKind } from './ports.ts';

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

/** The parts of the page the controller itself sends (the others send their own). */
type OwnParts = { locale?: boolean; list?: boolean; detail?: boolean; mail?: boolean; status?: boolean; history?: boolean; connection?: boolean };

export class BoardController implements BoardHost {
  private readonly options: BoardControllerOptions;
  /** The front end's port behind the door: every message, question and detail is sanitised (personFacing.ts). */
  readonly ui: BoardUi;
  /** The same door for what the page itself shows the person: the status line and its questions. */
  readonly door: PersonDoor;
  readonly state: BoardState;
  /** The Board the tools use: the host state, with form data flushed from the page. */
  readonly board: Board;
  /** Back, Forward and the breadcrumb over everything the Board showed. */
  readonly history: BoardHistory;
  /** Save, delete, undo, history, CSV export, form edits. */
  readonly records: RecordActions;
  /** Send, Undo Send, discard, the mail notices, draft edits. */
  readonly mail: MailActions;
  /** Lists, rows, refs and links, Back and Forward, where the Board was. */
  readonly navigation: NavigationPart;
  /** The pending approvals and the person's decisions of them; absent without a desk. */
  readonly approvals: ApprovalsPart | undefined;
  /** Questions asked on the page itself (the browser Board, where VS Code's notifications do not reach). */
  readonly questions: PageQuestions;
  private readonly list: ListPart;
  private readonly review: ReviewPart;
  /** What others write and who else is on a record, from the client's change feed; absent without a feed. */
  private readonly live: LiveBoard | undefined;
  private readonly parts: BoardPart[];
  private readonly status: StatusScope;
  private endpoint: MessageEndpoint | undefined;
  private ready = false;
  /** A new list gets a new id, so windows of an old one are not mixed in. */
  private currentListId = 0;
  private connection: protocol.ConnectionLine | null = null;
  /** Set while the host applies the page's own edit, so it is not echoed back mid-typing. */
  private applyingWebviewEdit = false;
  private readonly disposables: Array<{ dispose(): void }> = [];

  constructor(options: BoardControllerOptions) {
    this.options = options;
    this.ui = personFacing(options.ui);
    this.door = personDoor(options.ui.t);
    const { state } = options;
    this.state = state;
    this.status = new StatusScope(state, () => this.currentListId);
    this.board = toolsBoard(state, { formData: () => this.records.formData(options.surface.isVisible()), othersEditing: (entity, id) => this.live?.othersEditing(entity, id) ?? [] });
    this.history = new BoardHistory(state);
    this.records = new RecordActions(this);
    this.mail = new MailActions(this);
    this.navigation = new NavigationPart(this);
    this.review = new ReviewPart(this);
    this.live = options.client.feed && new LiveBoard(options.client.feed, this);
    this.list = new ListPart(this, (...window) => this.live?.served(...window));
    this.approvals = options.approvals && new ApprovalsPart(options.approvals, this);
    this.questions = new PageQuestions(this);
    this.parts = [this.questions, this.records, this.mail, this.navigation, this.list, this.review, ...(this.live ? [this.live] : []), ...(this.approvals ? [this.approvals] : [])];
    this.disposables.push(state.onChange((change) => this.stateChanged(change)), this.history, this.history.onChange(() => this.send({ history: true })));
    // A Board that shows a record already (restored) tells the others at once.
    this.live?.stateChanged();
  }

  // BoardHost: what the parts use.
  deps(): BoardDeps { return this.options.deps(); }
  locale(): string { return this.options.locale(); }
  ast(): ReturnType<XosClient['ast']> { return this.options.client.ast(); }
  listId(): number { return this.currentListId; }
  pageConnected(): boolean { return this.connected; }
  open(preserveFocus = false): void { this.options.surface.show(preserveFocus); }
  navigate(direction: 'back' | 'forward'): Promise<void> { return this.navigation.navigate(direction); }

  notifyPage<P>(type: protocol.NotificationType<P>, params: P): void {
    if (this.connected) this.endpoint?.notify(type, params);
  }

  async requestPage<P, R>(type: protocol.RequestType<P, R>, params: P, timeoutMs: number): Promise<R> {
    if (!this.connected || !this.endpoint) throw new Error('no Board page is connected');
    return this.endpoint.request(type, params, timeoutMs);
  }

  /** Also a line for the person from outside the Board (the data source went away or came back). */
  setStatus(status: protocol.StatusLine | null, withMail = false): void {
    this.status.set(status);
    this.send({ status: true, mail: withMail });
  }

  applyPageEdit(edit: () => void): void {
    this.applyingWebviewEdit = true;
    try {
      edit();
    } finally {
      this.applyingWebviewEdit = false;
    }
  }

  said(outcome: BoardOutcome, wording: OutcomeWording = personText): string {
    const locale = this.locale();
    return wording(personWords(translator(locale), this.ast(), locale), outcome);
  }

  logged(outcome: BoardOutcome): string {
    return `${outcome.kind}: ${personText(personWords(translator('en'), this.ast(), 'en'), outcome)}`;
  }

  told(outcome: BoardOutcome, wording: OutcomeWording = personText): string {
    return wording(personWords(this.ui.t, this.ast(), this.locale()), outcome);
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
    this.disconnect('another Board page took over');
    this.endpoint = endpoint;
    this.ready = false;
    endpoint.onDropped = (method) => this.ui.log.warn(`the Board sent a malformed or unknown message (${method}); dropped`);
    endpoint.onNotification(protocol.ready, () => {
      if (this.endpoint !== endpoint) return;
      this.ready = true;
      this.render();
    });
    endpoint.onNotification(protocol.setLocale, ({ locale }) => {
      // The front end's setting is the one place the Board's locale lives; its change re-renders the Board.
      if (this.ast().locales.includes(locale)) this.ui.setLocale(locale);
    });
    for (const part of this.parts) part.register?.(endpoint);
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

  /** What the Board shows now, in one object (the in-host tests read it). */
  view(): BoardView {
    const { state } = this;
    return buildBoardView({
      ast: this.ast(), locale: this.locale(), snapshot: state.snapshot(), list: state.list(), listId: this.currentListId, listQuery: state.listQuery(), form: state.formValues(),
      mailFrom: this.mailFrom(), mailSending: this.mail.sending,
    });
  }

  /** Re-sends every part, e.g. after the page said ready or the locale or the backend changed. */
  render(): void {
    this.updateTitle();
    this.send({ locale: true, list: true, detail: true, mail: true, status: true, history: true, connection: true });
    for (const part of this.parts) this.guarded(() => part.pageReady?.());
  }

  private send(parts: OwnParts): void {
    const endpoint = this.endpoint;
    if (!this.ready || !endpoint) return;
    this.guarded(() => {
      const { state } = this;
      const ast = this.ast();
      const locale = this.locale();
      if (parts.locale) endpoint.notify(protocol.locale, { locale, texts: webviewTexts(locale), contexts: openableContexts(ast, locale), locales: ast.locales, app: appName(ast, locale) });
      if (parts.list) endpoint.notify(protocol.list, { list: listBlock({ ast, locale, list: state.list(), listId: this.currentListId, listQuery: state.listQuery() }) ?? null });
      if (parts.detail) endpoint.notify(protocol.detail, { detail: detailBlock({ ast, locale, snapshot: state.snapshot(), form: state.formValues() }) ?? null });
      if (parts.mail) endpoint.notify(protocol.mail, { mail: mailBlock({ snapshot: state.snapshot(), locale, from: this.mailFrom(), sending: this.mail.sending }) ?? null });
      if (parts.status) endpoint.notify(protocol.status, { status: this.door.status(this.status.line) });
      if (parts.history) endpoint.notify(protocol.history, { history: this.history.view(ast, locale) });
      if (parts.connection) endpoint.notify(protocol.connection, { connection: this.connection });
    });
  }

  /** Updating the page never throws into an action: a failure is logged. */
  private guarded(update: () => void): void {
    try {
      update();
    } catch (error) {
      this.ui.log.error(`updating the Board failed: ${errorText(error)}`);
    }
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

  /** What the Board works on and whether it answers (from the connection watch). */
  setConnection(connection: protocol.ConnectionLine | null): void {
    this.connection = connection;
    this.send({ connection: true });
  }

  private stateChanged(change: BoardChange): void {
    if (change === 'list') this.currentListId++;
    // A line about another view leaves; while the feed is lost, that line stays.
    const statusLeft = this.status.left(this.live?.pausedStatus() ?? null);
    this.updateTitle();
    this.live?.stateChanged();
    if (this.applyingWebviewEdit) return;
    // A tool showed something: the person should see it.
    const { surface } = this.options;
    if (!surface.isOpen() || (change !== 'form' && !surface.isVisible())) surface.show(true);
    if (!surface.isOpen()) return;
    if (change === 'list' || change === 'detail') {
      this.send({ list: true, detail: true, status: true });
      this.review.send();
      this.records.sendGridEdits();
      this.live?.sendPresence();
    } else if (change === 'review') {
      this.send({ status: statusLeft });
      this.review.send();
      this.records.sendGridEdits();
    } else if (change === 'gridEdits') this.records.sendGridEdits();
    else this.send({ [change === 'form' ? 'detail' : 'mail']: true, status: statusLeft });
  }

  /** The tab says when the Board holds unsaved changes, and the app's name: two Boards (two apps) are told apart by their tabs. */
  private updateTitle(): void {
    const title = boardTitle(boardTexts(this.locale()).title, appName(this.ast(), this.locale()));
    this.options.surface.setTitle(hasUnsavedWork(this.state.snapshot()) ? `● ${title}` : title);
  }

  /** The configured sender, or null when mail is not set up. */
  private mailFrom(): string | null {
    return this.deps().mailer?.from ?? null;
  }

  dispose(): void {
    for (const part of this.parts) part.dispose?.();
    for (const d of this.disposables) d.dispose();
  }
}
