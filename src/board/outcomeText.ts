// The person's words for what showing, saving, creating, deleting, undoing or sending came to (the outcomes of
// src/core/outcomes.ts), in the Board's language through `t` (vscode.l10n in VS Code, the
// Board's bundle elsewhere; German in l10n/bundle.l10n.de.json). Entities and fields by
// their labels, values whole; never a tool name or an instruction meant for the agent, nor a
// record's version (a row digest on the person's own tables, an internal counter on XOS's: it
// tells the person nothing; the agent's words for the same outcomes, in src/mcp/wording.ts, keep it).
import type { Ast } from '../ast/schema.ts';
import { fieldLabel } from '../ast/lookup.ts';
import { appModel } from '../ast/appModel.ts';
import { describeValue } from '../ast/values.ts';
import type { Action, BoardOutcome, FieldValue, QueryRefusal, RecordProblem } from '../core/outcomes.ts';
import { textsThrough, type Translate } from './texts.ts';

/** What the wording needs besides `t`: labels and times as the person reads them. */
export interface PersonWords {
  readonly t: Translate;
  /** An entity's label (`person` → "Person"). */
  entity(entity: string): string;
  /** A field's label. */
  field(entity: string, field: string): string;
  /** A context's label. */
  context(context: string): string;
  /** A field's label, by the context that shows it. */
  contextField(context: string, field: string): string;
  /** A moment (ISO text) as a local time. */
  time(iso: string): string;
  /** A count as the locale writes it (2,000 / 2.000). */
  count(n: number): string;
}

/** The person's words for the app's labels in a locale. */
export function personWords(t: Translate, ast: Ast, locale: string): PersonWords {
  const model = appModel(ast, locale);
  const entityLabels = new Map<string, string>();
  for (const name of Object.keys(ast.contexts)) {
    const context = model.context(name);
    if (context && !entityLabels.has(ast.contexts[name].entity)) entityLabels.set(ast.contexts[name].entity, context.entityLabel);
  }
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  const counts = new Intl.NumberFormat(locale);
  return {
    t,
    count: (n) => counts.format(n),
    entity: (entity) => entityLabels.get(entity) ?? entity,
    field: (entity, field) => fieldLabel(ast, entity, field, locale),
    context: (context) => model.context(context)?.label ?? context,
    contextField: (context, field) => (Object.hasOwn(ast.contexts, context) ? fieldLabel(ast, ast.contexts[context].entity, field, locale) : field),
    time: (iso) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : time.format(date);
    },
  };
}

function storedList(words: PersonWords, entity: string, values: readonly FieldValue[]): string {
  if (!values.length) return '';
  const list = values.map((v) => `${words.field(entity, v.field)}: ${describeValue(v.value)}`).join('; ');
  return ` ${words.t('Stored: {0}.', list)}`;
}

function declined(t: Translate, action: Action, answer: 'discard' | 'cancel' | 'timeout'): string {
  const late = answer === 'timeout';
  switch (action) {
    case 'save': return late ? t('Not saved: the question was not answered in time.') : t('Not saved: you chose Discard.');
    case 'create': return late ? t('Not created: the question was not answered in time.') : t('Not created: you chose Discard.');
    case 'delete': return late ? t('Not deleted: the question was not answered in time.') : t('Not deleted: you chose Cancel.');
    case 'send': return late ? t('Not sent: the question was not answered in time.') : t('Not sent: you chose Cancel.');
  }
}

function notAsked(t: Translate, action: Action, reason: string): string {
  switch (action) {
    case 'save': return t('Not saved: {0}', reason);
    case 'create': return t('Not created: {0}', reason);
    case 'delete': return t('Not deleted: {0}', reason);
    case 'send': return t('Not sent: {0}', reason);
  }
}

function changedWhileAsked(t: Translate, action: Action): string {
  switch (action) {
    case 'save': return t('Not saved: the form changed while you were asked. Check it and save again.');
    case 'create': return t('Not created: the form changed while you were asked. Check it and save again.');
    case 'delete': return t('Not deleted: the Board changed while you were asked.');
    case 'send': return t('Not sent: the draft changed while you were asked. Check it and send again.');
  }
}

/** Why the agent's query was refused, in a few words for the person: what kind of thing was wrong, not the rule. */
function queryRefusal(words: PersonWords, refusal: QueryRefusal): string {
  const { t } = words;
  const context = words.context(refusal.context);
  switch (refusal.kind) {
    case 'unknown_context': return t('The query was refused: the app has no context {0}.', refusal.context);
    case 'not_graphql': return t('The query was refused: it is not valid GraphQL.');
    case 'not_a_query': return t('The query was refused: it would change data, and a query may only read.');
    case 'not_only_operations':
    case 'operation_count':
    case 'root_field':
    case 'root_alias':
    case 'directive':
    case 'variable':
    case 'fragment':
    case 'alias':
      return t('The query was refused: it is not written as one simple query.');
    case 'no_selection': return t('The query was refused: it asks for no fields of {0}.', context);
    case 'list_fields':
      if (!refusal.extra.length) return t('The query was refused: it leaves out fields of {0}.', context);
      return refusal.missing.length
        ? t('The query was refused: it does not ask for exactly the fields of {0} available to it.', context)
        : t('The query was refused: it asks for fields of {0} that are not available to it.', context);
    case 'too_deep': return t('The query was refused: it follows links between records too far.');
    case 'not_selectable': return t('The query was refused: it asks for a field that is not available to it.');
    case 'takes_no_arguments':
    case 'not_a_relation':
    case 'needs_selection':
      return t('The query was refused: it asks for fields in a way that is not allowed.');
    case 'list_argument':
    case 'repeated_argument':
    case 'detail_argument':
    case 'count':
      return t('The query was refused: it narrows down the records in a way that is not allowed.');
    case 'detail_id': return t('The query was refused: it does not say which record of {0} to show.', context);
    case 'not_filterable':
    case 'where_depth':
    case 'where_not_object':
    case 'no_operator':
    case 'unknown_operator':
    case 'not_scalar':
      return t('The query was refused: its filter is not allowed.');
    case 'order_by_shape':
    case 'order_by_relation':
    case 'sort_direction':
      return t('The query was refused: its sort order is not allowed.');
  }
}

/** Why given data does not fit the context, by its first record that does not fit (counted from 1). */
function recordProblem(words: PersonWords, context: string, index: number, problem: RecordProblem): string {
  const { t } = words;
  const label = words.context(context);
  const item = index + 1;
  switch (problem.kind) {
    case 'not_object': return t('The data does not fit {0}: item {1} is not a record.', label, item);
    case 'unknown_fields': return t('The data does not fit {0}: item {1} has fields it may not contain ({2}).', label, item, problem.fields.join(', '));
    case 'not_a_list': return t('The data does not fit {0}: in item {1}, {2} is not a list of records.', label, item, words.contextField(context, problem.field));
    case 'value': {
      const value = problem.value;
      return t('The data does not fit {0}: item {1}, {2}: {3}', label, item, words.field(value.entity, value.field), textsThrough(t).problem(value.problem));
    }
  }
}

/** That a save met someone else's newer version: what happened, without what to do next. */
function changedMeanwhile(words: PersonWords, outcome: Extract<BoardOutcome, { kind: 'conflict' }>): string {
  return words.t('Not saved: {0} {1} was changed by someone else meanwhile.', words.entity(outcome.entity), outcome.id);
}

/**
 * A save's outcome while the form shows open conflicts: the form itself says beside Save that someone
 * else saved the record and what to do (texts.settleConflicts), so the status line and the
 * notification say only what happened — the person never reads the same advice twice.
 */
export function besideOpenConflicts(words: PersonWords, outcome: BoardOutcome): string {
  switch (outcome.kind) {
    case 'conflict': return changedMeanwhile(words, outcome);
    case 'open_conflicts': return words.t('Not saved: the marked fields wait for your choice.');
    default: return personText(words, outcome);
  }
}

/** An outcome as the person reads it, in the language of `words.t`. */
export function personText(words: PersonWords, outcome: BoardOutcome): string {
  const { t } = words;
  switch (outcome.kind) {
    case 'saved': {
      const head = outcome.lostAnswer === undefined
        ? t('Saved {0} {1}.', words.entity(outcome.entity), outcome.id)
        : t('Saved {0} {1}, although the answer to the save was lost ({2}).', words.entity(outcome.entity), outcome.id, outcome.lostAnswer);
      return `${head}${storedList(words, outcome.entity, outcome.stored)}`;
    }
    case 'created':
      return `${t('Created {0} {1}.', words.entity(outcome.entity), outcome.id)}${storedList(words, outcome.entity, outcome.stored)}`;
    case 'nothing_to_save':
      return outcome.why === 'no_record' ? t('Nothing to save: no stored record is shown.') : t('Nothing to save: the form matches the stored record.');
    case 'nothing_to_create': return t('Nothing to create: no new record is shown.');
    case 'open_conflicts': return t('Someone else saved this record meanwhile: choose per marked field which value to keep, then save.');
    case 'invalid_values': {
      const problem = textsThrough(t).problem;
      const list = outcome.problems.map((p) => `${words.field(p.entity, p.field)}: ${problem(p.problem)}`).join(' ');
      return outcome.action === 'save' ? t('Not saved: {0}', list) : t('Not created: {0}', list);
    }
    case 'empty_form': return t('Not created: the form is empty.');
    case 'not_asked': return notAsked(t, outcome.action, outcome.reason);
    case 'declined': return declined(t, outcome.action, outcome.answer);
    case 'changed_while_asked': return changedWhileAsked(t, outcome.action);
    case 'unavailable': return t('Not saved: {0}. The form is kept; save again when the server answers.', outcome.reason);
    case 'server_refused': {
      const message = outcome.error.message;
      if (outcome.action === 'save') return t('Not saved: the XOS server refused the change: {0}', message);
      return outcome.action === 'create' ? t('Not created: the XOS server refused it: {0}', message) : t('Not deleted: the XOS server refused it: {0}', message);
    }
    case 'conflict': {
      const next = outcome.fields.length ? t('Choose per marked field which value to keep, then save.') : t('Your changes are kept; save again to store them.');
      return `${changedMeanwhile(words, outcome)} ${next}`;
    }
    case 'deleted_meanwhile': return t('Not saved: {0} {1} was deleted by someone else meanwhile. The form is kept.', words.entity(outcome.entity), outcome.id);
    case 'answer_lost': {
      const entity = words.entity(outcome.entity);
      if (outcome.found === 'unreadable') return t('The save may have been stored: the XOS server did not answer ({0}). Nothing was retried; open {1} {2} again to see what is stored.', outcome.reason, entity, outcome.id);
      if (outcome.found === 'unchanged') return t('Not saved: the connection broke while saving ({0}); {1} {2} is unchanged. The form is kept.', outcome.reason, entity, outcome.id);
      return outcome.found === 'changed'
        ? t('The answer to the save was lost ({0}) and someone else changed {1} {2} meanwhile. Nothing was retried.', outcome.reason, entity, outcome.id)
        : t('The answer to the save was lost ({0}) and {1} {2} was deleted meanwhile. Nothing was retried.', outcome.reason, entity, outcome.id);
    }
    case 'not_a_save': return t('Only a save can be undone; entry {0} is none.', outcome.entry);
    case 'batch_saved': return t('Saved {0} records of {1} in one transaction.', words.count(outcome.records), words.entity(outcome.entity));
    case 'batch_conflict': return t('Not saved: {0} of the {1} records were changed by someone else meanwhile; nothing was written. Accept or reject the marked rows again, then save.', words.count(outcome.conflicts + outcome.gone), words.count(outcome.records));
    case 'review_asking': return t('You are already being asked whether to save these changes.');
    case 'review_conflicts': return t('Not saved: {0} rows were changed by someone else meanwhile. Accept or reject each marked row first.', words.count(outcome.count));
    case 'batch_answer_lost':
      return outcome.found === 'unchanged'
        ? t('Not saved: the connection broke while saving ({0}); the records are unchanged. The review is kept.', outcome.reason)
        : t('The changes may have been stored: the XOS server did not answer ({0}). Nothing was retried; open the list again to see what is stored.', outcome.reason);
    case 'batch_gone': return t('There is nothing to undo: the change is no longer in the audit trail.');
    case 'unsaved_form': return t('The form has unsaved changes. Save or discard them first, then undo.');
    case 'not_undoable': return t('This save of {0} cannot be undone here: no form lets you edit {1} together.', words.entity(outcome.entity), outcome.fields.map((f) => words.field(outcome.entity, f)).join(', '));
    case 'gone': return t('{0} {1} was deleted since; there is nothing to undo.', words.entity(outcome.entity), outcome.id);
    case 'new_form': return t('New record, not saved yet');
    case 'cannot_create': return t('Records cannot be created from {0}.', words.context(outcome.context));
    case 'deleted': return t('Deleted {0} {1}.', words.entity(outcome.entity), outcome.id);
    case 'nothing_to_delete': return t('Nothing to delete: no stored record is shown.');
    case 'cannot_delete': return t('Records of {0} cannot be deleted here.', words.context(outcome.context));
    case 'cannot_ask': return t('Not deleted: this front end cannot ask for your confirmation.');
    case 'changed_meanwhile': return t('Not deleted: {0} {1} was changed by someone else meanwhile and is shown as stored now. Delete it again if it should still go.', words.entity(outcome.entity), outcome.id);
    case 'sent': return t('Sent to {0}.', outcome.to);
    case 'already_sent':
      return outcome.uncertain
        ? t('Already sent to {0} at {1}, but the server did not confirm it, so it is not sent again.', outcome.to, words.time(outcome.at))
        : t('Already sent to {0} at {1}.', outcome.to, words.time(outcome.at));
    case 'scheduled':
    case 'already_scheduled': return t('The mail to {0} goes out at {1}.', outcome.to, words.time(outcome.sendAt));
    case 'no_draft': return t('There is no mail draft to send.');
    case 'sending': return t('This mail is already being sent.');
    case 'replaced': return t('Not sent to {0}: the draft was changed or replaced before it went out.', outcome.to);
    case 'mail_refused': return t('Not sent: the mail server refused or could not be reached: {0}. The draft stays; check the mail settings and send again.', outcome.reason);
    case 'shown':
    case 'one_record_needed': return textsThrough(t).records(outcome.count);
    case 'query_invalid': return queryRefusal(words, outcome.refusal);
    case 'query_refused': return t('The XOS server refused the query: {0}', outcome.message);
    case 'no_match': return t('No record of {0} matches.', words.context(outcome.context));
    case 'unknown_context':
    case 'no_context': return t('The app has no context {0}.', outcome.context);
    case 'invalid_json': return t('The data is not valid JSON ({0}).', outcome.reason);
    case 'records_invalid': {
      const first = outcome.problems[0];
      return first ? recordProblem(words, outcome.context, first.index, first.problem) : t('The data does not fit {0}.', words.context(outcome.context));
    }
    case 'load_failed': return t('The XOS server could not load it: {0}', outcome.message);
    case 'not_found': return t('{0} {1} was not found.', words.context(outcome.context), outcome.id);
    case 'no_list': return t('No list is shown.');
    case 'no_row_link': return t('Rows of {0} do not open a record.', words.context(outcome.context));
    case 'no_link': return t('{0} does not open a record.', words.contextField(outcome.context, outcome.field));
    case 'no_id': return t('Row {0} does not name the record to open.', outcome.key);
    case 'no_record': return t('No record is shown.');
    case 'no_field': return t('{0} has no field {1}.', words.context(outcome.context), outcome.field);
    case 'empty_link': return t('{0} is empty.', words.contextField(outcome.context, outcome.field));
    case 'not_an_item': return t('{0} is not among the {1} shown.', outcome.item, words.contextField(outcome.context, outcome.field));
    case 'no_step': return outcome.direction === 'back' ? t('There is nothing to go back to.') : t('There is nothing to go forward to.');
    case 'not_a_list': return t('{0} shows one record: open it from a list.', words.context(outcome.context));
    case 'transfer_broke': return t('The connection to the mail server broke while sending: {0}. It may have been delivered, so it is not sent again; ask the recipient or check the sent folder.', outcome.reason);
  }
}
