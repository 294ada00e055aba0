// The person's actions on the Board (save, delete, send, open …) fail the same way: a log
// line, the Board's status line, a notification "XOS could not …". runAction is that one
// place; the parts call it with their host (boardHost.ts).
import type { CoreDeps } from '../core/base.ts';
import type { Mailer } from '../core/domain.ts';
import type { SendWindow } from '../core/mailSend.ts';
import type { BoardOutcome } from '../core/outcomes.ts';
import type { PersonWords } from './outcomeText.ts';
import type { BoardUi } from './ports.ts';
import type { StatusLine } from './protocol.ts';

/** What a failing action reports through: the person's port (behind the text door) and the status line. */
export interface ActionReporter {
  readonly ui: Pick<BoardUi, 't' | 'tell' | 'log'>;
  setStatus(status: StatusLine | null): void;
}

/** How an action's failure is reported; a part left out is not reported (not every action logs, sets the status line or notifies). */
export interface ActionFailure {
  /** The log line's words before the error, e.g. 'Board save failed'. */
  readonly log?: string;
  /** The log line carries the error's stack, not only its message (the save and the send). */
  readonly stack?: boolean;
  /** The Board's status line for the error's message. */
  readonly status?: (message: string) => string;
  /** The notification: an l10n key whose last placeholder takes the error's message, and the values before it. */
  readonly notice?: readonly [key: string, ...args: ReadonlyArray<string | number>];
}

/** An error's message (anything thrown, not only Errors). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs an action; if it throws, the failure is logged, put on the status line and told as `failure` says. */
export async function runAction(reporter: ActionReporter, run: () => Promise<void>, failure: ActionFailure): Promise<void> {
  try {
    await run();
  } catch (error) {
    const message = errorText(error);
    const { ui } = reporter;
    if (failure.log !== undefined) ui.log.error(`${failure.log}: ${failure.stack && error instanceof Error ? error.stack ?? message : message}`);
    if (failure.status) reporter.setStatus({ kind: 'error', text: failure.status(message) });
    if (failure.notice) {
      const [key, ...args] = failure.notice;
      void ui.tell('error', ui.t(key, ...args, message));
    }
  }
}

/** How an outcome becomes the person's words (personText, or a variant of it in src/board/outcomeText.ts). */
export type OutcomeWording = (words: PersonWords, outcome: BoardOutcome) => string;

/** What the use cases of the person's actions get (the same the agent's tools get, mail included). */
export type BoardDeps = CoreDeps & { readonly mailer?: Mailer; readonly mailWindow?: SendWindow };
