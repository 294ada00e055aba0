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
