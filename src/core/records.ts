// The person creates and deletes records where the AST's detail context allows it
// (`create`, `delete`). Both are asked for first, like a save: a new record through the
// same Save question (with every value it gets), a deletion through its own question,
// version-checked so a record someone else changed meanwhile is never deleted unseen.
import { isDeepStrictEqual } from 'node:util';
import type { Ast, ContextDef } from '../ast/schema.ts';
import { displayField, fieldDef, fieldLabel, refColumnName } from '../ast/lookup.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import { creatingContext } from '../ast/appModel.ts';
import { contextSelection } from '../graphql/mutation.ts';
import { agentProblem, serverMessage, storedText } from './agentText.ts';
import type { BoardRecord, SaveSummary } from './domain.ts';
import { askBound, confirmedText, showRecord, type CoreDeps, type Outcome } from './useCases.ts';
import type { AuditPath } from '../backend/storage/audit.ts';

/** Shows an empty form for a new record of the context (a list names its entity's creating detail). */
export function newRecord(deps: CoreDeps, contextName: string): Outcome {
  const target = creatingContext(deps.client.ast(), contextName);
  if (!target) return { ok: false, text: `Records cannot be created from ${contextName}: no detail context of its entity allows "create".` };
  deps.board.showNew(target);
  return { ok: true, text: '' };
}

/** Creates the record the form describes, after the person confirmed exactly these values. */
export async function createFromForm(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'board'): Promise<Outcome> {
  const ast = deps.client.ast();
  const board = deps.board.snapshot();
  const contextName = board.context;
  const context = contextName === undefined ? undefined : ast.contexts[contextName];
  if (!board.detail?.isNew || !contextName || !context || context.create !== true) {
    return { ok: false, text: 'Nothing to create: the Board shows no new record.' };
  }
  const values = await newValues(ast, context, deps);
  if (typeof values === 'string') return { ok: false, text: values };
  const summary: SaveSummary = { entity: context.entity, id: '', action: 'create', changes: values };
  const away = deps.confirmer.unavailable?.();
  if (away) return { ok: false, text: `Not created: ${away} Nothing was written; the form stays on the Board.` };
  const answer = await askBound(deps, summary, signal);
  if (answer === 'void' || !isDeepStrictEqual(await newValues(ast, context, deps), values)) {
    return { ok: false, text: 'Not created: the form changed while the person was asked. Nothing was written; check the Board and save again.' };
  }
  if (answer !== 'save') {
    return { ok: false, text: `Not created: ${answer === 'discard' ? 'the person chose Discard' : 'the person did not answer in time'}. Nothing was written; the form stays on the Board.` };
  }
  const fields = ast.entities[context.entity].fields;
  const object = Object.fromEntries(values.map((c) => [fields[c.field]?.type === 'ref' ? refColumnName(c.field) : c.field, c.to]));
  const result = await deps.client.run(
    `mutation XosCreate($object: ${context.entity}_insert_input!) { insert_${context.entity}(object: $object) ${contextSelection(ast, contextName)} }`,
    { object },
    { path, approval: confirmedText('Create', values) },
  );
  if (result.errors?.length) return { ok: false, text: `Not created: the XOS server refused it: ${serverMessage(ast, context.entity, result.errors[0])} Nothing was written.` };
  const { version, ...record } = result.data?.[`insert_${context.entity}`] as BoardRecord;
  deps.board.showDetail({ context: contextName, record, version: version as number });
  return { ok: true, text: `Created ${context.entity} ${String(record.id)} (version ${String(version)}).${storedText(ast, context.entity, values.map((c) => [c.field, c.to]))}` };
}

/** The new record's values from the form, or why it cannot be created yet. */
async function newValues(ast: Ast, context: ContextDef, deps: CoreDeps): Promise<SaveSummary['changes'] | string> {
  const form = await deps.board.formData();
  const out: { field: string; label: string; from: null; to: unknown }[] = [];
  const problems: string[] = [];
  for (const field of context.editable ?? []) {
    const def = fieldDef(ast, context.entity, field)!;
    const given = Object.hasOwn(form, field) ? form[field] : undefined;
    try {
      const to = canonicalValue(context.entity, field, def, given);
      if (to !== null && to !== undefined) out.push({ field, label: fieldLabel(ast, context.entity, field, deps.locale), from: null, to });
    } catch (error) {
      if (!(error instanceof FieldValueError)) throw error;
      problems.push(agentProblem(ast, error));
    }
  }
  if (problems.length) return `Not created: ${problems.join('; ')}. Fill in the form on the Board, then save.`;
  if (!out.length) return 'Not created: the form is empty. Fill it in on the Board, then save.';
  return out;
}

/** Deletes the shown record after the person confirmed it; a record changed meanwhile is shown again, not deleted. */
export async function deleteShown(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'board'): Promise<Outcome> {
  const ast = deps.client.ast();
  const board = deps.board.snapshot();
  const detail = board.detail;
  const contextName = board.context;
  const context = contextName === undefined ? undefined : ast.contexts[contextName];
  if (!detail || detail.isNew || detail.version === undefined || !contextName || !context || context.kind !== 'detail') {
    return { ok: false, text: 'Nothing to delete: the Board shows no stored record.' };
  }
  if (context.delete !== true) return { ok: false, text: `Records of ${contextName} cannot be deleted here.` };
  if (!deps.confirmer.confirmDelete) return { ok: false, text: 'Not deleted: this front end cannot ask the person.' };
  const away = deps.confirmer.unavailable?.();
  if (away) return { ok: false, text: `Not deleted: ${away}` };
  const id = String(detail.record.id);
  const name = detail.record[displayField(ast, context.entity)];
  const changed = new AbortController();
  const subscription = deps.board.onChange((change) => {
    if (change !== 'mail') changed.abort();
  });
  let answer;
  try {
    answer = await deps.confirmer.confirmDelete({ entity: context.entity, id, ...(typeof name === 'string' && name ? { name } : {}) }, AbortSignal.any([changed.signal, signal]));
  } finally {
    subscription.dispose();
  }
  if (changed.signal.aborted) return { ok: false, text: 'Not deleted: the Board changed while the person was asked. Nothing was deleted.' };
  if (answer !== 'delete') return { ok: false, text: `Not deleted: ${answer === 'cancel' ? 'the person chose Cancel' : 'the person did not answer in time'}.` };
  const result = await deps.client.run(`mutation XosDelete($id: ID!, $version: Int!) { delete_${context.entity}(id: $id, version: $version) }`, { id, version: detail.version }, { path, approval: confirmedText('Delete', []) });
  const error = result.errors?.[0];
  if (error?.extensions?.code === 'CONFLICT') {
    await showRecord(deps, contextName, id);
    return { ok: false, text: `Not deleted: ${context.entity} ${id} was changed by someone else after it was loaded; the Board shows it as stored now. Delete it again if it should still go.` };
  }
  if (error) return { ok: false, text: `Not deleted: the XOS server refused it: ${error.message}` };
  return { ok: true, text: `Deleted ${context.entity} ${id}.` };
}
