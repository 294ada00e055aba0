// The table the Boards' presence is kept in, the same on SQLite (beside the trail, or in XOS's own
// file beside the person's) and on PostgreSQL (beside XOS's tables, or in its `xos` schema): one
// row per front end with what it has open and until when.
import type { Dialect, Statement } from '../storage/sql.ts';
import type { SharedPresence } from './types.ts';

export const PRESENCE_TABLE = 'xos_presence';
/** Rows long expired are removed when someone announces. */
const PRESENCE_KEEP_MS = 60_000;

/** A stored presence: the entry and when it expires (ms since the epoch). */
export interface StoredPresence {
  readonly entry: SharedPresence;
  readonly expires: number;
}

export function createPresenceTableSql(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} ("client" TEXT PRIMARY KEY, "person" TEXT NOT NULL, "entity" TEXT NOT NULL, `
    + '"record_id" TEXT NOT NULL, "editing" INTEGER NOT NULL, "expires" BIGINT NOT NULL)';
}

/**
 * One front end's presence stored (`entry`) or cleared, and the rows long expired removed: two
 * statements, the sweep's parameter numbered after the write's (PostgreSQL runs them as one).
 */
export function writePresenceSql(dialect: Dialect, table: string, client: string, entry: SharedPresence | undefined, expires: number, now = Date.now()): { write: Statement; sweep: Statement } {
  const p = (index: number) => dialect.placeholder(index);
  const write: Statement = entry
    ? {
      text: `INSERT INTO ${table} ("client", "person", "entity", "record_id", "editing", "expires") VALUES (${[1, 2, 3, 4, 5, 6].map(p).join(', ')}) `
        + 'ON CONFLICT ("client") DO UPDATE SET "person" = excluded."person", "entity" = excluded."entity", "record_id" = excluded."record_id", '
        + '"editing" = excluded."editing", "expires" = excluded."expires"',
      params: [client, entry.person, entry.entity, entry.id, entry.editing ? 1 : 0, expires],
    }
    : { text: `DELETE FROM ${table} WHERE "client" = ${p(1)}`, params: [client] };
  // Never the writer's own row: PostgreSQL runs both on one snapshot, and two changes of one row in a statement may undo each other.
  const next = write.params.length;
  const sweep: Statement = { text: `DELETE FROM ${table} WHERE "expires" < ${p(next + 1)} AND "client" <> ${p(next + 2)}`, params: [now - PRESENCE_KEEP_MS, client] };
  return { write, sweep };
}

export function readPresenceSql(dialect: Dialect, table: string, now = Date.now()): Statement {
  return { text: `SELECT * FROM ${table} WHERE "expires" > ${dialect.placeholder(1)}`, params: [now] };
}

export function presenceOfRow(row: Record<string, unknown>): StoredPresence {
  return {
    entry: { client: String(row.client), person: String(row.person), entity: String(row.entity), id: String(row.record_id), editing: Number(row.editing) === 1 },
    expires: Number(row.expires),
  };
}
