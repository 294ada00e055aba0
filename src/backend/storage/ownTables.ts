// The person's own tables: XOS checks that they have what the AST maps, and never changes them.
import type { Table } from '../model.ts';

/**
 * What the AST maps that the database lacks, as one message that says what to do; undefined
 * when every mapped column is there. `existing`: the table's column names (none: no such table).
 */
export function missingColumns(table: Table, existing: readonly string[]): string | undefined {
  const where = table.sql.schema === undefined ? `"${table.sql.name}"` : `"${table.sql.schema}"."${table.sql.name}"`;
  if (existing.length === 0) {
    return `the database has no table ${where} (entity ${table.name}): correct "table" in the AST, or run xos-server init again to see what the database has`;
  }
  const have = new Set(existing);
  const missing = table.columns.filter((c) => c.type !== 'version' && !have.has(c.sql));
  if (missing.length === 0) return undefined;
  const list = missing.map((c) => `"${c.sql}" (field ${c.field})`).join(', ');
  return `the table ${where} (entity ${table.name}) has no column ${list}: correct "column" in the AST, or run xos-server init again to see what the database has`;
}
