// The one interface every storage adapter implements. Values cross it in their canonical form (rows.ts).
import type { Model } from '../model.ts';
import type { AggregateResult, AggregateSpec, Row, RecordId, RowUpdate, SelectSpec, ListKey, Condition } from './rows.ts';
import type { AuditEntry, AuditFilter, AuditMeta, NewAuditEntry } from './audit.ts';
import type { ChangesSince, SharedPresence, StorageFeedListener } from '../changes/types.ts';
import type { PeopleSql } from '../people/peopleSql.ts';

export type { AggregateFn, AggregateGroup, AggregateHaving, AggregateMeasure, AggregateOrder, AggregateResult, AggregateRow, AggregateSpec, CompareOp, Condition, DateBucket, ListKey, OrderBy, RecordId, Row, RowUpdate, Scalar, SelectSpec } from './rows.ts';

export type WriteResult =
  | { readonly status: 'ok'; readonly row: Row }
  | { readonly status: 'conflict'; readonly current: Row }
  | { readonly status: 'missing' };

export type BatchWriteResult =
  /** `batch`: the audit trail's batch of the write, where the trail is kept. */
  | { readonly status: 'ok'; readonly rows: readonly Row[]; readonly batch?: string }
  /** Nothing was written: every row that changed since it was read (or is gone: `current` null), as stored now. */
  | { readonly status: 'conflict'; readonly conflicts: readonly { readonly id: RecordId; readonly current: Row | null }[] };

export type DeleteResult =
  | { readonly status: 'ok' }
  | { readonly status: 'conflict'; readonly current: Row }
  | { readonly status: 'missing' };

export interface InsertManyOptions {
  /**
   * Seeding: insert nothing unless every batch's table is empty, decided inside the
   * write transaction, so processes that start on one database at once seed it once.
   * Resolves `false` (nothing written) when a table already has rows.
   */
  readonly onlyIntoEmptyTables?: boolean;
}

export interface InsertBatch {
  readonly table: string;
  readonly rows: readonly Row[];
}

export interface MigrationReport {
  readonly createdTables: readonly string[];
  /** `table.column` */
  readonly addedColumns: readonly string[];
  /** The sort indexes made for list columns (`table.column`). */
  readonly createdIndexes: readonly string[];
  /**
   * The search indexes made for the quick filter's text columns (`table.column`): trigram indexes
   * on PostgreSQL where pg_trgm is installed or may be installed; none on SQLite.
   */
  readonly createdSearchIndexes: readonly string[];
  /** Whether the audit trail (History, Undo) is kept, and if not, why. */
  readonly audit: AuditState;
}

/** What the database role may do on one of the person's tables (PostgreSQL grants). */
export interface TableRights {
  readonly insert: boolean;
  readonly delete: boolean;
  /** Why its records can only be read (no UPDATE right, a read-only database); absent: they can be changed. */
  readonly readOnlyReason?: string;
}

export interface AuditState {
  readonly kept: boolean;
  readonly reason?: string;
}

export interface Storage {
  readonly kind: 'sqlite' | 'postgres';
  /** DSN with any password masked, for status output. */
  readonly description: string;
  /**
   * Creates missing tables, columns and sort indexes for the model's own tables; never drops
   * anything. The person's own tables are only checked: a missing one or a missing column fails
   * with a message naming them.
   */
  migrate(model: Model): Promise<MigrationReport>;
  select(spec: SelectSpec): Promise<Row[]>;
  count(table: string, where?: Condition): Promise<number>;
  /** Counts, sums, averages, minimums and maximums of the rows that match, per group (rows.ts). */
  aggregate(spec: AggregateSpec): Promise<AggregateResult>;
  /**
   * The keys of every `every`-th row of `spec` (its table, where and order; no columns, limit or
   * offset), at most `max`: where a jump into a long list can start reading by key.
   */
  keys(spec: SelectSpec, every: number, max: number): Promise<ListKey[]>;
  /**
   * Inserts one row (version 1; id generated unless given) and returns it whole. Every single
   * write (insert, update, delete) writes its audit entry in the same transaction.
   */
  insert(table: string, values: Row, audit?: AuditMeta): Promise<Row>;
  /**
   * Inserts the rows of several tables in ONE transaction (seeding); ids may
   * be given. Foreign keys are checked at commit, so rows may point at rows
   * later in the batches, even across tables that refer to each other.
   */
  insertMany(batches: readonly InsertBatch[], options?: InsertManyOptions): Promise<boolean>;
  /** Sets `set` and bumps the version, only if the stored version equals `version`. */
  update(table: string, id: RecordId, version: number, set: Row, audit?: AuditMeta): Promise<WriteResult>;
  delete(table: string, id: RecordId, version: number, audit?: AuditMeta): Promise<DeleteResult>;
  /**
   * Many rows of one table in ONE transaction, each checked against its version and audited like a
   * single update: all are written, or — when any row changed meanwhile or is gone — none, and
   * every such row is named. The rows come back in the order given.
   */
  updateMany(table: string, updates: readonly RowUpdate[], audit?: AuditMeta): Promise<BatchWriteResult>;
  /** Records what is not a row write (a sent mail). */
  recordAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** The audit trail, newest first, of one record, one entity or everything. */
  auditEntries(filter: AuditFilter): Promise<AuditEntry[]>;
  auditCount(filter: Omit<AuditFilter, 'limit' | 'offset'>): Promise<number>;
  /**
   * What the role may do on the model's own-database tables, by entity, read before anything is
   * migrated; stores without grants (SQLite) return nothing.
   */
  rights(model: Model): Promise<Map<string, TableRights>>;
  /**
   * Whether an index serves a sort by `column` (its first column, or the row's own key) and about
   * how many rows the table holds: what a sort on a large table without one would cost.
   */
  sortHint(table: string, column: string): Promise<SortHint>;
  /** The store's dialect and statements for the team's users (src/backend/people/users.ts); absent: a store without users. */
  peopleSql?(): PeopleSql;
  /** Round trip to the database in milliseconds. */
  ping(): Promise<number>;
  /**
   * The change feed (src/backend/changes): every write's records after its commit, by this
   * process and every other on the database, and every front end's presence. Until unsubscribed.
   */
  watch?(listener: StorageFeedListener): () => void;
  /** Resolves once the feed hears the database (PostgreSQL: its LISTEN connection is up). */
  feedReady?(): Promise<void>;
  /** Shares a front end's presence with every process on the database (undefined: none); it lives `ttlMs` unless announced again. */
  announce?(client: string, presence: SharedPresence | undefined, ttlMs: number): Promise<void>;
  /**
   * The record writes after audit id `cursor` (undefined: none, and the newest id), from the audit
   * trail; undefined when there is no trail or more than `limit` changes.
   */
  changesSince?(cursor: number | undefined, limit: number): Promise<ChangesSince | undefined>;
  close(): Promise<void>;
}

export interface SortHint {
  readonly indexed: boolean;
  /** The table's rows (PostgreSQL: the planner's estimate once the table was analysed). */
  readonly rows: number;
}

export interface StorageOptions {
  /** Per-statement time limit in milliseconds (PostgreSQL statement_timeout; SQLite busy timeout). */
  readonly statementTimeoutMs?: number;
  /** The database is the person's own: a SQLite file that is not there is an error, not a new database. */
  readonly mustExist?: boolean;
}
