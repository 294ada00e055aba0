// The typed messages between the host and the Board webview. Both sides import
// these descriptors; only src/host/boardTransport.ts and webview/transport.ts
// touch the actual transport (postMessage). Every message the host receives is
// checked by its descriptor's guard; malformed and unknown ones are dropped.
//
// The Board is sent in parts: the locale and texts, the list (its columns, total and
// first rows), the detail form, the mail draft and a status line, each when it changes.
// List rows travel in windows the webview asks for as the person scrolls.
import type { HistoryView, ListQuery, OpenableContext, RefChoice } from '../core/domain.ts';
import type { ApprovalDecision, DecisionOutcome, PendingApprovalView } from './approvalDesk.ts';
import type { RecordHistoryView } from './recordHistory.ts';
import { REVIEW_FILTERS, type DetailBlock, type GridEditsBlock, type GridRow, type ListBlock, type MailBlock, type ReviewBlock, type ReviewCounts, type ReviewFilter, type PresenceView, type ReviewRow, type WebviewTexts } from './viewTypes.ts';

/** Checks a message's params; anything failing it is dropped. */
export type Guard<P> = (params: unknown) => params is P;

/** A one-way message. `P` is its payload type (phantom). */
export interface NotificationType<P> {
  readonly kind: 'notification';
  readonly method: string;
  readonly guard?: Guard<P>;
  readonly __params?: P;
}

/** A message that expects exactly one answer with the same id. */
export interface RequestType<P, R> {
  readonly kind: 'request';
  readonly method: string;
  readonly guard?: Guard<P>;
  readonly __params?: P;
  readonly __result?: R;
}

function notification<P>(method: string, guard?: Guard<P>): NotificationType<P> {
  return { kind: 'notification', method, guard };
}

function request<P, R>(method: string, guard?: Guard<P>): RequestType<P, R> {
  return { kind: 'request', method, guard };
}

export type FormValues = Record<string, unknown>;
export type MailField = 'to' | 'subject' | 'body';

// Hand-written guards: small, and the webview bundle stays free of a schema library.
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const MAX_TEXT = 1_000_000;
const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;

export function isListQuery(v: unknown): v is ListQuery {
  if (!isObject(v)) return false;
  const { sort, filter } = v;
  if (filter !== undefined && !isText(filter, 1_000)) return false;
  if (sort === undefined) return true;
  return isObject(sort) && isText(sort.field, 200) && (sort.direction === 'asc' || sort.direction === 'desc');
}

const isEmptyParams = (v: unknown): v is Record<string, never> => isObject(v);

// webview -> host
/** The webview is loaded and listens; the host answers with every part of the Board. */
export const ready = notification<Record<string, never>>('board/ready', isEmptyParams);
/** The person changed a form field (already converted to the field's value form). */
export const edit = notification<{ readonly field: string; readonly value: unknown }>('board/edit',
  (v): v is { field: string; value: unknown } => isObject(v) && isText(v.field, 200) && 'value' in v);
/** The person opened a list row (`navigate.row`), named by its key (the record id). */
export const openRow = notification<{ readonly listId: number; readonly key: string }>('board/openRow',
  (v): v is { listId: number; key: string } => isObject(v) && isCount(v.listId) && isText(v.key, 200));
/** The person opened the related record of a ref cell (the ref field of the row with this key). */
export const openRef = notification<{ readonly listId: number; readonly key: string; readonly field: string }>('board/openRef',
  (v): v is { listId: number; key: string; field: string } => isObject(v) && isCount(v.listId) && isText(v.key, 200) && isText(v.field, 200));
/** The person clicked Save on the form. */
export const save = notification<Record<string, never>>('board/save', isEmptyParams);
/** The person edited the mail draft. */
export const editMail = notification<{ readonly field: MailField; readonly value: string }>('board/editMail',
  (v): v is { field: MailField; value: string } => isObject(v) && (v.field === 'to' || v.field === 'subject' || v.field === 'body') && isText(v.value));
/** The person clicked Send (asked in VS Code like xos_mail_send), Discard, or Undo while a confirmed mail waits to go out. */
export type MailAction = 'send' | 'discard' | 'undo';
export const mailAction = notification<{ readonly action: MailAction }>('board/mailAction',
  (v): v is { action: MailAction } => isObject(v) && (v.action === 'send' || v.action === 'discard' || v.action === 'undo'));
/** The person opened a context from the Board's start page. */
export const openContext = notification<{ readonly context: string }>('board/openContext',
  (v): v is { context: string } => isObject(v) && isText(v.context, 200));
/** The person followed a link on the detail form: a ref (`field`), or one `item` (its key) of an inverse list. */
export const openFormLink = notification<{ readonly field: string; readonly item?: string }>('board/openFormLink',
  (v): v is { field: string; item?: string } => isObject(v) && isText(v.field, 200) && (v.item === undefined || isText(v.item, 200)));
export type FormAction = 'accept' | 'revert' | 'keepMine' | 'keepTheirs' | 'acceptAll' | 'revertAll' | 'discard';
const FORM_ACTIONS: readonly string[] = ['accept', 'revert', 'keepMine', 'keepTheirs', 'acceptAll', 'revertAll', 'discard'];
const FIELD_ACTIONS: readonly string[] = ['accept', 'revert', 'keepMine', 'keepTheirs'];
/** The person accepted or reverted a field (`field`), settled a conflicting one (mine or theirs), took or dropped all proposals, or discarded every unsaved change. */
export const formAction = notification<{ readonly action: FormAction; readonly field?: string }>('board/formAction',
  (v): v is { action: FormAction; field?: string } => isObject(v) && typeof v.action === 'string' && FORM_ACTIONS.includes(v.action)
    && (v.field === undefined || isText(v.field, 200)) && (FIELD_ACTIONS.includes(v.action) === (v.field !== undefined)));
/** The ref picker asks for records of the related entity whose name contains `search`. */
export const refChoices = request<{ readonly field: string; readonly search: string }, readonly RefChoice[]>('board/refChoices',
  (v): v is { field: string; search: string } => isObject(v) && isText(v.field, 200) && isText(v.search, 200));
/** The audit trail of the record the form shows (`key` as in the detail block); newest first. */
export const recordHistory = request<{ readonly key: string }, RecordHistoryView>('board/recordHistory',
  (v): v is { key: string } => isObject(v) && isText(v.key, 400));
/** The person asked to undo the save recorded as audit entry `entry` of the shown record. */
export const undoSave = notification<{ readonly entry: number }>('board/undoSave',
  (v): v is { entry: number } => isObject(v) && isCount(v.entry));
/** The person asked for an empty form to create a record of the shown list's entity. */
export const newRecord = notification<{ readonly listId: number }>('board/newRecord',
  (v): v is { listId: number } => isObject(v) && isCount(v.listId));
/** The person asked to delete the shown record (the host asks them to confirm). */
export const deleteRecord = notification<Record<string, never>>('board/deleteRecord', isEmptyParams);
/** The person chose another of the app's locales on the Board. */
export const setLocale = notification<{ readonly locale: string }>('board/setLocale',
  (v): v is { locale: string } => isObject(v) && isText(v.locale, 35) && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(v.locale));
/** The person clicked Back or Forward. */
export const navigate = notification<{ readonly direction: 'back' | 'forward' }>('board/navigate',
  (v): v is { direction: 'back' | 'forward' } => isObject(v) && (v.direction === 'back' || v.direction === 'forward'));
/** The person asked for the shown list as a CSV file (with their sort and filter). */
export const exportCsv = notification<{ readonly listId: number; readonly query: ListQuery }>('board/exportCsv',
  (v): v is { listId: number; query: ListQuery } => isObject(v) && isCount(v.listId) && isListQuery(v.query));

/**
 * The person decided a write the agent asked for (the approval `id` of the list the page was
 * sent, and the `hash` of the write that list showed: Approve writes only that). Only the
 * person's Board page sends it: the agent's tools have no way to.
 */
export const decideApproval = notification<{ readonly id: string; readonly decision: ApprovalDecision; readonly hash?: string }>('board/decideApproval',
  (v): v is { id: string; decision: ApprovalDecision; hash?: string } => isObject(v) && isText(v.id, 200) && v.id.length > 0 && (v.decision === 'approve' || v.decision === 'decline')
    && (v.hash === undefined || (isText(v.hash, 128) && v.hash.length > 0)));

export interface RowsParams {
  /** Which list (a new list gets a new id; answers for an old one are dropped). */
  readonly listId: number;
  readonly offset: number;
  readonly limit: number;
  /** The person's sort and filter; the host applies them where the rows live. */
  readonly query: ListQuery;
}

export interface RowsResult {
  readonly listId: number;
  readonly offset: number;
  readonly rows: readonly GridRow[];
  /** Rows matching the query (sort and filter included). */
  readonly total: number;
}

/** The most rows one window may ask for; the grid asks for far fewer. */
export const MAX_ROWS_PER_REQUEST = 5_000;

/** A window of the shown list. */
export const rows = request<RowsParams, RowsResult>('board/rows',
  (v): v is RowsParams => isObject(v) && isCount(v.listId) && isCount(v.offset) && isCount(v.limit) && v.limit <= MAX_ROWS_PER_REQUEST && isListQuery(v.query));

export interface ReviewRowsParams {
  readonly reviewId: number;
  /** The block's revision the page holds; an answer for another is dropped. */
  readonly revision: number;
  readonly filter: ReviewFilter;
  readonly offset: number;
  readonly limit: number;
}

export interface ReviewRowsResult {
  readonly reviewId: number;
  readonly revision: number;
  readonly filter: ReviewFilter;
  readonly offset: number;
  readonly rows: readonly ReviewRow[];
  /** Rows in the filter. */
  readonly total: number;
}

const isReviewFilter = (v: unknown): v is ReviewFilter => typeof v === 'string' && (REVIEW_FILTERS as readonly string[]).includes(v);

/** A window of the review's rows in a filter (the filter becomes the review's, so it is kept when the Board comes back). */
export const reviewRows = request<ReviewRowsParams, ReviewRowsResult>('board/reviewRows',
  (v): v is ReviewRowsParams => isObject(v) && isCount(v.reviewId) && isCount(v.revision) && isReviewFilter(v.filter)
    && isCount(v.offset) && isCount(v.limit) && v.limit <= MAX_ROWS_PER_REQUEST);

/**
 * The person accepts or rejects proposed changes: one cell (`key` and `field`), one row (`key`), or every row (neither);
 * or drops the whole review (`discard`; the list shows again).
 */
export type ReviewActionKind = 'accept' | 'reject' | 'discard';
export const reviewAction = notification<{ readonly reviewId: number; readonly action: ReviewActionKind; readonly key?: string; readonly field?: string }>('board/reviewAction',
  (v): v is { reviewId: number; action: ReviewActionKind; key?: string; field?: string } => isObject(v) && isCount(v.reviewId)
    && (v.action === 'accept' || v.action === 'reject' || v.action === 'discard')
    && (v.key === undefined || isText(v.key, 400)) && (v.field === undefined || (isText(v.field, 200) && v.key !== undefined)));

/** The person typed their own value into a proposed cell (converted to the field's value form, like a form edit). */
export const reviewEdit = notification<{ readonly reviewId: number; readonly key: string; readonly field: string; readonly value: unknown }>('board/reviewEdit',
  (v): v is { reviewId: number; key: string; field: string; value: unknown } => isObject(v) && isCount(v.reviewId) && isText(v.key, 400)
    && isText(v.field, 200) && 'value' in v);

// host -> webview
/** The Board's locale, its own texts and the contexts the person can open; sent first and when the locale or the app changes. */
export const locale = notification<{
  readonly locale: string; readonly texts: WebviewTexts; readonly contexts: readonly OpenableContext[]; readonly locales?: readonly string[];
  /** The app's name (src/ast/appName.ts): the start page's heading and the breadcrumb's root, which leads back to it. */
  readonly app?: string;
}>('board/locale');
/** The list (columns, total, first rows), or null when the Board shows none. */
export const list = notification<{ readonly list: ListBlock | null }>('board/list');
/**
 * Rows of the shown list changed (someone else wrote, or the feed came back): the windows the page
 * holds, read again with its sort and filter, and the new total. The page swaps these rows in place
 * and drops the others it cached (asked for again when scrolled to); its scroll position, active
 * row, sort and filter stay. An answer for another list or query is dropped.
 */
export const listRows = notification<{ readonly listId: number; readonly query: ListQuery; readonly total: number; readonly windows: readonly { readonly offset: number; readonly rows: readonly GridRow[] }[] }>('board/listRows');
/** Who else has the shown record open (`detail`: editing or just open) and which shown list rows others are editing (`rows`: key -> names). */
export const presence = notification<PresenceView>('board/presence');
/** The detail form, or null. */
export const detail = notification<{ readonly detail: DetailBlock | null }>('board/detail');
/** Where Back and Forward lead, and the breadcrumb. */
export const history = notification<{ readonly history: HistoryView }>('board/history');
/** The form as the person's typing left it, for the record `key`: what is wrong (field -> text), which fields they changed, whether anything is unsaved. */
export interface FormState {
  readonly key: string;
  readonly problems: Readonly<Record<string, string>>;
  readonly edited: readonly string[];
  readonly dirty: boolean;
}
export const formState = notification<FormState>('board/formState');
/** The mail draft, or null. */
export const mail = notification<{ readonly mail: MailBlock | null }>('board/mail');
/** The mail draft as the person's typing left it: what is wrong with the recipient, if anything. */
export const mailState = notification<{ readonly problem: string | null }>('board/mailState');

export interface StatusLine {
  readonly kind: 'info' | 'error' | 'busy';
  readonly text: string;
}

/** The review of many proposed changes, or null when none is open (the list or form shows instead). */
export const review = notification<{ readonly review: ReviewBlock | null }>('board/review');
/**
 * Rows of the open review changed in place (an accept, reject or edit): the page swaps them by key and
 * takes the new counts. Rows entering or leaving a filter come as a new `review` block instead.
 */
export const reviewState = notification<{ readonly reviewId: number; readonly revision: number; readonly counts: ReviewCounts; readonly canSave: boolean; readonly rows: readonly ReviewRow[] }>('board/reviewState');

/** What the Board works on: the app, the data source and whether it answers; production data gets a banner. */
export interface ConnectionLine {
  readonly app: string;
  /** `sqlite`, `postgres`, or another kind the data source names. */
  readonly kind: string;
  /** Through an XOS server (xos.endpoint) rather than the embedded backend. */
  readonly remote: boolean;
  readonly reachable: boolean;
  readonly latencyMs: number | null;
  readonly production: boolean;
}

export const connection = notification<{ readonly connection: ConnectionLine | null }>('board/connection');

/** A line for the person: a save in progress, its outcome, a row that could not be opened. */
export const status = notification<{ readonly status: StatusLine | null }>('board/status');
/** The person's current form values (the fields they edited), flushed from the webview. */
export const formData = request<Record<string, never>, FormValues>('board/formData');

/**
 * A question for the person on the Board page itself (the browser Board of xos-mcp, where no
 * VS Code notification exists): save, delete or send, or whether to drop unsaved work.
 */
export interface Question {
  readonly id: number;
  readonly kind: 'save' | 'delete' | 'send' | 'discard';
  readonly message: string;
  /** The buttons' titles; the first one acts (Save, Delete, Send, Discard Changes). It is inert for 0.7 s whenever the question appears or changes. */
  readonly buttons: readonly string[];
  /** How many more questions wait for their turn behind this one (the page shows "1 more question waiting"). */
  readonly waiting?: number;
}
/** Asks the person; the answer is the clicked button's title, or null when the dialog was closed. */
export const ask = request<Question, { readonly choice: string | null }>('board/ask');
/** The question is void (timed out, the Board changed, answered elsewhere): the page closes it. */
export const withdrawQuestion = notification<{ readonly id: number }>('board/withdrawQuestion');
/** How many questions wait behind the open one changed (a newer question came, or one waiting left). */
export const questionWaiting = notification<{ readonly id: number; readonly waiting: number }>('board/questionWaiting');

/** A pending approval as the page shows it: the desk's view (its texts through the person's door), and whether its decision is under way. */
export interface ApprovalItem extends PendingApprovalView {
  readonly deciding: boolean;
}
/** The writes waiting for the person's decision, oldest first; sent when the page says ready and whenever the list may have changed. */
export const approvals = notification<{ readonly approvals: readonly ApprovalItem[] }>('board/approvals');
/** The decision of approval `id` came to an end (`outcome`; the status line says it in words): its buttons act again if it is still listed. */
export const approvalDecided = notification<{ readonly id: string; readonly outcome: DecisionOutcome['kind'] }>('board/approvalDecided');
/** The person asked to see the pending approvals (the status bar, the command): the page opens the list and moves focus to it. */
export const revealApprovals = notification<Record<string, never>>('board/revealApprovals');

/** The person's value for a cell of the list grid (`key`: the row's record id), in the field's value form. */
export const gridEdit = notification<{ readonly listId: number; readonly key: string; readonly field: string; readonly value: unknown }>('board/gridEdit',
  (v): v is { listId: number; key: string; field: string; value: unknown } => isObject(v) && isCount(v.listId) && isText(v.key, 200) && isText(v.field, 200) && 'value' in v);
export type GridEditsAction = 'save' | 'discard';
/** Save (one question, one transaction) or discard the list grid's edits. */
export const gridEditsAction = notification<{ readonly listId: number; readonly action: GridEditsAction }>('board/gridEditsAction',
  (v): v is { listId: number; action: GridEditsAction } => isObject(v) && isCount(v.listId) && (v.action === 'save' || v.action === 'discard'));
/** The list grid's edits as the host holds them (after each edit, and null when there are none). */
export const gridEdits = notification<{ readonly gridEdits: GridEditsBlock | null }>('board/gridEdits');

/** What travels over postMessage. */
export type WireMessage =
  | { readonly method: string; readonly params: unknown }
  | { readonly id: number; readonly method: string; readonly params: unknown }
  | { readonly id: number; readonly result: unknown }
  | { readonly id: number; readonly error: string };

interface Handler {
  readonly guard?: (params: unknown) => boolean;
  readonly run: (params: unknown) => unknown;
}

/**
 * One side of the conversation: sends notifications and requests, dispatches what
 * arrives. The transport modules feed `receive` and give it `post`.
 */
export class MessageEndpoint {
  private readonly post: (message: WireMessage) => void;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> }>();
  private readonly notificationHandlers = new Map<string, Handler>();
  private readonly requestHandlers = new Map<string, Handler>();
  /** Called with each message that was dropped (malformed params or unknown method). */
  onDropped: ((method: string) => void) | undefined;

  constructor(post: (message: WireMessage) => void) {
    this.post = post;
  }

  notify<P>(type: NotificationType<P>, params: P): void {
    this.post({ method: type.method, params });
  }

  request<P, R>(type: RequestType<P, R>, params: P, timeoutMs: number): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${type.method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.post({ id, method: type.method, params });
    });
  }

  onNotification<P>(type: NotificationType<P>, handler: (params: P) => void): void {
    this.notificationHandlers.set(type.method, { guard: type.guard, run: handler as (params: unknown) => void });
  }

  onRequest<P, R>(type: RequestType<P, R>, handler: (params: P) => R | Promise<R>): void {
    this.requestHandlers.set(type.method, { guard: type.guard, run: handler as (params: unknown) => unknown });
  }

  /** Rejects every open request (the other side went away). */
  cancelPending(reason: string): void {
    for (const [id, open] of this.pending) {
      clearTimeout(open.timer);
      open.reject(new Error(reason));
      this.pending.delete(id);
    }
  }

  /** Dispatches one incoming message; unknown and malformed ones are dropped. */
  receive(message: unknown): void {
    if (message === null || typeof message !== 'object') return;
    const m = message as Record<string, unknown>;
    if (typeof m.id === 'number' && typeof m.method !== 'string') {
      const open = this.pending.get(m.id);
      if (!open) return;
      this.pending.delete(m.id);
      clearTimeout(open.timer);
      if (typeof m.error === 'string') open.reject(new Error(m.error));
      else open.resolve(m.result);
      return;
    }
    if (typeof m.method !== 'string') return;
    if (typeof m.id === 'number') {
      const id = m.id;
      const handler = this.requestHandlers.get(m.method);
      if (!handler) {
        this.onDropped?.(m.method);
        this.post({ id, error: `no handler for ${m.method}` });
        return;
      }
      if (handler.guard && !handler.guard(m.params)) {
        this.onDropped?.(m.method);
        this.post({ id, error: `malformed ${m.method}` });
        return;
      }
      Promise.resolve()
        .then(() => handler.run(m.params))
        .then((result) => this.post({ id, result }), (error: unknown) => this.post({ id, error: error instanceof Error ? error.message : String(error) }));
      return;
    }
    const handler = this.notificationHandlers.get(m.method);
    if (!handler || (handler.guard && !handler.guard(m.params))) {
      this.onDropped?.(m.method);
      return;
    }
    handler.run(m.params);
  }
}
