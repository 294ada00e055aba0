// Storage on PostgreSQL through a pg Pool. The server keeps no state of its own,
// so any number of instances can share one PostgreSQL-compatible cluster.
import {
  AUDIT_ADDED_COLUMNS, AUDIT_OFF, AUDIT_ROWS_PER_INSERT, auditIndexesSql, insertAuditManySql, countAuditSql, createAuditTableSql, decodeAuditRow, insertAuditSql, OWN_AUDIT, SCHEMA_AUDIT, selectAuditSql,
  unrecordedEntry, writeEntry, type AuditEntry, type AuditPlace, type AuditFilter, type AuditMeta, type NewAuditEntry,
} from './audit.ts';
import pg from 'pg';
import type { CustomTypesConfig, PoolClient, QueryResultRow } from 'pg';
import { performance } from 'node:perf_hooks';
import { ID_COLUMN, type Column, type Model, type Table } from '../model.ts';
import { redactDsn } from '../dsn.ts';
import { StorageError, translatePostgresError } from './errors.ts';
import { explainRefusal, type CheckRule } from './constraints.ts';
import { quoteIdentifier, sortIndexes, SqlBuilder, tableSql } from './sql.ts';
import { missingColumns } from './ownTables.ts';
import { BatchConflict, BatchPlan, chunked } from './batch.ts';
import { selectAfterKey } from './seek.ts';
import type { Dialect, Statement } from './sql.ts';
import { FEED_APPLICATION_NAME, PostgresFeed, PRESENCE_LOOK } from '../changes/postgresFeed.ts';
import { OutsideWrites, WRITE_MARK_SQL } from '../changes/outsideWrites.ts';
import { notifyChangesSql, PRESENCE_CHANNEL, type NotifiedChange } from '../changes/notifyPayload.ts';
import { auditAfterSql, auditNewestSql, changeOfWrite, changesAfter, trailReadOf, trailReadSql } from '../changes/fromAudit.ts';
import type { ChangesSince, SharedPresence, StorageFeedListener } from '../changes/types.ts';
import { createPresenceTableSql, PRESENCE_TABLE, presenceOfRow, readPresenceSql, writePresenceSql } from '../changes/presenceTable.ts';
import type { PeopleSql } from '../people/peopleSql.ts';
import type { AggregateResult, AggregateSpec } from './rows.ts';
import type {
  AuditState, BatchWriteResult, Condition, DeleteResult, RecordId, RowUpdate, TableRights, InsertBatch, InsertManyOptions, ListKey, MigrationReport, Row, SelectSpec, SortHint, Storage, StorageOptions, WriteResult,
} from './types.ts';
import { fieldType } from '../../ast/fieldTypes.ts';

const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
// PostgreSQL accepts at most 65535 bound parameters per statement.
const MAX_PARAMS = 65_000;
const MAX_ROWS_PER_INSERT = 1000;
// Serialises concurrent migrations of several server instances.
const MIGRATION_LOCK_KEY = 0x584f53;
// Serialises concurrent seeding of several server instances.
const SEED_LOCK_KEY = 0x584f54;

const TEXT_TYPES = new Set(['string', 'text', 'email', 'phone', 'url', 'enum']);

export const postgresDialect: Dialect = {
  placeholder: (index) => `$${index}`,
  boolParam: (value) => value,
  comparable: (_column, expression) => expression,
  like: (column, expression, pattern, caseInsensitive) => {
    // XOS's own text columns are TEXT; the person's may be an enum type, uuid or time, which LIKE does not take.
    const text = TEXT_TYPES.has(column.type) && column.owned ? expression : `CAST(${expression} AS TEXT)`;
    return `${text} ${caseInsensitive ? 'ILIKE' : 'LIKE'} ${pattern} ESCAPE '\\'`;
  },
  offsetWithoutLimit: '',
  valuesTable: (tuples, alias, names) => `(VALUES ${tuples.join(', ')}) AS ${alias} (${names.join(', ')})`,
  inList: (_column, expression, values, params, negate) =>
    negate ? `NOT (${expression} = ANY(${params.add(values)}))` : `${expression} = ANY(${params.add(values)})`,
  // The row's transaction id changes with every write by anyone; it stays a 31-bit integer.
  rowVersion: () => '(("xmin"::text)::bigint % 2147483647)::integer',
  // A timestamp without zone counts as UTC, as the session's time zone does; date_trunc's week starts on Monday.
  dateBucket: (bucket, expression) => `to_char(date_trunc('${bucket}', CAST(${expression} AS timestamp)), 'YYYY-MM-DD')`,
  exactSum: (column, expression) => {
    const numeric = column.type === 'int' ? `SUM(${expression})` : `SUM(CAST(${expression} AS NUMERIC))`;
    return { sql: `CAST(${numeric} AS TEXT)`, numeric };
  },
  sumOfSums: (expression) => `CAST(SUM(CAST(${expression} AS NUMERIC)) AS TEXT)`,
};

/** The list columns the quick filter matches with ILIKE '%text%' (enums match by value, numbers by equality). */
const SEARCHED_TYPES = new Set(['string', 'text', 'email', 'phone', 'url']);

/**
 * Trigram indexes for the quick filter: without one, ILIKE '%text%' reads every row. Made only
 * where pg_trgm is installed, or can be (a trusted extension since PostgreSQL 13: the database's
 * owner may install it); a role that may not goes on without them (the filter still works).
 */
async function createSearchIndexes(client: Queryable, model: Model, existing: ReadonlySet<string>): Promise<string[]> {
  const wanted = [...model.tables.values()].flatMap((table) => table.sortColumns
    .filter((name) => SEARCHED_TYPES.has(table.byName.get(name)!.type))
    .map((name) => ({ table: table.name, column: name, index: `${table.name}_${name}_trgm_idx` })))
    .filter(({ index }) => !existing.has(index.slice(0, 63)));
  if (wanted.length === 0) return [];
  const available = await query(client, { text: "SELECT installed_version FROM pg_available_extensions WHERE name = 'pg_trgm'", params: [] });
  if (available.length === 0) return [];
  const created: string[] = [];
  // In a savepoint: a refusal (no right to install, no such operator class) must not undo the migration.
  await query(client, { text: 'SAVEPOINT xos_search_indexes', params: [] });
  try {
    if (available[0].installed_version === null) await query(client, { text: 'CREATE EXTENSION IF NOT EXISTS pg_trgm', params: [] });
    for (const { table, column, index } of wanted) {
      await query(client, { text: `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(index)} ON ${quoteIdentifier(table)} USING gin (${quoteIdentifier(column)} gin_trgm_ops)`, params: [] });
      created.push(`${table}.${column}`);
    }
    await query(client, { text: 'RELEASE SAVEPOINT xos_search_indexes', params: [] });
    return created;
  } catch {
    await query(client, { text: 'ROLLBACK TO SAVEPOINT xos_search_indexes', params: [] });
    return [];
  }
}

export function postgresColumnType(column: Column): string {
  // The version is XOS's own column; every field type names its column in fieldTypes.ts.
  return column.type === 'version' ? 'INTEGER NOT NULL DEFAULT 1' : fieldType(column.type).storage.postgres;
}

// Result parsing per pool (never pg's global parsers): canonical forms of types.ts.
const OID_INT8 = 20;
const OID_NUMERIC = 1700;
const OID_DATE = 1082;
const OID_TIMESTAMPTZ = 1184;
const OID_TIMESTAMP = 1114;
const OID_JSON = 114;
const OID_JSONB = 3802;
const asUtc = (value: string) => {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
};
const TEXT_PARSERS: ReadonlyMap<number, (value: string) => unknown> = new Map<number, (value: string) => unknown>([
  // A bigint beyond 2^53 stays its digits (a decimal field shows them exactly; counts and ids are smaller).
  [OID_INT8, (value) => {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }],
  [OID_NUMERIC, (value) => value],
  [OID_DATE, (value) => value],
  [OID_TIMESTAMPTZ, asUtc],
  // A timestamp without zone (the person's tables) counts as UTC, like the session's time zone.
  [OID_TIMESTAMP, (value) => asUtc(`${value.replace(' ', 'T')}Z`)],
  // json stays its text: XOS shows it, read-only.
  [OID_JSON, (value) => value],
  [OID_JSONB, (value) => value],
]);

const canonicalTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    (format !== 'binary' && TEXT_PARSERS.get(oid)) || pg.types.getTypeParser(oid, format ?? 'text'),
} as CustomTypesConfig;

/** The most rows of one value an incremental sort by the key may meet and still answer a window at once. */
const ROWS_PER_VALUE_SORTED_AT_ONCE = 1_000;

/** From `pg_stats.n_distinct` (a count, or minus a fraction of the rows; none before ANALYZE): whether a value has few rows. */
function fewRowsPerValue(distinct: unknown, rows: number): boolean {
  if (distinct === null || distinct === undefined) return true;
  const n = Number(distinct);
  const values = n < 0 ? -n * rows : n;
  return values > 0 && rows / values <= ROWS_PER_VALUE_SORTED_AT_ONCE;
}

export class PostgresStorage implements Storage {
  readonly kind = 'postgres' as const;
  readonly description: string;
  readonly #pool: pg.Pool;
  #builder: SqlBuilder | undefined;
  #audit = true;
  #auditPlace: AuditPlace = OWN_AUDIT;
  readonly #types = new Map<string, ReadonlyMap<string, string>>();
  readonly #feed: PostgresFeed;
  /** Other programs' writes, from the database's transaction snapshot. */
  readonly #outside: OutsideWrites;
  /** The app's entities, once migrated. */
  #entities: readonly string[] = [];
  /** XOS's presence table, where the role may create it: presence read from it, never from a notification. */
  #presenceTable: string | undefined;

  constructor(dsn: string, options: StorageOptions = {}) {
    this.description = redactDsn(dsn);
    this.#feed = new PostgresFeed({
      connect: () => new pg.Client({ connectionString: dsn, options: '-c TimeZone=UTC', application_name: FEED_APPLICATION_NAME }),
      changesSince: (cursor, limit) => this.changesSince(cursor, limit),
      sendPresence: async (payload) => { await query(this.#pool, { text: `SELECT pg_notify('${PRESENCE_CHANNEL}', $1)`, params: [payload] }); },
      presenceTable: () => (this.#presenceTable === undefined ? undefined : {
        store: async (client, entry, expires) => { await query(this.#pool, storePresenceSql(this.#presenceTable!, client, entry, expires)); },
        read: async () => (await query(this.#pool, readPresenceSql(postgresDialect, this.#presenceTable!))).map(presenceOfRow),
      }),
      readTrail: async (cursor, gaps, limit) => (this.#audit ? trailReadOf(await query(this.#pool, trailReadSql(cursor, gaps, limit, this.#auditPlace)), limit) : undefined),
    });
    this.#pool = new pg.Pool({
      connectionString: dsn,
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      options: '-c TimeZone=UTC',
      types: canonicalTypes,
    });
    // An idle connection that dies must not crash the process; the next query reports it.
    this.#pool.on('error', () => undefined);
    this.#outside = new OutsideWrites(
      async () => (this.#builder ? String((await query(this.#pool, { text: WRITE_MARK_SQL, params: [] }))[0].mark) : undefined),
      () => this.#entities,
    );
  }

  async migrate(model: Model): Promise<MigrationReport> {
    const createdTables: string[] = [];
    const addedColumns: string[] = [];
    const createdIndexes: string[] = [];
    const createdSearchIndexes: string[] = [];
    // Over the person's own tables XOS keeps its one table in a schema of its own.
    this.#auditPlace = model.owned ? OWN_AUDIT : SCHEMA_AUDIT;
    let audit: AuditState = { kept: false };
    let presenceTable: string | undefined;
    await this.#transaction(async (client) => {
      await query(client, { text: 'SELECT pg_advisory_xact_lock($1)', params: [MIGRATION_LOCK_KEY] });
      const existing = await existingColumns(client);
      const newRefs: Array<{ table: Table; column: Column }> = [];
      for (const table of model.tables.values()) {
        if (!table.owned) {
          // The person's own table: checked, never created, altered or indexed.
          const missing = missingColumns(table, await columnsOf(client, table));
          if (missing) throw new Error(missing);
          continue;
        }
        const columns = existing.get(table.name);
        if (!columns) {
          const definitions = table.columns.map((c) => `${quoteIdentifier(c.name)} ${postgresColumnType(c)}`);
          await query(client, { text: `CREATE TABLE ${quoteIdentifier(table.name)} (${definitions.join(', ')})`, params: [] });
          createdTables.push(table.name);
          for (const column of table.columns) if (column.type === 'ref') newRefs.push({ table, column });
          continue;
        }
        for (const column of table.columns) {
          if (columns.has(column.name)) continue;
          const text = `ALTER TABLE ${quoteIdentifier(table.name)} ADD COLUMN ${quoteIdentifier(column.name)} ${postgresColumnType(column)}`;
          await query(client, { text, params: [] });
          addedColumns.push(`${table.name}.${column.name}`);
          if (column.type === 'ref') newRefs.push({ table, column });
        }
      }
      // Foreign keys last: refs may form cycles, so every table must exist first.
      for (const { table, column } of newRefs) {
        const constraint = quoteIdentifier(`${table.name}_${column.name}_fkey`);
        const text = `ALTER TABLE ${quoteIdentifier(table.name)} ADD CONSTRAINT ${constraint} FOREIGN KEY (${quoteIdentifier(column.name)}) REFERENCES ${quoteIdentifier(column.references!)} ("id") DEFERRABLE INITIALLY IMMEDIATE`;
        await query(client, { text, params: [] });
      }
      const indexes = new Set((await query(client, { text: 'SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()', params: [] })).map((row) => String(row.indexname)));
      for (const table of model.tables.values()) {
        if (!table.owned) continue;
        for (const column of table.columns) {
          if (column.type !== 'ref') continue;
          const index = quoteIdentifier(`${table.name}_${column.name}_idx`);
          await query(client, { text: `CREATE INDEX IF NOT EXISTS ${index} ON ${quoteIdentifier(table.name)} (${quoteIdentifier(column.name)})`, params: [] });
        }
        for (const index of sortIndexes(table, postgresDialect)) {
          // PostgreSQL keeps the first 63 bytes of a name (ASCII here: names are GraphQL names).
          if (indexes.has(index.name.slice(0, 63))) continue;
          await query(client, { text: index.sql, params: [] });
          createdIndexes.push(`${table.name}.${index.column}`);
        }
      }
      createdSearchIndexes.push(...await createSearchIndexes(client, model, indexes));
      audit = model.audit ? await createAuditTable(client, this.#auditPlace) : { kept: false, reason: AUDIT_OFF };
      presenceTable = await createPresenceTable(client, model.owned ? OWN_PRESENCE : SCHEMA_PRESENCE);
    });
    this.#builder = new SqlBuilder(model, postgresDialect);
    this.#entities = [...model.tables.values()].map((table) => table.name);
    this.#audit = audit.kept;
    this.#presenceTable = presenceTable;
    return { createdTables, addedColumns, createdIndexes, createdSearchIndexes, audit };
  }

  async rights(model: Model): Promise<Map<string, TableRights>> {
    const own = [...model.tables.values()].filter((t) => !t.owned);
    const rights = new Map<string, TableRights>();
    if (own.length === 0) return rights;
    const [{ read_only: readOnlyDatabase }] = await query(this.#pool, { text: "SELECT current_setting('transaction_read_only') = 'on' AS read_only", params: [] });
    for (const table of own) {
      const [row] = await query(this.#pool, {
        text: `SELECT to_regclass($1) IS NOT NULL AS found, has_table_privilege(to_regclass($1), 'UPDATE') AS u,
                      has_table_privilege(to_regclass($1), 'INSERT') AS i, has_table_privilege(to_regclass($1), 'DELETE') AS d,
                      (SELECT relkind FROM pg_class WHERE oid = to_regclass($1)) AS kind`,
        params: [tableSql(table)],
      });
      // A missing table is migrate's to report, with what to do.
      if (row.found !== true) continue;
      const view = row.kind === 'v' || row.kind === 'm';
      const readOnlyReason = readOnlyDatabase === true ? 'the database is read-only (a standby, or default_transaction_read_only is on)'
        : row.u !== true && !view ? `the database role may not change ${tableSql(table)} (it has no UPDATE right)` : undefined;
      rights.set(table.name, { insert: row.i === true, delete: row.d === true, ...(readOnlyReason ? { readOnlyReason } : {}) });
    }
    return rights;
  }

  async sortHint(tableName: string, columnName: string): Promise<SortHint> {
    const table = this.#sql().table(tableName);
    const column = table.byName.get(columnName);
    if (!column) throw new Error(`${tableName} has no column ${columnName}`);
    // What a list sorted by the column orders by: the column, then the row key (seek.ts). A b-tree
    // index (not partial) serves it whole when its key columns start with exactly those, all the
    // same way round (scanned backwards for a descending sort), or when it is unique on the column
    // alone (no ties for the key to order). One that starts with the column but not the key leaves
    // the rows of each value to be sorted by the key (an incremental sort): cheap while a value has
    // few rows, a sort of the whole table for a yes/no column. The planner's statistics say how
    // many rows a value has; without them (never analysed) it is taken to serve.
    const key = table.byName.get(ID_COLUMN);
    const order = [column.sql, ...(key && !key.parts && key.sql !== column.sql ? [key.sql] : [])];
    const [row] = await query(this.#pool, {
      text: `WITH candidates AS (
               SELECT i.indisunique AS is_unique, i.indnkeyatts AS keys,
                      ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                            WHERE k.n <= LEAST(i.indnkeyatts, cardinality($2::text[])) ORDER BY k.n) AS first_columns,
                      (SELECT COUNT(DISTINCT d.o & 1) FROM unnest(i.indoption::int2[]) WITH ORDINALITY AS d(o, n)
                       WHERE d.n <= cardinality($2::text[])) AS ways
               FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam AND am.amname = 'btree'
               WHERE i.indrelid = to_regclass($1) AND i.indpred IS NULL AND i.indkey[0] <> 0)
             SELECT EXISTS (SELECT 1 FROM candidates WHERE first_columns = $2::text[] AND ways <= 1) AS whole,
                    EXISTS (SELECT 1 FROM candidates WHERE is_unique AND keys = 1 AND first_columns[1] = $3::text) AS unique_column,
                    EXISTS (SELECT 1 FROM candidates WHERE first_columns[1] = $3::text) AS leading_column,
                    (SELECT s.n_distinct FROM pg_stats s JOIN pg_class t ON t.oid = to_regclass($1) JOIN pg_namespace ns ON ns.oid = t.relnamespace
                     WHERE s.schemaname = ns.nspname AND s.tablename = t.relname AND s.attname::text = $3::text LIMIT 1) AS distinct_values,
                    (SELECT reltuples FROM pg_class WHERE oid = to_regclass($1)) AS estimate`,
      params: [tableSql(table), order, column.sql],
    });
    // Never analysed (-1): counted, but not past what makes a sort costly.
    const estimate = Number(row.estimate ?? -1);
    const rows = estimate >= 0 ? Math.round(estimate)
      : Number((await query(this.#pool, { text: `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${tableSql(table)} LIMIT 10000001) AS t`, params: [] }))[0].n);
    return { indexed: row.whole === true || row.unique_column === true || (row.leading_column === true && fewRowsPerValue(row.distinct_values, rows)), rows };
  }

  async select(spec: SelectSpec): Promise<Row[]> {
    if (spec.after) return selectAfterKey(this, spec);
    const sql = this.#sql();
    const rows = await query(this.#pool, sql.select(spec));
    return rows.map((raw) => sql.decodeRow(spec.table, raw));
  }

  async keys(spec: SelectSpec, every: number, max: number): Promise<ListKey[]> {
    const sql = this.#sql();
    return sql.decodeKeys(spec, await query(this.#pool, sql.keys(spec, every, max)));
  }

  async aggregate(spec: AggregateSpec): Promise<AggregateResult> {
    const plan = this.#sql().aggregate(spec);
    if (!plan.others) return plan.decode(await query(this.#pool, plan.groups));
    // The groups and the rest in one snapshot: the others add up with the groups to the whole.
    return this.#inTransaction(async (client) => {
      await query(client, { text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY', params: [] });
      const groups = await query(client, plan.groups);
      const past = groups.length > 0 && Number(groups[0].xos_groups) > groups.length;
      return plan.decode(groups, past ? await query(client, plan.others!) : undefined);
    });
  }

  async count(table: string, where?: Condition): Promise<number> {
    const [row] = await query(this.#pool, this.#sql().count(table, where));
    return Number(row.count);
  }

  async insert(table: string, values: Row, audit?: AuditMeta): Promise<Row> {
    const sql = this.#sql();
    // Built first: an unknown table or column fails before any connection is taken.
    const statement = sql.insert(table, [values]);
    return this.#transaction(async (client) => {
      const [raw] = await query(client, statement);
      const row = sql.decodeRow(table, raw);
      await this.#writeAudit(client, writeEntry(sql.table(table), 'create', null, row, audit), audit);
      return row;
    }, { table, written: Object.keys(values) });
  }

  async insertMany(batches: readonly InsertBatch[], options: InsertManyOptions = {}): Promise<boolean> {
    const sql = this.#sql();
    const work = batches.map(({ table, rows }) => {
      sql.table(table);
      return {
        table,
        statements: chunkBySignature(sql, table, rows).map((chunk) => sql.insert(table, chunk)),
        idGiven: rows.some((row) => row.id !== undefined && row.id !== null),
      };
    });
    return this.#transaction(async (client) => {
      if (options.onlyIntoEmptyTables) {
        // One seeder at a time per database (another instance starting at once waits, then sees rows).
        await query(client, { text: 'SELECT pg_advisory_xact_lock($1)', params: [SEED_LOCK_KEY] });
        for (const { table } of batches) {
          const [row] = await query(client, sql.count(table));
          if (Number(row.count) !== 0) return false;
        }
      }
      // The foreign keys are DEFERRABLE: check them at commit, not per row.
      await query(client, { text: 'SET CONSTRAINTS ALL DEFERRED', params: [] });
      for (const { table, statements, idGiven } of work) {
        for (const statement of statements) await query(client, statement);
        // Rows inserted with their own ids leave the identity behind; move it past them.
        if (idGiven) await query(client, advanceIdentitySql(table));
      }
      return true;
    });
  }

  async update(table: string, id: RecordId, version: number, set: Row, audit?: AuditMeta): Promise<WriteResult> {
    const sql = this.#sql();
    const statement = sql.update(table, id, version, set);
    return this.#transaction(async (client): Promise<WriteResult> => {
      const before = await this.#lockRow(client, table, id);
      if (!before) return { status: 'missing' };
      const [raw] = await query(client, statement);
      if (!raw) return { status: 'conflict', current: before };
      const row = sql.decodeRow(table, raw);
      await this.#writeAudit(client, writeEntry(sql.table(table), 'update', before, row, audit), audit);
      return { status: 'ok', row };
    }, { table, written: Object.keys(set) });
  }

  async updateMany(table: string, updates: readonly RowUpdate[], audit?: AuditMeta): Promise<BatchWriteResult> {
    const sql = this.#sql();
    const plan = new BatchPlan(sql, table, updates, MAX_PARAMS);
    try {
      return await this.#transaction(async (client): Promise<BatchWriteResult> => {
        // Every row locked and read first, then checked here.
        for (const statement of plan.reads(MAX_ROWS_PER_LOCK)) plan.read(await query(client, { ...statement, text: `${statement.text} FOR UPDATE` }));
        plan.checkVersions();
        const types = await this.#columnTypes(client, sql.writable(table));
        for (const write of plan.writes(types)) plan.wrote(write, await query(client, write.statement));
        const { rows, entries, batch } = plan.result(audit);
        const auditIds: number[] = [];
        if (this.#audit) {
          for (const chunk of chunked(entries, AUDIT_ROWS_PER_INSERT)) {
            const statement = insertAuditManySql(postgresDialect, chunk, this.#auditPlace);
            auditIds.push(...(await query(client, { ...statement, text: `${statement.text} RETURNING "id"` })).map((raw) => Number(raw.id)));
          }
        }
        await this.#notify(client, entries.map((entry, i) => ({ change: changeOfWrite(entry, audit), ...(auditIds[i] !== undefined ? { auditId: auditIds[i] } : {}) })));
        return { status: 'ok', rows, ...(this.#audit ? { batch } : {}) };
      }, { table, written: plan.columnsSet });
    } catch (error) {
      if (error instanceof BatchConflict) return error.result;
      throw error;
    }
  }

  async delete(table: string, id: RecordId, version: number, audit?: AuditMeta): Promise<DeleteResult> {
    const sql = this.#sql();
    const statement = sql.delete(table, id, version);
    return this.#transaction(async (client): Promise<DeleteResult> => {
      const before = await this.#lockRow(client, table, id);
      if (!before) return { status: 'missing' };
      if ((await query(client, statement)).length === 0) return { status: 'conflict', current: before };
      await this.#writeAudit(client, writeEntry(sql.table(table), 'delete', before, null, audit), audit);
      return { status: 'ok' };
    });
  }

  async recordAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    if (!this.#audit) return unrecordedEntry(entry);
    const [raw] = await query(this.#pool, insertAuditSql(postgresDialect, entry, { returning: true, place: this.#auditPlace }));
    return decodeAuditRow(raw);
  }

  async auditEntries(filter: AuditFilter): Promise<AuditEntry[]> {
    if (!this.#audit) return [];
    return (await query(this.#pool, selectAuditSql(postgresDialect, filter, this.#auditPlace))).map(decodeAuditRow);
  }

  async auditCount(filter: Omit<AuditFilter, 'limit' | 'offset'>): Promise<number> {
    if (!this.#audit) return 0;
    return Number((await query(this.#pool, countAuditSql(postgresDialect, filter, this.#auditPlace)))[0].count);
  }

  /** Inside the write's transaction (no audit entry when the app keeps no trail), and the change feed's NOTIFY. */
  async #writeAudit(client: PoolClient, entry: NewAuditEntry, meta: AuditMeta | undefined): Promise<void> {
    const auditId = this.#audit ? Number((await query(client, insertAuditSql(postgresDialect, entry, { place: this.#auditPlace, returning: true })))[0].id) : undefined;
    await this.#notify(client, [{ change: changeOfWrite(entry, meta), ...(auditId !== undefined ? { auditId } : {}) }]);
  }

  /** Delivered by PostgreSQL at commit to every instance's LISTEN connection (this one's too), never on rollback. */
  async #notify(client: PoolClient, changes: readonly NotifiedChange[]): Promise<void> {
    const statement = notifyChangesSql(changes);
    if (statement) await query(client, statement);
  }

  watch(listener: StorageFeedListener): () => void {
    const offFeed = this.#feed.watch(listener);
    const offOutside = this.#outside.watch(listener);
    return () => {
      offFeed();
      offOutside();
    };
  }

  /** Resolves once the feed's LISTEN connection is up. */
  feedReady(): Promise<void> {
    return this.#feed.ready();
  }

  async announce(client: string, presence: SharedPresence | undefined, ttlMs: number): Promise<void> {
    await this.#feed.announce(client, presence, ttlMs);
  }

  async changesSince(cursor: number | undefined, limit: number): Promise<ChangesSince | undefined> {
    if (!this.#audit) return undefined;
    if (cursor === undefined) {
      const [row] = await query(this.#pool, auditNewestSql(this.#auditPlace));
      return { changes: [], cursor: Number(row?.id ?? 0) };
    }
    return changesAfter(cursor, limit, await query(this.#pool, auditAfterSql(postgresDialect, cursor, limit, this.#auditPlace)));
  }

  /** Each column's type as the catalog writes it (`character varying(40)`, `mpaa_rating`), for typed VALUES lists; read once per table. */
  async #columnTypes(client: Queryable, table: Table): Promise<ReadonlyMap<string, string>> {
    let types = this.#types.get(table.name);
    if (!types) {
      const rows = await query(client, {
        text: 'SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped',
        params: [tableSql(table)],
      });
      types = new Map(rows.map((row) => [String(row.attname), String(row.type)]));
      this.#types.set(table.name, types);
    }
    return types;
  }

  /** The row as it is before a write, locked until the transaction ends (the audit's "before"). */
  async #lockRow(client: PoolClient, table: string, id: RecordId): Promise<Row | undefined> {
    const sql = this.#sql();
    const statement = sql.selectById(table, id);
    const [raw] = await query(client, { ...statement, text: `${statement.text} FOR UPDATE` });
    return raw ? sql.decodeRow(table, raw) : undefined;
  }

  peopleSql(): PeopleSql {
    return { kind: this.kind, dialect: postgresDialect, all: (statement) => query(this.#pool, statement) };
  }

  async ping(): Promise<number> {
    const started = performance.now();
    await query(this.#pool, { text: 'SELECT 1', params: [] });
    return performance.now() - started;
  }

  async close(): Promise<void> {
    this.#outside.close();
    await this.#feed.close();
    if (!this.#pool.ended) await this.#pool.end();
  }

  #sql(): SqlBuilder {
    if (!this.#builder) throw new Error('call migrate(model) before using the storage');
    return this.#builder;
  }

  /** `write`: the table a write changes and the row names it sets, to say which rule of the person's table refused it. */
  async #transaction<T>(work: (client: PoolClient) => Promise<T>, write?: { readonly table: string; readonly written: readonly string[] }): Promise<T> {
    try {
      return await this.#inTransaction(work);
    } catch (error) {
      if (!write || !(error instanceof StorageError)) throw error;
      throw await this.#explained(error, write.table, write.written);
    }
  }

  async #explained(error: StorageError, tableName: string, written: readonly string[]): Promise<StorageError> {
    const table = this.#sql().table(tableName);
    let rule: CheckRule | undefined;
    if (error.code === 'check' && error.constraint !== undefined) {
      // The table's own CHECK, or one of the domain a column has.
      const [found] = await query(this.#pool, {
        text: `SELECT pg_get_constraintdef(k.oid) AS definition,
                      ARRAY(SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
                              AND (a.attnum = ANY(k.conkey) OR a.atttypid = k.contypid))::text[] AS columns
               FROM pg_constraint k
               WHERE k.conname = $2 AND k.contype = 'c'
                 AND (k.conrelid = to_regclass($1) OR k.contypid IN (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = to_regclass($1)))
               ORDER BY k.conrelid DESC LIMIT 1`,
        params: [tableSql(table), error.constraint],
      }).catch(() => []);
      if (found) rule = { expression: String(found.definition), columns: found.columns as string[] };
    }
    if (error.code === 'choice' && error.enumType !== undefined) {
      // The columns of that enum type, and its values.
      const found = await query(this.#pool, {
        text: `SELECT a.attname, ARRAY(SELECT e.enumlabel FROM pg_enum e WHERE e.enumtypid = a.atttypid ORDER BY e.enumsortorder)::text[] AS labels
               FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped AND format_type(a.atttypid, NULL) = $2`,
        params: [tableSql(table), error.enumType],
      }).catch(() => []);
      if (found.length) rule = { expression: '', columns: found.map((row) => String(row.attname)), values: found[0].labels as string[] };
    }
    return explainRefusal(error, table, written, rule);
  }

  async #inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw translatePostgresError(error);
    }
    let broken: Error | undefined;
    try {
      await query(client, { text: 'BEGIN', params: [] });
      const result = await work(client);
      await query(client, { text: 'COMMIT', params: [] });
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      // A connection that cannot even roll back is destroyed, not reused.
      client.release(broken);
    }
  }
}

interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

async function query(target: Queryable, statement: Statement): Promise<Record<string, unknown>[]> {
  try {
    const result = await target.query<Record<string, unknown>>(statement.text, [...statement.params]);
    return result.rows;
  } catch (error) {
    throw translatePostgresError(error);
  }
}

/**
 * The audit table, and its schema where it has one. A role that may not create them goes on
 * without an audit trail and says why (in a savepoint: the refusal must not undo the migration).
 */
async function createAuditTable(client: Queryable, place: AuditPlace): Promise<AuditState> {
  await query(client, { text: 'SAVEPOINT xos_audit', params: [] });
  try {
    if (place.schema !== undefined) await query(client, { text: `CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(place.schema)}`, params: [] });
    await query(client, { text: createAuditTableSql('BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY', place), params: [] });
    // A trail from before batch writes and people gains their columns (looked up first: ALTER locks the table).
    for (const column of AUDIT_ADDED_COLUMNS) {
      const [{ present }] = await query(client, {
        text: 'SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2 AND NOT attisdropped) AS present',
        params: [place.table, column],
      });
      if (present !== true) await query(client, { text: `ALTER TABLE ${place.table} ADD COLUMN "${column}" TEXT`, params: [] });
    }
    for (const text of auditIndexesSql(place)) await query(client, { text, params: [] });
    await query(client, { text: 'RELEASE SAVEPOINT xos_audit', params: [] });
    return { kept: true };
  } catch (error) {
    await query(client, { text: 'ROLLBACK TO SAVEPOINT xos_audit', params: [] });
    // Said without the database's own words (they may name the role or the database): this reaches /healthz.
    const refused = error instanceof Error && /permission denied|must be owner/i.test(error.message);
    const why = refused ? 'the database role may not create' : 'the database refused to create';
    return { kept: false, reason: `${why} XOS's audit table ${place.table}: grant the role CREATE on the database, or set "audit": false in the AST` };
  }
}

/** XOS's presence table: beside its own tables, or in its own schema over the person's. */
const OWN_PRESENCE = { table: `"${PRESENCE_TABLE}"` } as const;
const SCHEMA_PRESENCE = { table: '"xos"."presence"', schema: 'xos' } as const;

/** The presence table, made where the role may (its name), else undefined: presence then travels in notifications. */
async function createPresenceTable(client: Queryable, place: { readonly table: string; readonly schema?: string }): Promise<string | undefined> {
  await query(client, { text: 'SAVEPOINT xos_presence', params: [] });
  try {
    if (place.schema !== undefined) await query(client, { text: `CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(place.schema)}`, params: [] });
    await query(client, { text: createPresenceTableSql(place.table), params: [] });
    await query(client, { text: 'RELEASE SAVEPOINT xos_presence', params: [] });
    return place.table;
  } catch {
    await query(client, { text: 'ROLLBACK TO SAVEPOINT xos_presence', params: [] });
    return undefined;
  }
}

/** One front end's presence stored (or cleared) and every instance told to look, in one statement: one transaction. */
function storePresenceSql(table: string, client: string, entry: SharedPresence | undefined, expires: number): Statement {
  const { write, sweep } = writePresenceSql(postgresDialect, table, client, entry, expires);
  return {
    text: `WITH written AS (${write.text}), swept AS (${sweep.text}) SELECT pg_notify('${PRESENCE_CHANNEL}', '${PRESENCE_LOOK}')`,
    params: [...write.params, ...sweep.params],
  };
}

/** The columns of one of the person's tables or views (none: there is no such table). */
async function columnsOf(client: Queryable, table: Table): Promise<string[]> {
  const rows = await query(client, {
    text: `SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`,
    params: [tableSql(table)],
  });
  return rows.map((row) => String(row.attname));
}

async function existingColumns(client: PoolClient): Promise<Map<string, Set<string>>> {
  const rows = await query(client, {
    text: 'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()',
    params: [],
  });
  const result = new Map<string, Set<string>>();
  for (const row of rows) {
    const table = String(row.table_name);
    let columns = result.get(table);
    if (!columns) result.set(table, (columns = new Set()));
    columns.add(String(row.column_name));
  }
  return result;
}

/** Rows locked per statement of a batch. */
const MAX_ROWS_PER_LOCK = 10_000;

/** Consecutive rows that set the same columns, in chunks that fit one statement. */
function chunkBySignature(sql: SqlBuilder, table: string, rows: readonly Row[]): Row[][] {
  const chunks: Row[][] = [];
  let current: Row[] = [];
  let signature = '';
  let limit = MAX_ROWS_PER_INSERT;
  for (const row of rows) {
    const names = sql.insertColumnNames(table, row);
    const next = JSON.stringify(names);
    if (current.length > 0 && (next !== signature || current.length >= limit || names.length === 0)) {
      chunks.push(current);
      current = [];
    }
    signature = next;
    limit = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMS / Math.max(1, names.length))));
    current.push(row);
    if (names.length === 0) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function advanceIdentitySql(tableName: string): Statement {
  const table = quoteIdentifier(tableName);
  return {
    text: `SELECT setval(s.seq, GREATEST(s.top, COALESCE(pg_sequence_last_value(s.seq), 0))) FROM (SELECT pg_get_serial_sequence($1, 'id')::regclass AS seq, (SELECT MAX("id") FROM ${table}) AS top) AS s WHERE s.top IS NOT NULL`,
    params: [table],
  };
}
