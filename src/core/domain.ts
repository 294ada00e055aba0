// The domain types XOS works with, whoever drives it (the MCP tools, the Board,
// commands): the Board port, records, lists, the person's confirmations and what
// the Board shows. The backend client, mail and contacts bring their own types
// (src/graphql/types.ts, src/mail/types.ts, src/contacts/types.ts); they are named
// here too, so the floors above find the whole vocabulary in one place.
// Types only, browser-safe. No MCP, no VS Code.
import type { MailDraft } from '../mail/types.ts';
import type { CurrentRecord, Review, ReviewSource } from './review.ts';

export type { DsnStatus, GraphQLErrorShape, GraphQLResult, XosClient } from '../graphql/types.ts';
export type { MailDraft, Mailer } from '../mail/types.ts';
export type { Contact, ContactFailure, ContactSearch, Contacts } from '../contacts/types.ts';

import type { BoardRecord } from './boardRecord.ts';
export type { BoardRecord };

/** A sort the person chose in the grid: one column, one direction. */
export interface ListSort {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/** The person's view over a list: sort and quick filter (applied where the rows live). */
export interface ListQuery {
  readonly sort?: ListSort;
  /** Text the quick filter matches in the shown columns; empty means no filter. */
  readonly filter?: string;
}

/** One window of a list: records keyed by id in list order, and how many rows match. */
export interface ListWindow {
  readonly offset: number;
  readonly records: readonly BoardRecord[];
  readonly total: number;
}

/**
 * Where a list's rows live: the backend behind the agent's query, or the records an
 * xos_render call brought. Served in windows so no side holds a million rows.
 */
export interface ListSource {
  /** Rows matching the source's query before any of the person's sort or filter. */
  readonly total: number;
  /** The first window, fetched with the query (what paints first). */
  readonly first: ListWindow;
  /** `signal`: the Board moved on (another sort or filter); a window not yet read is not read. */
  window(offset: number, limit: number, query: ListQuery, signal?: AbortSignal): Promise<ListWindow>;
  /** A record seen in a served window, by key (the record id). */
  recordByKey(key: string): BoardRecord | undefined;
  /** The same query run again (Back to a list shows what is stored now); absent for fixed results. */
  reopen?(): Promise<ListSource>;
  /** The query as plain data, so the list can be opened again after a restart; absent for fixed results. */
  readonly origin?: ListOrigin;
  /** Rows were written meanwhile: counts and known row positions are forgotten, the next windows read what is stored now. Absent for fixed results. */
  refresh?(): void;
}

/** A list context's query as the agent (or the person's Open Context) gave it. */
export interface ListOrigin {
  /** The root field's selection set as GraphQL text. */
  readonly selection: string;
  readonly where?: unknown;
  readonly orderBy?: unknown;
}

/** A list on the Board: its context and where its rows come from (windows, never all at once). */
export interface ListView {
  readonly context: string;
  readonly source: ListSource;
}

export interface DetailView {
  readonly context: string;
  /** A record being created: the form starts empty and saving inserts it. */
  readonly isNew?: boolean;
  readonly record: BoardRecord;
  /** The stored version; absent for rendered data that did not come from the backend. */
  readonly version?: number;
  /** Someone else deleted the record meanwhile (the change feed said so): nothing can be saved. */
  readonly deleted?: boolean;
}

/** `gridEdits`: the person's edits of the shown list's cells (gridEdits.ts). */
export type BoardChange = 'list' | 'detail' | 'form' | 'mail' | 'review' | 'gridEdits';

/** What the Board currently shows, as the tools need to know it. */
export interface BoardSnapshot {
  readonly context: string | undefined;
  /** `review`: many proposed changes of the list context `context` wait for the person's review (batch.ts). */
  readonly kind: 'list' | 'detail' | 'mail' | 'review' | undefined;
  /** The loaded detail record (present only for detail views). */
  readonly detail: DetailView | undefined;
  /** Pending preview changes proposed by the agent: field -> new value. */
  readonly pending: Readonly<Record<string, unknown>>;
  /** Fields the person changed on the form (their own edits, and proposals they accepted). */
  readonly edited?: readonly string[];
  /**
   * After a save met a newer version: per field that both the form and someone else changed,
   * the value as loaded (`base`) and as stored now (`theirs`); the form holds mine. Empty when none.
   */
  readonly conflicts?: Readonly<Record<string, { readonly base: unknown; readonly theirs: unknown }>>;
  readonly mail: MailDraft | undefined;
  /** When the confirmed mail draft goes out (ISO), while it waits out its undo window. */
  readonly mailSendAt?: string;
  /** Cells of the shown list the person changed in the grid and has not saved (absent when none). */
  readonly gridEdits?: number;
}

export interface Board {
  /** `query`: the person's sort and filter to keep (a list shown again). */
  showList(view: ListView, query?: ListQuery): void;
  /** The list shown now (undefined when the Board shows a detail or nothing). */
  list(): ListView | undefined;
  /** The person's sort and filter of the list shown now (empty when none). */
  listQuery(): ListQuery;
  showDetail(view: DetailView): void;
  /** An empty form of a detail context that creates a record when saved. */
  showNew(context: string): void;
  showMail(draft: MailDraft): void;
  /** Removes the mail draft (after it was sent). */
  clearMail(): void;
  /** Which draft is shown (the same object while only the person edits it; undefined without one). */
  mailSource(): object | undefined;
  /** The confirmed draft waits until `sendAt` (ISO) with Undo; undefined: it no longer waits. */
  scheduleMail(sendAt: string | undefined): void;
  /** Merges agent changes into the form as a preview; nothing is saved. */
  preview(changes: Readonly<Record<string, unknown>>): void;
  /** The person's own value for a field of the form (typed, or an undo they asked for); nothing is saved. */
  edit(field: string, value: unknown): void;
  /**
   * A save met a newer version: the stored record replaces the loaded one, every unsaved edit and
   * proposal stays, and the fields both sides changed become conflicts (returned) for the person to settle.
   */
  conflict(current: DetailView): string[];
  /** The person's current form values of the detail view (their own edits included). */
  formData(): Promise<Record<string, unknown>>;
  /** Shows many proposed changes of a list context for review, in place of what the Board showed; nothing is saved. */
  showReview(source: ReviewSource): void;
  /** The review the Board shows, if any. Read it; change it only through the Board (its listeners hear of it). */
  review(): Review | undefined;
  /** A batch save met newer versions (or gone records): those rows show what is stored now and wait for the person. */
  reviewConflicts(current: readonly CurrentRecord[]): void;
  /** Closes the review (discarded): the list it came from shows again, or nothing. */
  closeReview(): void;
  /** The person's edits of the shown list's cells, a review of their own not shown yet (gridEdits.ts); undefined when none. */
  gridEdits(): Review | undefined;
  /** Starts the person's edits of the shown list's cells (nothing without a list). Change it only through the Board. */
  startGridEdits(source: ReviewSource): Review | undefined;
  /** The grid edits changed (a cell edited or cleared): the listeners hear of it; none left ends them. */
  gridEdited(): void;
  /** Drops the grid edits (the person discarded them). */
  discardGridEdits(): void;
  /** Shows the grid edits as the Board's review (to be saved as one); returns it, or undefined when there are none. */
  reviewGridEdits(): Review | undefined;
  snapshot(): BoardSnapshot;
  onChange(listener: (change: BoardChange) => void): { dispose(): void };
  /** Who else is editing this record now (the change feed's presence); absent where no feed tells. */
  othersEditing?(entity: string, id: string): readonly string[];
}

export interface SaveSummary {
  readonly entity: string;
  readonly id: string;
  /** `create`: a new record with these values (`from` is null); otherwise changes of a stored one. */
  readonly action?: 'update' | 'create';
  /** The stored record's name (its entity's display template), which the question names it by beside its id. */
  readonly name?: string;
  /** fromText/toText: the related record's name for a ref, shown as "Acme (#3)" in the question. */
  readonly changes: ReadonlyArray<{ readonly field: string; readonly label: string; readonly from: unknown; readonly to: unknown; readonly fromText?: string; readonly toText?: string }>;
  /** Many records at once (a reviewed batch): what the question names instead of one record's changes. */
  readonly batch?: BatchSummary;
  /** Others editing the same record right now (the change feed's presence), named in the question. */
  readonly othersEditing?: readonly string[];
}

/** A batch save as the person is asked about it: counts, a summary per field, the first rows. */
export interface BatchSummary {
  readonly records: number;
  readonly cells: number;
  readonly fields: ReadonlyArray<{
    readonly field: string;
    readonly label: string;
    /** Numbers: the smallest and largest change and their total (decimal texts, signed). */
    readonly numeric?: { readonly min: string; readonly max: string; readonly total: string };
    /** Other fields: the distinct new values with how many records get each, most first. */
    readonly values?: ReadonlyArray<{ readonly value: unknown; readonly count: number }>;
    /** Distinct values not listed. */
    readonly moreValues?: number;
  }>;
  /** The first records' changes, in the review's order. */
  readonly first: ReadonlyArray<{ readonly id: string; readonly changes: ReadonlyArray<{ readonly label: string; readonly from: unknown; readonly to: unknown }> }>;
  /** An undo of an earlier batch. */
  readonly undo?: boolean;
  /** Records changed or deleted since (an undo's), left out of this write: they stay as they are. */
  readonly changedSince?: number;
}

export type SaveAnswer = 'save' | 'discard' | 'timeout';
export type SendAnswer = 'send' | 'cancel' | 'timeout';

/** Asks the person; the signal aborts the question (the answer is then void anyway). */
export interface Confirmer {
  confirmSave(summary: SaveSummary, signal: AbortSignal): Promise<SaveAnswer>;
  confirmSend(draft: MailDraft, signal: AbortSignal): Promise<SendAnswer>;
  /** Asks before a record is deleted; a front end without it cannot delete. */
  confirmDelete?(summary: DeleteSummary, signal: AbortSignal): Promise<DeleteAnswer>;
  /** Why nobody can be asked now, naming where the person confirms (no Board page open); undefined when someone can. */
  unavailable?(): string | undefined;
}

export interface DeleteSummary {
  readonly entity: string;
  readonly id: string;
  /** The record's name (its entity's display template), if it has one. */
  readonly name?: string;
}

export type DeleteAnswer = 'delete' | 'cancel' | 'timeout';

// ---- what the Board shows besides records (plain data the webview receives) ----------------

/** One entry of the breadcrumb, oldest first. */
export interface Crumb {
  readonly label: string;
  readonly current: boolean;
}

/** The Board's Back and Forward as the webview shows them (src/core/history.ts). */
export interface HistoryView {
  readonly canBack: boolean;
  readonly canForward: boolean;
  /** The steps up to and including the current one (at most five, the newest). */
  readonly crumbs: readonly Crumb[];
}

/** A context the person can open by itself: a list (a detail needs a record) (src/core/openContext.ts). */
export interface OpenableContext {
  readonly name: string;
  readonly label: string;
  /** The entity's label, to tell contexts apart that share a label. */
  readonly entityLabel: string;
}

/** A record the ref picker offers (src/core/refChoices.ts). */
export interface RefChoice {
  readonly id: string;
  readonly label: string;
}
