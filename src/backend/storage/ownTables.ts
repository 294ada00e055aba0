// The person's own tables: XOS checks that they have what the AST maps, and never changes them.
import type { Table } from '../model.ts';

/** Keys the database gives every row of a table without one: SQLite's rowid, PostgreSQL's ctid (read-only entities only). */
const SYSTEM_KEYS = ['rowid', 'ctid'];

/**
 * What the AST maps that the database lacks, as one message that says what to do; undefined
 * when every mapped column is there. `existing`: the table's column names (none: no such table).
 */
export function missingColumns(table: Table, existing: readonly string[]): string | undefined {
  const where = table.sql.schema === undefined ? `"${table.sql.name}"` : `"${table.sql.schema}"."${table.sql.name}"`;
  if (existing.length === 0) {
    return `the database has no table ${where} (entity ${table.name}): correct "table" in the AST, or run xos-server init again to see what the database has`;
  }
  // The row's own key where the table has none (SQLite's rowid, PostgreSQL's ctid) is no column of the catalog's.
  const have = new Set([...existing, ...SYSTEM_KEYS]);
  const missing = table.columns.flatMap((c) => (c.type === 'version' ? [] : (c.parts ?? [c.sql]).filter((name) => !have.has(name)).map((name) => ({ name, field: c.field }))));
  if (missing.length === 0) return undefined;
  const list = missing.map((c) => `"${c.name}" (field ${c.field})`).join(', ');
  return `the table ${where} (entity ${table.name}) has no column ${list}: correct "column" in the AST, or run xos-server init again to see what the database has`;
}
