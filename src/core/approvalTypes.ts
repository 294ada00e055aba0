// The types of stored approvals (src/core/approvals.ts): what waits for the person, what it came
// to, where it is kept, and what deciding it needs. Apart from approvals.ts so that the commit
// (approvalCommit.ts) uses them without importing approvals.ts back.
import type { AuditPath } from '../graphql/audit.ts';
import type { BoundPayload, BoundVersion, WriteKind } from './boundWrites.ts';
import type { DeleteSummary, MailDraft, Mailer, SaveSummary, XosClient } from './domain.ts';
import type { BatchSaved, Created, Saved, ServerError } from './outcomes.ts';

export type ApprovalState = 'pending' | 'committing' | 'approved' | 'declined' | 'expired' | 'void' | 'failed';

/**
 * Who asked. `credential` is what the request came with (a hash of the endpoint's bearer token, or
 * the stdio process; never the secret itself): what may wait for the person is bounded by it and
 * the person. The client's name and the conversation are the client's own words: they scope who
 * learns an approval's outcome, never how many it may ask for. Requesters without a credential
 * (callers inside the front end) share one bound.
 */
export interface Requester {
  readonly credential?: string;
  readonly client: string;
  readonly conversation?: string;
  readonly person?: string;
}

/** What the approved write came to, or why it was not written (void, failed). */
export type ApprovalOutcome =
  | Saved
  | Created
  | BatchSaved
  | { readonly kind: 'deleted'; readonly ok: true; readonly entity: string; readonly id: string }
  | { readonly kind: 'sent'; readonly ok: true; readonly to: string; readonly messageId: string }
  /** void: a bound record was changed after the request (`versionNow`: its version then, where known). */
  | { readonly kind: 'record_changed'; readonly ok: false; readonly entity: string; readonly ids: readonly string[]; readonly versionNow?: number }
  /** void: a bound record was deleted after the request. */
  | { readonly kind: 'record_gone'; readonly ok: false; readonly entity: string; readonly ids: readonly string[] }
  /** failed: the backend refused the write. */
  | { readonly kind: 'server_refused'; readonly ok: false; readonly entity: string; readonly error: ServerError }
  /** failed: the mail server refused the message; nothing was sent. */
  | { readonly kind: 'mail_refused'; readonly ok: false; readonly reason: string }
  /** failed: the mail may have gone out; it is never sent again. */
  | { readonly kind: 'transfer_broke'; readonly ok: false; readonly reason: string }
  /** failed: the stored payload no longer matches its hash; nothing was written. */
  | { readonly kind: 'payload_altered'; readonly ok: false }
  /** failed: the writer stopped while committing and the audit trail shows no write (for a mail: it may have gone out). */
  | { readonly kind: 'interrupted'; readonly ok: false; readonly mail: boolean };

export interface PendingApproval {
  /** Random and unguessable (128 bits). */
  readonly id: string;
  readonly kind: WriteKind;
  /** What the person's question shows. */
  readonly summary: SaveSummary | DeleteSummary | MailDraft;
  /** Exactly what approving writes. */
  readonly payload: BoundPayload;
  /** SHA-256 of the payload (boundWrites.ts `payloadHash`): checked again before the write. */
  readonly hash: string;
  /** The record versions the payload is bound to. */
  readonly versions: readonly BoundVersion[];
  readonly requester: Requester;
  /** Requesters of the same credential who asked for the same write while it waited: they learn its outcome too. */
  readonly alsoRequestedBy?: readonly Requester[];
  /** The backend the payload is for (ApprovalDeps.backend at the request); it is written to no other. */
  readonly backend?: string;
  /** ISO times. */
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly state: ApprovalState;
  readonly decidedAt?: string;
  /** The person who decided (as their front end names them). */
  readonly decidedBy?: string;
  readonly outcome?: ApprovalOutcome;
}

/**
 * Where approvals are kept. Every change of state is a compare-and-set on the state, so two
 * front ends (or two processes on one file) never both move one approval on.
 */
export interface ApprovalStore {
  /**
   * Stores a new approval, unless the same write (payload hash and backend) already waits for the
   * same credential and person (that one is returned, and the requester may learn its outcome),
   * the credential has `maxPending` pending ones unexpired at `now`, or the store's size budget
   * leaves no room for it. One transaction: two processes on one file count the same.
   */
  insert(approval: PendingApproval, maxPending: number, now: string): Promise<InsertOutcome>;
  get(id: string): Promise<PendingApproval | undefined>;
  /** Replaces the approval only while it is still in state `from`; false when it no longer is. */
  update(next: PendingApproval, from: ApprovalState): Promise<boolean>;
  /** Approvals in one of these states (of one requester, if given), oldest first. */
  list(states: readonly ApprovalState[], requester?: Requester): Promise<PendingApproval[]>;
  /** Deletes approvals decided (or expired) before `before`; how many. */
  deleteDecidedBefore(before: string): Promise<number>;
}

export interface ApprovalDeps {
  readonly client: XosClient;
  readonly store: ApprovalStore;
  /** Sends an approved mail; without it a mail approval cannot be committed. */
  readonly mailer?: Mailer;
  /**
   * Which backend `client` talks to (its DSN's description, say): an approval is written only to the
   * backend it was requested for, and the person's list shows only those.
   */
  readonly backend?: string;
  /** The clock (ms since the epoch); Date.now when absent. */
  readonly now?: () => number;
  /** How the audit trail names the writer of an approved write; `agent` (the agent asked) when absent. */
  readonly path?: AuditPath;
  readonly maxPending?: number;
  /** How long a new request waits for the person (DEFAULT_APPROVAL_TTL_MS when absent). */
  readonly ttlMs?: number;
  readonly retentionMs?: number;
  readonly commitLeaseMs?: number;
}

/** What the store did with a new approval. */
export type InsertOutcome =
  | { readonly kind: 'stored' }
  /** The same write already waits for this credential: `approval`, with the requester remembered. */
  | { readonly kind: 'already_pending'; readonly approval: PendingApproval }
  /** The credential has `max` pending approvals (the first expires at `nextExpiry`). */
  | { readonly kind: 'too_many'; readonly max: number; readonly nextExpiry?: string }
  /** `bytes` would pass the budget `max` of one request, of the credential's pending requests, or of the whole store. */
  | { readonly kind: 'too_large'; readonly bytes: number; readonly max: number; readonly within: 'request' | 'credential' | 'file'; readonly nextExpiry?: string };
