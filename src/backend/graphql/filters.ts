// Turns the GraphQL `where` and `order_by` arguments (already coerced by
// graphql-js) into the storage layer's Condition and OrderBy.
import type { Column, Model, Table } from '../model.ts';
import type { CompareOp, Condition, OrderBy, RecordId, Scalar } from '../storage/types.ts';
import { MAX_TEXT_KEY, UUID } from '../../ast/values.ts';
import { badInput } from './errors.ts';

type WhereInput = Record<string, unknown>;

const COMPARE: Record<string, CompareOp> = {
  _eq: 'eq', _neq: 'neq', _lt: 'lt', _lte: 'lte', _gt: 'gt', _gte: 'gte', _like: 'like', _ilike: 'ilike',
};

/** Longest _like/_ilike pattern: SQLite refuses patterns over 50,000 bytes, and no search needs more. */
export const MAX_LIKE_PATTERN = 1000;

/**
 * A record's key as the API gives it (an ID string) in the form its column stores: a positive
 * integer in XOS's own tables, a text or a uuid where the person's table is keyed so.
 */
export function toRecordId(column: Column, value: unknown, what: string): RecordId {
  if (column.key === 'text') {
    if (typeof value === 'string' && value !== '' && value.length <= MAX_TEXT_KEY) return value;
    throw badInput(`${what} must be a key of 1 to ${MAX_TEXT_KEY} characters (got ${JSON.stringify(value)})`, what);
  }
  if (column.key === 'uuid') {
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
    throw badInput(`${what} must be a uuid like 123e4567-e89b-12d3-a456-426614174000 (got ${JSON.stringify(value)})`, what);
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw badInput(`${what} must be a positive integer id (got ${JSON.stringify(value)})`, what);
  return n;
}

function columnValue(table: Table, column: string, value: unknown): Scalar {
  const col = table.byName.get(column)!;
  if (value === null || value === undefined) return null;
  if (col.type === 'id' || col.type === 'ref') return toRecordId(col, value, `${table.name}.${column}`);
  return value as Scalar;
}

function columnCondition(table: Table, column: string, ops: WhereInput): Condition[] {
  const out: Condition[] = [];
  for (const [op, raw] of Object.entries(ops)) {
    if (raw === undefined) continue;
    if (op in COMPARE) {
      if (raw === null) throw badInput(`${table.name}.${column}.${op} needs a value; use _is_null to match empty values`, column);
      if ((op === '_like' || op === '_ilike') && typeof raw === 'string' && raw.length > MAX_LIKE_PATTERN) {
        throw badInput(`${table.name}.${column}.${op}: a pattern may have at most ${MAX_LIKE_PATTERN} characters (got ${raw.length}); use a shorter pattern`, column);
      }
      out.push({ kind: 'compare', column, op: COMPARE[op], value: columnValue(table, column, raw) });
    } else if (op === '_in' || op === '_nin') {
      const values = (raw as unknown[] | null) ?? [];
      out.push({ kind: 'in', column, values: values.map((v) => columnValue(table, column, v)), negate: op === '_nin' });
    } else if (op === '_is_null') {
      if (raw !== null) out.push({ kind: 'is_null', column, isNull: raw === true });
    }
  }
  return out;
}

/** Deeper filters are refused: they only serve to exhaust the stack or the SQL parser. */
export const MAX_WHERE_DEPTH = 32;

export function whereToCondition(model: Model, table: Table, where: WhereInput | null | undefined, depth = 0): Condition | undefined {
  if (!where) return undefined;
  if (depth > MAX_WHERE_DEPTH) throw badInput(`where is nested more than ${MAX_WHERE_DEPTH} levels deep; write the filter flatter`, 'where');
  const items: Condition[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined || value === null) continue;
    if (key === '_and' || key === '_or') {
      const parts = (value as WhereInput[]).map((w) => whereToCondition(model, table, w, depth + 1)).filter((c): c is Condition => !!c);
      if (key === '_and') items.push(...parts);
      else items.push({ kind: 'or', items: parts });
      continue;
    }
    if (key === '_not') {
      const inner = whereToCondition(model, table, value as WhereInput, depth + 1);
      if (inner) items.push({ kind: 'not', item: inner });
      continue;
    }
    const ref = table.refs.find((r) => r.field === key);
    if (ref) {
      const target = model.table(ref.to);
      const inner = whereToCondition(model, target, value as WhereInput, depth + 1);
      if (inner) items.push({ kind: 'ref', column: ref.column, table: target.name, where: inner });
      continue;
    }
    const inverse = table.inverses.get(key);
    if (inverse) {
      const source = model.table(inverse.from);
      const inner = whereToCondition(model, source, value as WhereInput, depth + 1) ?? { kind: 'and', items: [] };
      items.push({ kind: 'inverse', table: source.name, column: inverse.column, where: inner });
      continue;
    }
    items.push(...columnCondition(table, key, value as WhereInput));
  }
  if (items.length === 1) return items[0];
  return { kind: 'and', items };
}

export function orderByToSpec(table: Table, orderBy: unknown): OrderBy[] {
  if (!orderBy) return [];
  const entries = Array.isArray(orderBy) ? orderBy : [orderBy];
  const out: OrderBy[] = [];
  for (const entry of entries as Array<Record<string, string | null | undefined>>) {
    for (const [column, dir] of Object.entries(entry)) {
      if (!dir) continue;
      if (!table.byName.has(column)) throw badInput(`cannot order ${table.name} by "${column}"`, column);
      out.push({ column, desc: dir === 'desc' });
    }
  }
  return out;
}
