// The ports a front end gives the Board (src/host/ for VS Code, src/app/ and src/standalone/ for
// the browser page): where it is shown and how it speaks to the person outside its page.
import type { Translate } from './texts.ts';

/** Where the Board is shown: a VS Code webview panel, or browser pages. */
export interface BoardSurface {
  /** Shows the Board (opens or reveals it where it can). */
  show(preserveFocus: boolean): void;
  isOpen(): boolean;
  isVisible(): boolean;
  /** The surface's title (marked while the form holds unsaved work). */
  setTitle(title: string): void;
}

export type MessageKind = 'info' | 'warning' | 'error';

/** The destination of a CSV export and how its progress is shown. */
export interface CsvExport {
  /** Where it was written, for the message (a path, a file name). */
  readonly where: string;
  /** Runs the export with a chunk sink; the signal aborts it (the person cancelled). */
  run(write: (sink: (chunk: string) => Promise<void>, signal: AbortSignal) => Promise<number>): Promise<number>;
}

/** How the Board speaks to the person outside its page: messages, questions, settings. */
export interface BoardUi {
  /** Texts in the front end's language (vscode.l10n in VS Code, the Board's bundle elsewhere). */
  readonly t: Translate;
  /** A message with optional actions; resolves with the action taken, if any. */
  tell(kind: MessageKind, text: string, ...actions: string[]): Promise<string | undefined>;
  /** Asks before unsaved work is dropped; true only when the person chose `discard`. */
  askDiscard(question: string, detail: string, discard: string): Promise<boolean>;
  /** Makes `locale` the Board's language (the front end's setting). */
  setLocale(locale: string): void;
  /** Where a list's CSV goes (the person picks it), or undefined when they cancelled. */
  csvExport(context: string, label: string): Promise<CsvExport | undefined>;
  readonly log: { info(text: string): void; warn(text: string): void; error(text: string): void };
}
