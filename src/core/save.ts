// Saving the Board's form (the person's edits and the agent's preview) after the person
// confirmed exactly that change set: xos_ui_save and the Board's Save take this path.
// No MCP, no VS Code.
import type { AuditPath } from '../graphql/audit.ts';
import { isDeepStrictEqual } from 'node:util';
import type { Ast, ContextDef } from '../ast/schema.ts';
import { displayName } from '../ast/display.ts';
import { fieldDef, fieldLabel, findContext } from '../ast/lookup.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import { writeRecords, type PreparedWrite, type SavePayload } from './boundWrites.ts';
import { fieldProblem, type ConflictField, type FieldProblem, type SaveOutcome } from './outcomes.ts';
import { askBound, confirmedText } from './asking.ts';
import type { BoardRecord, DetailView, SaveSummary } from './domain.ts';
import { createFromForm, prepareCreate } from './records.ts';
import { prepareReview, saveReview } from './batchSave.ts';
import { readStored, refName, relatedName, storedValue, withoutUndefined, type CoreDeps } from './base.ts';

type Change = SaveSummary['changes'][number];

/**
 * Saves the Board's form (the person's edits and the agent's preview) against the loaded
 * record, after the person confirmed exactly that change set; one update with the loaded version.
 */
export async function saveForm(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'agent', approval = 'Save'): Promise<SaveOutcome> {
  const board = deps.board.snapshot();
  const review = deps.board.review();
  if (board.kind === 'review' && review) return saveReview(deps, review, signal, path, approval);
  const context = board.context === undefined ? undefined : findContext(deps.client.ast(), board.context);
  if (board.detail?.isNew && context?.kind === 'detail') return createFromForm(deps, signal, path);
  const form = await formChange(deps, approval);
  if (!('prepared' in form)) return form;
  const { prepared } = form;
  const away = deps.confirmer.unavailable?.();
  if (away) return { kind: 'not_asked', ok: false, action: 'save', reason: away };
  const answer = await askBound(deps, prepared.summary, signal);
  if (answer === 'void' || !isDeepStrictEqual(await changeSet(deps.client.ast(), form.context, form.detail, deps), prepared.summary.changes)) {
    return { kind: 'changed_while_asked', ok: false, action: 'save' };
  }
  if (answer !== 'save') return { kind: 'declined', ok: false, action: 'save', answer };
  return commitFormSave(deps, prepared, form.detail, path, approval);
}

/**
 * What Save (xos_ui_save, the Board's Save) would write now, as saveForm picks it: the reviewed
 * batch, the new record, or the form's update of the loaded record; or why nothing can be saved.
 */
export async function prepareSave(deps: CoreDeps, approval = 'Save'): Promise<Extract<PreparedWrite, { kind: 'save' | 'create' | 'batch' }> | SaveOutcome> {
  const board = deps.board.snapshot();
  const review = deps.board.review();
  if (board.kind === 'review' && review) return prepareReview(deps, review, approval);
  const context = board.context === undefined ? undefined : findContext(deps.client.ast(), board.context);
  if (board.detail?.isNew && context?.kind === 'detail') return prepareCreate(deps);
  return prepareFormSave(deps, approval);
}

/**
 * What saving the Board's form would write now, bound to the loaded version (a new record's form and
 * a review have their own: `prepareCreate`, `prepareReview`), or why nothing can be saved.
 */
export async function prepareFormSave(deps: CoreDeps, approval = 'Save'): Promise<Extract<PreparedWrite, { kind: 'save' }> | SaveOutcome> {
  const form = await formChange(deps, approval);
  return 'prepared' in form ? form.prepared : form;
}

type FormChange = { prepared: Extract<PreparedWrite, { kind: 'save' }>; context: ContextDef; detail: DetailView & { version: number } };

async function formChange(deps: CoreDeps, approval: string): Promise<FormChange | SaveOutcome> {
  const ast = deps.client.ast();
  const board = deps.board.snapshot();
  const detail = board.detail;
  const context = board.context === undefined ? undefined : findContext(ast, board.context);
  if (!detail || detail.isNew || !context || context.kind !== 'detail' || detail.version === undefined) {
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
  // Named as stored: a change of the name itself reads "Anna Muster (#12)? Last name: Muster → Schmidt".
  const name = displayName(ast, context.entity, detail.record);
  const summary: SaveSummary = { entity: context.entity, id, ...(name ? { name } : {}), changes: asked, ...(others.length ? { othersEditing: others } : {}) };
  const payload: SavePayload = {
    kind: 'save', context: contextName, entity: context.entity, id, version: detail.version,
    set: Object.fromEntries(asked.map((c) => [c.field, c.to])), action: approval,
  };
  return { prepared: { kind: 'save', payload, summary }, context, detail: { ...detail, version: detail.version } };
}

/** Writes exactly the confirmed update and shows the result on the Board (the record, its conflicts). */
async function commitFormSave(deps: CoreDeps, prepared: Extract<PreparedWrite, { kind: 'save' }>, loaded: DetailView & { version: number },
  path: AuditPath, action: string): Promise<SaveOutcome> {
  const ast = deps.client.ast();
  const { payload, summary } = prepared;
  const context = findContext(ast, payload.context)!;
  const asked = summary.changes;
  const claim = await deps.boardWriting?.();
  const write = await writeRecords(deps.client, payload, { path, approval: confirmedText(action, asked, claim?.approvals) });
  if (write.kind !== 'written') await claim?.notWritten();
  if (write.kind === 'no_answer') {
    if (write.certainlyNotProcessed) return { kind: 'unavailable', ok: false, reason: (write.failure as Error).message };
    // The request went out but no answer came back: it may or may not have been applied. Never retried.
    return unsettledSave(deps, ast, context, payload.context, payload.id, payload.version, asked, write.failure);
  }
  if (write.kind === 'conflict') return conflictOutcome(deps, ast, context, payload.context, payload.id, loaded, asked);
  if (write.kind === 'refused') return { kind: 'server_refused', ok: false, action: 'save', entity: context.entity, error: write.error };

  const saved = await readBack(deps, ast, payload.context, payload.id);
  if (!saved) throw new Error(`${context.entity} ${payload.id} is missing right after saving it`);
  const outcome: SaveOutcome = {
    kind: 'saved', ok: true, entity: context.entity, id: payload.id, versionFrom: payload.version, versionTo: saved.version,
    stored: asked.map((c) => ({ field: c.field, value: storedValue(ast, context, c.field, saved.record) })),
    ...named(ast, context.entity, saved.record),
  };
  await claim?.written(prepared, outcome);
  deps.onSaved?.({ entity: context.entity, id: payload.id, version: saved.version }, outcome);
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
  return conflictShown(deps, ast, context, contextName, id, loaded, current, asked);
}

/**
 * The record stored now taken under the form's changes (`asked`, made against `loaded`); the fields
 * both sides changed wait for the person's choice. Also before a question (an undo of a record changed since).
 */
export function conflictShown(deps: CoreDeps, ast: Ast, context: ContextDef, contextName: string, id: string,
  loaded: DetailView, current: { record: BoardRecord; version: number }, asked: ReadonlyArray<Pick<Change, 'field' | 'to'>>): Extract<SaveOutcome, { kind: 'conflict' }> {
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
      ? withoutUndefined({ fromText: relatedName(ast, def.entity, detail.record[field]), toText: relatedName(ast, def.entity, form[field]) ?? await refName(ast, deps, def.entity, to) })
      : {};
    changes.push({ field, label: fieldLabel(ast, context.entity, field, deps.locale), from, to, ...names });
  }
  if (problems.length) return { problems };
  return changes;
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
      ...named(ast, context.entity, current.record),
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
/**
 * A stored approval wrote `payload` (not the Board's own Save): a Board whose unsaved form is still
 * exactly that change of that record at that version shows the stored record, as after its own
 * Save, so the written change is not offered again. Anything else on the Board is left as it is.
 */
export async function showApprovedSave(deps: CoreDeps, payload: SavePayload): Promise<void> {
  const now = await prepareFormSave(deps);
  if (!('payload' in now)) return;
  const shown = now.payload;
  if (shown.context !== payload.context || shown.id !== payload.id || shown.version !== payload.version || !isDeepStrictEqual(shown.set, payload.set)) return;
  await readBack(deps, deps.client.ast(), payload.context, payload.id);
}

async function readBack(deps: CoreDeps, ast: Ast, contextName: string, id: string): Promise<{ record: BoardRecord; version: number } | undefined> {
  const current = await readStored(deps, ast, contextName, id);
  if (current) deps.board.showDetail({ context: contextName, ...current });
  return current;
}

/** The record's name as stored now, for the words that report its save. */
function named(ast: Ast, entity: string, record: BoardRecord): { name?: string } {
  const name = displayName(ast, entity, record);
  return name ? { name } : {};
}
