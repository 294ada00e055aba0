// The audit trail: one row per write (create, update, delete) and per sent mail,
// written by the storage in the SAME transaction as the write it describes, so a
// write without its audit row (or the reverse) cannot exist. Both stores use the
// same table and statements; only the id column's type differs.
import type { Column, Table } from '../model.ts';
import type { Dialect, SqlParam, Statement } from './sql.ts';
import type { Row, Scalar } from './rows.ts';

/** The table's name; entity and context names starting with `xos_` are reserved for XOS. */
export const AUDIT_TABLE = 'xos_audit';

export const AUDIT_PATHS = ['agent', 'board', 'api'] as const;
/** Who wrote: the agent through an MCP tool, the person on the Board, or another API client. */
export type AuditPath = (typeof AUDIT_PATHS)[number];
export type AuditAction = 'create' | 'update' | 'delete' | 'mail';

/** What the writer says about a write: its path and the approval that allowed it. */
export interface AuditMeta {
  readonly path: AuditPath;
  /** The person's confirmation (`Save confirmed in VS Code`, an undo of entry 12, ...), at most 500 characters. */
  readonly approval?: string;
  /** The person who wrote, as the server knows them (a person's token, or the embedded front end's person). */
  readonly person?: string;
}

export interface AuditChange {
  readonly from: Scalar;
  readonly to: Scalar;
}

export interface AuditEntry {
  readonly id: number;
  /** ISO 8601 UTC. */
  readonly at: string;
  readonly path: AuditPath;
  readonly action: AuditAction;
  readonly entity: string | null;
  readonly recordId: string | null;
  readonly versionFrom: number | null;
  readonly versionTo: number | null;
  /** Per field (AST field names): the value before and after. A mail: recipient, subject, message id. */
  readonly changes: Readonly<Record<string, AuditChange>>;
  readonly approval: string | null;
  /** The batch the write belongs to: every row of one batch write (updateMany) shares it. */
  readonly batch?: string;
  /** The person who wrote (xos-server's users, or the person the embedded front end names); absent: not known. */
  readonly person?: string;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

export interface AuditFilter {
  readonly entity?: string;
  readonly recordId?: string;
  /** The entries of one batch write. */
  readonly batch?: string;
  readonly limit: number;
  readonly offset: number;
}

export const MAX_APPROVAL_LENGTH = 500;

/**
 * The approval text XOS's front ends record: what the person confirmed (`Save confirmed by the
 * person`, `Save approved by the person [approval …]`) and, in parentheses, the fields written.
 * One format, so a reader who may not see every field can be shown the text without them.
 */
export function approvalText(head: string, fields: readonly string[]): string {
  return `${head}${fields.length ? ` (${fields.join(', ')})` : ''}`.slice(0, MAX_APPROVAL_LENGTH);
}

/** `<head> (<fields>)` as approvalText writes it; the closing parenthesis is missing where the text was cut. */
const APPROVAL_FIELDS = /^(.*? by the person(?: \[approval [^\]]*\])*) \(([^()]*?)(\))?$/s;

/**
 * An approval text as someone sees it who may read only the fields `reads` allows of the entry's
 * entity (a role): the fields they may not read are left out of its list (a name the cut may have
 * shortened too). A text of another form is shown only when it names none of those fields.
 */
export function approvalShownTo(text: string, fields: readonly string[], reads: (field: string) => boolean): string | null {
  const unread = fields.filter((field) => !reads(field));
  if (unread.length === 0) return text;
  const listed = APPROVAL_FIELDS.exec(text);
  if (listed) {
    const names = listed[2].split(', ');
    // Cut short, the last name may be the start of a field's name: never shown.
    if (listed[3] === undefined) names.pop();
    const kept = names.filter((name) => fields.includes(name) && reads(name));
    return `${listed[1]}${kept.length ? ` (${kept.join(', ')})` : ''}`;
  }
  const words = new Set(text.split(/[^A-Za-z0-9_]+/));
  return unread.some((field) => words.has(field)) ? null : text;
}

/** Why there is no audit trail over the person's own tables unless they allow it. */
export const AUDIT_OFF = 'the app works on the database\'s own tables and does not allow XOS to create its audit table ("audit": true in the AST allows it)';

/** What a write or a sent mail would have recorded, when the app keeps no audit trail. */
export function unrecordedEntry(entry: NewAuditEntry): AuditEntry {
  return { ...entry, id: 0, at: new Date().toISOString() };
}

/** The HTTP header a client may send the audit meta in instead of `extensions.xos` (URI-encoded JSON). */
export const AUDIT_HEADER = 'x-xos-audit';

const COLUMNS = ['at', 'path', 'action', 'entity', 'record_id', 'version_from', 'version_to', 'changes', 'approval', 'batch', 'person'] as const;

/** The column a trail from before batch writes lacks (added on start, never dropped). */
export const AUDIT_BATCH_COLUMN = 'batch';
/** The column a trail from before people lacks (added on start, never dropped). */
export const AUDIT_PERSON_COLUMN = 'person';
/** The columns a trail may lack, added on start in this order. */
export const AUDIT_ADDED_COLUMNS = [AUDIT_BATCH_COLUMN, AUDIT_PERSON_COLUMN] as const;

/** Where the audit table is: `xos_audit` beside XOS's own tables; over the person's PostgreSQL tables, `xos.audit`. */
export interface AuditPlace {
  /** The table as SQL names it. */
  readonly table: string;
  /** Its indexes' names (unqualified: PostgreSQL puts an index in its table's schema): by record, by batch. */
  readonly index: string;
  readonly batchIndex: string;
  /** A schema XOS creates for it first. */
  readonly schema?: string;
}

export const OWN_AUDIT: AuditPlace = { table: `"${AUDIT_TABLE}"`, index: `"${AUDIT_TABLE}_record_idx"`, batchIndex: `"${AUDIT_TABLE}_batch_idx"` };
export const SCHEMA_AUDIT: AuditPlace = { table: '"xos"."audit"', index: '"audit_record_idx"', batchIndex: '"audit_batch_idx"', schema: 'xos' };

export function createAuditTableSql(idColumn: string, place: AuditPlace = OWN_AUDIT): string {
  return `CREATE TABLE IF NOT EXISTS ${place.table} ("id" ${idColumn}, "at" TEXT NOT NULL, "path" TEXT NOT NULL, "action" TEXT NOT NULL, `
    + '"entity" TEXT, "record_id" TEXT, "version_from" INTEGER, "version_to" INTEGER, "changes" TEXT NOT NULL, "approval" TEXT, "batch" TEXT, "person" TEXT)';
}

/**
 * The trail's indexes: a record's history, and a batch's entries (undo and the review of a bulk
 * change read them by batch; only batch writes have one, so the index keeps just those). Made
 * after the added columns exist.
 */
export function auditIndexesSql(place: AuditPlace = OWN_AUDIT): string[] {
  return [
    `CREATE INDEX IF NOT EXISTS ${place.index} ON ${place.table} ("entity", "record_id")`,
    `CREATE INDEX IF NOT EXISTS ${place.batchIndex} ON ${place.table} ("batch") WHERE "batch" IS NOT NULL`,
  ];
}

/** `returning`: the stored row comes back (both stores support `RETURNING`). */
export function insertAuditSql(dialect: Dialect, entry: NewAuditEntry, { returning = false, at = new Date(), place = OWN_AUDIT } = {}): Statement {
  const values: SqlParam[] = [
    at.toISOString(), entry.path, entry.action, entry.entity, entry.recordId, entry.versionFrom, entry.versionTo,
    JSON.stringify(entry.changes), entry.approval, entry.batch ?? null, entry.person ?? null,
  ];
  const placeholders = values.map((_, i) => dialect.placeholder(i + 1));
  const text = `INSERT INTO ${place.table} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders.join(', ')})`;
  return { text: returning ? `${text} RETURNING *` : text, params: values };
}

/** Many entries in one INSERT (a batch's rows; the caller keeps it under the parameter limit). */
export function insertAuditManySql(dialect: Dialect, entries: readonly NewAuditEntry[], place: AuditPlace = OWN_AUDIT, at = new Date()): Statement {
  const params: SqlParam[] = [];
  const tuples = entries.map((entry) => {
    const values: SqlParam[] = [
      at.toISOString(), entry.path, entry.action, entry.entity, entry.recordId, entry.versionFrom, entry.versionTo,
      JSON.stringify(entry.changes), entry.approval, entry.batch ?? null, entry.person ?? null,
    ];
    return `(${values.map((value) => {
      params.push(value);
      return dialect.placeholder(params.length);
    }).join(', ')})`;
  });
  return { text: `INSERT INTO ${place.table} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, params };
}

/** Entries per INSERT of insertAuditManySql: its eleven parameters each, under PostgreSQL's limit of 65535. */
export const AUDIT_ROWS_PER_INSERT = 5000;

function where(dialect: Dialect, filter: Omit<AuditFilter, 'limit' | 'offset'>, params: SqlParam[]): string {
  const parts: string[] = [];
  if (filter.entity !== undefined) {
    params.push(filter.entity);
    parts.push(`"entity" = ${dialect.placeholder(params.length)}`);
  }
  if (filter.recordId !== undefined) {
    params.push(filter.recordId);
    parts.push(`"record_id" = ${dialect.placeholder(params.length)}`);
  }
  if (filter.batch !== undefined) {
    params.push(filter.batch);
    parts.push(`"batch" = ${dialect.placeholder(params.length)}`);
  }
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}

/** The newest entries first. */
export function selectAuditSql(dialect: Dialect, filter: AuditFilter, place: AuditPlace = OWN_AUDIT): Statement {
  const params: SqlParam[] = [];
  const condition = where(dialect, filter, params);
  params.push(filter.limit, filter.offset);
  const text = `SELECT "id", ${COLUMNS.map((c) => `"${c}"`).join(', ')} FROM ${place.table}${condition} ORDER BY "id" DESC `
    + `LIMIT ${dialect.placeholder(params.length - 1)} OFFSET ${dialect.placeholder(params.length)}`;
  return { text, params };
}

export function countAuditSql(dialect: Dialect, filter: Omit<AuditFilter, 'limit' | 'offset'>, place: AuditPlace = OWN_AUDIT): Statement {
  const params: SqlParam[] = [];
  return { text: `SELECT COUNT(*) AS "count" FROM ${place.table}${where(dialect, filter, params)}`, params };
}

export function decodeAuditRow(raw: Record<string, unknown>): AuditEntry {
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(raw.id),
    at: String(raw.at),
    path: String(raw.path) as AuditPath,
    action: String(raw.action) as AuditAction,
    entity: raw.entity === null ? null : String(raw.entity),
    recordId: raw.record_id === null ? null : String(raw.record_id),
    versionFrom: number(raw.version_from),
    versionTo: number(raw.version_to),
    changes: JSON.parse(String(raw.changes)) as Record<string, AuditChange>,
    approval: raw.approval === null || raw.approval === undefined ? null : String(raw.approval),
    ...(raw.batch === null || raw.batch === undefined ? {} : { batch: String(raw.batch) }),
    ...(raw.person === null || raw.person === undefined ? {} : { person: String(raw.person) }),
  };
}

function writable(table: Table): Column[] {
  return table.columns.filter((c) => c.type !== 'id' && c.type !== 'version');
}

/** The audit entry of a write: per AST field the value before and after (only changed fields for an update). */
export function writeEntry(table: Table, action: Exclude<AuditAction, 'mail'>, before: Row | null, after: Row | null, meta: AuditMeta | undefined, batch?: string): NewAuditEntry {
  const changes: Record<string, AuditChange> = {};
  for (const column of writable(table)) {
    const from = before?.[column.name] ?? null;
    const to = after?.[column.name] ?? null;
    if (action === 'update' && from === to) continue;
    if (action !== 'update' && from === null && to === null) continue;
    changes[column.field] = { from, to };
  }
  const row = after ?? before!;
  return {
    path: meta?.path ?? 'api',
    action,
    entity: table.name,
    recordId: String(row.id),
    versionFrom: before ? Number(before.version) : null,
    versionTo: after ? Number(after.version) : null,
    changes,
    approval: meta?.approval ?? null,
    ...(batch !== undefined ? { batch } : {}),
    ...(meta?.person !== undefined ? { person: meta.person } : {}),
  };
}
