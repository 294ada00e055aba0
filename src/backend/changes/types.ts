// What a storage tells the change feed (Storage.watch): the records written after each commit,
// by this process or any other on the same database, the presence of every front end, and that
// it cannot tell what changed (reset). Front ends see it through ChangeHub as ChangeFeedEvents.
import type { PresenceEntry, RecordChange } from '../../graphql/types.ts';

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
