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

/** One read of the trail by the live feed on PostgreSQL (trailReadSql). */
export interface TrailRead {
  /** The entries read, by id: a mail's change is undefined (it takes an id all the same). */
  readonly entries: ReadonlyArray<{ readonly id: number; readonly change: RecordChange | undefined }>;
  /** More entries were there than the limit. */
  readonly more: boolean;
  /** The read's snapshot: every transaction below `xmin` had ended; those from `xmax` on began after. */
  readonly xmin: bigint;
  readonly xmax: bigint;
}

/**
 * The entries after `cursor` and those among `gaps` (ids skipped by an earlier read: a transaction
 * that took its id first can commit last), in id order, with the snapshot the read saw
 * (PostgreSQL's txid functions, in every supported version). `limit` + 1 rows at most.
 */
export function trailReadSql(cursor: number, gaps: readonly number[], limit: number, place: AuditPlace = OWN_AUDIT): Statement {
  return {
    text: `SELECT s."snapshot_xmin"::text AS "snapshot_xmin", s."snapshot_xmax"::text AS "snapshot_xmax", a.* FROM `
      + `(SELECT txid_snapshot_xmin(txid_current_snapshot()) AS "snapshot_xmin", txid_snapshot_xmax(txid_current_snapshot()) AS "snapshot_xmax") AS s `
      + `LEFT JOIN LATERAL (SELECT * FROM ${place.table} WHERE "id" > $1 OR "id" = ANY($2::bigint[]) ORDER BY "id" LIMIT $3) AS a ON true`,
    params: [cursor, gaps, limit + 1],
  };
}

export function trailReadOf(rows: readonly Record<string, unknown>[], limit: number): TrailRead {
  const [first] = rows;
  const entries = rows.filter((row) => row.id !== null && row.id !== undefined).map(decodeAuditRow);
  return {
    entries: entries.slice(0, limit).map((entry) => ({ id: entry.id, change: changeOfEntry(entry) })),
    more: entries.length > limit,
    xmin: BigInt(String(first?.snapshot_xmin ?? 0)),
    xmax: BigInt(String(first?.snapshot_xmax ?? 0)),
  };
}
