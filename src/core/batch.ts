// Many proposed changes at once (xos_ui_change_required on a list context): rows given by id, or
// `{ where, set }` that XOS resolves with the same checked filter as xos_query. Every row is read,
// computed (`_mul` / `_add` on numbers, rounded to the field's scale) and checked against the AST's
// rules; the Board shows them for review and nothing is saved. The reply counts, it never lists rows.
// No MCP, no VS Code.
import type { Ast, ContextDef, FieldDef } from '../ast/schema.ts';
import { fieldDef, ownValue } from '../ast/lookup.ts';
import { agentEditable, agentListFields } from '../ast/agentPolicy.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import { checkContextQuery } from '../graphql/queryRules.ts';
import { buildFilterCheckQuery, buildReviewRowsQuery, MAX_REVIEW_ROWS } from '../graphql/requests.ts';
import { storedValue, withoutVersion, type CoreDeps } from './base.ts';
import { add, decimalText, multiply, round, toDecimal, type Decimal } from './decimal.ts';
import type { BoardRecord } from './domain.ts';
import { openContext } from './openContext.ts';
import type { FieldProblem, ProposeOutcome } from './outcomes.ts';
import type { CurrentRecord, ProposedRow, Review } from './review.ts';
import { fieldProblem } from './outcomes.ts';

/** A `set` value computed from the stored one: a factor or an addend, on int and decimal fields. */
type Arithmetic = { readonly op: '_mul' | '_add'; readonly operand: Decimal };
type SetValue = { readonly literal: unknown } | Arithmetic;

/** How many example problems the reply names (the rest are counted). */
const PROBLEMS_NAMED = 5;
/** Identifying columns the review shows besides the id. */
const SHOWN_FIELDS = 3;

/** What the agent may change in a list context: the editable fields of the detail context its rows open (or of its entity), as the agent sees them. */
export function batchEditable(ast: Ast, list: ContextDef): string[] {
  const target = list.navigate?.row?.context;
  const detail = (target && ast.contexts[target]?.kind === 'detail' && ast.contexts[target].entity === list.entity ? ast.contexts[target] : undefined)
    ?? Object.values(ast.contexts).find((c) => c.kind === 'detail' && c.entity === list.entity && (c.editable?.length ?? 0) > 0);
  return detail ? agentEditable(ast, detail) : [];
}

/** The agent's proposal for many records of the list context `context`: shown for review, nothing saved. */
export async function proposeBatch(deps: CoreDeps, context: string, def: ContextDef, proposed: unknown): Promise<ProposeOutcome> {
  const ast = deps.client.ast();
  const editable = batchEditable(ast, def);
  const parsed = parseProposal(ast, context, def, proposed, editable);
  if ('kind' in parsed) return parsed;

  const shown = agentListFields(ast, context).filter((f) => f !== 'id' && !parsed.fields.includes(f) && isScalar(fieldDef(ast, def.entity, f))).slice(0, SHOWN_FIELDS);
  const request = buildReviewRowsQuery(ast, context, parsed.where, [...shown, ...parsed.fields]);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) return { kind: 'query_refused', ok: false, message: result.errors[0].message };
  const matched = Number(result.data?.[request.countRoot] ?? 0);
  if (matched > MAX_REVIEW_ROWS) return { kind: 'too_many_rows', ok: false, context, matched, max: MAX_REVIEW_ROWS };
  const records = (result.data?.[request.root] ?? []) as BoardRecord[];

  const rows: ProposedRow[] = [];
  let unchanged = 0;
  let invalid = 0;
  const problems: Array<{ id: string; problem: FieldProblem }> = [];
  for (const record of records) {
    const id = String(record.id);
    const set = parsed.byId ? parsed.byId.get(id)! : parsed.set!;
    const changes: Record<string, unknown> = {};
    const rowProblems: Record<string, FieldProblem> = {};
    for (const [field, value] of Object.entries(set)) {
      const fieldDefinition = fieldDef(ast, def.entity, field)!;
      const from = storedValue(ast, def, field, record);
      let to: unknown;
      try {
        to = canonicalValue(def.entity, field, fieldDefinition, 'literal' in value ? value.literal : computed(from, value, fieldDefinition));
      } catch (e) {
        if (!(e instanceof FieldValueError)) throw e;
        rowProblems[field] = fieldProblem(e);
        changes[field] = 'literal' in value ? value.literal : null;
        continue;
      }
      if (JSON.stringify(to) !== JSON.stringify(from)) changes[field] = to;
    }
    if (Object.keys(changes).length === 0) {
      unchanged++;
      continue;
    }
    const problemList = Object.values(rowProblems);
    if (problemList.length) {
      invalid++;
      if (problems.length < PROBLEMS_NAMED) problems.push({ id, problem: problemList[0] });
    }
    const { version, ...stored } = record;
    rows.push({ id, version: version as number, record: stored, proposed: changes, ...(problemList.length ? { problems: rowProblems } : {}) });
  }
  const missing = parsed.byId ? [...parsed.byId.keys()].filter((id) => !records.some((r) => String(r.id) === id)) : [];
  if (rows.length === 0) {
    return { kind: 'batch_unchanged', ok: false, context, matched: records.length, missing: missing.length, missingIds: missing.slice(0, PROBLEMS_NAMED) };
  }

  // The review replaces the context's list; Discard shows that list again.
  if (deps.board.list()?.context !== context) {
    const opened = await openContext(deps, context);
    if (!opened.ok) return { kind: 'query_refused', ok: false, message: `the list ${context} could not be shown` };
  }
  deps.board.showReview({ context, entity: def.entity, fields: parsed.fields, shown, unchanged, rows });
  return {
    kind: 'batch_previewed', ok: true, context, entity: def.entity, fields: parsed.fields,
    rows: rows.length, valid: rows.length - invalid, invalid, unchanged, missing: missing.length,
    missingIds: missing.slice(0, PROBLEMS_NAMED), problems,
  };
}

interface Parsed {
  readonly where: unknown;
  readonly fields: readonly string[];
  /** `{ where, set }`: one set for every matching row. */
  readonly set?: Readonly<Record<string, SetValue>>;
  /** Rows by id: each row's own set. */
  readonly byId?: ReadonlyMap<string, Readonly<Record<string, SetValue>>>;
}

/** The proposal's shape checked: names the agent may change, values or arithmetic on numbers, a filter xos_query would accept. */
function parseProposal(ast: Ast, context: string, def: ContextDef, proposed: unknown, editable: readonly string[]): Parsed | ProposeOutcome {
  const fail = (reason: string): ProposeOutcome => ({ kind: 'batch_invalid', ok: false, context, reason, editable });
  if (Array.isArray(proposed)) {
    if (proposed.length === 0) return fail('changes is an empty list');
    if (proposed.length > MAX_REVIEW_ROWS) return { kind: 'too_many_rows', ok: false, context, matched: proposed.length, max: MAX_REVIEW_ROWS };
    const byId = new Map<string, Record<string, SetValue>>();
    const fields = new Set<string>();
    for (const [index, item] of proposed.entries()) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return fail(`changes[${index}] is not an object like {"id": "1", "field": value}`);
      const { id, ...values } = item as Record<string, unknown>;
      if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') return fail(`changes[${index}] has no id`);
      if (byId.has(String(id))) return fail(`changes[${index}] repeats id ${String(id)}; give each record once`);
      const set = setValues(ast, def, values, editable, `changes[${index}]`, false);
      if (typeof set === 'string') return fail(set);
      for (const field of Object.keys(set)) fields.add(field);
      byId.set(String(id), set);
    }
    return { where: { id: { _in: [...byId.keys()] } }, fields: ordered(editable, fields), byId };
  }
  if (proposed === null || typeof proposed !== 'object') return fail('changes must be a list of {"id": …, field: value} or an object {"where": {…}, "set": {…}}');
  const { where, set, ...rest } = proposed as Record<string, unknown>;
  if (Object.keys(rest).length || set === undefined) {
    return fail(`on a list context, changes is a list of {"id": …, field: value} or {"where": {…}, "set": {…}}; got the keys ${Object.keys(proposed).join(', ') || 'none'}`);
  }
  const values = setValues(ast, def, set, editable, 'set', true);
  if (typeof values === 'string') return fail(values);
  const checked = checkedWhere(ast, context, where ?? {});
  if ('kind' in checked) return checked;
  return { where: checked.where, fields: ordered(editable, Object.keys(values)), set: values };
}

/** A `set` object's values: literals, or `{ "_mul": n }` / `{ "_add": n }` on int and decimal fields when `arithmetic`. */
function setValues(ast: Ast, def: ContextDef, set: unknown, editable: readonly string[], at: string, arithmetic: boolean): Record<string, SetValue> | string {
  if (set === null || typeof set !== 'object' || Array.isArray(set)) return `${at} must be an object of fields and their new values`;
  const entries = Object.entries(set as Record<string, unknown>);
  if (entries.length === 0) return `${at} names no field`;
  const out: Record<string, SetValue> = {};
  for (const [field, value] of entries) {
    if (!editable.includes(field)) return `${at}.${field} cannot be changed here; the fields the agent may change are ${editable.join(', ') || 'none'}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && ('_mul' in value || '_add' in value)) {
      const type = fieldDef(ast, def.entity, field)?.type;
      const keys = Object.keys(value);
      if (!arithmetic) return `${at}.${field}: _mul and _add are for {"where", "set"}; give the new value itself here`;
      if (type !== 'int' && type !== 'decimal') return `${at}.${field} is not a number field; _mul and _add work on int and decimal fields`;
      if (keys.length !== 1) return `${at}.${field} takes one of _mul or _add, e.g. {"_mul": 1.05}`;
      const op = keys[0] as '_mul' | '_add';
      const operand = toDecimal((value as Record<string, unknown>)[op]);
      if (!operand) return `${at}.${field}.${op} must be a number, e.g. 1.05 or -10`;
      out[field] = { op, operand };
    } else out[field] = { literal: value };
  }
  return out;
}

/** The stored value changed by a factor or addend, rounded to the field's scale (whole numbers for int); null stays null. */
function computed(from: unknown, arithmetic: Arithmetic, def: FieldDef): unknown {
  const stored = toDecimal(from);
  if (from === null || from === undefined || !stored) return null;
  const exact = arithmetic.op === '_mul' ? multiply(stored, arithmetic.operand) : add(stored, arithmetic.operand);
  const scale = def.type === 'int' ? 0 : def.scale ?? exact.scale;
  const text = decimalText(round(exact, scale));
  return def.type === 'int' ? Number(text) : text;
}

/** The filter checked by xos_query's own rules (the same fields, operators and depth the agent may use). */
function checkedWhere(ast: Ast, context: string, where: unknown): { where: unknown } | ProposeOutcome {
  const query = buildFilterCheckQuery(ast, context, where);
  if (query === undefined) return { kind: 'batch_invalid', ok: false, context, reason: 'where must be a filter object like {"category": {"_eq": "tools"}}', editable: [] };
  const check = checkContextQuery(ast, context, query);
  if (!check.ok) return { kind: 'query_invalid', ok: false, refusal: check.refusal };
  return { where: check.query.args.where ?? {} };
}

/** The changed fields in the order the agent may change them. */
function ordered(editable: readonly string[], fields: Iterable<string>): string[] {
  const names = new Set(fields);
  return editable.filter((f) => names.has(f));
}

function isScalar(def: FieldDef | undefined): boolean {
  return def !== undefined && def.type !== 'ref';
}

/** The person's own value for a cell of the review, checked like a form value: canonical, or as typed with its problem. */
export function reviewEditValue(ast: Ast, review: Review, field: string, value: unknown): { value: unknown; problem?: FieldProblem } | undefined {
  const def = review.fields.includes(field) ? fieldDef(ast, review.entity, field) : undefined;
  if (!def) return undefined;
  try {
    return { value: canonicalValue(review.entity, field, def, value) };
  } catch (e) {
    if (!(e instanceof FieldValueError)) throw e;
    return { value, problem: fieldProblem(e) };
  }
}

/**
 * Rows of a review someone else changed or deleted meanwhile (the change feed named them): what is
 * stored now, read as the review read its rows, for `Board.reviewConflicts`. Rows whose stored values
 * are already the accepted ones (this Board's own save, heard before the review closed) are left out.
 */
export async function reviewRowsChanged(deps: CoreDeps, review: Review, changed: ReadonlyArray<{ readonly id: string; readonly version: number | null }>): Promise<CurrentRecord[]> {
  const newer = changed.filter(({ id, version }) => {
    const row = review.row(id);
    // Versions of a person's own rows are their state (a digest on SQLite), not counts: only equal means unchanged.
    return row !== undefined && !row.gone && (version === null || version !== row.version);
  });
  const ids = [...new Set(newer.map((c) => c.id))];
  if (!ids.length) return [];
  const stored = await storedRows(deps, review, ids);
  return ids.flatMap((id): CurrentRecord[] => {
    const record = stored.get(id);
    if (!record) return [{ id, current: null }];
    const now = withoutVersion(record);
    const row = review.row(id)!;
    if (now.version === row.version) return [];
    const accepted = [...row.cells].filter(([, cell]) => cell.accepted);
    const ours = accepted.length > 0 && accepted.every(([field, cell]) => JSON.stringify(cell.to) === JSON.stringify(ownValue(now.record, field) ?? null));
    return ours ? [] : [{ id, current: now }];
  });
}

/** The review's records `ids` as stored now (with their version), read as the review read its rows; a deleted one is missing. */
export async function storedRows(deps: Pick<CoreDeps, 'client'>, review: Review, ids: readonly string[]): Promise<Map<string, BoardRecord>> {
  const request = buildReviewRowsQuery(deps.client.ast(), review.context, { id: { _in: ids } }, [...review.shown, ...review.fields]);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(`reading the review's rows again failed: ${result.errors[0].message}`);
  return new Map(((result.data?.[request.root] ?? []) as BoardRecord[]).map((record) => [String(record.id), record]));
}
