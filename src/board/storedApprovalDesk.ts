// The approval desk over stored approvals (src/core/approvals.ts): the Board lists the pending
// ones in the words of the blocking question and takes the person's decisions. It tells the
// Board to read the list again when an approval was requested, decided or voided here (its
// store is watched: `watched`), when the next one expires, and when another process changed
// the approvals file (`changedElsewhere`, polled).
import type { ApprovalDeps, ApprovalOutcome, DecideOutcome, EffectiveWrite, NotCommitted, PendingApproval, Requester } from '../core/approvals.ts';
import { decideApproval, effectiveWrite, pendingApprovals } from '../core/approvals.ts';
import type { ApprovalStore, InsertOutcome } from '../core/approvals.ts';
import type { BoardOutcome, MailOutcome, SaveOutcome } from '../core/outcomes.ts';
import type { ApprovalDecision, ApprovalDesk, DecisionOutcome, PendingApprovalView } from './approvalDesk.ts';
import type { BoardDecisions } from './boardDecisions.ts';
import { displayText, shorten } from './confirmText.ts';
import { personText, personWords } from './outcomeText.ts';
import { approvalQuestion, type QuestionWords } from './questionText.ts';

export { approvalQuestion };
import type { Translate } from './texts.ts';

/** How often the approvals file is checked for another process's changes. */
export const WATCH_INTERVAL_MS = 500;
/** The least wait before the list is read again for an expiry (one that passed while it was read). */
const EXPIRED_RECHECK_MS = 20;
/** setTimeout's longest delay; a later expiry is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface StoredApprovalDeskOptions {
  /** The approvals as the person's front end decides them (read fresh: mail settings and data sources change). */
  readonly deps: () => ApprovalDeps;
  /** The app, the Board's language and its translate function (the blocking question's). */
  readonly words: () => QuestionWords;
  /** How the front end names the person deciding (kept with the decision). */
  readonly person: () => string;
  /**
   * A number that changes when another connection changed the approvals file (the SQLite store's
   * `dataVersion`); polled every `watchMs`. Absent: nothing is polled.
   */
  readonly changedElsewhere?: () => number;
  readonly watchMs?: number;
  /** Told every decision's outcome as data (the app takes an approved mail off the Board). */
  readonly onDecided?: (outcome: DecideOutcome) => void;
  /**
   * The Board's review or form each approval was asked from, where it still shows it: the person's
   * decisions there are what the list shows and what Approve writes. Absent: approvals as requested.
   */
  readonly board?: BoardDecisions;
}

/** Who asked, as the list names them: "The agent (claude-ai via http) for anna". */
export function requesterText(t: Translate, requester: Requester): string {
  const client = requester.client ? shorten(displayText(requester.client), 60) : undefined;
  const person = requester.person ? shorten(displayText(requester.person), 60) : undefined;
  if (client && person) return t('The agent ({0}) for {1}', client, person);
  if (person) return t('The agent for {0}', person);
  return client ? t('The agent ({0})', client) : t('The agent');
}

/** The question of an approval as Approve would write it now: as requested, with the person's changes on the Board, or nothing. */
export function effectiveQuestion(approval: PendingApproval, effective: EffectiveWrite, words: QuestionWords): string {
  const { t } = words;
  switch (effective.kind) {
    case 'nothing': return t('Nothing left to write: your changes on the Board reject every change of this request. Approve writes nothing.');
    case 'not_ready': return t('Not ready to write: {0}', notReadyText(words, effective.why));
    case 'write': {
      const question = approvalQuestion({ kind: approval.kind, summary: effective.summary }, words);
      return effective.shaped && effective.hash !== approval.hash ? t('With your changes on the Board: {0}', question) : question;
    }
  }
}

/** Why the Board's review or form cannot be written as it stands, as what the person does next. */
function notReadyText(words: QuestionWords, why: SaveOutcome | MailOutcome): string {
  const { t } = words;
  const person = personWords(t, words.ast, words.locale);
  switch (why.kind) {
    case 'review_conflicts': return t('{0} rows were changed by someone else meanwhile; accept or reject each marked row on the Board first.', person.count(why.count));
    case 'open_conflicts': return t('someone else saved this record meanwhile; choose per marked field which value to keep first.');
    default: return personText(person, why as BoardOutcome);
  }
}

/** What a decision came to, in the Board's words ("Not written: {0}" is added by the list for void and failed). */
export function decisionOutcome(outcome: DecideOutcome, words: QuestionWords): DecisionOutcome {
  const { t } = words;
  switch (outcome.kind) {
    case 'unknown':
    case 'already_decided':
      return { kind: 'gone' };
    case 'not_committed': return { kind: 'failed', text: notCommittedText(words, outcome.why) };
    case 'unsettled':
      return { kind: 'failed', text: t('the XOS server did not answer ({0}); whether it was written is settled later from the audit trail.', outcome.reason) };
    case 'decided': break;
  }
  const { approval } = outcome;
  switch (approval.state) {
    case 'declined': return { kind: 'declined' };
    case 'expired': return { kind: 'expired' };
    case 'approved': return { kind: 'approved', text: approvedText(words, approval.outcome!) };
    case 'void': return { kind: 'void', why: notWrittenText(words, approval.outcome!) };
    case 'failed': return { kind: 'failed', text: notWrittenText(words, approval.outcome!) };
    case 'pending':
    case 'committing':
      return { kind: 'failed', text: t('the decision was not carried out yet; look at the list again in a moment.') };
  }
}

function approvedText(words: QuestionWords, outcome: ApprovalOutcome): string {
  return outcome.ok ? personText(personWords(words.t, words.ast, words.locale), outcome as BoardOutcome) : notWrittenText(words, outcome);
}

/** Why an approved (or void) approval wrote nothing, after "Not written: ". */
function notWrittenText(words: QuestionWords, outcome: ApprovalOutcome): string {
  const { t } = words;
  const person = personWords(t, words.ast, words.locale);
  switch (outcome.kind) {
    case 'record_changed': return t('{0} {1} was changed after the request.', person.entity(outcome.entity), outcome.ids.join(', '));
    case 'record_gone': return t('{0} {1} was deleted after the request.', person.entity(outcome.entity), outcome.ids.join(', '));
    case 'server_refused': return t('the XOS server refused it: {0}', outcome.error.message);
    case 'mail_refused': return t('the mail server refused it: {0}', outcome.reason);
    case 'transfer_broke': return t('the connection to the mail server broke while sending ({0}); it may have been delivered, so it is not sent again.', outcome.reason);
    case 'payload_altered': return t('the stored request was altered, so it was not carried out.');
    case 'interrupted':
      return outcome.mail
        ? t('XOS stopped while sending; the mail may have gone out, so it is not sent again.')
        : t('XOS stopped while writing, and the audit trail shows no write.');
    default: return personText(person, outcome as BoardOutcome);
  }
}

function notCommittedText(words: QuestionWords, why: NotCommitted): string {
  const { t } = words;
  switch (why.kind) {
    case 'unavailable': return t('the XOS server could not be reached ({0}). The request still waits; decide again later.', why.reason);
    case 'other_backend': return t('the request is for another data source ({0}). It still waits there.', why.requestedFor ?? '?');
    case 'no_mailer': return t('no mail account is set up here to send it. The request still waits.');
    case 'other_sender': return t('the mail account now sends from {0}, not from {1} as requested. The request still waits.', why.now ?? '—', why.requestedFrom);
    case 'nothing_to_write': return t('your changes on the Board leave nothing to write. The request still waits; decline it, or accept changes on the Board.');
    case 'not_ready': return t('the Board cannot write it as it stands: {0}', notReadyText(words, why.why));
    case 'changed_since_shown': return t('it changed after the list showed it. Look at it again and decide on what it shows now.');
  }
}

export class StoredApprovalDesk implements ApprovalDesk {
  private readonly options: StoredApprovalDeskOptions;
  private readonly listeners = new Set<() => void>();
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly watchTimer: ReturnType<typeof setInterval> | undefined;
  private lastVersion: number | undefined;
  private disposed = false;

  constructor(options: StoredApprovalDeskOptions) {
    this.options = options;
    const elsewhere = options.changedElsewhere;
    if (elsewhere) {
      this.lastVersion = elsewhere();
      this.watchTimer = setInterval(() => this.checkElsewhere(elsewhere), options.watchMs ?? WATCH_INTERVAL_MS);
      this.watchTimer.unref?.();
    }
    void this.timeNextExpiry();
  }

  /**
   * The store, telling this desk of every approval it stored or moved on: requests of the agent's
   * tools, decisions, voids and expiries in this process reach the Board at once.
   */
  watched(store: ApprovalStore): ApprovalStore {
    const told = <T>(result: T): T => {
      if (result) this.changed();
      return result;
    };
    const board = this.options.board;
    // A request asked from what the Board shows becomes one decision with it before the agent is answered.
    const linked = async (approval: PendingApproval, inserted: InsertOutcome) => {
      if (inserted.kind !== 'stored') return inserted; // refused, or the same write waits already (linked then)
      if (board) await board.requested(approval).catch(() => false);
      return told(inserted);
    };
    return {
      insert: async (approval, maxPending, now) => linked(approval, await store.insert(approval, maxPending, now)),
      get: (id) => store.get(id),
      update: async (next, from) => told(await store.update(next, from)),
      list: (states, requester) => store.list(states, requester),
      deleteDecidedBefore: (before) => store.deleteDecidedBefore(before),
    };
  }

  async pending(): Promise<readonly PendingApprovalView[]> {
    const waiting = await pendingApprovals(this.options.deps());
    this.timeExpiry(waiting);
    const { board } = this.options;
    board?.prune();
    if (waiting.length === 0) return [];
    // The words need the app's AST: read only when there is something to word (at start the backend may not be up yet).
    const words = this.options.words();
    const views: PendingApprovalView[] = [];
    for (const approval of waiting) {
      // Worded from what Approve would write now, and bound to it by its hash.
      const effective = await effectiveWrite(approval, board?.shape);
      views.push({
        id: approval.id,
        kind: approval.kind,
        question: effectiveQuestion(approval, effective, words),
        ...(effective.kind === 'write' ? { hash: effective.hash } : {}),
        requester: requesterText(words.t, approval.requester),
        requestedAt: approval.createdAt,
        expiresAt: approval.expiresAt,
      });
    }
    return views;
  }

  async decide(id: string, decision: ApprovalDecision, shown?: string): Promise<DecisionOutcome> {
    const { board } = this.options;
    const source = board?.linkOf(id);
    const outcome = await decideApproval(this.options.deps(), id, decision, this.options.person(), {
      ...(board ? { shape: board.shape } : {}), ...(shown === undefined ? {} : { shown }),
    });
    // The Board shows an approved review or form as stored before the outcome is told, so it never takes its own write for someone else's.
    if (board && outcome.kind === 'decided') await board.decided(outcome.approval, source).catch(() => undefined);
    this.options.onDecided?.(outcome);
    return decisionOutcome(outcome, this.options.words());
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners that the list may have changed (also from outside: the change feed voided some). */
  changed(): void {
    if (this.disposed) return;
    for (const listener of [...this.listeners]) listener();
    void this.timeNextExpiry();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.expiryTimer);
    clearInterval(this.watchTimer);
    this.listeners.clear();
  }

  private checkElsewhere(version: () => number): void {
    let now: number;
    try {
      now = version();
    } catch {
      return; // the store was closed: the front end stops
    }
    if (now === this.lastVersion) return;
    this.lastVersion = now;
    this.changed();
  }

  /** A timer to the next expiry of a pending approval (the list is read again then). */
  private async timeNextExpiry(): Promise<void> {
    try {
      const deps = this.options.deps();
      // This backend's only: another's are never expired here, and would keep the timer going.
      this.timeExpiry((await deps.store.list(['pending'])).filter((approval) => approval.backend === deps.backend));
    } catch {
      // the store was closed meanwhile
    }
  }

  private timeExpiry(waiting: readonly PendingApproval[]): void {
    if (this.disposed) return;
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    const now = (this.options.deps().now ?? Date.now)();
    // One already past counts too (it passed while the list was read): reading the list again
    // takes it off, so the timer then moves on to the next.
    const next = waiting.map((a) => Date.parse(a.expiresAt)).sort((a, b) => a - b)[0];
    if (next === undefined) return;
    this.expiryTimer = setTimeout(() => this.changed(), Math.min(MAX_TIMER_MS, Math.max(EXPIRED_RECHECK_MS, next - now)));
    this.expiryTimer.unref?.();
  }
}
