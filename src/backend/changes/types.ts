// What a storage tells the change feed (Storage.watch): the records written after each commit,
// by this process or any other on the same database, the presence of every front end, that
// it cannot tell what changed (reset), and that other programs wrote some tables (outside).
// Front ends see it through ChangeHub as ChangeFeedEvents.
import type { AuditPath } from '../storage/audit.ts';

/** One record written, as the change feed tells it (after the write's commit). */
export interface RecordChange {
  readonly entity: string;
  readonly id: string;
  readonly action: 'create' | 'update' | 'delete';
  /** The version after the write; null for a delete. */
  readonly version: number | null;
  /** Who wrote, where the backend knows (a person's name). */
  readonly person?: string;
  readonly path?: AuditPath;
}

/** Someone else has a record open on their Board, with unsaved changes or not. */
export interface PresenceEntry {
  readonly person: string;
  readonly entity: string;
  readonly id: string;
  /** true: unsaved changes on the form ("Anna is editing"). */
  readonly editing: boolean;
}

/** What the change feed tells a front end. */
export type ChangeFeedEvent =
  /** Records others (or this front end) wrote, in commit order. */
  | { readonly kind: 'changes'; readonly changes: readonly RecordChange[] }
  /** The feed cannot tell which records changed (away too long, no audit trail): read what is shown again. */
  | { readonly kind: 'reset'; readonly reason: 'away' | 'unknown' }
  /** The whole presence of the others, replaced each time. */
  | { readonly kind: 'presence'; readonly presence: readonly PresenceEntry[] }
  /** Something else (another program) may have written these entities' tables: compare what is shown with the rows. */
  | OutsideWrites
  /** The feed was lost (live false) or is back (live true; `caughtUp`: changes read on return). */
  | { readonly kind: 'connection'; readonly live: boolean; readonly caughtUp?: number };

/**
 * The database says these entities' tables were written, without saying which rows or by whom:
 * writes by programs other than XOS (psql, a script, another application), which no audit entry or
 * notification names. XOS's own writes may be among them; a front end compares what it shows with
 * the rows (cheap when nothing changed) rather than reading everything again.
 */
export interface OutsideWrites {
  readonly kind: 'outside';
  readonly entities: readonly string[];
}

/** One front end's open record, as every process on the database shares it (`client`: whose). */
export interface SharedPresence extends PresenceEntry {
  readonly client: string;
}

/** What a front end announces: the record it has open, or nothing. */
export interface OpenRecord {
  readonly entity: string;
  readonly id: string;
  readonly editing: boolean;
}

export type StorageFeedEvent =
  /** `cursor`: the audit trail's id of the last change, where the trail is kept (catch-up starts after it). */
  | { readonly kind: 'changes'; readonly changes: readonly RecordChange[]; readonly cursor?: number }
  | { readonly kind: 'reset'; readonly reason: 'away' | 'unknown' }
  | OutsideWrites
  /** Every front end's presence on the database, this process's included, replaced each time. */
  | { readonly kind: 'presence'; readonly presence: readonly SharedPresence[] };

export type StorageFeedListener = (event: StorageFeedEvent) => void;

/** Changes read back from the audit trail after a cursor (catch-up). */
export interface ChangesSince {
  readonly changes: readonly RecordChange[];
  /** The newest audit id read (or the cursor given, when nothing is newer). */
  readonly cursor: number;
}

/** How long a front end's presence lives unless it announces again. */
export const PRESENCE_TTL_MS = 30_000;
