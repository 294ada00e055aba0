// Asks the person in VS Code before XOS saves or sends: a warning notification (a modal
// dialog on production data, xos.environment) with the words of src/board/confirmer.ts.
// A notification cannot be closed from code, so a late click after a timeout or abort is ignored.
// The question passes the door of text shown to the person (src/board/personFacing.ts) at the port.
import * as vscode from 'vscode';
import type { Ast } from '../ast/schema.ts';
import { QuestionConfirmer, waitingText } from '../board/confirmer.ts';
import { personFacingAsk } from '../board/personFacing.ts';
import type { Translate } from '../board/texts.ts';
import { notify } from './notify.ts';

export interface ConfirmerOptions {
  readonly ast: () => Ast;
  readonly locale: () => string;
  readonly timeoutSeconds: () => number;
  /** On production data the questions are modal dialogs, which cannot be missed or clicked away by accident. */
  readonly modal: () => boolean;
  readonly output: vscode.LogOutputChannel;
}

export function notificationConfirmer(options: ConfirmerOptions): QuestionConfirmer {
  const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);
  return new QuestionConfirmer({
    ast: options.ast,
    locale: options.locale,
    t,
    timeoutSeconds: options.timeoutSeconds,
    // A notification cannot change its text, so it names the questions waiting behind it when it appears.
    ask: personFacingAsk(async ({ message, buttons, waiting }) => notify('warning', waiting ? `${message} (${waitingText(t, waiting)})` : message, buttons, { modal: options.modal() }), t),
    log: options.output,
  });
}
