// Where a list's rows come from, served in windows. A query source keeps the
// agent's query (its where and order_by) and asks the backend for each window with
// limit/offset, adding the person's sort and quick filter to that same query, so
// sort and filter always cover the whole result, never just the loaded rows. A
// memory source serves records that are already complete (xos_render, or a query
// the agent limited itself) with the same filter rules.
import { fieldKind } from '../ast/fieldKinds.ts';
import type { ContextModel, FieldModel } from '../ast/appModel.ts';
import { buildListWindowQuery } from '../graphql/requests.ts';
import type { BoardRecord, GraphQLResult, ListOrigin, ListQuery, ListSource, ListWindow, XosClient } from './domain.ts';

/** Records kept by key for navigation (`board/open` names a row by its key). */
const KEPT_RECORDS = 5_000;
/** Rows of the first window: a few screens, enough to paint at once. */
export const FIRST_WINDOW = 200;
/** The most rows one window request may ask for. */
export const MAX_WINDOW = 5_000;

export function recordKey(record: BoardRecord): string {
  return String(record.id);
}

/** A bounded map of the records served last, by key. */
class RecentRecords {
  private readonly byKey = new Map<string, BoardRecord>();

  remember(records: readonly BoardRecord[]): void {
    for (const record of records) {
      const key = recordKey(record);
      this.byKey.delete(key);
      this.byKey.set(key, record);
    }
    for (const key of this.byKey.keys()) {
      if (this.byKey.size <= KEPT_RECORDS) break;
      this.byKey.delete(key);
    }
  }

  get(key: string): BoardRecord | undefined {
    return this.byKey.get(key);
  }
}

/** The `where` the quick filter adds: any shown column matches the text. */
export function quickFilterWhere(fields: readonly FieldModel[], filter: string): Record<string, unknown> | undefined {
  const text = filter.trim();
  if (text === '') return undefined;
  const any = fields.flatMap((f) => fieldKind(f.type).quickFilter(f.field, text, f) ?? []);
  // Nothing can match (e.g. only number columns and letters typed): a condition no row meets.
  return any.length ? { _or: any } : { id: { _is_null: true } };
}

/** What a count depends on: the filter, never the sort (sorting a million rows does not count them again). */
function countKey(query: ListQuery): string {
  return query.filter?.trim() ?? '';
}

function clampWindow(offset: number, limit: number): { offset: number; limit: number } {
  return { offset: Math.max(0, Math.floor(offset)), limit: Math.min(MAX_WINDOW, Math.max(0, Math.floor(limit))) };
}

export interface QuerySourceInput {
  readonly client: XosClient;
  readonly context: ContextModel;
  /** The root field's selection set as GraphQL text, `{ id firstname company { id name } }`. */
  readonly selection: string;
  /** The agent's `where` and `order_by` arguments as JSON values. */
  readonly where?: unknown;
  readonly orderBy?: unknown;
}

/**
 * A list context's query served in windows from the backend. The count of each
 * filter is asked once, together with its first window; a sort reuses it.
 */
export class QueryListSource implements ListSource {
  readonly total: number;
  readonly first: ListWindow;
  private readonly input: QuerySourceInput;
  private readonly counts = new Map<string, number>();
  private readonly recent = new RecentRecords();

  private constructor(input: QuerySourceInput, first: ListWindow) {
    this.input = input;
    this.total = first.total;
    this.first = first;
    this.counts.set(countKey({}), first.total);
    this.recent.remember(first.records);
  }

  /** Runs the query's count and first window; throws with the server's message when it refuses. */
  static async open(input: QuerySourceInput, firstWindow = FIRST_WINDOW): Promise<QueryListSource> {
    const first = await fetchWindow(input, 0, firstWindow, {}, undefined);
    return new QueryListSource(input, first);
  }

  reopen(): Promise<QueryListSource> {
    return QueryListSource.open(this.input);
  }

  get origin(): ListOrigin {
    const { selection, where, orderBy } = this.input;
    return { selection, ...(where === undefined ? {} : { where }), ...(orderBy === undefined ? {} : { orderBy }) };
  }

  async window(offset: number, limit: number, query: ListQuery, signal?: AbortSignal): Promise<ListWindow> {
    const key = countKey(query);
    const window = await fetchWindow(this.input, offset, limit, query, this.counts.get(key), signal);
    this.counts.set(key, window.total);
    this.recent.remember(window.records);
    return window;
  }

  recordByKey(key: string): BoardRecord | undefined {
    return this.recent.get(key);
  }
}

async function fetchWindow(input: QuerySourceInput, offset: number, limit: number, query: ListQuery, knownTotal: number | undefined, signal?: AbortSignal): Promise<ListWindow> {
  const { client, context, selection } = input;
  const range = clampWindow(offset, limit);
  const filter = quickFilterWhere(context.fields, query.filter ?? '');
  const conditions = [input.where, filter].filter((w) => w !== undefined && w !== null);
  const where = conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { _and: conditions };
  const agentOrder = Array.isArray(input.orderBy) ? input.orderBy : input.orderBy ? [input.orderBy] : [];
  const sortKey = query.sort ? context.fields.find((f) => f.field === query.sort!.field)?.orderKey : undefined;
  // The person's sort first, then the agent's; the id last so the order is total (no ties), which
  // makes it exactly reversible and pages it stably.
  const orderBy: OrderEntry[] = [...(sortKey ? [{ [sortKey]: query.sort!.direction }] : []), ...agentOrder, { id: 'asc' }];
  const fromEnd = knownTotal !== undefined ? fromTheEnd(range, knownTotal) : undefined;
  const request = buildListWindowQuery(client.ast(), context.name, fromEnd
    ? { selection, where, orderBy: orderBy.map(reversed), limit: fromEnd.limit, offset: fromEnd.offset, count: false }
    : { selection, where, orderBy, limit: range.limit, offset: range.offset, count: knownTotal === undefined });
  const result: GraphQLResult = await client.run(request.query, request.variables, undefined, signal);
  if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
  const rows = (result.data?.[request.root] as BoardRecord[] | undefined) ?? [];
  const records = fromEnd ? [...rows].reverse() : rows;
  const total = knownTotal ?? (result.data?.[request.countRoot] as number);
  return { offset: range.offset, records: records.map(withoutVersion), total };
}

type OrderEntry = Record<string, unknown>;

/**
 * A window in the second half of the rows, asked for from the end: the same rows as the first
 * ones of the reversed order. A database skips rows to reach an offset, so Ctrl+End on a million
 * rows costs what the first window costs, and a sort no index serves keeps only the window's rows
 * (a top-N sort) instead of sorting everything to skip almost all of it.
 */
function fromTheEnd(range: { offset: number; limit: number }, total: number): { offset: number; limit: number } | undefined {
  const end = Math.min(total, range.offset + range.limit);
  if (range.offset <= total / 2 || end <= range.offset) return undefined;
  return { offset: total - end, limit: end - range.offset };
}

/** An order_by entry the other way round: the directions swap (null placement follows, nulls count as largest in both stores). */
function reversed(entry: OrderEntry): OrderEntry {
  return Object.fromEntries(Object.entries(entry).map(([key, direction]) => [key, direction === 'desc' ? 'asc' : direction === 'asc' ? 'desc' : direction]));
}

function withoutVersion(record: BoardRecord): BoardRecord {
  if (!Object.hasOwn(record, 'version')) return record;
  const { version: _version, ...rest } = record;
  return rest;
}

/** Does a record meet a `where` the quick filter built (`_or`, `_eq`, `_ilike`, nested refs)? */
function matches(record: Record<string, unknown> | null | undefined, where: Record<string, unknown>): boolean {
  if (!record) return false;
  return Object.entries(where).every(([key, condition]) => {
    if (key === '_or') return (condition as Record<string, unknown>[]).some((c) => matches(record, c));
    const value = record[key];
    const ops = condition as Record<string, unknown>;
    if ('_is_null' in ops) return (value === null || value === undefined) === ops._is_null;
    if ('_eq' in ops) return value !== null && value !== undefined && String(value) === String(ops._eq);
    if ('_in' in ops) return (ops._in as unknown[]).some((v) => String(v) === String(value));
    if ('_ilike' in ops) {
      const needle = String(ops._ilike).slice(1, -1).replace(/\\(.)/g, '$1').toLocaleLowerCase();
      return value !== null && value !== undefined && String(value).toLocaleLowerCase().includes(needle);
    }
    return matches(value as Record<string, unknown> | null, ops);
  });
}

function compare(a: unknown, b: unknown, numeric: boolean): number {
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (empty(a) || empty(b)) return empty(a) === empty(b) ? 0 : empty(a) ? 1 : -1;
  if (numeric) return Number(a) - Number(b);
  const plain = (v: unknown) => (typeof v === 'object' ? String(Object.entries(v as object).find(([k]) => k !== 'id')?.[1] ?? '') : String(v));
  return plain(a).localeCompare(plain(b));
}

/** Records that are already complete, served in windows with the same sort and filter rules. */
export class MemoryListSource implements ListSource {
  readonly total: number;
  readonly first: ListWindow;
  private readonly records: readonly BoardRecord[];
  private readonly context: ContextModel;
  private readonly byKey = new Map<string, BoardRecord>();
  private view: { key: string; rows: readonly BoardRecord[] } | undefined;

  constructor(context: ContextModel, records: readonly BoardRecord[], firstWindow = FIRST_WINDOW) {
    this.context = context;
    this.records = records;
    this.total = records.length;
    this.first = { offset: 0, records: records.slice(0, firstWindow), total: records.length };
    for (const record of records) this.byKey.set(recordKey(record), record);
  }

  async window(offset: number, limit: number, query: ListQuery): Promise<ListWindow> {
    const range = clampWindow(offset, limit);
    const rows = this.rows(query);
    return { offset: range.offset, records: rows.slice(range.offset, range.offset + range.limit), total: rows.length };
  }

  recordByKey(key: string): BoardRecord | undefined {
    return this.byKey.get(key);
  }

  /** All records, in list order (for tests and the first render). */
  all(): readonly BoardRecord[] {
    return this.records;
  }

  private rows(query: ListQuery): readonly BoardRecord[] {
    const key = countKey(query);
    if (this.view?.key === key) return this.view.rows;
    const where = quickFilterWhere(this.context.fields, query.filter ?? '');
    let rows = where ? this.records.filter((r) => matches(r, where)) : [...this.records];
    const sort = query.sort;
    const field = sort && this.context.fields.find((f) => f.field === sort.field);
    if (sort && field) {
      const numeric = fieldKind(field.type).numeric;
      const sign = sort.direction === 'desc' ? -1 : 1;
      rows = rows.map((r, i) => ({ r, i })).sort((x, y) => sign * compare(x.r[field.field], y.r[field.field], numeric) || x.i - y.i).map((x) => x.r);
    }
    this.view = { key, rows };
    return rows;
  }
}
