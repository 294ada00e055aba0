// Asks the person in VS Code before XOS saves or sends: a warning notification (a modal
// dialog on production data, xos.environment) with the words of src/board/confirmer.ts.
// A notification cannot be closed from code, so a late click after a timeout or abort is ignored.
import * as vscode from 'vscode';
import type { Ast } from '../ast/schema.ts';
import { QuestionConfirmer } from '../board/confirmer.ts';

export interface ConfirmerOptions {
  readonly ast: () => Ast;
  readonly locale: () => string;
  readonly timeoutSeconds: () => number;
  /** On production data the questions are modal dialogs, which cannot be missed or clicked away by accident. */
  readonly modal: () => boolean;
  readonly output: vscode.LogOutputChannel;
}

export function notificationConfirmer(options: ConfirmerOptions): QuestionConfirmer {
  return new QuestionConfirmer({
    ast: options.ast,
    locale: options.locale,
    t: (message, ...args) => vscode.l10n.t(message, ...args),
    timeoutSeconds: options.timeoutSeconds,
    ask: async ({ message, buttons }) => vscode.window.showWarningMessage(message, { modal: options.modal() }, ...buttons),
    log: options.output,
  });
}
