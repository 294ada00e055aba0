// The page's own questions, where no VS Code notification exists (the browser Board)
// (src/board/pageQuestions.ts).
import { notification, request } from './messages.ts';

/**
 * A question for the person on the Board page itself (the browser Board of xos-mcp, where no
 * VS Code notification exists): save, delete or send, or whether to drop unsaved work.
 */
export interface Question {
  readonly id: number;
  readonly kind: 'save' | 'delete' | 'send' | 'discard';
  readonly message: string;
  /** The buttons' titles; the first one acts (Save, Delete, Send, Discard Changes). It is inert for 0.7 s whenever the question appears or changes. */
  readonly buttons: readonly string[];
  /** How many more questions wait for their turn behind this one (the page shows "1 more question waiting"). */
  readonly waiting?: number;
}

/** Asks the person; the answer is the clicked button's title, or null when the dialog was closed. */
export const ask = request<Question, { readonly choice: string | null }>('board/ask');

/** The question is void (timed out, the Board changed, answered elsewhere): the page closes it. */
export const withdrawQuestion = notification<{ readonly id: number }>('board/withdrawQuestion');

/** How many questions wait behind the open one changed (a newer question came, or one waiting left). */
export const questionWaiting = notification<{ readonly id: number; readonly waiting: number }>('board/questionWaiting');
