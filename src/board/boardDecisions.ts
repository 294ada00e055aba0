// A stored approval and the Board's review or form it was asked from are one decision. While the
// Board still shows that review (the same one, not a new proposal) or that loaded record's form,
// what the person does there — rejected rows and cells, values typed into the grid or the form —
// is what Approve writes (approve-with-changes), and the desk words its question from it. Once the
// Board shows something else, or the agent proposes on that form again (only the person shapes
// what waits for them), the approval stands as it was requested and stored. Every front end
// (the VS Code Board, the browser Board) decides through this one object; see
// core/approvals.ts `effectiveWrite` for how the commit and the desk use it.
import { isDeepStrictEqual } from 'node:util';
import { boardDidNotWrite, boardSending, boardSent, boardWriting, boardWrote, type ApprovalDeps, type PendingApproval, type ShapedWrite } from '../core/approvals.ts';
import { payloadHash } from '../core/boundWrites.ts';
import type { BoardWrite, CoreDeps } from '../core/base.ts';
import { showStoredReview } from '../core/batchSave.ts';
import type { MailDraft } from '../core/domain.ts';
import { prepareSend, type SendClaim } from '../core/mailSend.ts';
import { prepareSave, showApprovedSave } from '../core/save.ts';
import { showRecord } from '../core/show.ts';

/** The kinds of write the Board's review or form prepares (prepareSave); a mail is its draft's (prepareSend). */
const SHAPEABLE = new Set(['save', 'create', 'batch', 'send']);

interface Link {
  /** The review, loaded record or mail draft the approval was asked from. */
  readonly source: object;
  /** The agent's proposals on the form then (none for a review or a mail). */
  readonly proposals: Readonly<Record<string, unknown>>;
  readonly mail: boolean;
}

export class BoardDecisions {
  private readonly deps: () => CoreDeps;
  /**
   * Approval id → the Board's review, or its loaded record, the approval was asked from, and the
   * agent's proposals the form showed then (the person can only take or drop those; a new or
   * changed one is the agent's, and the agent does not change what waits for the person).
   */
  private readonly links = new Map<string, Link>();

  constructor(deps: () => CoreDeps) {
    this.deps = deps;
  }

  /**
   * What the Board shows now that a write can be asked from: its review, or its loaded record (with
   * its form); for a mail, its draft (the same while only the person edits it).
   */
  private source(mail = false): object | undefined {
    const board = this.deps().board;
    if (mail) return board.mailSource();
    const snapshot = board.snapshot();
    if (snapshot.kind === 'review') return board.review();
    return snapshot.kind === 'detail' ? snapshot.detail : undefined;
  }

  /** What the Board's Save, or its Send for a mail, would write now. */
  private async prepared(approval: PendingApproval) {
    const deps = this.deps();
    if (approval.payload.kind === 'send') return prepareSend(deps.board, approval.payload.from);
    return prepareSave(deps, actionOf(approval));
  }

  /**
   * A new approval was stored: if the Board shows exactly what it asks for, the two are one
   * decision while the Board shows it. True when they are. (Checked by the payload's hash, so a Board changed meanwhile is not linked.)
   */
  async requested(approval: PendingApproval): Promise<boolean> {
    if (!SHAPEABLE.has(approval.kind)) return false;
    const mail = approval.kind === 'send';
    const source = this.source(mail);
    if (!source) return false;
    const now = await this.prepared(approval).catch(() => undefined);
    if (!now || !('payload' in now) || payloadHash(now.payload) !== approval.hash || this.source(mail) !== source) return false;
    this.links.set(approval.id, { source, proposals: mail ? {} : structuredClone(this.deps().board.snapshot().pending), mail });
    return true;
  }

  /** Whether the Board still shows what the approval was asked from, shaped by the person alone. */
  private holds(link: Link | undefined): boolean {
    if (!link || link.source !== this.source(link.mail)) return false;
    // A new draft the agent composes is a new source: only the person's edits keep a mail's link.
    if (link.mail) return true;
    const proposals = this.deps().board.snapshot().pending;
    return Object.entries(proposals).every(([field, value]) => Object.hasOwn(link.proposals, field) && isDeepStrictEqual(link.proposals[field], value));
  }

  /** Whether any approval is one decision with what the Board shows (the desk then follows the Board's changes). */
  get linked(): boolean {
    return [...this.links.values()].some((link) => this.holds(link));
  }

  /**
   * The Board's own Save is about to write what the Board shows: the approvals that are one
   * decision with it now are decided by it (`deps`: the stored approvals; `person`: who saved).
   */
  async writing(deps: ApprovalDeps, person: string): Promise<BoardWrite | undefined> {
    const claimed: string[] = [];
    for (const [id, link] of [...this.links]) {
      // The approvals file out of reach never stops the person's own Save: the approval then waits on (and is voided by the write).
      if (!link.mail && this.holds(link) && await boardWriting(deps, id, person).catch(() => false)) claimed.push(id);
    }
    if (claimed.length === 0) return undefined;
    return {
      approvals: claimed,
      written: async (prepared, outcome) => {
        for (const id of claimed) {
          this.links.delete(id);
          await boardWrote(deps, id, prepared, outcome).catch(() => undefined);
        }
      },
      notWritten: async () => {
        for (const id of claimed) await boardDidNotWrite(deps, id).catch(() => undefined);
      },
    };
  }

  /**
   * The Board's own Send is about to send `draft`: the approvals that are one decision with its
   * draft, and any other waiting for exactly that mail, are taken first, so the desk never sends
   * them too; `taken` when one of them is being sent from the desk right now.
   */
  async sending(deps: ApprovalDeps, draft: MailDraft, person: string): Promise<SendClaim | 'taken' | undefined> {
    const linked: string[] = [];
    for (const [id, link] of [...this.links]) {
      if (link.mail && this.holds(link) && await boardWriting(deps, id, person).catch(() => false)) linked.push(id);
    }
    const same = await boardSending(deps, draft, person, linked);
    if (same === 'taken') {
      for (const id of linked) await boardDidNotWrite(deps, id).catch(() => undefined);
      return 'taken';
    }
    const taken = [...linked, ...same];
    if (taken.length === 0) return undefined;
    return {
      settled: async (outcome) => {
        for (const id of taken) {
          this.links.delete(id);
          await boardSent(deps, id, draft, outcome).catch(() => undefined);
        }
      },
    };
  }

  /**
   * Links whose review or record the Board no longer shows end: the Board never shows that same
   * object again (a new proposal, a record loaded again or met by a conflict are new objects).
   */
  prune(): void {
    const source = this.source();
    const mail = this.source(true);
    for (const [id, link] of [...this.links]) if (link.source !== (link.mail ? mail : source)) this.links.delete(id);
  }

  /** The approval as the person shaped it on the Board; as requested when the Board no longer shows its review or form. */
  readonly shape = async (approval: PendingApproval): Promise<ShapedWrite> => {
    if (!this.holds(this.links.get(approval.id))) return { kind: 'as_requested' };
    const now = await this.prepared(approval);
    if ('payload' in now) return { kind: 'shaped', prepared: now };
    if (now.kind === 'nothing_to_save') return { kind: 'nothing' };
    return { kind: 'not_ready', why: now };
  };

  /** The review or loaded record the approval is one decision with (taken before deciding it: its link ends then). */
  linkOf(id: string): object | undefined {
    return this.links.get(id)?.source;
  }

  /**
   * The approval was decided (`source`: its link before): its link ends. An approved write the Board still shows is shown as
   * stored (the review's list, the record), so it is neither offered again nor taken for someone
   * else's change.
   */
  async decided(approval: PendingApproval, source: object | undefined): Promise<void> {
    this.links.delete(approval.id);
    if (approval.state !== 'approved') return;
    const { payload } = approval;
    const deps = this.deps();
    if (payload.kind === 'batch') {
      const review = deps.board.review();
      if (review && review === source) await showStoredReview(deps, review);
    } else if (payload.kind === 'save') {
      await showApprovedSave(deps, payload);
    } else if (payload.kind === 'create' && approval.outcome?.kind === 'created' && source !== undefined && this.source() === source) {
      // The new record's form would create it again: it shows the created record.
      await showRecord(deps, payload.context, approval.outcome.id);
    }
  }
}

/** How the audit trail names the approval's write (the request's own action: "Save", "Undo of …"). */
function actionOf(approval: PendingApproval): string | undefined {
  const { payload } = approval;
  return payload.kind === 'save' || payload.kind === 'batch' ? payload.action : undefined;
}
