// Batch writes of many rows, the same on both stores: the plan of statements and checks
// (BatchPlan), and BatchConflict — a batch that met a changed row, thrown inside the transaction so
// that it rolls back and caught outside it as the batch's answer (nothing written, every stale row named).
import { randomUUID } from 'node:crypto';
import { writeEntry, type AuditMeta, type NewAuditEntry } from './audit.ts';
import type { Row } from './rows.ts';
import type { SqlBuilder, Statement } from './sql.ts';
import type { BatchWriteResult, RowUpdate } from './types.ts';

export class BatchConflict extends Error {
  readonly result: Extract<BatchWriteResult, { status: 'conflict' }>;

  constructor(result: Extract<BatchWriteResult, { status: 'conflict' }>) {
    super(`${result.conflicts.length} rows changed since they were read; nothing was written`);
    this.result = result;
  }
}

/** A batch names each row once: a second change of one row would be checked against a version the first one moved on. */
export function checkOncePerRow(updates: readonly RowUpdate[]): void {
  const seen = new Set<string>();
  for (const update of updates) {
    const key = String(update.id);
    if (seen.has(key)) throw new Error(`a batch changes the row ${key} twice: give each row once, with all its changes`);
    seen.add(key);
  }
}

/** `items` in consecutive chunks of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** A batch's rows by the columns they set (each group one kind of statement), in first-seen order. */
export function groupedBySet(updates: readonly RowUpdate[]): RowUpdate[][] {
  const groups = new Map<string, RowUpdate[]>();
  for (const update of updates) {
    const key = JSON.stringify(Object.keys(update.set).sort());
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(update);
  }
  return [...groups.values()];
}

/** One UPDATE of a batch and how many rows it must write. */
export interface BatchWrite {
  readonly statement: Statement;
  readonly rows: number;
}

/**
 * A batch write's statements and the checks between them, the same on both stores; each store
 * runs the statements inside its own transaction (SQLite under BEGIN IMMEDIATE, PostgreSQL with
 * the rows locked FOR UPDATE): every row read, the versions checked, one UPDATE … FROM (VALUES …)
 * per set of columns and chunk, then the audit entries. A few statements, not three per row.
 */
export class BatchPlan {
  readonly #sql: SqlBuilder;
  readonly #table: string;
  readonly #updates: readonly RowUpdate[];
  readonly #maxParams: number;
  readonly #before = new Map<string, Row>();
  readonly #written = new Map<string, Row>();

  /** `maxParams`: the values one statement may bind. Throws when a row is given twice. */
  constructor(sql: SqlBuilder, table: string, updates: readonly RowUpdate[], maxParams: number) {
    checkOncePerRow(updates);
    this.#sql = sql;
    this.#table = table;
    this.#updates = updates;
    this.#maxParams = maxParams;
  }

  /** The columns the batch sets (a refusal by the database is explained by them). */
  get columnsSet(): string[] {
    return [...new Set(this.#updates.flatMap((u) => Object.keys(u.set)))];
  }

  /** SELECTs of every row of the batch, `rowsPerRead` ids each (bound as one list). */
  reads(rowsPerRead: number): Statement[] {
    const columns = this.#sql.writable(this.#table).columns.filter((c) => c.type !== 'id' && c.type !== 'version').map((c) => c.name);
    return chunked(this.#updates.map((u) => u.id), rowsPerRead)
      .map((ids) => this.#sql.select({ table: this.#table, columns, where: { kind: 'in', column: 'id', values: ids, negate: false } }));
  }

  /** The rows one of the reads found. */
  read(raws: readonly Record<string, unknown>[]): void {
    for (const raw of raws) {
      const row = this.#sql.decodeRow(this.#table, raw);
      this.#before.set(String(row.id), row);
    }
  }

  /** All or nothing: a row gone or changed since the batch read it throws BatchConflict, which rolls the batch back. */
  checkVersions(): void {
    const conflicts = this.#updates.filter((u) => this.#before.get(String(u.id))?.version !== u.version)
      .map((u) => ({ id: u.id, current: this.#before.get(String(u.id)) ?? null }));
    if (conflicts.length) throw new BatchConflict({ status: 'conflict', conflicts });
  }

  /** The UPDATEs: per set of columns, in chunks under the parameter limit (`types`: PostgreSQL's casts). */
  writes(types?: ReadonlyMap<string, string>): BatchWrite[] {
    return groupedBySet(this.#updates).flatMap((group) => {
      const set = Object.keys(group[0].set);
      return chunked(group, Math.max(1, Math.floor(this.#maxParams / (set.length + 2))))
        .map((chunk) => ({ statement: this.#sql.updateFromValues(this.#table, chunk, set, types), rows: chunk.length }));
    });
  }

  /** The rows one UPDATE returned. The rows were checked under the write lock: every one is written, or the batch is a bug to roll back. */
  wrote(write: BatchWrite, raws: readonly Record<string, unknown>[]): void {
    if (raws.length !== write.rows) throw new Error(`a batch of ${write.rows} rows wrote ${raws.length}`);
    for (const raw of raws) {
      const row = this.#sql.decodeRow(this.#table, raw);
      this.#written.set(String(row.id), row);
    }
  }

  /** The rows written, in the order given, and their audit entries under one new batch id. */
  result(audit: AuditMeta | undefined): { rows: Row[]; entries: NewAuditEntry[]; batch: string } {
    const model = this.#sql.writable(this.#table);
    const batch = randomUUID();
    const rows = this.#updates.map((u) => this.#written.get(String(u.id))!);
    const entries = rows.map((row, i) => writeEntry(model, 'update', this.#before.get(String(this.#updates[i].id))!, row, audit, batch));
    return { rows, entries, batch };
  }
}
