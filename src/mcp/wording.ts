// The agent's words for the outcomes of the use cases (src/core/outcomes.ts):
// what happened, with ids, versions and values quoted within bounds, fields the AST keeps
// from the agent masked or left out, and the tool to call next. The Board words the same
// outcomes for the person (src/board/outcomeText.ts).
import type { Ast } from '../ast/schema.ts';
import type { Action, AnyOutcome, ConflictField, FieldValue, MailOutcome, RecordProblem } from '../core/outcomes.ts';
import type { QueryPath, QueryRefusal } from '../graphql/queryRules.ts';
import { exampleQuery } from '../ast/view.ts';
import type { PendingApproval } from '../core/approvals.ts';
import type { DeleteSummary, MailDraft, SaveSummary } from '../core/domain.ts';
import { agentPolicy, MASKED_VALUE } from '../ast/agentPolicy.ts';
import { displayFields } from '../ast/display.ts';
import { agentProblem, agentQuote, agentServerText, DISPLAYED, namedToAgent, agentFieldPolicy, quote, recordsText, serverMessage, storedText, unknownContextText, unnamedFields } from './agentText.ts';

const stored = (ast: Ast, entity: string, values: readonly FieldValue[]) => storedText(ast, entity, values.map((v) => [v.field, v.value] as const));

const why = (answer: 'discard' | 'cancel' | 'timeout') =>
  answer === 'discard' ? 'the person chose Discard' : answer === 'cancel' ? 'the person chose Cancel' : 'the person did not answer in time';

const NOT_ASKED: Record<Action, (reason: string) => string> = {
  save: (reason) => `Not saved: ${reason} Nothing was written; the preview stays on the Board.`,
  create: (reason) => `Not created: ${reason} Nothing was written; the form stays on the Board.`,
  delete: (reason) => `Not deleted: ${reason}`,
  send: (reason) => `Not sent: ${reason} The draft stays on the Board.`,
};

const DECLINED: Record<Action, (why: string) => string> = {
  save: (text) => `Not saved: ${text}. Nothing was written; the preview stays on the Board.`,
  create: (text) => `Not created: ${text}. Nothing was written; the form stays on the Board.`,
  delete: (text) => `Not deleted: ${text}.`,
  send: (text) => `Not sent: ${text}. The draft stays on the Board.`,
};

const CHANGED_WHILE_ASKED: Record<Action, string> = {
  save: 'Not saved: the form changed while the person was asked, so that approval no longer matches what would be written. Nothing was written. Check the Board and call xos_ui_save again when the person wants to save.',
  create: 'Not created: the form changed while the person was asked. Nothing was written; check the Board and save again.',
  delete: 'Not deleted: the Board changed while the person was asked. Nothing was deleted.',
  send: 'Not sent: the draft changed while the person was asked. Check the Board and call xos_mail_send again when the person wants to send it.',
};

function conflictText(ast: Ast, entity: string, id: string, versionFrom: number, versionTo: number, fields: readonly ConflictField[]): string {
  const head = `Not saved: ${entity} ${id} was changed by someone else after it was loaded (version ${versionFrom} -> ${versionTo}); nothing was written, and the pending changes are kept on the Board. `;
  if (!fields.length) {
    return `${head}The other change touched other fields; the Board now shows it under the pending changes. Call xos_ui_save again to store them against version ${versionTo} (the person is asked again).`;
  }
  const value = (field: string, v: unknown) => agentQuote(ast, entity, field, v);
  const details = fields.filter((f) => namedToAgent(ast, entity, f.field))
    .map((f) => `${f.field}: loaded ${value(f.field, f.loaded)}, stored now ${value(f.field, f.stored)}, pending ${f.pending ? value(f.field, f.pending.value) : 'unchanged'}`);
  const both = details.length ? `Both changed ${details.join('; ')}.` : 'Both changed fields that only the person sees.';
  return `${head}${both} The Board shows these side by side; the person keeps one value per field, then save again with xos_ui_save.`;
}

/** Where a query refusal points: the fields' path, or the context for its root field. */
const at = (context: string, path: QueryPath) => (path.length ? path.join('.') : context);

/** What is wrong with an agent's query, and what to send instead (without the closing call). */
function refusalText(refusal: QueryRefusal): string {
  if (refusal.kind === 'unknown_context') {
    return `Unknown context "${refusal.context}". Known contexts: ${refusal.known.join(', ')}. Call xos_schema to see their fields.`;
  }
  const { context, example } = refusal;
  const forExample = `For example: ${example}`;
  switch (refusal.kind) {
    case 'not_graphql': return `The query is not valid GraphQL: ${refusal.detail.replace(/\.$/, '')}. ${forExample}`;
    case 'not_only_operations': return `Send one query operation without fragments, for example: ${example}`;
    case 'operation_count': return `Send exactly one query operation (got ${refusal.count}), for example: ${example}`;
    case 'not_a_query': return `xos_query only reads data: a ${refusal.operation} is not allowed. Changes go through xos_ui_change_required and xos_ui_save.`;
    case 'directive':
      return `Remove the directive @${refusal.directive}: xos_query shows exactly the fields it selects, so leave a field out instead of skipping it. ${forExample}`;
    case 'variable':
      return `xos_query takes no variables ($${refusal.variable}): write each value inline in the query, `
        + `e.g. ${context}${refusal.contextKind === 'detail' ? '(id: "1")' : '(where: { id: { _eq: "1" } })'}. ${forExample}`;
    case 'root_field': {
      const got = refusal.got.map((s) => (s.kind === 'field' ? s.name : 'a fragment')).join(', ');
      return `The query must select exactly one root field, ${context} (got ${got}). ${forExample}`;
    }
    case 'root_alias': return `Do not alias ${context}. ${forExample}`;
    case 'no_selection': return `Select the list_fields of ${context}: ${example}`;
    case 'fragment':
      return refusal.path.length
        ? `Write the fields of ${at(context, refusal.path)} out instead of fragments. ${forExample}`
        : `Write the fields of ${context} out instead of fragments: ${example}`;
    case 'alias':
      return refusal.path.length
        ? `Do not alias fields (${refusal.alias}: ${refusal.field} in ${at(context, refusal.path)}); select ${refusal.field} under its own name. ${forExample}`
        : `Do not alias fields (${refusal.alias}: ${refusal.field}). ${forExample}`;
    case 'too_deep':
      return `Relations may nest at most ${refusal.max} levels below the context's fields (${at(context, refusal.path)} is ${refusal.path.length} deep). `
        + `Select the related record's own fields, e.g. ${refusal.path[0]} { id name }, and open its context with another xos_query for more. ${forExample}`;
    case 'list_fields': {
      const parts = [
        ...(refusal.missing.length ? [`missing: ${refusal.missing.join(', ')}`] : []),
        ...(refusal.extra.length ? [`not in list_fields: ${refusal.extra.join(', ')}`] : []),
      ];
      return `Select exactly the list_fields of ${context} (${refusal.wanted.join(', ')}); ${parts.join('; ')}. ${forExample}`;
    }
    case 'not_selectable': return `${refusal.field} is not a field of ${refusal.entity} you can select; select the fields xos_schema lists. ${forExample}`;
    case 'takes_no_arguments':
      return `${at(context, refusal.path)} takes no arguments (got ${refusal.argument}); only lists (a list context, an inverse list) take where, order_by, limit and offset. ${forExample}`;
    case 'not_a_relation': return `${at(context, refusal.path)} is a value, not a relation: select it without braces. ${forExample}`;
    case 'needs_selection':
      return `${at(context, refusal.path)} is a relation: select its fields in braces, e.g. ${refusal.path[refusal.path.length - 1]} { id }. ${forExample}`;
    case 'list_argument': return `${at(context, refusal.path)} takes where, order_by, limit and offset, not ${refusal.argument}. ${forExample}`;
    case 'repeated_argument': return `Give ${refusal.argument} of ${at(context, refusal.path)} once. ${forExample}`;
    case 'detail_argument': return `${context} takes only id, not ${refusal.argument}. ${forExample}`;
    case 'detail_id': return `${context} needs the id of one record, e.g. ${context}(id: "1"). ${forExample}`;
    case 'count': return `${refusal.argument} is a whole number, e.g. ${refusal.argument}: 10. ${forExample}`;
    case 'not_filterable':
      return `${refusal.field} is not a field of ${refusal.entity} you can filter or sort by; use the fields xos_schema lists (values kept from the agent cannot be used). ${forExample}`;
    case 'where_depth': return `where is nested more than ${refusal.max} levels deep; write the filter flatter. ${forExample}`;
    case 'where_not_object': return `A filter of ${refusal.entity} is an object of fields and operators, e.g. where: { id: { _eq: "1" } }. ${forExample}`;
    case 'no_operator': return `Compare ${refusal.entity}.${refusal.field} with an operator, e.g. ${refusal.field}: { _eq: … }. ${forExample}`;
    case 'unknown_operator': return `${refusal.operator} is not an operator of where; use ${refusal.operators.join(' ')}. ${forExample}`;
    case 'not_scalar': return `${refusal.entity}.${refusal.field}.${refusal.operator} takes a single value such as "Berlin", 42 or true. ${forExample}`;
    case 'order_by_shape': return `order_by is a list of { field: asc | desc }, e.g. order_by: [{ id: desc }]. ${forExample}`;
    case 'order_by_relation':
      return `order_by sorts by the fields of ${refusal.entity} itself, not by the relation ${refusal.relation}; sort by ${refusal.relation}_id or filter with where. ${forExample}`;
    case 'sort_direction':
      return `Sort ${refusal.entity}.${refusal.field} with asc or desc (without quotes), e.g. order_by: [{ ${refusal.field}: desc }]. ${forExample}`;
  }
  return unreachable(refusal);
}

/** The agent's reply to a refused xos_query: what was wrong, what to send instead, and the call to make next. */
export function queryRefusalText(refusal: QueryRefusal): string {
  return `${refusalText(refusal)} Then call xos_query again.`;
}

/** What is wrong with a record of the agent's xos_render JSON. */
function recordProblemText(problem: RecordProblem): string {
  switch (problem.kind) {
    case 'not_object': return 'is not a JSON object';
    case 'unknown_fields': return `unknown fields ${problem.fields.join(', ')}`;
    case 'not_a_list': return `${problem.field} must be a list of records`;
    case 'value': return problem.value.message;
  }
  return unreachable(problem);
}

/** A mail outcome as the agent reads it (no field of the AST is involved). */
export function mailText(outcome: MailOutcome): string {
  return agentText(undefined, outcome);
}

/** An outcome as the agent reads it; `ast` masks the values and names of fields kept from the agent. */
export function agentText(ast: Ast | undefined, outcome: AnyOutcome): string {
  const app = () => {
    if (!ast) throw new Error(`wording ${outcome.kind} needs the AST`);
    return ast;
  };
  switch (outcome.kind) {
    case 'saved':
      return outcome.lostAnswer === undefined
        ? `Saved ${outcome.entity} ${outcome.id}${nameForAgent(app(), outcome.entity, outcome.name)} (version ${outcome.versionFrom} -> ${outcome.versionTo}).${stored(app(), outcome.entity, outcome.stored)}`
        : `Saved ${outcome.entity} ${outcome.id}${nameForAgent(app(), outcome.entity, outcome.name)} (version ${outcome.versionFrom} -> ${outcome.versionTo}): the answer to the save was lost (${outcome.lostAnswer}), `
          + `but reading the record back shows exactly this change stored.${stored(app(), outcome.entity, outcome.stored)}`;
    case 'created': return `Created ${outcome.entity} ${outcome.id} (version ${outcome.version}).${stored(app(), outcome.entity, outcome.stored)}`;
    case 'nothing_to_save':
      return outcome.why === 'no_record'
        ? 'Nothing to save: the Board shows no loaded record. Load one with xos_query on a detail context, propose changes with xos_ui_change_required, then save.'
        : 'Nothing to save: the form matches the stored record. Propose changes with xos_ui_change_required first.';
    case 'nothing_to_create': return 'Nothing to create: the Board shows no new record.';
    case 'open_conflicts': {
      const count = outcome.fields.length;
      const named = outcome.fields.filter((field) => namedToAgent(app(), outcome.entity, field));
      return `Not saved: ${count === 1 ? 'a field conflicts' : `${count} fields conflict`} with the version someone else stored${named.length ? ` (${named.join(', ')})` : ''}. `
        + 'Nothing was written. The person chooses per field on the Board which value to keep; then save again.';
    }
    case 'invalid_values': {
      const problems = outcome.problems.map((p) => agentProblem(app(), p)).join('; ');
      return outcome.action === 'save'
        ? `Not saved: the form has invalid values: ${problems}. Correct them with xos_ui_change_required or ask the person to fix them in the Board.`
        : `Not created: ${problems}. Fill in the form on the Board, then save.`;
    }
    case 'empty_form': return 'Not created: the form is empty. Fill it in on the Board, then save.';
    case 'not_asked': return NOT_ASKED[outcome.action](outcome.reason);
    case 'declined': return DECLINED[outcome.action](why(outcome.answer));
    case 'changed_while_asked': return CHANGED_WHILE_ASKED[outcome.action];
    case 'unavailable': return `Not saved: ${outcome.reason}; nothing was written. The form on the Board is kept; call xos_ui_save again when the server answers.`;
    case 'server_refused':
      if (outcome.action === 'save') return `Not saved: the XOS server refused the change: ${serverMessage(app(), outcome.entity, outcome.error)} Nothing was written.`;
      if (outcome.action === 'create') return `Not created: the XOS server refused it: ${serverMessage(app(), outcome.entity, outcome.error)} Nothing was written.`;
      return `Not deleted: the XOS server refused it: ${serverMessage(app(), outcome.entity, outcome.error)}`;
    case 'batch_saved': {
      // The person may have edited fields on the review the agent may not name.
      const named = outcome.fields.filter((field) => agentFieldPolicy(app(), outcome.entity, field) !== 'hidden');
      const fields = [...named, unnamedFields(outcome.fields.length - named.length)].filter(Boolean).join(', ');
      const values = named.length === outcome.fields.length ? `${outcome.cells.toLocaleString('en-US')} values; ` : '';
      const head = `Saved ${outcome.records.toLocaleString('en-US')} ${outcome.entity} records in one transaction (${values}${fields}).`;
      const lost = outcome.lostAnswer === undefined ? '' : ` The answer was lost (${outcome.lostAnswer}), but reading the records back shows the change stored.`;
      return `${head}${lost}${outcome.batch ? ` Audit batch ${outcome.batch}; the person can undo it as a whole on the Board.` : ''}`;
    }
    case 'batch_conflict':
      return `Not saved: ${outcome.conflicts + outcome.gone} of the ${outcome.records.toLocaleString('en-US')} records changed since they were read`
        + `${outcome.gone ? ` (${outcome.gone} deleted)` : ''} (${outcome.entity} ${outcome.ids.join(', ')}${outcome.conflicts + outcome.gone > outcome.ids.length ? ', …' : ''}); nothing was written. `
        + 'The Board marks them: the person accepts or rejects each again, then call xos_ui_save again after they said so.';
    case 'review_asking': return `Not asked again: the person is already being asked to save these ${outcome.entity} changes. Wait for that answer; nothing was written by this call.`;
    case 'review_conflicts': return `Not saved: ${outcome.count} ${outcome.entity} records changed by someone else still wait for the person's decision on the Board; nothing was written. Call xos_ui_save again after they decided.`;
    case 'batch_answer_lost':
      return outcome.found === 'unchanged'
        ? `Not saved: the connection broke while saving (${outcome.reason}); the records are unchanged. The review stays on the Board; call xos_ui_save again when the person says so.`
        : `The batch of ${outcome.records} ${outcome.entity} records may have been stored: no answer came back (${outcome.reason}) and the records cannot be read now. Nothing was retried; load the list again with xos_query before anything else.`;
    case 'batch_gone': return `The audit trail holds no change of batch ${outcome.batch}; there is nothing to undo.`;
    case 'conflict': return conflictText(app(), outcome.entity, outcome.id, outcome.versionFrom, outcome.versionTo, outcome.fields);
    case 'deleted_meanwhile': return `Not saved: ${outcome.entity} ${outcome.id} was deleted by someone else after it was loaded; nothing was written. The form on the Board is kept.`;
    case 'answer_lost':
      if (outcome.found === 'unreadable') {
        return `The save may have been stored: the change was sent to the XOS server, but no answer came back (${outcome.reason}), and the record cannot be read now. `
          + `Nothing was retried and the form on the Board is kept. When the server answers, load ${outcome.entity} ${outcome.id} again with xos_query before anything else to see what is stored.`;
      }
      if (outcome.found === 'unchanged') {
        return `Not saved: the connection to the XOS server broke while saving (${outcome.reason}); the record is unchanged (version ${outcome.versionFrom}). `
          + 'Nothing was retried and the form on the Board is kept; call xos_ui_save again when the person wants to save.';
      }
      return `The save's answer was lost (${outcome.reason}) and ${outcome.entity} ${outcome.id} now has ${outcome.found === 'changed' ? `version ${outcome.versionNow} with other values` : 'been deleted'}: `
        + 'someone else changed it. Nothing was retried. Load it again with xos_query and propose the changes again if they are still wanted.';
    case 'not_a_save': return `Only a save can be undone; entry ${outcome.entry} is a ${outcome.action}.`;
    case 'unsaved_form': return 'The Board has unsaved changes. Save or discard them first, then undo; nothing was changed.';
    case 'not_undoable': return `This save changed ${outcome.fields.join(', ')} of ${outcome.entity}, which no detail context lets the person edit together, so it cannot be undone on the Board.`;
    case 'gone': return `${outcome.entity} ${outcome.id} was deleted since; there is nothing to undo.`;
    case 'new_form': return '';
    case 'cannot_create': return `Records cannot be created from ${outcome.context}: no detail context of its entity allows "create".`;
    case 'deleted': return `Deleted ${outcome.entity} ${outcome.id}.`;
    case 'nothing_to_delete': return 'Nothing to delete: the Board shows no stored record.';
    case 'cannot_delete': return `Records of ${outcome.context} cannot be deleted here.`;
    case 'cannot_ask': return 'Not deleted: this front end cannot ask the person.';
    case 'changed_meanwhile': return `Not deleted: ${outcome.entity} ${outcome.id} was changed by someone else after it was loaded; the Board shows it as stored now. Delete it again if it should still go.`;
    case 'sent': return `Sent to ${outcome.to} (message id ${outcome.messageId}).`;
    case 'already_sent':
      return outcome.uncertain
        ? `Already sent to ${outcome.to} at ${outcome.at}, but the server did not confirm it, so it is not sent again. Compose it again only if it did not arrive.`
        : `Already sent to ${outcome.to} at ${outcome.at} (message id ${outcome.messageId}). Compose a new mail with xos_mail_compose to send another.`;
    case 'scheduled':
      return `Send confirmed: the mail to ${outcome.to} goes out at ${outcome.sendAt} (in ${outcome.seconds} s) unless the person clicks Undo; `
        + 'until then it waits on the Board. Nothing more to do.';
    case 'already_scheduled': return `Already confirmed: the mail to ${outcome.to} goes out at ${outcome.sendAt} unless the person clicks Undo. Nothing more to do.`;
    case 'no_draft': return 'There is no draft to send. Prepare one with xos_mail_compose first.';
    case 'sending': return 'This draft is already being sent (the person is being asked or it is on its way). Wait for that answer.';
    case 'replaced': return `Not sent to ${outcome.to}: the draft was changed or replaced before it went out.`;
    case 'mail_refused':
      return `Not sent: the mail server refused or could not be reached: ${outcome.reason}. The draft stays on the Board; fix the mail settings and call xos_mail_send again when the person wants to send it.`;
    case 'shown': return `${DISPLAYED} ${recordsText(outcome.count, outcome.context)}`;
    case 'query_invalid': return queryRefusalText(outcome.refusal);
    case 'query_refused': return `The XOS server refused the query: ${agentServerText(app(), outcome.message)} Fix the query and call xos_query again.`;
    case 'no_match': return `No record of ${outcome.context} matches this query; nothing was displayed. Check the id (for example in the matching list context).`;
    case 'unknown_context': return unknownContextText(outcome.known, outcome.context);
    case 'invalid_json':
      return outcome.what === 'json'
        ? `json is not valid JSON (${outcome.reason}). Call xos_render again with an array of records or one record object as a JSON string.`
        : `changes is not valid JSON (${outcome.reason}). Send an object such as {"lastname": "Schmidt"}.`;
    case 'one_record_needed': return `${outcome.context} is a detail context: send exactly one record object (got ${outcome.count}).`;
    case 'records_invalid': {
      const problems = outcome.problems.slice(0, 10).map((p) => `record ${p.index}: ${recordProblemText(p.problem)}`).join('; ');
      return `Nothing was displayed. ${problems}. Allowed fields of ${outcome.context}: ${outcome.allowed.join(', ')}. Call xos_render again with those fields.`;
    }
    case 'load_failed': return outcome.message;
    case 'not_found': return `${outcome.context} ${outcome.id} was not found`;
    case 'no_list': return 'The Board shows no list.';
    case 'no_row_link': return `Rows of ${outcome.context} do not open a detail.`;
    case 'no_link': return `${outcome.field} of ${outcome.context} does not open ${outcome.items ? 'records' : 'a record'}.`;
    case 'no_id': return `The row ${outcome.key} has no ${outcome.idPath}.`;
    case 'no_record': return 'The Board shows no record.';
    case 'no_field': return `${outcome.context} has no field ${outcome.field}.`;
    case 'empty_link': return `${outcome.field} is empty.`;
    case 'not_an_item': return `${outcome.item} is not one of the ${outcome.field} shown.`;
    case 'no_step': return outcome.direction === 'back' ? 'There is nothing to go back to.' : 'There is nothing to go forward to.';
    case 'no_context': return `The app has no context ${outcome.context}.`;
    case 'not_a_list': return `${outcome.context} shows one record: open it from a list.`;
    case 'previewed': {
      const shown = (field: string, value: unknown) => agentQuote(app(), outcome.entity, field, value);
      const lines = outcome.pending.filter((p) => namedToAgent(app(), outcome.entity, p.field)).map((p) => `${p.field}: ${shown(p.field, p.from)} -> ${shown(p.field, p.to)}`);
      return `Preview on the Board, nothing saved yet. Pending changes of ${outcome.entity} ${outcome.id}: ${lines.join('; ')}. `
        + 'Ask the person whether to save; call xos_ui_save only after they said so.';
    }
    case 'not_loaded': {
      const shown = outcome.shown ? `The Board shows ${outcome.shown}` : 'The Board shows nothing yet';
      const example = outcome.detail ? ` with a query like ${exampleQuery(app(), outcome.context)}` : '';
      return `${shown}, not a loaded record of ${outcome.context}. Load the record first with xos_query (context ${outcome.detail ? outcome.context : 'a detail context'})${example}, then propose the changes again.`;
    }
    case 'rendered_only': return `The Board shows rendered data of ${outcome.context}, not a stored record. Load the record with xos_query, then propose the changes again.`;
    case 'changes_not_object': return 'changes must be a JSON object with at least one field, such as {"lastname": "Schmidt"}.';
    case 'not_editable': return `Not editable in ${outcome.context}: ${outcome.fields.join(', ')}. Nothing was previewed. `
      + (outcome.editable.length ? `Editable fields: ${outcome.editable.join(', ')}.` : `The agent may change no field of ${outcome.context}: nothing can be proposed there.`);
    case 'invalid_proposal': return `Nothing was previewed: ${outcome.problems.map((p) => p.message).join('; ')}. Send valid values.`;
    case 'batch_previewed': {
      const n = (count: number) => count.toLocaleString('en-US');
      const missing = outcome.missing ? ` ${n(outcome.missing)} given ids match no record (${outcome.missingIds.join(', ')}${outcome.missing > outcome.missingIds.length ? ', …' : ''}).` : '';
      const problems = outcome.problems.length
        ? ` Invalid, for example: ${outcome.problems.map((p) => `${outcome.entity} ${p.id}: ${p.problem.message}`).join('; ')}.`
        : '';
      return `Review on the Board, nothing saved yet: ${n(outcome.rows)} ${outcome.entity} records would change (${outcome.fields.join(', ')}); `
        + `${n(outcome.valid)} valid, ${n(outcome.invalid)} invalid (excluded), ${n(outcome.unchanged)} matched but unchanged.${missing}${problems} `
        + 'The person reviews the rows on the Board (accept, reject or edit each); ask them whether to save, and call xos_ui_save only after they said so. '
        + 'Calling xos_ui_change_required again replaces this proposal.';
    }
    case 'batch_invalid':
      return `Nothing was previewed: ${outcome.reason}.${outcome.editable.length ? ` Fields the agent may change in ${outcome.context}: ${outcome.editable.join(', ')}.` : ''}`
        + ' Call xos_ui_change_required again with changes as a list of {"id": …, field: value} or as {"where": {…}, "set": {…}}; to change one record, load it in its detail context with xos_query first.';
    case 'too_many_rows': return `Nothing was previewed: ${outcome.matched.toLocaleString('en-US')} records of ${outcome.context} would change, at most ${outcome.max.toLocaleString('en-US')} go in one review. Call xos_ui_change_required again with a narrower where filter, or split the changes.`;
    case 'batch_unchanged': return `Nothing to review: the ${outcome.matched.toLocaleString('en-US')} matching records of ${outcome.context} already have these values.`
      + `${outcome.missing ? ` ${outcome.missing} given ids match no record (${outcome.missingIds.join(', ')}).` : ''}`;
    case 'board_unsaved': return 'Nothing was previewed: the Board holds the person\'s unsaved changes. Ask them to save or discard those first, then call xos_ui_change_required again.';
    case 'transfer_broke':
      return `The connection to the mail server broke while the mail was being transferred: ${outcome.reason}. It may have been delivered, so it is not sent again. `
        + 'The draft stays on the Board; ask the recipient or check the sent folder, and compose it again only if it did not arrive.';
  }
  return unreachable(outcome);
}

function unreachable(outcome: never): never {
  throw new Error(`an outcome without words: ${JSON.stringify(outcome)}`);
}

/**
 * What a stored approval asks the person, as the agent may read it: the person's question carries
 * the person's own edits and the values of every field they see, so the agent is told the same
 * request in its own words instead — values of masked fields as •••, fields hidden from the agent
 * (or from the person's role) only counted, a bulk change as counts and its visible fields.
 */
export function pendingApprovalText(ast: Ast, approval: Pick<PendingApproval, 'kind' | 'summary'>): string {
  switch (approval.kind) {
    case 'send': {
      const draft = approval.summary as MailDraft;
      return `send the mail to ${quote(draft.to.email)} (subject ${quote(draft.subject)}).`;
    }
    case 'delete': {
      // The record's name is a field's value, which may be withheld: the id says which record.
      const summary = approval.summary as DeleteSummary;
      return `delete ${summary.entity} ${quote(summary.id)}.`;
    }
    case 'save':
    case 'create':
    case 'batch':
      return saveApprovalText(ast, approval.summary as SaveSummary);
  }
}

function saveApprovalText(ast: Ast, summary: SaveSummary): string {
  const { entity } = summary;
  const policy = (field: string) => agentFieldPolicy(ast, entity, field);
  const shown = (field: string, value: unknown) => (policy(field) === 'visible' ? quote(value) : MASKED_VALUE);
  const join = (parts: string[], hidden: number) => [...parts, unnamedFields(hidden)].filter(Boolean).join('; ');
  const { batch } = summary;
  if (batch) {
    const named = batch.fields.filter((f) => policy(f.field) !== 'hidden');
    const parts = named.map((f) => {
      if (policy(f.field) === 'masked') return `${f.field}: ${MASKED_VALUE}`;
      if (f.numeric) return `${f.field}: change ${f.numeric.min} to ${f.numeric.max}, total ${f.numeric.total}`;
      const values = (f.values ?? []).map((v) => `${v.count.toLocaleString('en-US')}× ${quote(v.value)}`);
      return `${f.field}: ${[...values, ...(f.moreValues ? [`+${f.moreValues.toLocaleString('en-US')} more values`] : [])].join(', ')}`;
    });
    const what = batch.undo ? 'undo the change to' : 'save changes to';
    return `${what} ${batch.records.toLocaleString('en-US')} ${entity} records (${join(parts, batch.fields.length - named.length)}). The Board shows every row.`;
  }
  const named = summary.changes.filter((c) => policy(c.field) !== 'hidden');
  const parts = named.map((c) => (summary.action === 'create' ? `${c.field}: ${shown(c.field, c.to)}` : `${c.field}: ${shown(c.field, c.from)} -> ${shown(c.field, c.to)}`));
  const changes = join(parts, summary.changes.length - named.length);
  return summary.action === 'create' ? `create a new ${entity} (${changes}).` : `save changes to ${entity} ${quote(summary.id)} (${changes}).`;
}

/** The agent's reply when it tries to replace a confirmed mail that waits out its undo window. */
export function waitingSendRefusal(waiting: { readonly to: string; readonly sendAt: Date }): string {
  const time = `${waiting.sendAt.toISOString().slice(11, 19)} UTC`;
  return `Not composed: the person confirmed the mail to ${waiting.to}; it goes out at ${time} (${waiting.sendAt.toISOString()}) unless they press Undo on the Board, `
    + `and a new draft would replace it. Wait until it has gone out (at ${time}) or until the person pressed Undo, then call xos_mail_compose again.`;
}

/**
 * A record's name for the agent (` "Luís Gonçalves"`), when its entity names records by a
 * `display` template and the agent may see every field of it; else nothing, the id names it.
 */
function nameForAgent(ast: Ast, entity: string, name: string | undefined): string {
  if (name === undefined || !Object.hasOwn(ast.entities, entity) || ast.entities[entity].display === undefined) return '';
  return displayFields(ast, entity).every((field) => agentPolicy(ast, entity, field) === 'visible') ? ` ${quote(name)}` : '';
}
