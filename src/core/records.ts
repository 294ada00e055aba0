// The person creates and deletes records where the AST's detail context allows it
// (`create`, `delete`). Both are asked for first, like a save: a new record through the
// same Save question (with every value it gets), a deletion through its own question,
// version-checked so a record someone else changed meanwhile is never deleted unseen.
import { isDeepStrictEqual } from 'node:util';
import type { Ast, ContextDef } from '../ast/schema.ts';
import { displayName } from '../ast/display.ts';
import { fieldDef, fieldLabel } from '../ast/lookup.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import { creatingContext } from '../ast/appModel.ts';
import { writeRecords, type CreatePayload, type PreparedWrite } from './boundWrites.ts';
import type { DeleteOutcome, FieldProblem, NewRecordOutcome, SaveOutcome } from './outcomes.ts';
import type { BoardRecord, DeleteSummary, SaveSummary } from './domain.ts';
import { askBound, confirmedText } from './asking.ts';
import { fieldProblem } from './outcomes.ts';
import { showRecord } from './show.ts';
import type { CoreDeps } from './base.ts';
import type { AuditPath } from '../graphql/audit.ts';

/** Shows an empty form for a new record of the context (a list names its entity's creating detail). */
export function newRecord(deps: CoreDeps, contextName: string): NewRecordOutcome {
  const target = creatingContext(deps.client.ast(), contextName);
  if (!target) return { kind: 'cannot_create', ok: false, context: contextName };
  deps.board.showNew(target);
  return { kind: 'new_form', ok: true, context: target };
}

/** Creates the record the form describes, after the person confirmed exactly these values. */
export async function createFromForm(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'board'): Promise<SaveOutcome> {
  const prepared = await prepareCreate(deps);
  if (!('payload' in prepared)) return prepared;
  const context = deps.client.ast().contexts[prepared.payload.context];
  const away = deps.confirmer.unavailable?.();
  if (away) return { kind: 'not_asked', ok: false, action: 'create', reason: away };
  const answer = await askBound(deps, prepared.summary, signal);
  if (answer === 'void' || !isDeepStrictEqual(await newValues(deps.client.ast(), context, deps), prepared.summary.changes)) {
    return { kind: 'changed_while_asked', ok: false, action: 'create' };
  }
  if (answer !== 'save') return { kind: 'declined', ok: false, action: 'create', answer };
  const claim = await deps.boardWriting?.();
  const write = await writeRecords(deps.client, prepared.payload, { path, approval: confirmedText('Create', prepared.summary.changes, claim?.approvals) });
  if (write.kind !== 'written') await claim?.notWritten();
  if (write.kind === 'no_answer') throw write.failure;
  if (write.kind !== 'written') return { kind: 'server_refused', ok: false, action: 'create', entity: context.entity, error: write.error };
  const { version, ...record } = write.data as BoardRecord;
  const outcome: SaveOutcome = { kind: 'created', ok: true, entity: context.entity, id: String(record.id), version: version as number, stored: prepared.summary.changes.map((c) => ({ field: c.field, value: c.to })) };
  await claim?.written(prepared, outcome);
  deps.board.showDetail({ context: prepared.payload.context, record, version: version as number });
  return outcome;
}

/** What creating the Board's new record would write now (exactly these values), or why it cannot be created. */
export async function prepareCreate(deps: CoreDeps): Promise<Extract<PreparedWrite, { kind: 'create' }> | SaveOutcome> {
  const ast = deps.client.ast();
  const board = deps.board.snapshot();
  const contextName = board.context;
  const context = contextName === undefined ? undefined : ast.contexts[contextName];
  if (!board.detail?.isNew || !contextName || !context || context.create !== true) {
    return { kind: 'nothing_to_create', ok: false };
  }
  const values = await newValues(ast, context, deps);
  if ('kind' in values) return values;
  const summary: SaveSummary = { entity: context.entity, id: '', action: 'create', changes: values };
  const payload: CreatePayload = { kind: 'create', context: contextName, entity: context.entity, values: Object.fromEntries(values.map((c) => [c.field, c.to])) };
  return { kind: 'create', payload, summary };
}

/** The new record's values from the form, or why it cannot be created yet. */
async function newValues(ast: Ast, context: ContextDef, deps: CoreDeps): Promise<SaveSummary['changes'] | SaveOutcome> {
  const form = await deps.board.formData();
  const out: { field: string; label: string; from: null; to: unknown }[] = [];
  const problems: FieldProblem[] = [];
  for (const field of context.editable ?? []) {
    const def = fieldDef(ast, context.entity, field)!;
    const given = Object.hasOwn(form, field) ? form[field] : undefined;
    try {
      const to = canonicalValue(context.entity, field, def, given);
      if (to !== null && to !== undefined) out.push({ field, label: fieldLabel(ast, context.entity, field, deps.locale), from: null, to });
    } catch (error) {
      if (!(error instanceof FieldValueError)) throw error;
      problems.push(fieldProblem(error));
    }
  }
  if (problems.length) return { kind: 'invalid_values', ok: false, action: 'create', problems };
  if (!out.length) return { kind: 'empty_form', ok: false };
  return out;
}

/** Deletes the shown record after the person confirmed it; a record changed meanwhile is shown again, not deleted. */
export async function deleteShown(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'board'): Promise<DeleteOutcome> {
  const prepared = prepareDelete(deps);
  if (!('payload' in prepared)) return prepared;
  if (!deps.confirmer.confirmDelete) return { kind: 'cannot_ask', ok: false };
  const away = deps.confirmer.unavailable?.();
  if (away) return { kind: 'not_asked', ok: false, action: 'delete', reason: away };
  const changed = new AbortController();
  const subscription = deps.board.onChange((change) => {
    if (change !== 'mail') changed.abort();
  });
  let answer;
  try {
    answer = await deps.confirmer.confirmDelete(prepared.summary, AbortSignal.any([changed.signal, signal]));
  } finally {
    subscription.dispose();
  }
  if (changed.signal.aborted) return { kind: 'changed_while_asked', ok: false, action: 'delete' };
  if (answer !== 'delete') return { kind: 'declined', ok: false, action: 'delete', answer };
  const { payload } = prepared;
  const write = await writeRecords(deps.client, payload, { path, approval: confirmedText('Delete', []) });
  if (write.kind === 'no_answer') throw write.failure;
  if (write.kind === 'conflict') {
    await showRecord(deps, payload.context, payload.id);
    return { kind: 'changed_meanwhile', ok: false, entity: payload.entity, id: payload.id };
  }
  if (write.kind === 'refused') return { kind: 'server_refused', ok: false, action: 'delete', entity: payload.entity, error: write.error };
  return { kind: 'deleted', ok: true, entity: payload.entity, id: payload.id };
}

/** What deleting the shown record would do (that record at the version shown), or why it cannot be deleted. */
export function prepareDelete(deps: CoreDeps): Extract<PreparedWrite, { kind: 'delete' }> | DeleteOutcome {
  const ast = deps.client.ast();
  const board = deps.board.snapshot();
  const detail = board.detail;
  const contextName = board.context;
  const context = contextName === undefined ? undefined : ast.contexts[contextName];
  if (!detail || detail.isNew || detail.version === undefined || !contextName || !context || context.kind !== 'detail') {
    return { kind: 'nothing_to_delete', ok: false };
  }
  if (context.delete !== true) return { kind: 'cannot_delete', ok: false, context: contextName };
  const id = String(detail.record.id);
  const name = displayName(ast, context.entity, detail.record);
  const summary: DeleteSummary = { entity: context.entity, id, ...(name ? { name } : {}) };
  return { kind: 'delete', payload: { kind: 'delete', context: contextName, entity: context.entity, id, version: detail.version }, summary };
}
