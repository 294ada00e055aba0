// The change feed's view of audit entries: what catch-up and the SQLite feed read back.
import type { RecordChange } from './types.ts';
import { decodeAuditRow, OWN_AUDIT, type AuditEntry, type AuditMeta, type AuditPlace, type NewAuditEntry } from '../storage/audit.ts';
import type { Dialect, Statement } from '../storage/sql.ts';
import type { ChangesSince } from './types.ts';

/** The change an audit entry records; undefined for what is not a row write (a mail). */
export function changeOfEntry(entry: AuditEntry | NewAuditEntry): RecordChange | undefined {
  if (entry.action === 'mail' || entry.entity === null || entry.recordId === null) return undefined;
  const person = entry.person;
  return {
    entity: entry.entity,
    id: entry.recordId,
    action: entry.action,
    version: entry.action === 'delete' ? null : entry.versionTo,
    path: entry.path,
    ...(person ? { person } : {}),
  };
}

/** The change a write makes, named with the writer's meta (its `person`, where the meta has one). */
export function changeOfWrite(entry: NewAuditEntry, meta: AuditMeta | undefined): RecordChange {
  const change = changeOfEntry(entry)!;
  return meta?.person ? { ...change, person: meta.person } : change;
}

/** The row writes after `cursor` in the order they were written, one more than `limit` (to tell "too many"). */
export function auditAfterSql(dialect: Dialect, cursor: number, limit: number, place: AuditPlace = OWN_AUDIT): Statement {
  return {
    text: `SELECT * FROM ${place.table} WHERE "id" > ${dialect.placeholder(1)} AND "action" <> 'mail' ORDER BY "id" LIMIT ${dialect.placeholder(2)}`,
    params: [cursor, limit + 1],
  };
}

export function auditNewestSql(place: AuditPlace = OWN_AUDIT): Statement {
  return { text: `SELECT MAX("id") AS "id" FROM ${place.table}`, params: [] };
}

/**
 * The changes after `cursor` read from `rows` (auditAfterSql's answer); undefined when there are
 * more than `limit` (the reader must read everything again). Without a cursor: none, and the newest id.
 */
export function changesAfter(cursor: number, limit: number, rows: readonly Record<string, unknown>[]): ChangesSince | undefined {
  if (rows.length > limit) return undefined;
  const entries = rows.map(decodeAuditRow);
  return {
    changes: entries.map(changeOfEntry).filter((change): change is RecordChange => change !== undefined),
    cursor: entries.reduce((top, entry) => Math.max(top, entry.id), cursor),
  };
}
