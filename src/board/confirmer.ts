// Asks the person before XOS saves, deletes or sends, naming exactly what would happen.
// Where the question appears is the front end's (a VS Code notification, a dialog on the
// browser Board page); the words, the buttons and the rules are here: only a click on
// Save / Delete / Send counts, closing the question declines, no answer in time is a
// timeout, and a question voided by an abort is answered by nobody.
//
// One question at a time, in turn: a question asked while another is open waits in a queue
// (the open one is never replaced; the front end shows how many wait), and the next one
// appears only `gapMs` (0.7 s) after the last one closed, so a second click meant for the
// last question never lands on the next one's Save or Send.
import type { Ast } from '../ast/schema.ts';
import { deleteQuestionText, saveQuestionText, sendQuestionText, type QuestionWords } from './questionText.ts';
import type { Confirmer, DeleteAnswer, DeleteSummary, MailDraft, SaveAnswer, SaveSummary, SendAnswer } from '../core/domain.ts';
import type { Translate } from './texts.ts';

/** What a question is about (a front end may style or route them differently). */
export type QuestionKind = 'save' | 'delete' | 'send' | 'discard';

/**
 * Shows one question with its buttons; resolves with the clicked button's title, or undefined
 * when it was closed. The signal aborts it (timeout or void): the front end then withdraws it
 * where it can.
 */
export type AskPerson = (question: AskedQuestion, signal: AbortSignal) => Promise<string | undefined>;

/** A question as the front end shows it. */
export interface AskedQuestion {
  readonly kind: QuestionKind;
  readonly message: string;
  readonly buttons: readonly string[];
  /**
   * How many more questions wait behind this one when it is shown, and (`onWaiting`) each later
   * change of that number while it is open; `waitingText` words it ("1 more question waiting").
   * Front ends that cannot show it ignore them.
   */
  readonly waiting?: number;
  readonly onWaiting?: (listener: (waiting: number) => void) => () => void;
}

/** Before the next question appears after one closed (answered, timed out or withdrawn). */
export const QUESTION_GAP_MS = 700;

export interface QuestionConfirmerOptions {
  readonly ast: () => Ast;
  readonly locale: () => string;
  readonly t: Translate;
  readonly timeoutSeconds: () => number;
  readonly ask: AskPerson;
  /** Why nobody can be asked now (no Board page open), with where to confirm; undefined when someone can. */
  readonly unavailable?: () => string | undefined;
  readonly log: { info(text: string): void };
  /** The pause before a question appears after the last one closed (default `QUESTION_GAP_MS`). */
  readonly gapMs?: number;
  /** How many questions wait behind the shown one, at every change (0: none). */
  readonly onWaiting?: (waiting: number) => void;
}

/** "1 more question waiting", "3 more questions waiting" (English and, through `t`, German). */
export function waitingText(t: Translate, waiting: number): string {
  return waiting === 1 ? t('1 more question waiting') : t('{count} more questions waiting').replace('{count}', String(waiting));
}

/** A question in turn: waiting in the queue, or shown. */
interface Turn {
  readonly kind: QuestionKind;
  /** Shows it (its turn came): the front end asks, its clock starts anew. */
  readonly show: () => void;
  /** Settles the asker's promise once: the button's title, undefined (closed, voided), or 'timeout'. */
  readonly finish: (value: string | undefined) => void;
  readonly waitingListeners: Set<(waiting: number) => void>;
}

export class QuestionConfirmer implements Confirmer {
  private readonly options: QuestionConfirmerOptions;
  /** The question the person sees now, and the ones waiting for their turn (oldest first). */
  private shown: Turn | undefined;
  private readonly queue: Turn[] = [];
  /** No question appears before this time (ms since the epoch): the gap after the last one closed. */
  private notBefore = 0;
  private gapTimer: ReturnType<typeof setTimeout> | undefined;
  /** The number last told (`onWaiting`, the shown question's listeners). */
  private lastWaiting = 0;

  constructor(options: QuestionConfirmerOptions) {
    this.options = options;
  }

  unavailable(): string | undefined {
    return this.options.unavailable?.();
  }

  async confirmSave(summary: SaveSummary, signal: AbortSignal): Promise<SaveAnswer> {
    const { t } = this.options;
    const save = t('Save');
    const discard = t('Discard');
    const batch = summary.batch;
    const message = saveQuestionText(summary, this.words());
    this.options.log.info(batch
      ? `asking to save ${batch.records} ${summary.entity} records (${batch.fields.map((f) => f.field).join(', ')})`
      : `asking to save ${summary.entity} ${summary.id} (${summary.changes.map((c) => c.field).join(', ')})`);
    const answer = await this.ask('save', message, [save, discard], signal);
    const result: SaveAnswer = answer === 'timeout' ? 'timeout' : answer === save ? 'save' : 'discard';
    this.options.log.info(`save of ${summary.entity} ${summary.id}: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  async confirmDelete(summary: DeleteSummary, signal: AbortSignal): Promise<DeleteAnswer> {
    const { t } = this.options;
    const remove = t('Delete');
    const cancel = t('Cancel');
    this.options.log.info(`asking to delete ${summary.entity} ${summary.id}`);
    const answer = await this.ask('delete', deleteQuestionText(summary, this.words()), [remove, cancel], signal);
    const result: DeleteAnswer = answer === 'timeout' ? 'timeout' : answer === remove ? 'delete' : 'cancel';
    this.options.log.info(`delete of ${summary.entity} ${summary.id}: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  async confirmSend(draft: MailDraft, signal: AbortSignal): Promise<SendAnswer> {
    const { t } = this.options;
    const send = t('Send');
    const cancel = t('Cancel');
    const message = sendQuestionText(draft, t);
    this.options.log.info('asking to send a mail');
    const answer = await this.ask('send', message, [send, cancel], signal);
    const result: SendAnswer = answer === 'timeout' ? 'timeout' : answer === send ? 'send' : 'cancel';
    this.options.log.info(`mail send: ${signal.aborted ? 'question voided' : result}`);
    return result;
  }

  /** What the questions are worded with now (a stored approval on the Board is asked in the same words). */
  words(): QuestionWords {
    return { ast: this.options.ast(), locale: this.options.locale(), t: this.options.t };
  }

  /** Whether a question is shown or waiting for its turn (also in the short gap between two). */
  get asking(): boolean {
    return this.shown !== undefined || this.queue.length > 0;
  }

  /** How many questions wait behind the shown one. */
  get waiting(): number {
    return this.waitingNow();
  }

  /**
   * Any question in turn with the save, delete and send questions (a front end's "drop unsaved
   * changes?" too): the clicked button's title, undefined when closed or voided, or 'timeout'.
   */
  askInTurn(question: { kind: QuestionKind; message: string; buttons: readonly string[] }, signal: AbortSignal): Promise<string | undefined> {
    return this.ask(question.kind, question.message, question.buttons, signal);
  }

  /**
   * The clicked button's title, undefined when closed or voided, or 'timeout'. A question waits
   * in the queue while another is shown: at most the timeout there (then 'timeout', unseen), and
   * the full timeout again once it is shown, so the person always has the whole time to read it.
   */
  private ask(kind: QuestionKind, message: string, buttons: readonly string[], signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const withdraw = new AbortController();
      const waitingListeners = new Set<(waiting: number) => void>();
      const startTimer = () => {
        clearTimeout(timer);
        timer = setTimeout(() => turn.finish('timeout'), this.options.timeoutSeconds() * 1000);
      };
      const turn: Turn = {
        kind,
        waitingListeners,
        show: () => {
          this.shown = turn;
          startTimer();
          this.waitingChanged();
          const question: AskedQuestion = {
            kind, message, buttons,
            waiting: this.queue.length,
            onWaiting: (listener) => {
              waitingListeners.add(listener);
              return () => waitingListeners.delete(listener);
            },
          };
          let asked: Promise<string | undefined>;
          try {
            asked = this.options.ask(question, withdraw.signal);
          } catch {
            asked = Promise.resolve(undefined);
          }
          asked.then((value) => turn.finish(value), () => turn.finish(undefined));
        },
        finish: (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          const queued = this.queue.indexOf(turn);
          if (queued >= 0) {
            // Timed out or voided before its turn: it leaves the queue unseen.
            this.queue.splice(queued, 1);
            this.waitingChanged();
          }
          if (this.shown === turn) {
            this.shown = undefined;
            // A question nobody answers any more is withdrawn where the front end can (a late click is ignored anyway).
            withdraw.abort();
            this.notBefore = Date.now() + (this.options.gapMs ?? QUESTION_GAP_MS);
            this.next();
          }
          resolve(value);
        },
      };
      const onAbort = () => turn.finish(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      // The clock runs in the queue too: a question nobody could get to in time is a timeout, unseen.
      startTimer();
      this.queue.push(turn);
      if (this.shown || this.queue.length > 1) this.options.log.info(`a ${kind} question waits for its turn (${this.waitingNow()} waiting)`);
      this.waitingChanged();
      this.next();
    });
  }

  /** Shows the oldest waiting question when none is shown and the gap after the last one has passed. */
  private next(): void {
    if (this.shown || this.queue.length === 0 || this.gapTimer !== undefined) return;
    const wait = this.notBefore - Date.now();
    if (wait > 0) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = undefined;
        this.next();
      }, wait);
      return;
    }
    this.queue.shift()!.show();
  }

  /** Tells the shown question and the front end how many wait now. */
  private waitingChanged(): void {
    const waiting = this.waitingNow();
    if (waiting === this.lastWaiting) return;
    this.lastWaiting = waiting;
    for (const listener of this.shown?.waitingListeners ?? []) listener(waiting);
    this.options.onWaiting?.(waiting);
  }

  /** Questions behind the one shown now, or behind the one shown next (in the gap between two). */
  private waitingNow(): number {
    return this.shown ? this.queue.length : Math.max(0, this.queue.length - 1);
  }
}
