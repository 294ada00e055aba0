// The words of the save, delete and send questions, as one function each: the blocking question
// (confirmer.ts) and a stored approval on the Board (storedApprovalDesk.ts) ask in the same words.
import { resolveText } from '../ast/locale.ts';
import type { Ast } from '../ast/schema.ts';
import type { PendingApproval } from '../core/approvals.ts';
import type { DeleteSummary, MailDraft, SaveSummary } from '../core/domain.ts';
import { batchQuestion, displayText, othersEditingNote, saveQuestion, sendQuestion, shorten, signedNumber } from './confirmText.ts';
import type { Translate } from './texts.ts';

/** What the questions need: the app (labels), the Board's language and its translate function. */
export interface QuestionWords {
  readonly ast: Ast;
  readonly locale: string;
  readonly t: Translate;
}

function entityLabel(words: QuestionWords, entity: string): string {
  const { ast, locale } = words;
  // Entity label and id are data too: shown through the same sanitiser as the values.
  return shorten(displayText(resolveText(ast.entities[entity]?.label, locale, ast.locales) ?? entity), 40);
}

/** "Save changes to Person Anna Muster (#12)? City: Bonn → Kiel" (or the new record's, or a reviewed batch's question). */
export function saveQuestionText(summary: SaveSummary, words: QuestionWords): string {
  const { t } = words;
  const what = entityLabel(words, summary.entity);
  const id = recordText(summary);
  const numbers = new Intl.NumberFormat(words.locale);
  const batch = summary.batch;
  return batch ? batchQuestion(batch, {
    compose: (records, body) => (batch.undo ? t('Undo the change to {0} records of {1}? {2}', records, what, body) : t('Save changes to {0} records of {1}? {2}', records, what, body)),
    count: (n) => numbers.format(n),
    numeric: (label, min, max, total) => t('{0}: change {1} to {2}, total {3}', label, ...[min, max, total].map((n) => signedNumber(n, words.locale))),
    times: (count, value) => `${count}× ${value}`,
    moreValues: (count) => t('+{0} more values', count),
    more: (count) => t('+{0} more (the Board shows all changes)', count),
    ...(batch.changedSince ? {
      note: batch.changedSince === 1
        ? t('1 record was changed or deleted since and is left out: it stays as it is.')
        : t('{0} records were changed or deleted since and are left out: they stay as they are.', numbers.format(batch.changedSince)),
    } : {}),
  }) : saveQuestion(summary.changes, {
    compose: (changes) => (summary.action === 'create'
      ? t('Create a new {0}? {1}', what, changes)
      : t('Save changes to {0} {1}? {2}', what, id, changes)),
    more: (count) => t('+{0} more (the Board shows all changes)', count),
    note: othersEditingNote(summary.othersEditing ?? [], {
      one: (name) => t('{0} is editing this record too.', name),
      many: (names) => t('{0} are editing this record too.', names),
    }),
  });
}

/** "Delete Person Anna Muster (#12)? This cannot be undone." */
export function deleteQuestionText(summary: DeleteSummary, words: QuestionWords): string {
  const what = entityLabel(words, summary.entity);
  const record = summary.name ? recordText(summary) : `#${shorten(displayText(summary.id), 40)}`;
  return words.t('Delete {0} {1}? This cannot be undone.', what, record);
}

/** A record as a question names it: "Anna Muster (#12)", or its id alone when it has no name ("12"). */
function recordText(record: { readonly id: string; readonly name?: string }): string {
  const id = shorten(displayText(record.id), 40);
  return record.name ? `${shorten(displayText(record.name), 80)} (#${id})` : id;
}

/** "Send this mail to …? Subject: …. …" */
export function sendQuestionText(draft: MailDraft, t: Translate): string {
  return sendQuestion(draft, (recipient, subject, preview) => t('Send this mail to {0}? Subject: {1}. {2}', recipient, subject, preview));
}

/** The question of a stored approval, as the blocking question words it. */
export function approvalQuestion(approval: Pick<PendingApproval, 'kind' | 'summary'>, words: QuestionWords): string {
  switch (approval.kind) {
    case 'send': return sendQuestionText(approval.summary as MailDraft, words.t);
    case 'delete': return deleteQuestionText(approval.summary as DeleteSummary, words);
    case 'save':
    case 'create':
    case 'batch':
      return saveQuestionText(approval.summary as SaveSummary, words);
  }
}
