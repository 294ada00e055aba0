// Showing data on the Board: an agent's query, JSON it already has, a record, the record a
// list row or a ref cell leads to. The MCP tools xos_query and xos_render and the Board's
// clicks are thin adapters over these functions. No MCP, no VS Code.
import type { Ast, ContextDef } from '../ast/schema.ts';
import { listFieldSelections } from '../ast/view.ts';
import { fieldDef, findContext, findInverse } from '../ast/lookup.ts';
import { agentListFields, hiddenListFields, withheld } from '../ast/agentPolicy.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import { readPath } from '../ast/appModel.ts';
import { buildCheckedQuery, buildDetailQuery } from '../graphql/requests.ts';
import { checkContextQuery, checkedSelection, type CheckedQuery } from '../graphql/queryRules.ts';
import { BackendUnavailableError } from '../graphql/unavailable.ts';
import type { RecordProblem, ShowOutcome } from './outcomes.ts';
import type { Board, BoardRecord, ListQuery, ListWindow } from './domain.ts';
import { MemoryListSource, QueryListSource } from './listSource.ts';
import { contextModel, withoutVersion, type CoreDeps } from './base.ts';
import { fieldProblem } from './outcomes.ts';

const shown = (context: string, count: number): ShowOutcome => ({ kind: 'shown', ok: true, context, count });

/**
 * Runs an agent's query of a context and shows it. A list is opened as a window source:
 * the count and the first rows now, the rest as the person scrolls. A query with its own
 * limit or offset is the whole result the agent asked for and is loaded as it is.
 */
export async function showQuery(deps: CoreDeps, context: string, query: string): Promise<ShowOutcome> {
  const ast = deps.client.ast();
  const check = checkContextQuery(ast, context, query);
  if (!check.ok) return { kind: 'query_invalid', ok: false, refusal: check.refusal };
  // From here on only the rebuilt query runs, never the agent's text.
  const checked = check.query;
  const boardSelections = listFieldSelections(ast, context, hiddenListFields(ast, context));
  const serverRefused = (message: string): ShowOutcome => ({ kind: 'query_refused', ok: false, message });

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
      return shown(context, source.total);
    }
    // The id last, as the window source does: rows that tie on the agent's order keep one order.
    const stable: CheckedQuery = { ...checked, args: { ...checked.args, order_by: [...(Array.isArray(orderBy) ? orderBy : []), { id: 'asc' }] } };
    const request = buildCheckedQuery(stable, boardSelections);
    const result = await deps.client.run(request.query, request.variables);
    if (result.errors?.length) return serverRefused(result.errors.map((e) => e.message).join('; '));
    const records = (result.data?.[context] as BoardRecord[]).map((row) => withoutVersion(row).record);
    deps.board.showList({ context, source: new MemoryListSource(model, records) });
    return shown(context, records.length);
  }

  const request = buildCheckedQuery(checked, boardSelections);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) return serverRefused(result.errors.map((e) => e.message).join('; '));
  const data = result.data?.[context];
  if (data === null || data === undefined) {
    return { kind: 'no_match', ok: false, context };
  }
  const { record, version } = withoutVersion(data as BoardRecord);
  deps.board.showDetail({ context, record, version });
  return shown(context, 1);
}

/** Shows JSON the caller already has, checked against the context's fields. */
export async function showRendered(deps: CoreDeps, context: string, json: string): Promise<ShowOutcome> {
  const ast = deps.client.ast();
  const def = findContext(ast, context);
  if (!def) return { kind: 'unknown_context', ok: false, context, known: Object.keys(ast.contexts) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (e) {
    return { kind: 'invalid_json', ok: false, what: 'json', reason: (e as Error).message };
  }
  const records = Array.isArray(parsed) ? parsed : [parsed];
  if (def.kind === 'detail' && records.length !== 1) {
    return { kind: 'one_record_needed', ok: false, context, count: records.length };
  }
  const checked: BoardRecord[] = [];
  const problems: Array<{ index: number; problem: RecordProblem }> = [];
  const allowed = agentListFields(ast, context).filter((field) => !withheld(ast, def.entity, field));
  records.forEach((record, index) => {
    const result = checkRecord(ast, def, allowed, record);
    if (result.ok) checked.push(result.record);
    else problems.push({ index, problem: result.problem });
  });
  if (problems.length) return { kind: 'records_invalid', ok: false, context, problems, allowed };
  if (def.kind === 'list') deps.board.showList({ context, source: new MemoryListSource(contextModel(deps, context), checked) });
  else deps.board.showDetail({ context, record: checked[0] });
  return shown(context, checked.length);
}

type RecordCheck = { readonly ok: true; readonly record: BoardRecord } | { readonly ok: false; readonly problem: RecordProblem };

/** The record with canonical scalar values, or why it does not fit the context. */
function checkRecord(ast: Ast, context: ContextDef, allowed: readonly string[], record: unknown): RecordCheck {
  const refuse = (problem: RecordProblem): RecordCheck => ({ ok: false, problem });
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return refuse({ kind: 'not_object' });
  const entries = Object.entries(record as Record<string, unknown>);
  const unknown = entries.map(([k]) => k).filter((k) => !allowed.includes(k));
  if (unknown.length) return refuse({ kind: 'unknown_fields', fields: unknown });
  const out: BoardRecord = {};
  for (const [field, value] of entries) {
    const def = fieldDef(ast, context.entity, field);
    if (!def) {
      if (findInverse(ast, context.entity, field) && value !== null && !Array.isArray(value)) return refuse({ kind: 'not_a_list', field });
      out[field] = value;
      continue;
    }
    try {
      const canonical = canonicalValue(context.entity, field, def, value);
      out[field] = def.type === 'ref' ? value : canonical;
    } catch (e) {
      if (e instanceof FieldValueError) return refuse({ kind: 'value', value: fieldProblem(e) });
      throw e;
    }
  }
  return { ok: true, record: out };
}

/** One window of the list on the Board, with the person's sort and filter; undefined when no list is shown. */
export async function listWindow(board: Board, offset: number, limit: number, query: ListQuery, signal?: AbortSignal): Promise<ListWindow | undefined> {
  const list = board.list();
  return list ? list.source.window(offset, limit, query, signal) : undefined;
}

/** Loads one record of a detail context and shows it. */
export async function showRecord(deps: CoreDeps, context: string, id: string): Promise<ShowOutcome> {
  const request = buildDetailQuery(deps.client.ast(), context, id);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) return { kind: 'load_failed', ok: false, message: result.errors[0].message };
  const found = result.data?.[context] as BoardRecord | null | undefined;
  if (!found) return { kind: 'not_found', ok: false, context, id };
  const { record, version } = withoutVersion(found);
  deps.board.showDetail({ context, record, version });
  return shown(context, 1);
}

/** Opens the detail a list row leads to (`navigate.row`); the row is named by its key. */
export async function openRow(deps: CoreDeps, key: string): Promise<ShowOutcome> {
  const list = deps.board.list();
  if (!list) return { kind: 'no_list', ok: false };
  const target = contextModel(deps, list.context)?.rowTarget;
  if (!target) return { kind: 'no_row_link', ok: false, context: list.context };
  const record = list.source.recordByKey(key);
  const id = target.idPath === 'id' ? key : record && readPath(record, target.idPath);
  if (id === undefined || id === null || id === '') return { kind: 'no_id', ok: false, key, idPath: target.idPath };
  return showRecord(deps, target.context, String(id));
}

/** Opens the related record of a ref cell: the row named by its key, the ref field's navigate target. */
export async function openRef(deps: CoreDeps, key: string, field: string): Promise<ShowOutcome> {
  const list = deps.board.list();
  if (!list) return { kind: 'no_list', ok: false };
  const target = contextModel(deps, list.context)?.fields.find((f) => f.field === field)?.refTarget;
  if (!target) return { kind: 'no_link', ok: false, context: list.context, field, items: false };
  const record = list.source.recordByKey(key);
  const id = record && readPath(record, target.idPath);
  if (id === undefined || id === null || id === '') return { kind: 'no_id', ok: false, key, idPath: target.idPath };
  return showRecord(deps, target.context, String(id));
}
