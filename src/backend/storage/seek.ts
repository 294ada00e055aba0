// Keyset ("seek") paging, once for both databases. A list is ordered by its
// terms plus the id as the last tie-breaker, so every row has a unique key: the
// values of those terms. "The rows after this key" is then a condition an index
// on (sort column, id) answers by seeking, however deep the key lies, where an
// OFFSET makes the database step over every row before it.
//
// Nulls count as the largest value in both stores (sql.ts), and no comparison
// matches a null. So a seek on a sort column runs in parts, each one seek in the
// index, read in turn until the window is full: the rest of the key's own value,
// the values beyond it, and the nulls (last ascending, first descending).
import { ID_COLUMN } from '../model.ts';
import type { Condition, OrderBy, Row, Scalar, SelectSpec } from './rows.ts';

/**
 * The terms a select orders by: as given up to the id, and the id at the end when not given, the
 * way the last term goes (ascending without one). So a descending sort is one backward scan of an
 * index on (its columns, id), never a sort of every row for the id's sake.
 */
export function orderTerms(orderBy: readonly OrderBy[] = []): OrderBy[] {
  const terms: OrderBy[] = [];
  for (const term of orderBy) {
    terms.push(term);
    if (term.column === ID_COLUMN) return terms;
  }
  terms.push({ column: ID_COLUMN, desc: terms.at(-1)?.desc ?? false });
  return terms;
}

/** The terms the other way round: what `before` a key reads, nearest first. */
export function reversedTerms(terms: readonly OrderBy[]): OrderBy[] {
  return terms.map((t) => ({ column: t.column, desc: !t.desc }));
}

const isNull = (column: string, yes: boolean): Condition => ({ kind: 'is_null', column, isNull: yes });
const compare = (column: string, op: 'eq' | 'lt' | 'gt' | 'lte' | 'gte', value: Scalar): Condition => ({ kind: 'compare', column, op, value });
const and = (...items: Condition[]): Condition => ({ kind: 'and', items });
const or = (...items: Condition[]): Condition => ({ kind: 'or', items });

/** Rows strictly after `key` by `terms[from…]`, given they equal the key on the terms before. */
function after(terms: readonly OrderBy[], key: readonly Scalar[], from: number): Condition {
  const { column, desc } = terms[from];
  const value = key[from];
  if (column === ID_COLUMN) return compare(column, desc ? 'lt' : 'gt', value);
  const rest = () => after(terms, key, from + 1);
  if (desc) {
    // Descending: nulls first, then the values downwards.
    return value === null
      ? or(and(isNull(column, true), rest()), isNull(column, false))
      : or(compare(column, 'lt', value), and(compare(column, 'eq', value), rest()));
  }
  return value === null
    ? and(isNull(column, true), rest())
    : or(compare(column, 'gt', value), isNull(column, true), and(compare(column, 'eq', value), rest()));
}

/** Rows after `key` among those whose first term has a value (`key[0]` is not null): the range where an index starts, and the exact rule inside it. */
function afterAmongValues(terms: readonly OrderBy[], key: readonly Scalar[]): Condition {
  const [first] = terms;
  return and(
    compare(first.column, first.desc ? 'lte' : 'gte', key[0]),
    or(compare(first.column, first.desc ? 'lt' : 'gt', key[0]), and(compare(first.column, 'eq', key[0]), after(terms, key, 1))),
  );
}

/**
 * The selects that together read the rows after `key` in `terms` order, in turn: one by the id,
 * up to three by a sort column. Each has `terms` as its order, and no key, limit or
 * offset of its own: `selectAfterKey` spreads those over the parts.
 */
export function seekParts(spec: SelectSpec, terms: readonly OrderBy[], key: readonly Scalar[]): SelectSpec[] {
  if (key.length !== terms.length) throw new Error(`a key of ${terms.length} values is needed, got ${key.length}`);
  const { after: _after, limit: _limit, offset: _offset, ...base } = spec;
  const part = (condition: Condition): SelectSpec => ({ ...base, orderBy: terms, where: spec.where ? and(spec.where, condition) : condition });
  const [first] = terms;
  if (first.column === ID_COLUMN) return [part(after(terms, key, 0))];
  const withValue = isNull(first.column, false);
  const nulls = isNull(first.column, true);
  if (key[0] === null) {
    const restOfNulls = terms.length > 1 ? and(nulls, after(terms, key, 1)) : nulls;
    // Ascending, the nulls are last: only nulls follow. Descending, all values follow them.
    return first.desc ? [part(restOfNulls), part(withValue)] : [part(restOfNulls)];
  }
  // The common case, one sort column and the id the same way round: the rest of the key's own
  // value (an equality and a range on the id), then the values beyond it (a range), each one
  // seek in the (column, id) index. (A row-value comparison says the same in one condition, but
  // SQLite seeks by its first column only and steps through the rest of that value.)
  const sameWay = terms.length === 2 && terms[1].column === ID_COLUMN && terms[1].desc === first.desc;
  const values = sameWay
    ? [part(and(compare(first.column, 'eq', key[0]), compare(ID_COLUMN, first.desc ? 'lt' : 'gt', key[1]))), part(compare(first.column, first.desc ? 'lt' : 'gt', key[0]))]
    : [part(and(withValue, afterAmongValues(terms, key)))];
  return first.desc ? values : [...values, part(nulls)];
}

/** How a store runs one select and one count (its own `select` without a key, and `count`). */
export interface SeekRunner {
  select(spec: SelectSpec): Promise<Row[]>;
  count(table: string, where?: Condition): Promise<number>;
}

/**
 * Runs a select with a key (`spec.after`, the values of `orderTerms(spec.orderBy)`): its parts in
 * turn, until the limit is filled. An offset skips rows after the key across the parts.
 */
export async function selectAfterKey(store: SeekRunner, spec: SelectSpec): Promise<Row[]> {
  const terms = orderTerms(spec.orderBy);
  const parts = seekParts(spec, terms, spec.after ?? []);
  const rows: Row[] = [];
  let skip = spec.offset ?? 0;
  for (const part of parts) {
    const limit = spec.limit === undefined ? undefined : spec.limit - rows.length;
    if (limit !== undefined && limit <= 0) break;
    const got = await store.select({ ...part, ...(limit === undefined ? {} : { limit }), ...(skip ? { offset: skip } : {}) });
    rows.push(...got);
    if (skip > 0 && got.length === 0) {
      // The offset may have stepped over this whole part: count what it skipped there (fewer than
      // the offset, so a bounded count) and skip only the rest in the next part.
      skip = Math.max(0, skip - await store.count(part.table, part.where));
    } else {
      skip = 0;
    }
  }
  return rows;
}
