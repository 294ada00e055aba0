// One XOS app, whatever front end runs it: the Board's state and controller, the person's
// questions, and the dependencies every tool call and Board action gets. The extension host
// (src/host/xosHost.ts) and xos-mcp (src/standalone/xosMcp.ts) build it the same way and add
// only what is theirs: where the Board is shown, how the person is spoken to, the backend,
// the MCP transport.
import { join } from 'node:path';
import type { ApprovalDesk } from '../board/approvalDesk.ts';
import { BoardController, type BoardSurface, type BoardUi } from '../board/controller.ts';
import type { QuestionConfirmer } from '../board/confirmer.ts';
import { DraftFile, HistoryFile, keepDrafts, keepHistory, type KeptDraft } from '../board/drafts.ts';
import { BoardState } from '../board/state.ts';
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
}

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

  constructor(options: XosAppOptions) {
    this.options = options;
    this.confirmer = options.confirmer(this);
    this.controller = new BoardController({
      state: this.state,
      client: options.client,
      locale: options.locale,
      deps: () => this.deps(),
      surface: options.surface,
      ui: options.ui(this),
      approvals: options.approvals,
    });
  }

  /** What every tool call and Board action gets, read fresh each time (settings and backends change). */
  deps(): XosDeps {
    const { client, locale, contacts, mailer, mailUndoSeconds, boardUrl } = this.options;
    const controller = this.controller;
    return {
      client, board: controller.board, confirmer: this.confirmer, locale: locale(), contacts: contacts(), mailer: mailer(),
      onSaved: (saved, outcome) => controller.savedNotice(saved, outcome),
      onBatchSaved: (outcome) => controller.batchSavedNotice(outcome),
      mailWindow: {
        seconds: mailUndoSeconds(),
        onScheduled: (draft, sendAt) => controller.mailScheduledNotice(draft, sendAt),
        onSettled: (outcome) => controller.mailSettled(outcome),
      },
      ...(boardUrl ? { boardUrl } : {}),
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
  }
}
