// The one seam between the Board's controller (controller.ts, wiring only) and its parts: the
// record actions, the mail draft, the list, the review, navigation, the approval desk and live
// updates. The controller implements BoardHost; each part (a BoardPart) gets it, registers the
// page's messages it answers and sends its own part of the page, so adding a part is a file and
// a line of wiring, not another hand-built host.
import type { Ast } from '../ast/schema.ts';
import type { BoardHistory } from '../core/history.ts';
import type { Board } from '../core/domain.ts';
import type { BoardOutcome } from '../core/outcomes.ts';
import type { PersonDoor } from './personFacing.ts';
import type { BoardUi } from './ports.ts';
import type { MessageEndpoint, NotificationType, RequestType, StatusLine } from './protocol.ts';
import type { ActionReporter, BoardDeps, OutcomeWording } from './runAction.ts';
import type { BoardState } from './state.ts';

/** What every part of the Board uses of the controller. */
export interface BoardHost extends ActionReporter {
  /** The front end's port, every text through the door (personFacing.ts). */
  readonly ui: BoardUi;
  /** The same door for what the page itself shows the person. */
  readonly door: PersonDoor;
  readonly state: BoardState;
  /** The Board the tools use (its form data flushed from the page). */
  readonly board: Board;
  /** Back, Forward and the breadcrumb over everything the Board showed. */
  readonly history: BoardHistory;
  /** What the use cases of the person's actions get (the same the agent's tools get). */
  deps(): BoardDeps;
  /** The Board's locale. */
  locale(): string;
  ast(): Ast;
  /** The id of the list the page shows now: a message about an older list is ignored. */
  listId(): number;
  /** An outcome in the Board's language, for its status line (worded by `wording`, personText unless told otherwise). */
  said(outcome: BoardOutcome, wording?: OutcomeWording): string;
  /** An outcome for the log: its kind and the person's words in English. */
  logged(outcome: BoardOutcome): string;
  /** An outcome in the front end's language, for a notification (worded by `wording`, personText unless told otherwise). */
  told(outcome: BoardOutcome, wording?: OutcomeWording): string;
  /** The status line, about the view shown now; `withMail` sends the mail part with it (a draft shows whether it is being sent). */
  setStatus(status: StatusLine | null, withMail?: boolean): void;
  /** Applies the page's own edit to the state without sending it back while the person types. */
  applyPageEdit(edit: () => void): void;
  /** Whether a page is connected and has said ready (what only the page needs is worked out only then). */
  pageConnected(): boolean;
  /** Tells the connected page something; nothing when no page is ready. */
  notifyPage<P>(type: NotificationType<P>, params: P): void;
  /** Asks the connected page and waits for its answer; rejects when no page is ready or it does not answer in time. */
  requestPage<P, R>(type: RequestType<P, R>, params: P, timeoutMs: number): Promise<R>;
  /** Shows the Board where it is shown. */
  open(preserveFocus: boolean): void;
  /** Back or Forward (navigationPart.ts). */
  navigate(direction: 'back' | 'forward'): Promise<void>;
}

/** A part of the Board: the messages from the page it answers, and what it sends when the page is ready. */
export interface BoardPart {
  /** Registers this part's handlers on a newly connected page. */
  register?(endpoint: MessageEndpoint): void;
  /** The page said ready (again, after a reload): send this part whole. */
  pageReady?(): void;
  dispose?(): void;
}
