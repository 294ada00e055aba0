// The domain types XOS works with, whoever drives it (the MCP tools, the Board,
// commands): the backend client, the Board port, records, mail, contacts and the
// person's confirmations. No MCP, no VS Code.
import type { AuditMeta } from '../backend/storage/audit.ts';
import type { Ast } from '../ast/schema.ts';

export interface GraphQLErrorShape {
  readonly message: string;
  readonly extensions?: Record<string, unknown>;
}

export interface GraphQLResult {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly GraphQLErrorShape[];
}

export interface DsnStatus {
  readonly kind: string;
  readonly description: string;
  readonly ok: boolean;
  readonly latency_ms: number | null;
}

/** The XOS backend, embedded or remote. */
export interface XosClient {
  /** Runs a query or mutation; a write names its path and the approval that allowed it (the audit trail). */
  run(query: string, variables?: Record<string, unknown>, audit?: AuditMeta): Promise<GraphQLResult>;
  ast(): Ast;
  status(): Promise<DsnStatus>;
}

export type BoardRecord = Record<string, unknown>;

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
  window(offset: number, limit: number, query: ListQuery): Promise<ListWindow>;
  /** A record seen in a served window, by key (the record id). */
  recordByKey(key: string): BoardRecord | undefined;
  /** The same query run again (Back to a list shows what is stored now); absent for fixed results. */
  reopen?(): Promise<ListSource>;
  /** The query as plain data, so the list can be opened again after a restart; absent for fixed results. */
  readonly origin?: ListOrigin;
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
}

export interface MailDraft {
  readonly to: { readonly name?: string; readonly email: string };
  readonly subject: string;
  readonly body: string;
}

export type BoardChange = 'list' | 'detail' | 'form' | 'mail';

/** What the Board currently shows, as the tools need to know it. */
export interface BoardSnapshot {
  readonly context: string | undefined;
  readonly kind: 'list' | 'detail' | 'mail' | undefined;
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
}

export interface Board {
  /** `query`: the person's sort and filter to keep (a list shown again). */
  showList(view: ListView, query?: ListQuery): void;
  /** The list shown now (undefined when the Board shows a detail or nothing). */
  list(): ListView | undefined;
  showDetail(view: DetailView): void;
  /** An empty form of a detail context that creates a record when saved. */
  showNew(context: string): void;
  showMail(draft: MailDraft): void;
  /** Removes the mail draft (after it was sent). */
  clearMail(): void;
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
  snapshot(): BoardSnapshot;
  onChange(listener: (change: BoardChange) => void): { dispose(): void };
}

export interface SaveSummary {
  readonly entity: string;
  readonly id: string;
  /** `create`: a new record with these values (`from` is null); otherwise changes of a stored one. */
  readonly action?: 'update' | 'create';
  /** fromText/toText: the related record's name for a ref, shown as "Acme (#3)" in the question. */
  readonly changes: ReadonlyArray<{ readonly field: string; readonly label: string; readonly from: unknown; readonly to: unknown; readonly fromText?: string; readonly toText?: string }>;
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
  /** The record's name (its first required text field), if it has one. */
  readonly name?: string;
}

export type DeleteAnswer = 'delete' | 'cancel' | 'timeout';

export interface Contact {
  readonly name: string;
  /** The first email address; all of them are in `emails`. */
  readonly email?: string;
  /** The first phone number; all of them are in `phones`. */
  readonly phone?: string;
  readonly emails?: readonly string[];
  readonly phones?: readonly string[];
  readonly organization?: string;
  /** Where the contact was found (e.g. "carddav:Work", "google", "xos:person"), one entry per provider. */
  readonly sources?: readonly string[];
}

/** A provider that could not be searched, named so the person knows which. */
export interface ContactFailure {
  readonly source: string;
  readonly message: string;
}

export interface ContactSearch {
  readonly contacts: Contact[];
  readonly failures: readonly ContactFailure[];
}

export interface Contacts {
  search(query: string): Promise<Contact[]>;
  /** Like `search`, with the providers that failed reported next to the results. */
  searchAll?(query: string): Promise<ContactSearch>;
}

export interface Mailer {
  /** The sender as configured (`Name <address>` or an address), shown on the mail draft. */
  readonly from?: string;
  send(draft: MailDraft): Promise<{ messageId: string }>;
}
