// One XOS app, whatever front end runs it: the Board's state and controller, the person's
// questions, and the dependencies every tool call and Board action gets. The extension host
// (src/host/xosHost.ts) and xos-mcp (src/standalone/xosMcp.ts) build it the same way and add
// only what is theirs: where the Board is shown, how the person is spoken to, the backend,
// the MCP transport.
import { join } from 'node:path';
import type { ApprovalDesk } from '../board/approvalDesk.ts';
import { BoardDecisions } from '../board/boardDecisions.ts';
import { StoredApprovalDesk } from '../board/storedApprovalDesk.ts';
import { BoardController, type BoardSurface, type BoardUi } from '../board/controller.ts';
import type { QuestionConfirmer } from '../board/confirmer.ts';
import { DraftFile, HistoryFile, keepDrafts, keepHistory, type KeptDraft } from '../store/drafts.ts';
import { BoardState } from '../board/state.ts';
import { sweepApprovals, voidChanged, type ApprovalDeps, type ApprovalStore, type DecideOutcome } from '../core/approvals.ts';
import { sentByApproval } from '../core/mailSend.ts';
import type { Contacts, Mailer, XosClient } from '../core/domain.ts';
import type { XosDeps } from '../mcp/ports.ts';

export interface XosAppOptions {
  /** The client in use; the same object for the app's life (it may switch backends behind it). */
  readonly client: XosClient;
  /** The Board's language now (a setting, the front end's language, the AST's locales). */
  readonly locale: () => string;
  /** Where the Board is shown. */
  readonly surface: BoardSurface;
  /** How the person is spoken to outside the Board's page; `app` is this app (its confirmer asks in turn). */
  readonly ui: (app: XosApp) => BoardUi;
  /** Who asks the person before a save, delete or send; it may reach the controller once the app is built. */
  readonly confirmer: (app: XosApp) => QuestionConfirmer;
  /** Absent when no contact provider or mail server is set up (read at every call: settings change). */
  readonly contacts: () => Contacts | undefined;
  readonly mailer: () => Mailer | undefined;
  /** Seconds a confirmed mail waits for Undo before it goes out. */
  readonly mailUndoSeconds: () => number;
  /** The browser Board's address, where there is one (inline cards open it). */
  readonly boardUrl?: () => string;
  /** The writes the agent asked for that wait for the person's decision; the Board lists them and takes the decisions. */
  readonly approvals?: ApprovalDesk;
  /**
   * Stored pending approvals (src/core/approvals.ts): an agent's request without an MCP session
   * waits there for the person instead of a question at once. The app builds the Board's desk
   * over them (unless `approvals` is given), housekeeps them and voids the ones the change feed
   * outdates; it closes the store when it stops.
   */
  readonly storedApprovals?: StoredApprovalsOptions;
}

/** What the app needs for stored approvals. */
export interface StoredApprovalsOptions {
  /** The approvals file (SqliteApprovalStore): `dataVersion` tells changes by other processes; closed with the app. */
  readonly store: ApprovalStore & { close(): void; dataVersion?(): number };
  /** The data source's identity (its description): an approval is written only to the one it was asked for. */
  readonly backend: () => string | undefined;
  /** The person at this front end: whom the agent asks for, and who decides. */
  readonly person: () => string | undefined;
  /** Told when housekeeping or voiding failed. */
  readonly warn: (text: string) => void;
  /** How long a new request waits for the person (15 minutes when absent). */
  readonly ttlMs?: number;
  /** Requests of one credential that may wait at once (DEFAULT_MAX_PENDING when absent). */
  readonly maxPending?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/** How often stored approvals are housekept (expired, settled, old ones deleted). */
export const APPROVAL_SWEEP_MS = 60_000;

/** The Board's kept work: what was there at start, and the files that keep it from now on. */
export interface KeptBoardWork {
  /** Unsaved work of the last run; the front end restores it (and says so) when its backend answers. */
  readonly draft: KeptDraft | undefined;
  readonly draftPath: string;
  readonly historyPath: string;
  /** Brings back where the Board was (Back, Forward, the current step); true when there was something. */
  restoreHistory(): boolean;
}

export class XosApp {
  readonly state = new BoardState();
  readonly confirmer: QuestionConfirmer;
  readonly controller: BoardController;
  private readonly options: XosAppOptions;
  private readonly disposables: Array<{ dispose(): void }> = [];
  /** Run after the controller let go (the approvals store is closed last). */
  private readonly closing: Array<() => void> = [];
  private closed = false;
  /** Stored approvals, where the front end keeps them: the store as the desk watches it, and the desk. */
  private readonly stored: { readonly store: ApprovalStore; readonly desk: StoredApprovalDesk } | undefined;
  /** A pending approval and the Board's review or form it was asked from, as one decision. */
  private readonly decisions = new BoardDecisions(() => this.deps());

  constructor(options: XosAppOptions) {
    this.options = options;
    this.confirmer = options.confirmer(this);
    this.stored = options.storedApprovals && this.storeApprovals(options.storedApprovals);
    this.controller = new BoardController({
      state: this.state,
      client: options.client,
      locale: options.locale,
      deps: () => this.deps(),
      surface: options.surface,
      ui: options.ui(this),
      approvals: options.approvals ?? this.stored?.desk,
    });
  }

  /** The desk the Board lists and decides the pending approvals through, where the app has one. */
  get approvalDesk(): ApprovalDesk | undefined {
    return this.options.approvals ?? this.stored?.desk;
  }

  /** The stored approvals as the agent's tools and the person's desk use them (read fresh: mail settings and data sources change). */
  approvalDeps(): ApprovalDeps | undefined {
    const stored = this.stored;
    const options = this.options.storedApprovals;
    if (!stored || !options) return undefined;
    const mailer = this.options.mailer();
    const backend = options.backend();
    return {
      client: this.options.client, store: stored.store,
      ...(mailer ? { mailer } : {}), ...(backend === undefined ? {} : { backend }), ...(options.now ? { now: options.now } : {}),
      ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
      ...(options.maxPending === undefined ? {} : { maxPending: options.maxPending }),
    };
  }

  /** The desk over the stored approvals, their housekeeping now and every minute, and their voiding by the change feed. */
  private storeApprovals(options: StoredApprovalsOptions): { store: ApprovalStore; desk: StoredApprovalDesk } {
    const { store } = options;
    const desk = new StoredApprovalDesk({
      deps: () => this.approvalDeps()!,
      words: () => this.confirmer.words(),
      person: () => options.person() ?? 'the person',
      ...(store.dataVersion ? { changedElsewhere: () => store.dataVersion!() } : {}),
      onDecided: (outcome) => this.approvedOnBoard(outcome),
      board: this.decisions,
    });
    const watched = desk.watched(store);
    // The list follows what the person does on a review or form an approval was asked from.
    const following = this.state.onChange(() => {
      if (this.decisions.linked) desk.changed();
    });
    const sweep = () => {
      const deps = this.approvalDeps();
      if (deps && !this.closed) sweepApprovals(deps).catch((error: unknown) => options.warn(`could not housekeep the pending approvals: ${String(error)}`));
    };
    const sweeping = setInterval(sweep, APPROVAL_SWEEP_MS);
    sweeping.unref?.();
    const unsubscribe = this.options.client.feed?.subscribe((event) => {
      const deps = this.approvalDeps();
      if (event.kind !== 'changes' || !deps || this.closed) return;
      voidChanged(deps, event.changes).catch((error: unknown) => options.warn(`could not void the pending approvals of changed records: ${String(error)}`));
    });
    // Disposed after the controller (which listens to the desk); the store is closed last.
    this.closing.push(() => {
      following.dispose();
      clearInterval(sweeping);
      unsubscribe?.();
      desk.dispose();
      store.close();
    });
    queueMicrotask(() => {
      sweep();
      desk.changed(); // times the first expiry
    });
    return { store: watched, desk };
  }

  /** What every tool call and Board action gets, read fresh each time (settings and backends change). */
  deps(): XosDeps {
    const { client, locale, contacts, mailer, mailUndoSeconds, boardUrl } = this.options;
    const controller = this.controller;
    return {
      client, board: controller.board, confirmer: this.confirmer, locale: locale(), contacts: contacts(), mailer: mailer(),
      onSaved: (saved, outcome) => controller.records.savedNotice(saved, outcome),
      onBatchSaved: (outcome) => controller.records.batchSavedNotice(outcome),
      boardWriting: async () => {
        const approvals = this.approvalDeps();
        return approvals && this.decisions.writing(approvals, this.options.storedApprovals?.person() ?? 'the person');
      },
      boardSending: async (draft) => {
        const approvals = this.approvalDeps();
        return approvals && this.decisions.sending(approvals, draft, this.options.storedApprovals?.person() ?? 'the person');
      },
      mailWindow: {
        seconds: mailUndoSeconds(),
        onScheduled: (draft, sendAt) => controller.mail.scheduledNotice(draft, sendAt),
        onSettled: (outcome) => controller.mail.settled(outcome),
      },
      ...(boardUrl ? { boardUrl } : {}),
      ...this.agentApprovals(),
    };
  }

  /**
   * What an approved mail means for the Board, so it is not offered again: a mail that went out
   * (or may have) is sent for the Board too. (An approved review or form change is shown as
   * stored by the desk's BoardDecisions.)
   */
  private approvedOnBoard(outcome: DecideOutcome): void {
    if (outcome.kind !== 'decided') return;
    const { payload, outcome: result } = outcome.approval;
    if (payload.kind !== 'send') return;
    if (result?.kind === 'sent') sentByApproval(this.controller.board, payload.draft, { messageId: result.messageId, uncertain: false });
    else if (result?.kind === 'transfer_broke') sentByApproval(this.controller.board, payload.draft, { uncertain: true });
  }

  /** What the agent's tools get of the stored approvals: the deps to request one and ask its status, and whom the agent asks for. */
  private agentApprovals(): Pick<XosDeps, 'approvals' | 'person'> {
    const approvals = this.approvalDeps();
    if (!approvals) return {};
    const person = this.options.storedApprovals?.person();
    return {
      // The agent is told what waits in its own words (src/mcp/wording.ts), never in the person's question.
      approvals,
      ...(person === undefined ? {} : { person }),
    };
  }

  /**
   * Keeps the Board's unsaved work and its history in `dir` (written a moment after each change),
   * and reads what the last run kept there. `warn` hears a write that failed.
   */
  keepWork(dir: string, warn: (text: string) => void): KeptBoardWork {
    const drafts = new DraftFile(join(dir, 'board-draft.json'));
    const historyFile = new HistoryFile(join(dir, 'board-history.json'));
    const draft = drafts.read();
    const history = historyFile.read();
    // Disposed with the app, which writes what is still due.
    this.disposables.push(
      keepDrafts(this.state, drafts, { onError: (error) => warn(`could not keep the Board's unsaved work: ${String(error)}`) }),
      keepHistory(this.controller.history, historyFile, { onError: (error) => warn(`could not keep the Board's history: ${String(error)}`) }),
    );
    return {
      draft,
      draftPath: drafts.path,
      historyPath: historyFile.path,
      restoreHistory: () => {
        if (!history) return false;
        this.controller.history.restore(history, this.options.client.ast());
        return true;
      },
    };
  }

  /** The front end stops: kept work is written, the controller lets go (a mail in its undo window does not go out). */
  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.controller.dispose();
    this.closed = true;
    for (const close of this.closing.splice(0)) close();
  }
}
