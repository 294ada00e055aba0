// What a person and an agent can do with XOS, once: show a query's result, show
// given JSON, open a row, propose changes, save the form, page through a list.
// The MCP tools and the Board's handlers are thin adapters over these functions,
// so a click and a tool call take the same path. No MCP, no VS Code.
import { MAX_APPROVAL_LENGTH, type AuditPath } from '../backend/storage/audit.ts';
import { isDeepStrictEqual } from 'node:util';
import type { Ast, ContextDef } from '../ast/schema.ts';
import { exampleQuery, listFieldSelections } from '../ast/view.ts';
import { fieldDef, fieldLabel, findContext, findInverse } from '../ast/lookup.ts';
import { agentEditable, agentListFields, hiddenListFields, withheld } from '../ast/agentPolicy.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import { appModel, readPath, type ContextModel } from '../ast/appModel.ts';
import { buildDetailQuery, buildUpdateMutation } from '../graphql/mutation.ts';
import { buildCheckedQuery, checkContextQuery, checkedSelection, type CheckedQuery } from '../graphql/queryRules.ts';
import { BackendUnavailableError } from '../graphql/unavailable.ts';
import {
  agentProblem, agentQuote, agentServerText, DISPLAYED, namedToAgent, recordsText, serverMessage, storedText, unknownContextText,
} from './agentText.ts';
import type { Board, BoardRecord, BoardSnapshot, Confirmer, DetailView, GraphQLResult, ListQuery, ListWindow, SaveSummary, XosClient } from './domain.ts';
import { MemoryListSource, QueryListSource } from './listSource.ts';
import { createFromForm } from './records.ts';

/** What the use cases need; the MCP tools' dependencies are a superset. */
export interface CoreDeps {
  readonly client: XosClient;
  readonly board: Board;
  readonly confirmer: Confirmer;
  /** The Board's locale; the AST's default when absent. */
  readonly locale?: string;
  /** Told after a save was stored (the host's "saved" notification offers Undo). */
  readonly onSaved?: (saved: SavedRecord, text: string) => void;
}

/** A stored save: the record and the version it produced (its audit entry's `version_to`). */
export interface SavedRecord {
  readonly entity: string;
  readonly id: string;
  readonly version: number;
}

/** Whether the Board's form holds work that is not stored: the person's edits, the agent's proposals, open conflicts. */
export function hasUnsavedForm(snapshot: BoardSnapshot): boolean {
  return snapshot.kind === 'detail'
    && (Object.keys(snapshot.pending).length > 0 || (snapshot.edited?.length ?? 0) > 0 || Object.keys(snapshot.conflicts ?? {}).length > 0);
}

/** The result of a use case: done or not, and the words that say so (the agent reads them, the person sees them). */
export interface Outcome {
  readonly ok: boolean;
  readonly text: string;
}

const done = (text: string): Outcome => ({ ok: true, text });
const refused = (text: string): Outcome => ({ ok: false, text });

function contextModel(deps: CoreDeps, context: string): ContextModel {
  const ast = deps.client.ast();
  return appModel(ast, deps.locale ?? ast.locales[0]).context(context)!;
}

/**
 * Runs an agent's query of a context and shows it. A list is opened as a window source:
 * the count and the first rows now, the rest as the person scrolls. A query with its own
 * limit or offset is the whole result the agent asked for and is loaded as it is.
 */
export async function showQuery(deps: CoreDeps, context: string, query: string): Promise<Outcome> {
  const ast = deps.client.ast();
  const check = checkContextQuery(ast, context, query);
  if (!check.ok) return refused(check.message);
  // From here on only the rebuilt query runs, never the agent's text.
  const checked = check.query;
  const boardSelections = listFieldSelections(ast, context, hiddenListFields(ast, context));
  const serverRefused = (message: string) => refused(`The XOS server refused the query: ${agentServerText(ast, message)} Fix the query and call xos_query again.`);

  if (check.kind === 'list') {
    const model = contextModel(deps, context);
    const { where, order_by: orderBy, limit, offset } = checked.args;
    if (limit === undefined && offset === undefined) {
      let source: QueryListSource;
      try {
        source = await QueryListSource.open({ client: deps.client, context: model, selection: checkedSelection(checked, boardSelections), where, orderBy });
      } catch (error) {
        if (error instanceof BackendUnavailableError) throw error;
        return serverRefused(error instanceof Error ? error.message : String(error));
      }
      deps.board.showList({ context, source });
      return done(`${DISPLAYED} ${recordsText(source.total, context)}`);
    }
    // The id last, as the window source does: rows that tie on the agent's order keep one order.
    const stable: CheckedQuery = { ...checked, args: { ...checked.args, order_by: [...(Array.isArray(orderBy) ? orderBy : []), { id: 'asc' }] } };
    const request = buildCheckedQuery(stable, boardSelections);
    const result = await deps.client.run(request.query, request.variables);
    if (result.errors?.length) return serverRefused(result.errors.map((e) => e.message).join('; '));
    const records = (result.data?.[context] as BoardRecord[]).map((row) => withoutVersion(row).record);
    deps.board.showList({ context, source: new MemoryListSource(model, records) });
    return done(`${DISPLAYED} ${recordsText(records.length, context)}`);
  }

  const request = buildCheckedQuery(checked, boardSelections);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) return serverRefused(result.errors.map((e) => e.message).join('; '));
  const data = result.data?.[context];
  if (data === null || data === undefined) {
    return refused(`No record of ${context} matches this query; nothing was displayed. Check the id (for example in the matching list context).`);
  }
  const { record, version } = withoutVersion(data as BoardRecord);
  deps.board.showDetail({ context, record, version });
  return done(`${DISPLAYED} ${recordsText(1, context)}`);
}

function withoutVersion(row: BoardRecord): { record: BoardRecord; version: number } {
  const { version, ...record } = row;
  return { record, version: version as number };
}

/** Shows JSON the caller already has, checked against the context's fields. */
export async function showRendered(deps: CoreDeps, context: string, json: string): Promise<Outcome> {
  const ast = deps.client.ast();
  const def = findContext(ast, context);
  if (!def) return refused(unknownContextText(ast, context));
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (e) {
    return refused(`json is not valid JSON (${(e as Error).message}). Call xos_render again with an array of records or one record object as a JSON string.`);
  }
  const records = Array.isArray(parsed) ? parsed : [parsed];
  if (def.kind === 'detail' && records.length !== 1) {
    return refused(`${context} is a detail context: send exactly one record object (got ${records.length}).`);
  }
  const checked: BoardRecord[] = [];
  const problems: string[] = [];
  const allowed = agentListFields(ast, context).filter((field) => !withheld(ast, def.entity, field));
  records.forEach((record, index) => {
    const result = checkRecord(ast, def, allowed, record);
    if (typeof result === 'string') problems.push(`record ${index}: ${result}`);
    else checked.push(result);
  });
  if (problems.length) {
    return refused(`Nothing was displayed. ${problems.slice(0, 10).join('; ')}. Allowed fields of ${context}: ${allowed.join(', ')}. Call xos_render again with those fields.`);
  }
  if (def.kind === 'list') deps.board.showList({ context, source: new MemoryListSource(contextModel(deps, context), checked) });
  else deps.board.showDetail({ context, record: checked[0] });
  return done(`${DISPLAYED} ${recordsText(checked.length, context)}`);
}

/** The record with canonical scalar values, or why it does not fit the context. */
function checkRecord(ast: Ast, context: ContextDef, allowed: readonly string[], record: unknown): BoardRecord | string {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'is not a JSON object';
  const entries = Object.entries(record as Record<string, unknown>);
  const unknown = entries.map(([k]) => k).filter((k) => !allowed.includes(k));
  if (unknown.length) return `unknown fields ${unknown.join(', ')}`;
  const out: BoardRecord = {};
  for (const [field, value] of entries) {
    const def = fieldDef(ast, context.entity, field);
    if (!def) {
      if (findInverse(ast, context.entity, field) && value !== null && !Array.isArray(value)) return `${field} must be a list of records`;
      out[field] = value;
      continue;
    }
    try {
      const canonical = canonicalValue(context.entity, field, def, value);
      out[field] = def.type === 'ref' ? value : canonical;
    } catch (e) {
      if (e instanceof FieldValueError) return e.message;
      throw e;
    }
  }
  return out;
}

/** One window of the list on the Board, with the person's sort and filter; undefined when no list is shown. */
export async function listWindow(board: Board, offset: number, limit: number, query: ListQuery): Promise<ListWindow | undefined> {
  const list = board.list();
  return list ? list.source.window(offset, limit, query) : undefined;
}

/** Loads one record of a detail context and shows it. */
export async function showRecord(deps: CoreDeps, context: string, id: string): Promise<Outcome> {
  const request = buildDetailQuery(deps.client.ast(), context, id);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) return refused(result.errors[0].message);
  const found = result.data?.[context] as BoardRecord | null | undefined;
  if (!found) return refused(`${context} ${id} was not found`);
  const { record, version } = withoutVersion(found);
  deps.board.showDetail({ context, record, version });
  return done(`${DISPLAYED} ${recordsText(1, context)}`);
}

/** Opens the detail a list row leads to (`navigate.row`); the row is named by its key. */
export async function openRow(deps: CoreDeps, key: string): Promise<Outcome> {
  const list = deps.board.list();
  if (!list) return refused('The Board shows no list.');
  const target = contextModel(deps, list.context)?.rowTarget;
  if (!target) return refused(`Rows of ${list.context} do not open a detail.`);
  const record = list.source.recordByKey(key);
  const id = target.idPath === 'id' ? key : record && readPath(record, target.idPath);
  if (id === undefined || id === null || id === '') return refused(`The row ${key} has no ${target.idPath}.`);
  return showRecord(deps, target.context, String(id));
}

/** Opens the related record of a ref cell: the row named by its key, the ref field's navigate target. */
export async function openRef(deps: CoreDeps, key: string, field: string): Promise<Outcome> {
  const list = deps.board.list();
  if (!list) return refused('The Board shows no list.');
  const target = contextModel(deps, list.context)?.fields.find((f) => f.field === field)?.refTarget;
  if (!target) return refused(`${field} of ${list.context} does not open a record.`);
  const record = list.source.recordByKey(key);
  const id = record && readPath(record, target.idPath);
  if (id === undefined || id === null || id === '') return refused(`The row ${key} has no ${target.idPath}.`);
  return showRecord(deps, target.context, String(id));
}

/** The agent's proposed changes as a preview in the form; nothing is saved. */
export async function proposeChanges(deps: CoreDeps, context: string, changes: unknown): Promise<Outcome> {
  const ast = deps.client.ast();
  const def = findContext(ast, context);
  if (!def) return refused(unknownContextText(ast, context));
  const board = deps.board.snapshot();
  const detail = board.detail;
  if (def.kind !== 'detail' || board.context !== context || !detail) {
    const shown = board.context ? `The Board shows ${board.context}` : 'The Board shows nothing yet';
    const example = def.kind === 'detail' ? ` with a query like ${exampleQuery(ast, context)}` : '';
    return refused(`${shown}, not a loaded record of ${context}. Load the record first with xos_query (context ${def.kind === 'detail' ? context : 'a detail context'})${example}, then propose the changes again.`);
  }
  if (detail.version === undefined) {
    return refused(`The Board shows rendered data of ${context}, not a stored record. Load the record with xos_query, then propose the changes again.`);
  }

  let proposed: unknown = changes;
  if (typeof changes === 'string') {
    try {
      proposed = JSON.parse(changes);
    } catch (e) {
      return refused(`changes is not valid JSON (${(e as Error).message}). Send an object such as {"lastname": "Schmidt"}.`);
    }
  }
  if (proposed === null || typeof proposed !== 'object' || Array.isArray(proposed) || Object.keys(proposed).length === 0) {
    return refused('changes must be a JSON object with at least one field, such as {"lastname": "Schmidt"}.');
  }

  const editable = agentEditable(ast, def);
  const names = Object.keys(proposed);
  const notEditable = names.filter((n) => !editable.includes(n));
  if (notEditable.length) {
    return refused(`Not editable in ${context}: ${notEditable.join(', ')}. Nothing was previewed. Editable fields: ${editable.join(', ')}.`);
  }
  const canonical: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [field, value] of Object.entries(proposed as Record<string, unknown>)) {
    try {
      canonical[field] = canonicalValue(def.entity, field, fieldDef(ast, def.entity, field)!, value);
    } catch (e) {
      if (!(e instanceof FieldValueError)) throw e;
      problems.push(e.message);
    }
  }
  if (problems.length) return refused(`Nothing was previewed: ${problems.join('; ')}. Send valid values.`);

  deps.board.preview(canonical);
  const pending = deps.board.snapshot().pending;
  const shown = (field: string, value: unknown) => agentQuote(ast, def.entity, field, value);
  const lines = Object.entries(pending).filter(([field]) => namedToAgent(ast, def.entity, field))
    .map(([field, to]) => `${field}: ${shown(field, storedValue(ast, def, field, detail.record))} -> ${shown(field, to)}`);
  return done(`Preview on the Board, nothing saved yet. Pending changes of ${def.entity} ${String(detail.record.id)}: ${lines.join('; ')}. `
    + 'Ask the person whether to save; call xos_ui_save only after they said so.');
}

type Change = SaveSummary['changes'][number];

/**
 * Saves the Board's form (the person's edits and the agent's preview) against the loaded
 * record, after the person confirmed exactly that change set; one update with the loaded version.
 */
export async function saveForm(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'agent', approval = 'Save'): Promise<Outcome> {
  const ast = deps.client.ast();
  const board = deps.board.snapshot();
  const detail = board.detail;
  const context = board.context === undefined ? undefined : findContext(ast, board.context);
  if (detail?.isNew && context?.kind === 'detail') return createFromForm(deps, signal, path);
  if (!detail || !context || context.kind !== 'detail' || detail.version === undefined) {
    return refused('Nothing to save: the Board shows no loaded record. Load one with xos_query on a detail context, propose changes with xos_ui_change_required, then save.');
  }
  const contextName = board.context!;
  const open = Object.keys(board.conflicts ?? {});
  if (open.length) {
    const named = open.filter((field) => namedToAgent(ast, context.entity, field));
    return refused(`Not saved: ${open.length === 1 ? 'a field conflicts' : `${open.length} fields conflict`} with the version someone else stored${named.length ? ` (${named.join(', ')})` : ''}. `
      + 'Nothing was written. The person chooses per field on the Board which value to keep; then save again.');
  }
  const asked = await changeSet(ast, context, detail, deps);
  if (typeof asked === 'string') return refused(asked);
  if (asked.length === 0) {
    return refused('Nothing to save: the form matches the stored record. Propose changes with xos_ui_change_required first.');
  }

  const id = String(detail.record.id);
  const summary: SaveSummary = { entity: context.entity, id, changes: asked };
  const away = deps.confirmer.unavailable?.();
  if (away) return refused(`Not saved: ${away} Nothing was written; the preview stays on the Board.`);
  const answer = await askBound(deps, summary, signal);
  if (answer === 'void' || !isDeepStrictEqual(await changeSet(ast, context, detail, deps), asked)) {
    return refused('Not saved: the form changed while the person was asked, so that approval no longer matches what would be written. Nothing was written. Check the Board and call xos_ui_save again when the person wants to save.');
  }
  if (answer !== 'save') {
    const why = answer === 'discard' ? 'the person chose Discard' : 'the person did not answer in time';
    return refused(`Not saved: ${why}. Nothing was written; the preview stays on the Board.`);
  }

  const set = Object.fromEntries(asked.map((c) => [c.field, c.to]));
  const mutation = buildUpdateMutation(ast, contextName, id, detail.version, set);
  let result: GraphQLResult;
  try {
    result = await deps.client.run(mutation.query, mutation.variables, { path, approval: confirmedText(approval, asked) });
  } catch (failure) {
    if (failure instanceof BackendUnavailableError && failure.certainlyNotProcessed) {
      return refused(`Not saved: ${failure.message}; nothing was written. The form on the Board is kept; call xos_ui_save again when the server answers.`);
    }
    // The request went out but no answer came back: it may or may not have been applied. Never retried.
    return unsettledSave(deps, ast, context, contextName, id, detail.version, asked, failure);
  }
  const error = result.errors?.[0];
  if (error?.extensions?.code === 'CONFLICT') return conflictOutcome(deps, ast, context, contextName, id, detail, asked);
  if (error) return refused(`Not saved: the XOS server refused the change: ${serverMessage(ast, context.entity, error)} Nothing was written.`);

  const saved = await readBack(deps, ast, contextName, id);
  if (!saved) throw new Error(`${context.entity} ${id} is missing right after saving it`);
  const text = `Saved ${context.entity} ${id} (version ${detail.version} -> ${saved.version}).${storedText(ast, context.entity, asked.map((c) => [c.field, storedValue(ast, context, c.field, saved.record)]))}`;
  deps.onSaved?.({ entity: context.entity, id, version: saved.version }, text);
  return done(text);
}

/**
 * A save met a newer version: nothing was written and nothing pending is lost. The Board takes the
 * stored record under the person's changes; the fields both sides changed wait for the person's choice.
 */
async function conflictOutcome(deps: CoreDeps, ast: Ast, context: ContextDef, contextName: string, id: string,
  loaded: DetailView, asked: readonly Change[]): Promise<Outcome> {
  const current = await readStored(deps, ast, contextName, id);
  if (!current) {
    return refused(`Not saved: ${context.entity} ${id} was deleted by someone else after it was loaded; nothing was written. The form on the Board is kept.`);
  }
  const conflicting = deps.board.conflict({ context: contextName, record: current.record, version: current.version });
  const head = `Not saved: ${context.entity} ${id} was changed by someone else after it was loaded (version ${loaded.version} -> ${current.version}); nothing was written, and the pending changes are kept on the Board. `;
  if (!conflicting.length) {
    return refused(`${head}The other change touched other fields; the Board now shows it under the pending changes. Call xos_ui_save again to store them against version ${current.version} (the person is asked again).`);
  }
  const value = (field: string, record: BoardRecord) => agentQuote(ast, context.entity, field, storedValue(ast, context, field, record));
  const details = conflicting.filter((field) => namedToAgent(ast, context.entity, field)).map((field) => {
    const mine = asked.find((c) => c.field === field);
    return `${field}: loaded ${value(field, loaded.record)}, stored now ${value(field, current.record)}, pending ${mine ? agentQuote(ast, context.entity, field, mine.to) : 'unchanged'}`;
  });
  const both = details.length ? `Both changed ${details.join('; ')}.` : 'Both changed fields that only the person sees.';
  return refused(`${head}${both} The Board shows these side by side; the person keeps one value per field, then save again with xos_ui_save.`);
}

/** The changed fields of the form against the loaded record, or why the form cannot be saved. */
async function changeSet(ast: Ast, context: ContextDef, detail: DetailView, deps: CoreDeps): Promise<Change[] | string> {
  const form = await deps.board.formData();
  const changes: Change[] = [];
  const problems: string[] = [];
  for (const field of context.editable ?? []) {
    if (!Object.hasOwn(form, field)) continue;
    const def = fieldDef(ast, context.entity, field)!;
    let to: unknown;
    try {
      to = canonicalValue(context.entity, field, def, form[field]);
    } catch (e) {
      if (!(e instanceof FieldValueError)) throw e;
      problems.push(agentProblem(ast, e));
      continue;
    }
    const from = storedValue(ast, context, field, detail.record);
    if (isDeepStrictEqual(from, to)) continue;
    const names = def.type === 'ref' && def.entity
      ? withoutUndefined({ fromText: relatedName(detail.record[field]), toText: relatedName(form[field]) ?? await refName(ast, deps, def.entity, to) })
      : {};
    changes.push({ field, label: fieldLabel(ast, context.entity, field, deps.locale), from, to, ...names });
  }
  if (problems.length) {
    return `Not saved: the form has invalid values: ${problems.join('; ')}. Correct them with xos_ui_change_required or ask the person to fix them in the Board.`;
  }
  return changes;
}

/** Fields that name a record, in the order they are tried. */
const NAME_FIELDS = ['name', 'label', 'title', 'lastname', 'email'];

/** The readable name a loaded related object carries (`{ id, name }`), if any. */
function relatedName(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const key = NAME_FIELDS.find((k) => typeof record[k] === 'string' && record[k] !== '');
  return key ? record[key] as string : undefined;
}

/** The name of the related record `id`, read through its entity's detail context (the id as a variable). */
export async function refName(ast: Ast, deps: Pick<CoreDeps, 'client'>, entity: string, id: unknown): Promise<string | undefined> {
  if (id === null || id === undefined) return undefined;
  const [context] = Object.entries(ast.contexts).find(([, c]) => c.kind === 'detail' && c.entity === entity) ?? [];
  const field = NAME_FIELDS.find((f) => ast.entities[entity]?.fields[f]);
  if (!context || !field) return undefined;
  const result = await deps.client.run(`query XosRefName($id: ID!) { ${context}(id: $id) { ${field} } }`, { id: String(id) });
  const value = (result.data?.[context] as Record<string, unknown> | null | undefined)?.[field];
  return typeof value === 'string' ? value : undefined;
}

function withoutUndefined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function storedValue(ast: Ast, context: ContextDef, field: string, record: BoardRecord): unknown {
  const value = record[field] ?? null;
  try {
    return canonicalValue(context.entity, field, fieldDef(ast, context.entity, field)!, value);
  } catch {
    // A stored value the AST no longer accepts still differs from any valid new one.
    return value;
  }
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
  loadedVersion: number, asked: readonly Change[], failure: unknown): Promise<Outcome> {
  const why = failure instanceof Error ? failure.message : String(failure);
  let current: { record: BoardRecord; version: number } | undefined;
  try {
    current = await readStored(deps, ast, contextName, id);
  } catch {
    return refused(`The save may have been stored: the change was sent to the XOS server, but no answer came back (${why}), and the record cannot be read now. `
      + `Nothing was retried and the form on the Board is kept. When the server answers, load ${context.entity} ${id} again with xos_query before anything else to see what is stored.`);
  }
  const ours = current !== undefined && current.version === loadedVersion + 1
    && asked.every((c) => isDeepStrictEqual(storedValue(ast, context, c.field, current.record), c.to));
  if (current && ours) {
    deps.board.showDetail({ context: contextName, record: current.record, version: current.version });
    return done(`Saved ${context.entity} ${id} (version ${loadedVersion} -> ${current.version}): the answer to the save was lost (${why}), `
      + `but reading the record back shows exactly this change stored.${storedText(ast, context.entity, asked.map((c) => [c.field, storedValue(ast, context, c.field, current.record)]))}`);
  }
  if (current && current.version === loadedVersion) {
    return refused(`Not saved: the connection to the XOS server broke while saving (${why}); the record is unchanged (version ${loadedVersion}). `
      + 'Nothing was retried and the form on the Board is kept; call xos_ui_save again when the person wants to save.');
  }
  return refused(`The save's answer was lost (${why}) and ${context.entity} ${id} now has ${current ? `version ${current.version} with other values` : 'been deleted'}: `
    + 'someone else changed it. Nothing was retried. Load it again with xos_query and propose the changes again if they are still wanted.');
}

/** The stored record and its version, without changing the Board. */
export async function readStored(deps: CoreDeps, ast: Ast, contextName: string, id: string): Promise<{ record: BoardRecord; version: number } | undefined> {
  const request = buildDetailQuery(ast, contextName, id);
  const result: GraphQLResult = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(`reading ${contextName} ${id} back failed: ${result.errors[0].message}`);
  const row = result.data?.[contextName] as BoardRecord | null | undefined;
  return row ? withoutVersion(row) : undefined;
}

/** Reads the record again and shows it on the Board. */
async function readBack(deps: CoreDeps, ast: Ast, contextName: string, id: string): Promise<{ record: BoardRecord; version: number } | undefined> {
  const current = await readStored(deps, ast, contextName, id);
  if (current) deps.board.showDetail({ context: contextName, ...current });
  return current;
}
