// What the client offers the floors above (the use cases, contacts, the tools, the hosts):
// the XOS backend, embedded or remote, run through one interface. Types only, browser-safe.
import type { AuditMeta } from '../backend/storage/audit.ts';
import type { AuditState } from '../backend/storage/types.ts';
import type { Ast } from '../ast/schema.ts';
import type { ChangeFeedEvent } from '../backend/changes/types.ts';

export interface GraphQLErrorShape {
  readonly message: string;
  readonly extensions?: Record<string, unknown>;
}

export interface GraphQLResult {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly GraphQLErrorShape[];
  /** `xos.batch`: the audit batch a batch write made (`update_<entity>_many`, where the trail is kept). */
  readonly extensions?: Record<string, unknown>;
}

export interface DsnStatus {
  readonly kind: string;
  readonly description: string;
  readonly ok: boolean;
  readonly latency_ms: number | null;
  /** Whether the backend keeps the audit trail (History, Undo), and if not, why; absent: not known. */
  readonly audit?: AuditState;
}


// The change feed's events are the backend's (src/backend/changes/types.ts), told here unchanged.
export type { ChangeFeedEvent, PresenceEntry, RecordChange } from '../backend/changes/types.ts';

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
