// Cursors of the list fields: a record's key in the order it was read in (the
// values of the order's terms, the id last), so a client asks for the rows
// `after` or `before` it and the database seeks there by index instead of
// stepping over every row before an offset. A cursor names its order and is
// refused, with what to do, under another one.
import { encodeValue } from '../storage/sql.ts';
import type { Table } from '../model.ts';
import type { OrderBy, Row, Scalar } from '../storage/types.ts';
import { badInput } from './errors.ts';
import { fieldType } from '../../ast/fieldTypes.ts';

/** Longer than any key of a few columns; a longer cursor was not made here. */
const MAX_CURSOR_LENGTH = 4096;

/** The order a list's rows were read in, kept on each row so `_cursor` can name its key. */
export const READ_ORDER = Symbol('xos.readOrder');

type RowInOrder = Row & { [READ_ORDER]?: readonly OrderBy[] };

function orderName(terms: readonly OrderBy[]): string {
  return terms.map((t) => `${t.column} ${t.desc ? 'desc' : 'asc'}`).join(', ');
}

/** Marks rows with the order (its terms, id last) they were read in. */
export function markReadOrder(rows: Row[], terms: readonly OrderBy[]): Row[] {
  for (const row of rows) (row as RowInOrder)[READ_ORDER] = terms;
  return rows;
}

/** The cursor of a key (the values of `terms`) in that order. */
export function cursorFor(terms: readonly OrderBy[], key: readonly Scalar[]): string {
  return Buffer.from(JSON.stringify({ o: orderName(terms), k: key }), 'utf8').toString('base64url');
}

/** The cursor of a row read by a list field, or null where the row was not read in an order (a detail, a ref). */
export function cursorOf(row: Row): string | null {
  const terms = (row as RowInOrder)[READ_ORDER];
  if (!terms) return null;
  return cursorFor(terms, terms.map((t) => row[t.column] ?? null));
}

/** The key a cursor holds, checked against the order it is used with; a clear error otherwise. */
export function keyOfCursor(table: Table, terms: readonly OrderBy[], cursor: string, argument: 'after' | 'before'): Scalar[] {
  const again = `read the cursor again with the same order_by (${orderName(terms)}), or page with offset`;
  let parsed: unknown;
  try {
    if (cursor.length > MAX_CURSOR_LENGTH) throw new Error('too long');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badInput(`${argument}: "${cursor.slice(0, 40)}" is not a cursor of this API; pass a record's _cursor as it was read`, argument);
  }
  const { o, k } = (parsed ?? {}) as { o?: unknown; k?: unknown };
  if (typeof o !== 'string' || !Array.isArray(k)) {
    throw badInput(`${argument}: this is not a cursor of this API; pass a record's _cursor as it was read`, argument);
  }
  if (o !== orderName(terms) || k.length !== terms.length) {
    throw badInput(`${argument}: the cursor was read in the order ${o}, not ${orderName(terms)}; ${again}`, argument);
  }
  return terms.map((t, i) => {
    const value = k[i] as Scalar;
    const column = table.byName.get(t.column)!;
    try {
      // Checked as the column would store it, so a forged value fails here, not in the database.
      if (value !== null && typeof value === 'object') throw new Error('not a scalar');
      encodeValue(column, value);
      const shape = column.type === 'version' ? undefined : fieldType(column.type).storage.shape;
      if (typeof value === 'string' && shape && !shape.test(value)) throw new Error(`not in the form of ${column.type}`);
    } catch {
      throw badInput(`${argument}: the cursor's value for ${t.column} does not fit the column; ${again}`, argument);
    }
    return value;
  });
}
