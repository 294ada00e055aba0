// Where a list's rows come from, served in windows. A query source keeps the
// agent's query (its where and order_by) and asks the backend for each window with
// limit/offset, adding the person's sort and quick filter to that same query, so
// sort and filter always cover the whole result, never just the loaded rows. A
// memory source serves records that are already complete (xos_render, or a query
// the agent limited itself) with the same filter rules.
import { fieldKind } from '../ast/fieldKinds.ts';
import { ownValue } from '../ast/lookup.ts';
import type { ContextModel, FieldModel } from '../ast/appModel.ts';
import { buildListCursorsQuery, buildListWindowQuery } from '../graphql/requests.ts';
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
  /** Kept current by later reads (others write): a page shown again gets what is stored now. */
  total: number;
  first: ListWindow;
  private readonly input: QuerySourceInput;
  private readonly counts = new Map<string, number>();
  private readonly recent = new RecentRecords();
  private readonly anchors: Anchors;

  private constructor(input: QuerySourceInput, first: ListWindow, anchors: Anchors) {
    this.input = input;
    this.total = first.total;
    this.first = first;
    this.anchors = anchors;
    this.counts.set(countKey({}), first.total);
    this.recent.remember(first.records);
  }

  /** Runs the query's count and first window; throws with the server's message when it refuses. */
  static async open(input: QuerySourceInput, firstWindow = FIRST_WINDOW): Promise<QueryListSource> {
    const anchors = new Anchors();
    const first = await fetchWindow(input, 0, firstWindow, {}, undefined, anchors);
    return new QueryListSource(input, first, anchors);
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
    const window = await fetchWindow(this.input, offset, limit, query, this.counts.get(key), this.anchors, signal);
    this.counts.set(key, window.total);
    this.recent.remember(window.records);
    if (key === countKey({})) this.total = window.total;
    if (window.offset === 0 && !query.sort && key === countKey({}) && window.records.length >= this.first.records.length) this.first = window;
    return window;
  }

  recordByKey(key: string): BoardRecord | undefined {
    return this.recent.get(key);
  }

  refresh(): void {
    // A write moves rows: counts and the positions of rows read before no longer hold.
    this.counts.clear();
    this.anchors.forget();
  }
}

/** Which way a window is read: in the list's order, or the other way round (then its rows are reversed). */
type Direction = 'forward' | 'reversed';

/** A row whose place is known: its position in the list and its cursor, read in `direction`. */
interface Anchor {
  readonly position: number;
  readonly cursor: string;
  readonly direction: Direction;
}

/** The most anchors kept per sort and filter, and how many sorts and filters keep theirs. */
const ANCHORS_PER_ORDER = 4_000;
const ORDERS_WITH_ANCHORS = 4;
/** A read that skips more rows than this is a deep jump; the second of one order asks for its key map. */
const DEEP_SKIP = 10_000;
/**
 * A key map holds about this many keys (about 500 KB of cursors), and at least this many rows
 * lie between two: a jump then skips at most half a step (62 rows at a million).
 */
export const KEY_MAP_SIZE = 8_000;
export const KEY_MAP_MIN_STEP = 125;

/**
 * Rows whose place is known, per sort and filter: the first and last row of every window read,
 * and, once reads had to skip far twice, a key map (a key every few hundred rows, read in one
 * scan on the backend's thread). A window near one of them is read from its cursor by key: the
 * database seeks there instead of stepping over every row before an offset, so scrolling on and
 * jumping to any depth cost about what the first window costs.
 */
class Anchors {
  /** False once the server turned cursors down (one that has none yet): every read is by offset. */
  keyed = true;
  private readonly byOrder = new Map<string, Map<number, Anchor>>();
  private readonly maps = new Map<string, readonly Anchor[]>();
  private readonly deepReads = new Map<string, number>();

  /** Every known position (rows were written): reads go by offset until new ones are known. */
  forget(): void {
    this.byOrder.clear();
    this.maps.clear();
    this.deepReads.clear();
  }

  remember(order: string, anchors: readonly Anchor[]): void {
    let known = this.byOrder.get(order);
    this.byOrder.delete(order);
    if (!known || known.size > ANCHORS_PER_ORDER) known = new Map();
    this.byOrder.set(order, known);
    for (const anchor of anchors) known.set(anchor.position, anchor);
    for (const old of this.byOrder.keys()) {
      if (this.byOrder.size <= ORDERS_WITH_ANCHORS) break;
      this.byOrder.delete(old);
      this.maps.delete(old);
      this.deepReads.delete(old);
    }
  }

  /**
   * Counts a read that steps over many rows; true at the second of one order, whose key map is
   * then asked for (once). One deep jump is cheaper by offset than a map (one scan of the list,
   * which on SQLite the next windows wait behind); a person who drags the scrollbar twice will again.
   */
  deepRead(order: string): boolean {
    const count = (this.deepReads.get(order) ?? 0) + 1;
    this.deepReads.set(order, count);
    return count === 2 && !this.maps.has(order);
  }

  setMap(order: string, anchors: readonly Anchor[]): void {
    this.maps.set(order, anchors);
  }

  /** The nearest anchor before `start` and the nearest at or after `end`. */
  around(order: string, start: number, end: number): { before?: Anchor; after?: Anchor } {
    let before: Anchor | undefined;
    let after: Anchor | undefined;
    for (const anchors of [this.byOrder.get(order)?.values() ?? [], this.maps.get(order) ?? []]) {
      for (const anchor of anchors) {
        if (anchor.position < start && (!before || anchor.position > before.position)) before = anchor;
        if (anchor.position >= end && (!after || anchor.position < after.position)) after = anchor;
      }
    }
    return { before, after };
  }
}

/** What one window request reads: its direction, the cursor it starts from, and the rows it skips there. */
interface WindowRead {
  readonly direction: Direction;
  readonly after?: string;
  readonly before?: string;
  readonly offset: number;
  readonly limit: number;
  /** Rows read from a cursor up to the window and dropped here: at the head (after it) or the tail (before it). */
  readonly trim?: { readonly at: 'head' | 'tail'; readonly rows: number };
}

/**
 * From a cursor, the rows up to the window are read and dropped here rather than skipped by an
 * offset: one statement (an offset that steps over a part of a seek counts that part first).
 */
const TRIM_AT_MOST = 1_000;

/**
 * The cheapest way to read rows [start, end): from the first row, from the last (when the count
 * is known), or from the nearest row already read, by its cursor; each skips as few rows as it can.
 * A database steps over skipped rows one by one; it seeks to a cursor by index.
 */
function planRead(start: number, limit: number, total: number | undefined, near: { before?: Anchor; after?: Anchor }): { read: WindowRead; cost: number } {
  const end = total === undefined ? start + limit : Math.min(total, start + limit);
  const rows = Math.max(0, end - start);
  const options: Array<{ cost: number; read: WindowRead }> = [{ cost: start, read: { direction: 'forward', offset: start, limit } }];
  if (total !== undefined && rows > 0) options.push({ cost: total - end, read: { direction: 'reversed', offset: total - end, limit: rows } });
  const { before, after } = near;
  // From a cursor: near rows are read and trimmed, farther ones skipped by offset.
  const fromCursor = (skip: number, count: number, at: 'head' | 'tail') => (skip <= TRIM_AT_MOST
    ? { offset: 0, limit: count + skip, ...(skip ? { trim: { at, rows: skip } } : {}) }
    : { offset: skip, limit: count });
  if (before) {
    // The rows after an anchor: after its cursor in its own direction, before it the other way round.
    const skip = start - before.position - 1;
    const range = fromCursor(skip, limit, 'head');
    options.push({ cost: skip, read: before.direction === 'forward'
      ? { direction: 'forward', after: before.cursor, ...range }
      : { direction: 'reversed', before: before.cursor, ...range } });
  }
  if (after && rows > 0) {
    const skip = after.position - end;
    const range = fromCursor(skip, rows, 'tail');
    options.push({ cost: skip, read: after.direction === 'forward'
      ? { direction: 'forward', before: after.cursor, ...range }
      : { direction: 'reversed', after: after.cursor, ...range } });
  }
  return options.reduce((best, option) => (option.cost < best.cost ? option : best));
}

async function fetchWindow(input: QuerySourceInput, offset: number, limit: number, query: ListQuery, knownTotal: number | undefined, anchors: Anchors, signal?: AbortSignal): Promise<ListWindow> {
  const { client, context, selection } = input;
  const range = clampWindow(offset, limit);
  const filter = quickFilterWhere(context.fields, query.filter ?? '');
  const conditions = [input.where, filter].filter((w) => w !== undefined && w !== null);
  const where = conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { _and: conditions };
  const agentOrder = Array.isArray(input.orderBy) ? input.orderBy : input.orderBy ? [input.orderBy] : [];
  const sort = query.sort ? context.fields.find((f) => f.field === query.sort!.field)?.orderKey : undefined;
  // The person's sort first, then the agent's; the id last so the order is total (no ties), which
  // makes it exactly reversible and pages it by key. The id goes the sort's way, so one index on
  // (column, id) serves the order from either end.
  const orderBy: OrderEntry[] = [...(sort ? [{ [sort]: query.sort!.direction }] : []), ...agentOrder, { id: sort ? query.sort!.direction : 'asc' }];
  const order = `${countKey(query)}\u0000${JSON.stringify(orderBy)}`;
  const keyed = anchors.keyed;
  const near = keyed ? anchors.around(order, range.offset, range.offset + range.limit) : {};
  const { read, cost } = planRead(range.offset, range.limit, knownTotal, near);
  if (keyed && knownTotal !== undefined && cost > DEEP_SKIP && anchors.deepRead(order)) {
    // Reads of this order step over many rows; the key map makes the next jumps seek instead.
    void askKeyMap(input, where, orderBy, order, knownTotal, anchors);
  }
  const request = buildListWindowQuery(client.ast(), context.name, {
    selection, where, orderBy: read.direction === 'reversed' ? orderBy.map(reversed) : orderBy,
    limit: read.limit, offset: read.offset, count: knownTotal === undefined, keyed,
    ...(read.after === undefined ? {} : { after: read.after }), ...(read.before === undefined ? {} : { before: read.before }),
  });
  const result: GraphQLResult = await client.run(request.query, request.variables, undefined, signal);
  if (result.errors?.length) {
    const message = result.errors.map((e) => e.message).join('; ');
    if (keyed && NO_CURSORS.test(message)) {
      // A server from before cursors (an older xos-server): read by offset from now on.
      anchors.keyed = false;
      return fetchWindow(input, offset, limit, query, knownTotal, anchors, signal);
    }
    throw new Error(message);
  }
  const rows = (result.data?.[request.root] as BoardRecord[] | undefined) ?? [];
  const ordered = read.direction === 'reversed' ? [...rows].reverse() : rows;
  // In list order now: rows read after a cursor lead up to the window, rows before one follow it.
  const records = !read.trim ? ordered : read.trim.at === 'head' ? ordered.slice(read.trim.rows) : ordered.slice(0, Math.max(0, ordered.length - read.trim.rows));
  const total = knownTotal ?? (result.data?.[request.countRoot] as number);
  if (keyed && records.length) {
    const edge = (index: number): Anchor => ({ position: range.offset + index, cursor: String(records[index]._cursor), direction: read.direction });
    anchors.remember(order, [edge(0), edge(records.length - 1)]);
  }
  return { offset: range.offset, records: records.map(asShown), total };
}

/** How a server without cursors turns the window query down. */
const NO_CURSORS = /Cannot query field "_cursor"|Unknown argument "(after|before)"/;

/** Asks for the key map of one sort and filter; without one (an error, an older server) jumps read by offset. */
async function askKeyMap(input: QuerySourceInput, where: unknown, orderBy: OrderEntry[], order: string, total: number, anchors: Anchors): Promise<void> {
  anchors.setMap(order, []);
  const every = Math.max(KEY_MAP_MIN_STEP, Math.ceil(total / KEY_MAP_SIZE));
  const request = buildListCursorsQuery(input.client.ast(), input.context.name, { where, orderBy, every });
  try {
    const result = await input.client.run(request.query, request.variables);
    const cursors = result.errors?.length ? undefined : result.data?.[request.root] as string[] | undefined;
    if (cursors) anchors.setMap(order, cursors.map((cursor, i) => ({ position: (i + 1) * every - 1, cursor, direction: 'forward' })));
  } catch {
    // Stays empty: the jumps read by offset, as they did before.
  }
}

type OrderEntry = Record<string, unknown>;

/** An order_by entry the other way round: the directions swap (null placement follows, nulls count as largest in both stores). */
function reversed(entry: OrderEntry): OrderEntry {
  return Object.fromEntries(Object.entries(entry).map(([key, direction]) => [key, direction === 'desc' ? 'asc' : direction === 'asc' ? 'desc' : direction]));
}

/** A record as the Board shows it: without the version and the cursor it was read with. */
function asShown(record: BoardRecord): BoardRecord {
  if (!Object.hasOwn(record, 'version') && !Object.hasOwn(record, '_cursor')) return record;
  const { version: _version, _cursor: _cursor, ...rest } = record;
  return rest;
}

/** Does a record meet a `where` the quick filter built (`_or`, `_eq`, `_ilike`, nested refs)? */
function matches(record: Record<string, unknown> | null | undefined, where: Record<string, unknown>): boolean {
  if (!record) return false;
  return Object.entries(where).every(([key, condition]) => {
    if (key === '_or') return (condition as Record<string, unknown>[]).some((c) => matches(record, c));
    const value = ownValue(record, key);
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
