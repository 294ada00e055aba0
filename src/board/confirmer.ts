// Asks the person before XOS saves, deletes or sends, naming exactly what would happen.
// Where the question appears is the front end's (a VS Code notification, a dialog on the
// browser Board page); the words, the buttons and the rules are here: only a click on
// Save / Delete / Send counts, closing the question declines, no answer in time is a
// timeout, and a question voided by an abort is answered by nobody.
import { resolveText } from '../ast/locale.ts';
import type { Ast } from '../ast/schema.ts';
import { displayText, saveQuestion, sendQuestion, shorten } from './confirmText.ts';
import type { Confirmer, DeleteAnswer, DeleteSummary, MailDraft, SaveAnswer, SaveSummary, SendAnswer } from '../core/domain.ts';
import type { Translate } from './texts.ts';

/** What a question is about (a front end may style or route them differently). */
export type QuestionKind = 'save' | 'delete' | 'send';

/**
 * Shows one question with its buttons; resolves with the clicked button's title, or undefined
 * when it was closed. The signal aborts it (timeout or void): the front end then withdraws it
 * where it can.
 */
export type AskPerson = (question: { kind: QuestionKind; message: string; buttons: readonly string[] }, signal: AbortSignal) => Promise<string | undefined>;

export interface QuestionConfirmerOptions {
  readonly ast: () => Ast;
  readonly locale: () => string;
  readonly t: Translate;
  readonly timeoutSeconds: () => number;
  readonly ask: AskPerson;
  /** Why nobody can be asked now (no Board page open), with where to confirm; undefined when someone can. */
  readonly unavailable?: () => string | undefined;
  readonly log: { info(text: string): void };
}

export class QuestionConfirmer implements Confirmer {
  private readonly options: QuestionConfirmerOptions;

  constructor(options: QuestionConfirmerOptions) {
    this.options = options;
  }

  unavailable(): string | undefined {
    return this.options.unavailable?.();
  }

  async confirmSave(summary: SaveSummary, signal: AbortSignal): Promise<SaveAnswer> {
    const { t } = this.options;
    const ast = this.options.ast();
    const entity = resolveText(ast.entities[summary.entity]?.label, this.options.locale(), ast.locales) ?? summary.entity;
    const save = t('Save');
    const discard = t('Discard');
    // Entity label and id are data too: shown through the same sanitiser as the values.
    const what = shorten(displayText(entity), 40);
    const id = shorten(displayText(summary.id), 40);
    const message = saveQuestion(summary.changes, {
      compose: (changes) => (summary.action === 'create'
        ? t('Create a new {0}? {1}', what, changes)
        : t('Save changes to {0} {1}? {2}', what, id, changes)),
      more: (count) => t('+{0} more (the Board shows all changes)', count),
    });
    this.options.log.info(`asking to save ${summary.entity} ${summary.id} (${summary.changes.map((c) => c.field).join(', ')})`);
    const answer = await this.ask('save', message, [save, discard], signal);
    const result: SaveAnswer = answer === 'timeout' ? 'timeout' : answer === save ? 'save' : 'discard';
    this.options.log.info(`save of ${summary.entity} ${summary.id}: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  async confirmDelete(summary: DeleteSummary, signal: AbortSignal): Promise<DeleteAnswer> {
    const { t } = this.options;
    const ast = this.options.ast();
    const entity = resolveText(ast.entities[summary.entity]?.label, this.options.locale(), ast.locales) ?? summary.entity;
    const what = shorten(displayText(entity), 40);
    const record = summary.name ? `${shorten(displayText(summary.name), 80)} (#${shorten(displayText(summary.id), 40)})` : `#${shorten(displayText(summary.id), 40)}`;
    const remove = t('Delete');
    const cancel = t('Cancel');
    this.options.log.info(`asking to delete ${summary.entity} ${summary.id}`);
    const answer = await this.ask('delete', t('Delete {0} {1}? This cannot be undone.', what, record), [remove, cancel], signal);
    const result: DeleteAnswer = answer === 'timeout' ? 'timeout' : answer === remove ? 'delete' : 'cancel';
    this.options.log.info(`delete of ${summary.entity} ${summary.id}: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  async confirmSend(draft: MailDraft, signal: AbortSignal): Promise<SendAnswer> {
    const { t } = this.options;
    const send = t('Send');
    const cancel = t('Cancel');
    const message = sendQuestion(draft, (recipient, subject, preview) => t('Send this mail to {0}? Subject: {1}. {2}', recipient, subject, preview));
    this.options.log.info('asking to send a mail');
    const answer = await this.ask('send', message, [send, cancel], signal);
    const result: SendAnswer = answer === 'timeout' ? 'timeout' : answer === send ? 'send' : 'cancel';
    this.options.log.info(`mail send: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  /** The clicked button's title, undefined when closed or voided, or 'timeout'. */
  private ask(kind: QuestionKind, message: string, buttons: readonly string[], signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let settled = false;
      const withdraw = new AbortController();
      const finish = (value: string | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        // A question nobody answered any more is withdrawn where the front end can (a late click is ignored anyway).
        withdraw.abort();
        resolve(value);
      };
      const onAbort = () => finish(undefined);
      const timer = setTimeout(() => finish('timeout'), this.options.timeoutSeconds() * 1000);
      signal.addEventListener('abort', onAbort, { once: true });
      this.options.ask({ kind, message, buttons }, withdraw.signal).then(finish, () => finish(undefined));
    });
  }
}
