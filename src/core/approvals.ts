// Stored pending approvals: an agent's guarded write (a prepared, bound payload, boundWrites.ts)
// kept until the person decides it — in VS Code or on the browser Board, also after a restart —
// while the agent's request is answered at once. Approving writes exactly the bound payload,
// version-checked, at most once; a record changed after the request makes the approval void.
//
// Who may call what: `requestApproval` and `approvalStatus` serve the agent's side, scoped to
// its requester. `decideApproval` and `pendingApprovals` serve the person's front end only;
// they are never reachable from an agent credential (the MCP layer gets no function that lists
// or decides). No MCP, no VS Code.
import { randomBytes } from 'node:crypto';
import type { RecordChange } from '../graphql/types.ts';
import { auditedOutcome, commit } from './approvalCommit.ts';
import type { ApprovalDeps, ApprovalOutcome, ApprovalState, PendingApproval, Requester } from './approvalTypes.ts';
import { boundVersions, payloadHash, type BoundPayload, type PreparedWrite, type WriteKind } from './boundWrites.ts';
import type { MailDraft } from './domain.ts';
import type { MailOutcome, SaveOutcome } from './outcomes.ts';

// The types live apart so that approvalCommit.ts can use them without importing this module back.
export type { ApprovalDeps, ApprovalOutcome, ApprovalState, ApprovalStore, InsertOutcome, PendingApproval, Requester } from './approvalTypes.ts';


/** How long a request waits for the person unless the caller says otherwise. */
export const DEFAULT_APPROVAL_TTL_MS = 15 * 60_000;
/** Pending approvals one credential may have at a time (whatever clients and conversations it names). */
export const DEFAULT_MAX_PENDING = 20;
/** How long decided approvals stay readable before they are deleted. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** How long an approval may stay `committing` before a sweep settles it (its writer is taken to be gone). */
export const DEFAULT_COMMIT_LEASE_MS = 2 * 60_000;
/** The `lostAnswer` of a write a sweep found in the audit trail after its writer stopped. */
const INTERRUPTED = 'interrupted';

/** One requester's scope (who learns an approval's outcome) as one text: equal requesters, equal keys. */
export function requesterKey(requester: Requester): string {
  return JSON.stringify([requester.client, requester.conversation ?? null, requester.person ?? null]);
}

/** What bounds a requester (pending approvals and their bytes): its credential and the person, never the names it chose. */
export function boundKey(requester: Requester): string {
  return JSON.stringify([requester.credential ?? null, requester.person ?? null]);
}

/** Whether `requester` may learn what became of `approval`: it asked for it (first, or for the same write while it waited). */
function askedBy(approval: PendingApproval, requester: Requester): boolean {
  const key = requesterKey(requester);
  return requesterKey(approval.requester) === key || (approval.alsoRequestedBy ?? []).some((r) => requesterKey(r) === key);
}

const nowOf = (deps: ApprovalDeps) => (deps.now ?? Date.now)();
const iso = (ms: number) => new Date(ms).toISOString();

export type RequestOutcome =
  /** `again`: the same write already waited for this credential; `approval` is that one (its id, its expiry). */
  | { readonly kind: 'requested'; readonly ok: true; readonly approval: PendingApproval; readonly again?: true }
  /** The credential has `max` approvals waiting: the person decides them first, or they expire (the first at `nextExpiry`). */
  | { readonly kind: 'too_many_pending'; readonly ok: false; readonly max: number; readonly nextExpiry?: string }
  /** The request (`within: 'request'`), this credential's waiting ones with it, or the whole store would pass the size budget. */
  | { readonly kind: 'too_large'; readonly ok: false; readonly bytes: number; readonly max: number; readonly within: 'request' | 'credential' | 'file'; readonly nextExpiry?: string };

/** Stores the prepared write as a pending approval of `requester`, waiting `ttlMs` for the person. */
export async function requestApproval(deps: ApprovalDeps, prepared: PreparedWrite, requester: Requester,
  options: { readonly ttlMs?: number } = {}): Promise<RequestOutcome> {
  const now = nowOf(deps);
  const max = deps.maxPending ?? DEFAULT_MAX_PENDING;
  const ttlMs = options.ttlMs ?? deps.ttlMs ?? DEFAULT_APPROVAL_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`an approval's lifetime must be a positive number of milliseconds (got ${ttlMs})`);
  const approval: PendingApproval = {
    id: randomBytes(16).toString('base64url'),
    kind: prepared.kind,
    summary: prepared.summary,
    payload: prepared.payload,
    hash: payloadHash(prepared.payload),
    versions: boundVersions(prepared.payload),
    requester: { ...(requester.credential === undefined ? {} : { credential: requester.credential }), client: requester.client, ...(requester.conversation === undefined ? {} : { conversation: requester.conversation }), ...(requester.person === undefined ? {} : { person: requester.person }) },
    ...(deps.backend === undefined ? {} : { backend: deps.backend }),
    createdAt: iso(now),
    expiresAt: iso(now + ttlMs),
    state: 'pending',
  };
  const stored = await deps.store.insert(approval, max, iso(now));
  switch (stored.kind) {
    case 'stored': return { kind: 'requested', ok: true, approval };
    case 'already_pending': return { kind: 'requested', ok: true, approval: stored.approval, again: true };
    case 'too_many': return { kind: 'too_many_pending', ok: false, max: stored.max, ...(stored.nextExpiry ? { nextExpiry: stored.nextExpiry } : {}) };
    case 'too_large': return { ...stored, ok: false };
  }
}

/** What the agent may learn about one of its own approvals; another requester's, or none, is `unknown`. */
export type ApprovalStatus =
  | { readonly state: 'unknown'; readonly id: string }
  | { readonly state: 'pending'; readonly id: string; readonly kind: WriteKind; readonly expiresAt: string }
  /** Approved and being written now (or, after a crash, until a sweep reads the audit trail). */
  | { readonly state: 'committing'; readonly id: string; readonly kind: WriteKind }
  | { readonly state: 'approved' | 'failed'; readonly id: string; readonly kind: WriteKind; readonly decidedAt?: string; readonly outcome: ApprovalOutcome }
  | { readonly state: 'declined'; readonly id: string; readonly kind: WriteKind; readonly decidedAt?: string }
  | { readonly state: 'expired'; readonly id: string; readonly kind: WriteKind; readonly expiresAt: string }
  /** `why`: the bound record was changed (or deleted) after the request; nothing was written. */
  | { readonly state: 'void'; readonly id: string; readonly kind: WriteKind; readonly why: 'changed' | 'deleted'; readonly outcome: ApprovalOutcome };

export async function approvalStatus(deps: ApprovalDeps, id: string, requester: Requester): Promise<ApprovalStatus> {
  let approval = await deps.store.get(id);
  if (!approval || !askedBy(approval, requester)) return { state: 'unknown', id };
  approval = await expireIfDue(deps, approval);
  const { kind } = approval;
  const decidedAt = approval.decidedAt === undefined ? {} : { decidedAt: approval.decidedAt };
  switch (approval.state) {
    case 'pending': return { state: 'pending', id, kind, expiresAt: approval.expiresAt };
    case 'committing': return { state: 'committing', id, kind };
    case 'declined': return { state: 'declined', id, kind, ...decidedAt };
    case 'expired': return { state: 'expired', id, kind, expiresAt: approval.expiresAt };
    case 'void': return { state: 'void', id, kind, why: approval.outcome?.kind === 'record_gone' ? 'deleted' : 'changed', outcome: approval.outcome! };
    case 'approved':
    case 'failed':
      return { state: approval.state, id, kind, ...decidedAt, outcome: approval.outcome! };
  }
}

/** The approvals of this backend waiting for the person, oldest first (expired ones are marked so and left out). */
export async function pendingApprovals(deps: ApprovalDeps): Promise<PendingApproval[]> {
  const waiting: PendingApproval[] = [];
  for (const approval of await deps.store.list(['pending'])) {
    if (approval.backend !== deps.backend) continue;
    const now = await expireIfDue(deps, approval);
    if (now.state === 'pending') waiting.push(now);
  }
  return waiting;
}

/** Why an approve wrote nothing and left the approval pending. */
export type NotCommitted =
  /** The backend could not be reached; `reason`: its message. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  /** The approval is for another backend than this front end's (`requestedFor`, where it was named). */
  | { readonly kind: 'other_backend'; readonly requestedFor?: string }
  /** No mail account is set up here to send it. */
  | { readonly kind: 'no_mailer' }
  /** The mail account now sends from another sender than the one the mail was requested from. */
  | { readonly kind: 'other_sender'; readonly requestedFrom: string; readonly now?: string }
  /** The person's decisions on the Board's review or form leave nothing to write. */
  | { readonly kind: 'nothing_to_write' }
  /** The Board's review or form cannot be written as it stands (`why`: as its own Save would say it). */
  | { readonly kind: 'not_ready'; readonly why: SaveOutcome | MailOutcome }
  /** What Approve would write is no longer what the person's surface showed (its hash differs): they decide again on what it shows now. */
  | { readonly kind: 'changed_since_shown' };

/**
 * What the person made of a pending approval where they work on it: the Board's review or form it
 * was asked from. Absent (or `as_requested`) the stored question is what the person sees and decides.
 */
export type ShapedWrite =
  | { readonly kind: 'as_requested' }
  /** Approve writes this: the request with the person's own decisions (rejected rows and cells, typed values). */
  | { readonly kind: 'shaped'; readonly prepared: PreparedWrite }
  /** The person's decisions leave nothing to write. */
  | { readonly kind: 'nothing' }
  /** Not writable as it stands (open conflicts, invalid values): `why`, as the Board's Save would say it. */
  | { readonly kind: 'not_ready'; readonly why: SaveOutcome | MailOutcome };

export type Shaper = (approval: PendingApproval) => Promise<ShapedWrite>;

/** What approving would write now: the payload, the question's summary and the hash that binds them; or why nothing. */
export type EffectiveWrite =
  | { readonly kind: 'write'; readonly payload: BoundPayload; readonly summary: PendingApproval['summary']; readonly hash: string; readonly shaped: boolean }
  | { readonly kind: 'nothing' }
  | { readonly kind: 'not_ready'; readonly why: SaveOutcome | MailOutcome };

/**
 * The one answer to "what does Approve write": the stored request, or, where the person shapes it
 * on the Board, their decision. Every surface that shows an approval and the commit that writes it
 * ask here, so what is shown and what is written cannot differ; the hash names it.
 */
export async function effectiveWrite(approval: PendingApproval, shape?: Shaper): Promise<EffectiveWrite> {
  const shaped = shape && approval.state === 'pending' ? await shape(approval) : { kind: 'as_requested' as const };
  switch (shaped.kind) {
    case 'nothing': return { kind: 'nothing' };
    case 'not_ready': return { kind: 'not_ready', why: shaped.why };
    case 'as_requested': return { kind: 'write', payload: approval.payload, summary: approval.summary, hash: approval.hash, shaped: false };
    case 'shaped': {
      const { payload, summary } = shaped.prepared;
      // The Board's decision replaces the request only for the same kind of write.
      if (payload.kind !== approval.payload.kind) return { kind: 'write', payload: approval.payload, summary: approval.summary, hash: approval.hash, shaped: false };
      return { kind: 'write', payload, summary, hash: payloadHash(payload), shaped: true };
    }
  }
}

/** How the person's front end decides: the Board's shaping of approvals, and the hash its surface showed. */
export interface DecideOptions {
  readonly shape?: Shaper;
  /** The hash of the write the person's surface showed (EffectiveWrite.hash): Approve writes only that. */
  readonly shown?: string;
}

export type DecideOutcome =
  /** The person's decision was taken: `approval` in its new state (approved, declined, void, failed, expired). */
  | { readonly kind: 'decided'; readonly approval: PendingApproval }
  /** Decided before (here or by another front end): nothing was done now. */
  | { readonly kind: 'already_decided'; readonly approval: PendingApproval }
  | { readonly kind: 'unknown'; readonly id: string }
  /** Nothing was written and the approval is still pending: `why` (and the facts for it), for the front end to word. */
  | { readonly kind: 'not_committed'; readonly approval: PendingApproval; readonly why: NotCommitted }
  /** The write went out without an answer and the audit trail does not show it yet: a sweep settles it. */
  | { readonly kind: 'unsettled'; readonly approval: PendingApproval; readonly reason: string };

/**
 * The person decides an approval (their front end only). Approve writes exactly the effective
 * write (the bound payload, or the person's shaping of it on the Board: `effectiveWrite`) against
 * the bound versions, once, and only if it is the one the person's surface showed (`shown`): the
 * state moves pending → committing in the store, with the payload it writes, before the write and
 * committing → approved/void/failed after it, each a compare-and-set.
 */
export async function decideApproval(deps: ApprovalDeps, id: string, decision: 'approve' | 'decline', person: string,
  options: DecideOptions = {}): Promise<DecideOutcome> {
  const found = await deps.store.get(id);
  if (!found) return { kind: 'unknown', id };
  const approval = await expireIfDue(deps, found);
  if (approval.state === 'expired' && found.state === 'pending') return { kind: 'decided', approval };
  if (approval.state !== 'pending') return { kind: 'already_decided', approval };
  const decided = { decidedAt: iso(nowOf(deps)), decidedBy: person };
  if (decision === 'decline') return moved(deps, approval, { ...approval, state: 'declined', ...decided }, 'pending');
  if (payloadHash(approval.payload) !== approval.hash) {
    return moved(deps, approval, { ...approval, state: 'failed', ...decided, outcome: { kind: 'payload_altered', ok: false } }, 'pending');
  }
  if (approval.backend !== deps.backend) {
    return { kind: 'not_committed', approval, why: { kind: 'other_backend', ...(approval.backend === undefined ? {} : { requestedFor: approval.backend }) } };
  }
  if (approval.payload.kind === 'send') {
    if (!deps.mailer) return { kind: 'not_committed', approval, why: { kind: 'no_mailer' } };
    const { from } = approval.payload;
    if (from !== undefined && deps.mailer.from !== from) {
      return { kind: 'not_committed', approval, why: { kind: 'other_sender', requestedFrom: from, ...(deps.mailer.from === undefined ? {} : { now: deps.mailer.from }) } };
    }
  }
  const effective = await effectiveWrite(approval, options.shape);
  if (effective.kind === 'nothing') return { kind: 'not_committed', approval, why: { kind: 'nothing_to_write' } };
  if (effective.kind === 'not_ready') return { kind: 'not_committed', approval, why: { kind: 'not_ready', why: effective.why } };
  if (options.shown !== undefined && options.shown !== effective.hash) return { kind: 'not_committed', approval, why: { kind: 'changed_since_shown' } };
  // The approval keeps what it writes: a sweep after a crash, and the audit trail, see the same payload.
  const committing: PendingApproval = {
    ...approval, state: 'committing', ...decided,
    ...(effective.shaped ? { payload: effective.payload, summary: effective.summary, hash: effective.hash, versions: boundVersions(effective.payload) } : {}),
  };
  if (!await deps.store.update(committing, 'pending')) return { kind: 'already_decided', approval: (await deps.store.get(id)) ?? approval };

  const result = await commit(deps, committing);
  if (result.kind === 'not_sent') {
    const { decidedAt: _at, decidedBy: _by, ...back } = committing;
    await deps.store.update({ ...back, state: 'pending' }, 'committing');
    return { kind: 'not_committed', approval: { ...back, state: 'pending' }, why: { kind: 'unavailable', reason: result.reason } };
  }
  if (result.kind === 'unsettled') {
    const landed = await auditedOutcome(deps, committing, result.reason).catch(() => undefined);
    if (!landed) return { kind: 'unsettled', approval: committing, reason: result.reason };
    return moved(deps, committing, { ...committing, state: 'approved', outcome: landed }, 'committing');
  }
  return moved(deps, committing, { ...committing, state: result.state, outcome: result.outcome }, 'committing');
}

/**
 * The person decided a pending approval on another surface: the Board's own Save is writing the
 * review or form it was asked from. The approval moves pending → committing before that write
 * (so nothing else decides or voids it meanwhile), then `boardWrote` (approved with exactly what
 * was written) or `boardDidNotWrite` (pending again). False when it was not pending.
 */
export async function boardWriting(deps: ApprovalDeps, id: string, person: string): Promise<boolean> {
  const found = await deps.store.get(id);
  if (found?.state !== 'pending') return false;
  return deps.store.update({ ...found, state: 'committing', decidedAt: iso(nowOf(deps)), decidedBy: person }, 'pending');
}

/** The Board's Save wrote it (`prepared`: what it wrote; `outcome`: what it came to): the approval is approved with exactly that, once. */
export async function boardWrote(deps: ApprovalDeps, id: string, prepared: PreparedWrite, outcome: ApprovalOutcome): Promise<DecideOutcome> {
  const found = await deps.store.get(id);
  if (!found) return { kind: 'unknown', id };
  if (found.state !== 'committing') return { kind: 'already_decided', approval: found };
  return moved(deps, found, {
    ...found, state: 'approved', outcome,
    payload: prepared.payload, summary: prepared.summary, hash: payloadHash(prepared.payload), versions: boundVersions(prepared.payload),
  }, 'committing');
}

/** The Board's Save wrote nothing: the approval waits again. */
export async function boardDidNotWrite(deps: ApprovalDeps, id: string): Promise<void> {
  const found = await deps.store.get(id);
  if (found?.state !== 'committing') return;
  const { decidedAt: _at, decidedBy: _by, ...back } = found;
  await deps.store.update({ ...back, state: 'pending' }, 'committing');
}

/**
 * The Board is about to send `draft` itself (the person confirmed its Send): the pending send
 * approvals of this backend for exactly that mail are taken (committing), so the desk never sends
 * it too; `taken` when one of them is being sent from the desk right now (the Board then sends
 * nothing). Returns the ids taken (`already`: ids the Board took already, left as they are).
 */
export async function boardSending(deps: ApprovalDeps, draft: MailDraft, person: string, already: readonly string[] = []): Promise<string[] | 'taken'> {
  const mail = payloadHash({ kind: 'send', draft });
  const same = (await deps.store.list(['pending', 'committing'])).filter((approval) => !already.includes(approval.id) && approval.backend === deps.backend
    && approval.payload.kind === 'send' && payloadHash({ kind: 'send', draft: approval.payload.draft }) === mail);
  if (same.some((approval) => approval.state === 'committing')) return 'taken';
  const taken: string[] = [];
  for (const approval of same) if (await boardWriting(deps, approval.id, person)) taken.push(approval.id);
  return taken;
}

/**
 * What the Board's own send came to, for an approval it took: sent → approved with that mail;
 * the transfer broke (it may have gone out) → failed, never sent again; not sent → waiting again.
 */
export async function boardSent(deps: ApprovalDeps, id: string, draft: MailDraft, outcome: { readonly kind: string; readonly ok: boolean; readonly messageId?: string; readonly reason?: string }): Promise<void> {
  const found = await deps.store.get(id);
  if (found?.state !== 'committing' || found.payload.kind !== 'send') return;
  if (outcome.kind === 'sent' && outcome.messageId !== undefined) {
    await boardWrote(deps, id, { kind: 'send', payload: found.payload, summary: draft }, { kind: 'sent', ok: true, to: draft.to.email, messageId: outcome.messageId });
  } else if (outcome.kind === 'transfer_broke') {
    await deps.store.update({ ...found, state: 'failed', outcome: { kind: 'transfer_broke', ok: false, reason: outcome.reason ?? '' } }, 'committing');
  } else {
    await boardDidNotWrite(deps, id);
  }
}

/** Moves `from` on to `next` if nobody did first; otherwise reports what the other did. */
async function moved(deps: ApprovalDeps, from: PendingApproval, next: PendingApproval, state: ApprovalState): Promise<DecideOutcome> {
  if (await deps.store.update(next, state)) return { kind: 'decided', approval: next };
  return { kind: 'already_decided', approval: (await deps.store.get(from.id)) ?? from };
}

/**
 * Voids the pending approvals bound to an older version of a record a live change feed reports
 * changed (or deleted); returns them in their void state.
 */
export async function voidChanged(deps: ApprovalDeps, changes: readonly RecordChange[]): Promise<PendingApproval[]> {
  if (changes.length === 0) return [];
  const ast = deps.client.ast();
  // XOS's own tables count versions up; a row of the person's own table has its state as version
  // (a digest on SQLite), so there any other version is a change.
  const changedFrom = (bound: { entity: string; version: number }, version: number | null) => version === null
    || (ast.entities[bound.entity]?.table !== undefined ? version !== bound.version : version > bound.version);
  const voided: PendingApproval[] = [];
  for (const approval of await deps.store.list(['pending'])) {
    if (approval.backend !== deps.backend) continue; // another backend's records
    const hit = approval.versions.flatMap((bound) => changes.filter((c) => c.entity === bound.entity && c.id === bound.id
      && changedFrom(bound, c.version)).map((c) => ({ bound, change: c })));
    if (hit.length === 0) continue;
    const entity = hit[0].bound.entity;
    const ids = [...new Set(hit.map((h) => h.bound.id))];
    const gone = hit.some((h) => h.change.version === null);
    const outcome: ApprovalOutcome = gone
      ? { kind: 'record_gone', ok: false, entity, ids }
      : { kind: 'record_changed', ok: false, entity, ids, ...(ids.length === 1 ? { versionNow: hit[0].change.version! } : {}) };
    const next: PendingApproval = { ...approval, state: 'void', decidedAt: iso(nowOf(deps)), outcome };
    if (await deps.store.update(next, 'pending')) voided.push(next);
  }
  return voided;
}

/**
 * Housekeeping, run now and then by a front end: pending approvals past their time become
 * expired, approvals left `committing` longer than the lease (their writer stopped) are settled
 * from the audit trail, and decided ones older than the retention are deleted.
 */
export async function sweepApprovals(deps: ApprovalDeps): Promise<{ readonly expired: number; readonly settled: number; readonly deleted: number }> {
  const now = nowOf(deps);
  let expired = 0;
  for (const approval of await deps.store.list(['pending'])) {
    if ((await expireIfDue(deps, approval)).state === 'expired') expired++;
  }
  let settled = 0;
  const leaseEnd = iso(now - (deps.commitLeaseMs ?? DEFAULT_COMMIT_LEASE_MS));
  for (const approval of await deps.store.list(['committing'])) {
    // Only this backend's audit trail can tell whether the write landed.
    if (approval.backend !== deps.backend || (approval.decidedAt ?? approval.createdAt) > leaseEnd) continue;
    const landed = await auditedOutcome(deps, approval, INTERRUPTED).catch(() => null);
    if (landed === null) continue; // the audit trail cannot be read now: next time
    const next: PendingApproval = landed
      ? { ...approval, state: 'approved', outcome: landed }
      : { ...approval, state: 'failed', outcome: { kind: 'interrupted', ok: false, mail: approval.payload.kind === 'send' } };
    if (await deps.store.update(next, 'committing')) settled++;
  }
  const deleted = await deps.store.deleteDecidedBefore(iso(now - (deps.retentionMs ?? DEFAULT_RETENTION_MS)));
  return { expired, settled, deleted };
}

/** A pending approval past its time becomes expired (lazily, wherever it is read). */
async function expireIfDue(deps: ApprovalDeps, approval: PendingApproval): Promise<PendingApproval> {
  const now = nowOf(deps);
  if (approval.state !== 'pending' || approval.expiresAt > iso(now)) return approval;
  const next: PendingApproval = { ...approval, state: 'expired', decidedAt: iso(now) };
  if (await deps.store.update(next, 'pending')) return next;
  return (await deps.store.get(approval.id)) ?? approval;
}
