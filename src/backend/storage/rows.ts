// The values that cross the storage interface (types.ts), in one canonical JS form whatever the
// database stores (each field type's `storage` in src/ast/fieldTypes.ts):
//   id, ref columns, version, int -> number (ids may be number or numeric string on input)
//   decimal -> string of exact digits ("1234.50")
//   bool -> boolean; date -> "YYYY-MM-DD"; datetime -> ISO 8601 UTC "2024-05-01T10:00:00.000Z"
//   time -> "HH:MM:SS" (a fraction of a second without trailing zeros)
//   string, text, email, phone, url, enum -> string; absent -> null
// Kept apart from the interface so the SQL builder and the audit trail need not import it.
import type { Scalar } from '../../ast/values.ts';

export type { Scalar };
export type Row = Record<string, Scalar>;
/** A record's key: a number in XOS's own tables, a number or a text (text and uuid keys) in the person's. */
export type RecordId = number | string;

export type CompareOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'like' | 'ilike';

/** A filter over one table's columns, built by the GraphQL layer from `where`. */
export type Condition =
  | { readonly kind: 'and'; readonly items: readonly Condition[] }
  | { readonly kind: 'or'; readonly items: readonly Condition[] }
  | { readonly kind: 'not'; readonly item: Condition }
  | { readonly kind: 'compare'; readonly column: string; readonly op: CompareOp; readonly value: Scalar }
  | { readonly kind: 'in'; readonly column: string; readonly values: readonly Scalar[]; readonly negate: boolean }
  | { readonly kind: 'is_null'; readonly column: string; readonly isNull: boolean }
  /** `column` (a ref column) points at a row of `table` that matches `where`. */
  | { readonly kind: 'ref'; readonly column: string; readonly table: string; readonly where: Condition }
  /** some row of `table` whose `column` points back here matches `where` (inverse lists). */
  | { readonly kind: 'inverse'; readonly table: string; readonly column: string; readonly where: Condition };

export interface OrderBy {
  readonly column: string;
  readonly desc: boolean;
}

export interface SelectSpec {
  readonly table: string;
  /** columns to return; `id` and `version` are always returned too. */
  readonly columns: readonly string[];
  readonly where?: Condition;
  /** applied in order; `id` ascending is appended so paging is stable. */
  readonly orderBy?: readonly OrderBy[];
  readonly limit?: number;
  /** Rows skipped (after the key, when there is one). */
  readonly offset?: number;
  /**
   * A key: only rows after it in this order (keyset paging). Its values are those of the order's
   * terms, the id last (`orderTerms` in seek.ts), in the canonical form of each column.
   */
  readonly after?: readonly Scalar[];
}

/** A row's place in a list: its position (0-based) and its key (seek.ts). */
export interface ListKey {
  readonly position: number;
  readonly key: readonly Scalar[];
}

/** One row of a batch: its id, the version it was read at, and what to set. */
export interface RowUpdate {
  readonly id: RecordId;
  readonly version: number;
  readonly set: Row;
}

/** What an aggregate computes over a group's rows (`count` counts rows and takes no column). */
export type AggregateFn = 'count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max';

/** A date or datetime grouped by the start of its day, ISO week (Monday), month, quarter or year (UTC). */
export type DateBucket = 'day' | 'week' | 'month' | 'quarter' | 'year';

export interface AggregateGroup {
  readonly column: string;
  /** Dates and datetimes only: grouped by the bucket's first day instead of the value. */
  readonly bucket?: DateBucket;
}

export interface AggregateMeasure {
  readonly fn: AggregateFn;
  /** Absent only for `count`. */
  readonly column?: string;
}

/** One term of the groups' order: a group (its index in `groups`) or a measure (its index in `measures`). */
export type AggregateOrder =
  | { readonly group: number; readonly desc: boolean }
  | { readonly measure: number; readonly desc: boolean };

/** Keeps only the groups whose measure compares so with the value (a number; a min or max of a date: its ISO text). */
export interface AggregateHaving {
  readonly measure: number;
  readonly op: Exclude<CompareOp, 'like' | 'ilike'>;
  readonly value: number | string;
}

export interface AggregateSpec {
  readonly table: string;
  readonly where?: Condition;
  readonly groups: readonly AggregateGroup[];
  readonly measures: readonly AggregateMeasure[];
  readonly having?: readonly AggregateHaving[];
  /** Applied in order, then every group ascending (a stable order); absent: the groups ascending. */
  readonly orderBy?: readonly AggregateOrder[];
  /** The most groups returned. */
  readonly limit: number;
  /** Whether the groups past the limit are summed up as one (`others`). */
  readonly others?: boolean;
}

/**
 * A group's key (one value per group: the canonical value, a bucket's first day as `YYYY-MM-DD`)
 * and its measures in `measures` order: counts as numbers, sums and averages as exact decimal
 * text, a min or max in its column's canonical form; null where a group has no value.
 */
export interface AggregateRow {
  readonly key: readonly Scalar[];
  readonly values: readonly Scalar[];
}

export interface AggregateResult {
  readonly groups: readonly AggregateRow[];
  /** All groups that pass `having`, past the limit too. */
  readonly totalGroups: number;
  /**
   * The groups past the limit as one, when asked and there are any: their number and measures
   * (a count of distinct values is null here: a value may be counted in several groups).
   */
  readonly others?: { readonly groups: number; readonly values: readonly Scalar[] };
}
