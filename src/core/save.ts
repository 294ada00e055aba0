// Saving the Board's form (the person's edits and the agent's preview) after the person
// confirmed exactly that change set: xos_ui_save and the Board's Save take this path.
// No MCP, no VS Code.
import { MAX_APPROVAL_LENGTH, type AuditPath } from '../backend/storage/audit.ts';
import { isDeepStrictEqual } from 'node:util';
import type { Ast, ContextDef } from '../ast/schema.ts';
import { fieldDef, fieldLabel, findContext } from '../ast/lookup.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import { buildUpdateMutation } from '../graphql/requests.ts';
import { BackendUnavailableError } from '../graphql/unavailable.ts';
import type { ConflictField, FieldProblem, SaveOutcome } from './outcomes.ts';
import type { BoardRecord, DetailView, GraphQLResult, SaveSummary } from './domain.ts';
import { createFromForm } from './records.ts';
import { saveReview } from './batchSave.ts';
import { readStored, refName, relatedName, storedValue, withoutUndefined, type CoreDeps } from './base.ts';

type Change = SaveSummary['changes'][number];

/**
 * Saves the Board's form (the person's edits and the agent's preview) against the loaded
 * record, after the person confirmed exactly that change set; one update with the loaded version.
 */
export async function saveForm(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'agent', approval = 'Save'): Promise<SaveOutcome> {
  const ast = deps.client.ast();
  const board = deps.board.snapshot();
  const review = deps.board.review();
  if (board.kind === 'review' && review) return saveReview(deps, review, signal, path, approval);
  const detail = board.detail;
  const context = board.context === undefined ? undefined : findContext(ast, board.context);
  if (detail?.isNew && context?.kind === 'detail') return createFromForm(deps, signal, path);
  if (!detail || !context || context.kind !== 'detail' || detail.version === undefined) {
    return { kind: 'nothing_to_save', ok: false, why: 'no_record' };
  }
  const contextName = board.context!;
  if (detail.deleted) return { kind: 'deleted_meanwhile', ok: false, entity: context.entity, id: String(detail.record.id) };
  const open = Object.keys(board.conflicts ?? {});
  if (open.length) return { kind: 'open_conflicts', ok: false, entity: context.entity, fields: open };
  const asked = await changeSet(ast, context, detail, deps);
  if (!Array.isArray(asked)) return { kind: 'invalid_values', ok: false, action: 'save', problems: asked.problems };
  if (asked.length === 0) return { kind: 'nothing_to_save', ok: false, why: 'unchanged' };

  const id = String(detail.record.id);
  const others = deps.board.othersEditing?.(context.entity, id) ?? [];
  const summary: SaveSummary = { entity: context.entity, id, changes: asked, ...(others.length ? { othersEditing: others } : {}) };
  const away = deps.confirmer.unavailable?.();
  if (away) return { kind: 'not_asked', ok: false, action: 'save', reason: away };
  const answer = await askBound(deps, summary, signal);
  if (answer === 'void' || !isDeepStrictEqual(await changeSet(ast, context, detail, deps), asked)) {
    return { kind: 'changed_while_asked', ok: false, action: 'save' };
  }
  if (answer !== 'save') return { kind: 'declined', ok: false, action: 'save', answer };

  const set = Object.fromEntries(asked.map((c) => [c.field, c.to]));
  const mutation = buildUpdateMutation(ast, contextName, id, detail.version, set);
  let result: GraphQLResult;
  try {
    result = await deps.client.run(mutation.query, mutation.variables, { path, approval: confirmedText(approval, asked) });
  } catch (failure) {
    if (failure instanceof BackendUnavailableError && failure.certainlyNotProcessed) {
      return { kind: 'unavailable', ok: false, reason: failure.message };
    }
    // The request went out but no answer came back: it may or may not have been applied. Never retried.
    return unsettledSave(deps, ast, context, contextName, id, detail.version, asked, failure);
  }
  const error = result.errors?.[0];
  if (error?.extensions?.code === 'CONFLICT') return conflictOutcome(deps, ast, context, contextName, id, detail, asked);
  if (error) return { kind: 'server_refused', ok: false, action: 'save', entity: context.entity, error };

  const saved = await readBack(deps, ast, contextName, id);
  if (!saved) throw new Error(`${context.entity} ${id} is missing right after saving it`);
  const outcome: SaveOutcome = {
    kind: 'saved', ok: true, entity: context.entity, id, versionFrom: detail.version, versionTo: saved.version,
    stored: asked.map((c) => ({ field: c.field, value: storedValue(ast, context, c.field, saved.record) })),
  };
  deps.onSaved?.({ entity: context.entity, id, version: saved.version }, outcome);
  return outcome;
}

/**
 * A save met a newer version: nothing was written and nothing pending is lost. The Board takes the
 * stored record under the person's changes; the fields both sides changed wait for the person's choice.
 */
async function conflictOutcome(deps: CoreDeps, ast: Ast, context: ContextDef, contextName: string, id: string,
  loaded: DetailView, asked: readonly Change[]): Promise<SaveOutcome> {
  const current = await readStored(deps, ast, contextName, id);
  if (!current) return { kind: 'deleted_meanwhile', ok: false, entity: context.entity, id };
  const conflicting = deps.board.conflict({ context: contextName, record: current.record, version: current.version });
  const fields = conflicting.map((field): ConflictField => {
    const mine = asked.find((c) => c.field === field);
    return {
      field, loaded: storedValue(ast, context, field, loaded.record), stored: storedValue(ast, context, field, current.record),
      ...(mine ? { pending: { value: mine.to } } : {}),
    };
  });
  return { kind: 'conflict', ok: false, entity: context.entity, id, versionFrom: loaded.version!, versionTo: current.version, fields };
}

/** The changed fields of the form against the loaded record, or why the form cannot be saved. */
async function changeSet(ast: Ast, context: ContextDef, detail: DetailView, deps: CoreDeps): Promise<Change[] | { problems: FieldProblem[] }> {
  const form = await deps.board.formData();
  const changes: Change[] = [];
  const problems: FieldProblem[] = [];
  for (const field of context.editable ?? []) {
    if (!Object.hasOwn(form, field)) continue;
    const def = fieldDef(ast, context.entity, field)!;
    let to: unknown;
    try {
      to = canonicalValue(context.entity, field, def, form[field]);
    } catch (e) {
      if (!(e instanceof FieldValueError)) throw e;
      problems.push(fieldProblem(e));
      continue;
    }
    const from = storedValue(ast, context, field, detail.record);
    if (isDeepStrictEqual(from, to)) continue;
    const names = def.type === 'ref' && def.entity
      ? withoutUndefined({ fromText: relatedName(detail.record[field]), toText: relatedName(form[field]) ?? await refName(ast, deps, def.entity, to) })
      : {};
    changes.push({ field, label: fieldLabel(ast, context.entity, field, deps.locale), from, to, ...names });
  }
  if (problems.length) return { problems };
  return changes;
}

/** The approval an audit entry records: what the person confirmed, for which fields. */
export function confirmedText(action: string, changes: readonly { field: string }[]): string {
  const fields = changes.map((c) => c.field).join(', ');
  return `${action} confirmed by the person${fields ? ` (${fields})` : ''}`.slice(0, MAX_APPROVAL_LENGTH);
}

/** Asks the person; any change of the Board while the question is open voids the answer. */
export async function askBound(deps: CoreDeps, summary: SaveSummary, signal: AbortSignal): Promise<'save' | 'discard' | 'timeout' | 'void'> {
  const changed = new AbortController();
  const subscription = deps.board.onChange((change) => {
    if (change !== 'mail') changed.abort();
  });
  try {
    const answer = await deps.confirmer.confirmSave(summary, AbortSignal.any([changed.signal, signal]));
    return changed.signal.aborted ? 'void' : answer;
  } finally {
    subscription.dispose();
  }
}

/**
 * After a save whose answer was lost: reads the record (without touching the Board) and says
 * what is known — stored, not stored, changed by someone else, or unknown while unreachable.
 */
async function unsettledSave(deps: CoreDeps, ast: Ast, context: ContextDef, contextName: string, id: string,
  loadedVersion: number, asked: readonly Change[], failure: unknown): Promise<SaveOutcome> {
  const why = failure instanceof Error ? failure.message : String(failure);
  let current: { record: BoardRecord; version: number } | undefined;
  try {
    current = await readStored(deps, ast, contextName, id);
  } catch {
    return { kind: 'answer_lost', ok: false, entity: context.entity, id, reason: why, found: 'unreadable', versionFrom: loadedVersion };
  }
  const ours = current !== undefined && current.version === loadedVersion + 1
    && asked.every((c) => isDeepStrictEqual(storedValue(ast, context, c.field, current.record), c.to));
  if (current && ours) {
    deps.board.showDetail({ context: contextName, record: current.record, version: current.version });
    return {
      kind: 'saved', ok: true, entity: context.entity, id, versionFrom: loadedVersion, versionTo: current.version, lostAnswer: why,
      stored: asked.map((c) => ({ field: c.field, value: storedValue(ast, context, c.field, current.record) })),
    };
  }
  if (current && current.version === loadedVersion) {
    return { kind: 'answer_lost', ok: false, entity: context.entity, id, reason: why, found: 'unchanged', versionFrom: loadedVersion };
  }
  return {
    kind: 'answer_lost', ok: false, entity: context.entity, id, reason: why, found: current ? 'changed' : 'deleted', versionFrom: loadedVersion,
    ...(current ? { versionNow: current.version } : {}),
  };
}

/** Reads the record again and shows it on the Board. */
async function readBack(deps: CoreDeps, ast: Ast, contextName: string, id: string): Promise<{ record: BoardRecord; version: number } | undefined> {
  const current = await readStored(deps, ast, contextName, id);
  if (current) deps.board.showDetail({ context: contextName, ...current });
  return current;
}

/** A value check's failure as data. */
export function fieldProblem(error: FieldValueError): FieldProblem {
  return { entity: error.entity, field: error.field, message: error.message, problem: error.problem };
}
