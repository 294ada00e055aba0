// The host's one door to VS Code's notifications and message dialogs. Their message is not
// plain text (`[label](command:…)` becomes a link that runs a command) and is cut after
// 1,000 UTF-16 units, and most of them carry data (a record's name, an address, an error
// text, a path). So every vscode.window.show*Message call of the extension is here, with the
// message, the detail and the actions through personText.ts's sanitiser; lint
// (eslint.config.js) forbids calling them anywhere else in src/host.
import * as vscode from 'vscode';
import { personDoor, questionWithDetail } from '../board/personFacing.ts';

export type NoticeKind = 'info' | 'warning' | 'error';

export interface NoticeOptions {
  /** A modal dialog (which cannot be missed or clicked away by accident). */
  readonly modal?: boolean;
  /** The dialog's second paragraph (shown after the message in a notification). */
  readonly detail?: string;
}

const door = () => personDoor((message, ...args) => vscode.l10n.t(message, ...args));

/**
 * Shows `text` as a notification (or a modal dialog) with `actions`; resolves with the action
 * the person chose (the caller's title), or undefined.
 */
export async function notify(kind: NoticeKind, text: string, actions: readonly string[] = [], options: NoticeOptions = {}): Promise<string | undefined> {
  const through = door();
  const { shown, original } = through.actions(actions);
  let message: string;
  let detail: string | undefined;
  if (options.detail === undefined) message = through.text(text);
  else if (options.modal) ({ question: message, detail } = questionWithDetail(through, text, options.detail));
  else {
    // A notification has no detail: it follows the message, and stays whole.
    const parts = questionWithDetail(through, text, options.detail);
    message = `${parts.question} ${parts.detail}`;
  }
  const show = kind === 'info' ? vscode.window.showInformationMessage : kind === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  const chosen = options.modal === undefined && detail === undefined
    ? await show(message, ...shown)
    : await show(message, { modal: options.modal === true, ...(detail === undefined ? {} : { detail }) }, ...shown);
  return original(chosen);
}
