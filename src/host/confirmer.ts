// Asks the person in VS Code before XOS saves or sends: a warning notification
// (a modal dialog on production data, xos.environment) naming exactly what would happen. Only a click on Save / Send
// counts; closing it declines; no answer in time is a timeout. A notification
// cannot be closed from code, so a late click after a timeout or abort is ignored.
import * as vscode from 'vscode';
import { resolveText } from '../ast/locale.ts';
import type { Ast } from '../ast/schema.ts';
import { displayText, saveQuestion, sendQuestion, shorten } from '../board/confirmText.ts';
import type { DeleteAnswer, DeleteSummary } from '../core/domain.ts';
import type { Confirmer, MailDraft, SaveAnswer, SaveSummary, SendAnswer } from '../mcp/ports.ts';

export interface ConfirmerOptions {
  readonly ast: () => Ast;
  readonly locale: () => string;
  readonly timeoutSeconds: () => number;
  /** On production data the questions are modal dialogs, which cannot be missed or clicked away by accident. */
  readonly modal: () => boolean;
  readonly output: vscode.LogOutputChannel;
}

export class NotificationConfirmer implements Confirmer {
  private readonly options: ConfirmerOptions;

  constructor(options: ConfirmerOptions) {
    this.options = options;
  }

  async confirmSave(summary: SaveSummary, signal: AbortSignal): Promise<SaveAnswer> {
    const ast = this.options.ast();
    const locale = this.options.locale();
    const entity = resolveText(ast.entities[summary.entity]?.label, locale, ast.locales) ?? summary.entity;
    const save = vscode.l10n.t('Save');
    const discard = vscode.l10n.t('Discard');
    // Entity label and id are data too: shown through the same sanitiser as the values.
    const what = shorten(displayText(entity), 40);
    const id = shorten(displayText(summary.id), 40);
    const message = saveQuestion(summary.changes, {
      compose: (changes) => (summary.action === 'create'
        ? vscode.l10n.t('Create a new {0}? {1}', what, changes)
        : vscode.l10n.t('Save changes to {0} {1}? {2}', what, id, changes)),
      more: (count) => vscode.l10n.t('+{0} more (the Board shows all changes)', count),
    });
    this.options.output.info(`asking to save ${summary.entity} ${summary.id} (${summary.changes.map((c) => c.field).join(', ')})`);
    const answer = await this.ask(message, [save, discard], signal);
    const result: SaveAnswer = answer === 'timeout' ? 'timeout' : answer === save ? 'save' : 'discard';
    this.options.output.info(`save of ${summary.entity} ${summary.id}: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  async confirmDelete(summary: DeleteSummary, signal: AbortSignal): Promise<DeleteAnswer> {
    const ast = this.options.ast();
    const entity = resolveText(ast.entities[summary.entity]?.label, this.options.locale(), ast.locales) ?? summary.entity;
    const what = shorten(displayText(entity), 40);
    const record = summary.name ? `${shorten(displayText(summary.name), 80)} (#${shorten(displayText(summary.id), 40)})` : `#${shorten(displayText(summary.id), 40)}`;
    const remove = vscode.l10n.t('Delete');
    const cancel = vscode.l10n.t('Cancel');
    this.options.output.info(`asking to delete ${summary.entity} ${summary.id}`);
    const answer = await this.ask(vscode.l10n.t('Delete {0} {1}? This cannot be undone.', what, record), [remove, cancel], signal);
    const result: DeleteAnswer = answer === 'timeout' ? 'timeout' : answer === remove ? 'delete' : 'cancel';
    this.options.output.info(`delete of ${summary.entity} ${summary.id}: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  async confirmSend(draft: MailDraft, signal: AbortSignal): Promise<SendAnswer> {
    const send = vscode.l10n.t('Send');
    const cancel = vscode.l10n.t('Cancel');
    const message = sendQuestion(draft, (recipient, subject, preview) => vscode.l10n.t('Send this mail to {0}? Subject: {1}. {2}', recipient, subject, preview));
    this.options.output.info('asking to send a mail');
    const answer = await this.ask(message, [send, cancel], signal);
    const result: SendAnswer = answer === 'timeout' ? 'timeout' : answer === send ? 'send' : 'cancel';
    this.options.output.info(`mail send: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  /** The clicked button's title, undefined when closed, or 'timeout'/'aborted' first. */
  private ask(message: string, buttons: readonly string[], signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (value: string | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(() => finish('timeout'), this.options.timeoutSeconds() * 1000);
      signal.addEventListener('abort', onAbort, { once: true });
      void vscode.window.showWarningMessage(message, { modal: this.options.modal() }, ...buttons).then(finish, () => finish(undefined));
    });
  }
}
