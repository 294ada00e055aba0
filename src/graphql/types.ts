// What the client offers the floors above (the use cases, contacts, the tools, the hosts):
// the XOS backend, embedded or remote, run through one interface. Types only, browser-safe.
import type { AuditMeta, AuditPath } from '../backend/storage/audit.ts';
import type { AuditState } from '../backend/storage/types.ts';
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
  /** Whether the backend keeps the audit trail (History, Undo), and if not, why; absent: not known. */
  readonly audit?: AuditState;
}


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
  /** The feed was lost (live false) or is back (live true; `caughtUp`: changes read on return). */
  | { readonly kind: 'connection'; readonly live: boolean; readonly caughtUp?: number };

/** Live changes and presence of the backend the client talks to. */
export interface ChangeFeed {
  /** Listens until the returned function is called. */
  subscribe(listener: (event: ChangeFeedEvent) => void): () => void;
  /** Tells the others which record this Board has open (undefined: none) and whether it holds unsaved changes. */
  announce(open: { readonly entity: string; readonly id: string; readonly editing: boolean } | undefined): void;
}

/** The XOS backend, embedded or remote. */
export interface XosClient {
  /**
   * Runs a query or mutation; a write names its path and the approval that allowed it (the audit
   * trail). `signal` (reads only): the caller no longer wants the answer — a request that has not
   * started is not run, and the promise rejects with the signal's reason at once.
   */
  run(query: string, variables?: Record<string, unknown>, audit?: AuditMeta, signal?: AbortSignal): Promise<GraphQLResult>;
  ast(): Ast;
  status(): Promise<DsnStatus>;
  /** The backend's change feed, where it has one. */
  readonly feed?: ChangeFeed;
}
