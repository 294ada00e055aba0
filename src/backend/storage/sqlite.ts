// Storage on Node's built-in node:sqlite: the embedded default. One connection,
// synchronous underneath; each write is its own IMMEDIATE transaction so other
// processes sharing the file never see half of it.
import {
  AUDIT_ADDED_COLUMNS, AUDIT_OFF, AUDIT_TABLE, auditIndexesSql, countAuditSql, createAuditTableSql, decodeAuditRow, insertAuditManySql, insertAuditSql, selectAuditSql, unrecordedEntry, writeEntry,
  type AuditEntry, type AuditFilter, type AuditMeta, type NewAuditEntry,
} from './audit.ts';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { performance } from 'node:perf_hooks';
import { ID_COLUMN, type Column, type Model, type Table } from '../model.ts';
import { StorageError, translateSqliteError } from './errors.ts';
import { explainRefusal, sqliteCheckRule, type CheckRule } from './constraints.ts';
import { quoteIdentifier, sortIndexes, SqlBuilder } from './sql.ts';
import { selectAfterKey } from './seek.ts';
import { missingColumns } from './ownTables.ts';
import { BatchConflict, BatchPlan, chunked } from './batch.ts';
import { DecimalSum } from './aggregate.ts';
import type { Dialect, SqlParam, Statement } from './sql.ts';
import { presenceTable, SIDE_SCHEMA, SqliteFeed, type PresencePlace } from '../changes/sqliteFeed.ts';
import { createPresenceTableSql } from '../changes/presenceTable.ts';
import { changeOfWrite } from '../changes/fromAudit.ts';
import type { RecordChange } from '../changes/types.ts';
import type { ChangesSince, SharedPresence, StorageFeedListener } from '../changes/types.ts';
import type { PeopleSql } from '../people/peopleSql.ts';
import type { AggregateResult, AggregateSpec } from './rows.ts';
import type {
  BatchWriteResult, Condition, DeleteResult, RecordId, RowUpdate, TableRights, InsertBatch, InsertManyOptions, ListKey, MigrationReport, Row, SelectSpec, SortHint, Storage, StorageOptions, WriteResult,
} from './types.ts';
import { fieldType } from '../../ast/fieldTypes.ts';

export const SQLITE_MEMORY = ':memory:';
const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const STATEMENT_CACHE_SIZE = 256;
/** Bound values per statement: SQLite's limit is 32,766. */
const MAX_PARAMS = 32_000;
/** Rows read per statement of a batch (their ids are one bound JSON list). */
const MAX_ROWS_PER_READ = 10_000;
/** Audit entries per INSERT: eleven values each. */
const AUDIT_ROWS_PER_SQLITE_INSERT = Math.floor(MAX_PARAMS / 11);
/** SQLite's page cache per connection, filled as pages are read (the default is 2 MiB). */
const PAGE_CACHE_KIB = 32 * 1024;

export const sqliteDialect: Dialect = {
  placeholder: () => '?',
  boolParam: (value) => (value ? 1 : 0),
  // Decimals are stored as exact text; compare and order them by value.
  comparable: (column, expression) => (column.type === 'decimal' ? `CAST(${expression} AS REAL)` : expression),
  // LIKE is case-sensitive through PRAGMA case_sensitive_like; ilike lowers both sides. SQLite's
  // own LOWER folds ASCII only, which is all an ASCII pattern can match (the text's other letters
  // stay other letters either way, but for the Kelvin sign and the dotted İ), at a fifth of the
  // cost of folding in JavaScript; a pattern with Ü, Ö or É needs xos_lower, which folds them too.
  like: (_column, expression, pattern, caseInsensitive, asciiPattern) => {
    if (!caseInsensitive) return `${expression} LIKE ${pattern} ESCAPE '\\'`;
    const lower = asciiPattern ? 'LOWER' : 'xos_lower';
    return `${lower}(${expression}) LIKE ${lower}(${pattern}) ESCAPE '\\'`;
  },
  offsetWithoutLimit: 'LIMIT -1',
  // VALUES names its columns column1, column2, …: a SELECT gives them the names asked for.
  valuesTable: (tuples, alias, names) => `(SELECT ${names.map((name, i) => `"column${i + 1}" AS ${name}`).join(', ')} FROM (VALUES ${tuples.join(', ')})) AS ${alias}`,
  inList: (column, expression, values, params, negate) => {
    const item = column.type === 'decimal' ? 'CAST(value AS REAL)' : 'value';
    return `${expression} ${negate ? 'NOT IN' : 'IN'} (SELECT ${item} FROM json_each(${params.add(JSON.stringify(values))}))`;
  },
  rowVersion: (columns) => rowVersionSql(columns),
  // SQLite's own form (its datetime() function's), which text comparison orders like the rest.
  foreignDatetime: (iso) => iso.replace('T', ' ').replace(/(\.000)?Z$/, ''),
  dateBucket: (bucket, expression) => {
    switch (bucket) {
      case 'day': return `date(${expression})`;
      // To the week's Sunday (the day itself on a Sunday), then back to its Monday.
      case 'week': return `date(${expression}, 'weekday 0', '-6 days')`;
      case 'month': return `date(${expression}, 'start of month')`;
      case 'quarter': return `date(${expression}, 'start of month', '-' || ((CAST(strftime('%m', ${expression}) AS INTEGER) - 1) % 3) || ' months')`;
      case 'year': return `date(${expression}, 'start of year')`;
    }
  },
  // SQLite has no exact decimals: a decimal with a scale is summed as integers of its smallest
  // unit (exact up to 2^63 units), one without in JavaScript (xos_decimal_sum, exact, slower).
  exactSum: (column, expression) => {
    if (column.type === 'int') return { sql: `CAST(SUM(${expression}) AS TEXT)`, numeric: `SUM(${expression})` };
    const scale = column.def?.scale;
    if (scale === undefined) return { sql: `xos_decimal_sum(${expression})`, numeric: `SUM(CAST(${expression} AS REAL))` };
    const units = `SUM(CAST(ROUND(CAST(${expression} AS REAL) * ${10 ** scale}) AS INTEGER))`;
    return { sql: `CAST(${units} AS TEXT)`, numeric: units, scale };
  },
  sumOfSums: (expression) => `xos_decimal_sum(${expression})`,
};

/**
 * SQLite passes a function at most SQLITE_MAX_FUNCTION_ARG arguments (127 in older builds, 1,000 in
 * newer ones), and a table may have 2,000 columns: a wide row is digested in parts, then the parts.
 * A row of up to one part's columns keeps the version it always had.
 */
const ROW_VERSION_PART = 100;

function rowVersionSql(columns: readonly string[]): string {
  if (columns.length <= ROW_VERSION_PART) return `xos_row_version(${columns.join(', ')})`;
  const parts: string[] = [];
  for (let i = 0; i < columns.length; i += ROW_VERSION_PART) parts.push(rowVersionSql(columns.slice(i, i + ROW_VERSION_PART)));
  return rowVersionSql(parts);
}

/**
 * The version of a row of the person's own table: a 31-bit FNV-1a digest of its values, so any
 * change to a column XOS shows (by XOS or any other writer) changes it. Never 0 (a view's rows).
 */
export function rowVersion(...values: readonly unknown[]): number {
  let hash = 0x811c9dc5;
  for (const value of values) {
    const text = value === null ? '\u0001' : value instanceof Uint8Array ? `b${Buffer.from(value).toString('base64')}` : `${typeof value}${String(value)}`;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    // A separator, so ("ab", "c") and ("a", "bc") differ.
    hash = Math.imul(hash ^ 0xff, 0x01000193);
  }
  return (hash & 0x7fffffff) || 1;
}

export function sqliteColumnType(column: Column): string {
  // The version is XOS's own column, a ref references its table; every other type names its column in fieldTypes.ts.
  if (column.type === 'version') return 'INTEGER NOT NULL DEFAULT 1';
  if (column.type === 'ref') return `INTEGER REFERENCES ${quoteIdentifier(column.references!)}("id")`;
  return fieldType(column.type).storage.sqlite;
}

export class SqliteStorage implements Storage {
  readonly kind = 'sqlite' as const;
  readonly description: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  #builder: SqlBuilder | undefined;
  #audit = true;
  #bigInts = false;
  /** The change feed, and the changes of the write under way (told after its commit). */
  readonly #feed = new SqliteFeed({
    all: (statement) => this.#all(statement), dialect: sqliteDialect,
    kept: () => this.#audit && this.#builder !== undefined,
    presence: () => (this.#builder !== undefined ? this.#presence : undefined),
    entities: () => this.#entities,
  });
  /** The app's entities, once migrated. */
  #entities: readonly string[] = [];
  /** The file opened (or `:memory:`): XOS's own file for presence goes beside it. */
  readonly #location: string;
  /** Where presence is kept, once migrated (nowhere: undefined). */
  #presence: PresencePlace | undefined;
  #written: { changes: RecordChange[]; auditIds: number[] } = { changes: [], auditIds: [] };

  /** `location` is a file path or `:memory:`. */
  constructor(location: string, description: string, options: StorageOptions = {}) {
    this.description = description;
    this.#location = location;
    try {
      this.#db = new DatabaseSync(location, {
        enableForeignKeyConstraints: true,
        timeout: options.statementTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      });
    } catch (error) {
      throw translateSqliteError(error);
    }
    // WAL (readers never wait for the writer) for a database XOS starts; one that has tables
    // already keeps its journal mode: a person's own file stays as their other programs expect it.
    if (location !== SQLITE_MEMORY && this.#isEmpty()) this.#db.exec('PRAGMA journal_mode = WAL');
    this.#db.exec('PRAGMA foreign_keys = ON');
    this.#db.exec('PRAGMA case_sensitive_like = ON');
    // Per connection, nothing stored in the file. A write with RETURNING (every insert and update
    // here) keeps a statement journal: on disk, that is a temporary file's syscalls per statement
    // (3x the time of a bulk write). The default page cache (2 MiB) makes a 100,000-row table with
    // its sort indexes read its pages back from the OS on every insert or update.
    this.#db.exec('PRAGMA temp_store = MEMORY');
    this.#db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
    // SQLite's LOWER folds ASCII only; ilike must fold Ü, Ö, É as well.
    this.#db.function('xos_lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
    // The running sum stays a JavaScript object between rows (node:sqlite keeps any value; its types say SQL values).
    const sumOf = (accumulator: SQLInputValue) => accumulator as unknown as DecimalSum;
    this.#db.aggregate('xos_decimal_sum', {
      start: () => new DecimalSum() as unknown as SQLInputValue,
      step: (accumulator, value) => { sumOf(accumulator).add(value); return accumulator; },
      result: (accumulator) => sumOf(accumulator).text,
    });
    this.#db.function('xos_row_version', { deterministic: true, varargs: true, useBigIntArguments: true }, rowVersion);
  }

  async migrate(model: Model): Promise<MigrationReport> {
    const createdTables: string[] = [];
    const addedColumns: string[] = [];
    const createdIndexes: string[] = [];
    this.#transaction(() => {
      const existing = this.#existingColumns();
      const indexes = new Set(this.#all({ text: "SELECT name FROM sqlite_schema WHERE type = 'index'", params: [] }).map((row) => String(row.name)));
      for (const table of model.tables.values()) {
        if (!table.owned) {
          // The person's own table: checked, never created, altered or indexed.
          const missing = missingColumns(table, this.#all({ text: 'SELECT name FROM pragma_table_xinfo(?)', params: [table.sql.name] }).map((row) => String(row.name)));
          if (missing) throw new Error(missing);
          continue;
        }
        const columns = existing.get(table.name);
        if (!columns) {
          this.#db.exec(createTableSql(table));
          createdTables.push(table.name);
        } else {
          for (const column of table.columns) {
            if (columns.has(column.name)) continue;
            this.#db.exec(`ALTER TABLE ${quoteIdentifier(table.name)} ADD COLUMN ${quoteIdentifier(column.name)} ${sqliteColumnType(column)}`);
            addedColumns.push(`${table.name}.${column.name}`);
          }
        }
        for (const column of table.columns) {
          if (column.type !== 'ref') continue;
          const index = quoteIdentifier(`${table.name}_${column.name}_idx`);
          this.#db.exec(`CREATE INDEX IF NOT EXISTS ${index} ON ${quoteIdentifier(table.name)} (${quoteIdentifier(column.name)})`);
        }
        for (const index of sortIndexes(table, sqliteDialect)) {
          if (indexes.has(index.name)) continue;
          this.#db.exec(index.sql);
          createdIndexes.push(`${table.name}.${index.column}`);
        }
      }
      if (model.audit) {
        this.#db.exec(createAuditTableSql('INTEGER PRIMARY KEY AUTOINCREMENT'));
        // A trail from before batch writes and people gains their columns.
        const auditColumns = this.#all({ text: 'SELECT name FROM pragma_table_info(?)', params: [AUDIT_TABLE] }).map((row) => String(row.name));
        for (const column of AUDIT_ADDED_COLUMNS) {
          if (!auditColumns.includes(column)) this.#db.exec(`ALTER TABLE "${AUDIT_TABLE}" ADD COLUMN "${column}" TEXT`);
        }
        for (const sql of auditIndexesSql()) this.#db.exec(sql);
        this.#db.exec(createPresenceTableSql(presenceTable({})));
      }
    });
    this.#presence = model.audit ? {} : this.#attachPresenceFile();
    this.#builder = new SqlBuilder(model, sqliteDialect);
    this.#entities = [...model.tables.values()].map((table) => table.name);
    this.#audit = model.audit;
    if (!model.owned && !this.#bigInts) {
      this.#bigInts = true;
      this.#statements.clear();
    }
    return { createdTables, addedColumns, createdIndexes, createdSearchIndexes: [], audit: model.audit ? { kept: true } : { kept: false, reason: AUDIT_OFF } };
  }

  /**
   * Without a trail XOS adds no table to the file (it may be the person's own): the Boards'
   * presence lives in a file of XOS's own beside it, `<file>-xos`, attached. Where that cannot be
   * (an in-memory database, a folder XOS may not write), there is no presence.
   */
  #attachPresenceFile(): PresencePlace | undefined {
    if (this.#location === SQLITE_MEMORY || this.#location.startsWith('file:')) return undefined;
    const place = { schema: SIDE_SCHEMA };
    try {
      const attached = this.#all({ text: 'SELECT name FROM pragma_database_list WHERE name = ?', params: [SIDE_SCHEMA] }).length > 0;
      if (!attached) this.#all({ text: `ATTACH DATABASE ? AS "${SIDE_SCHEMA}"`, params: [presenceFileOf(this.#location)] });
      this.#db.exec(createPresenceTableSql(presenceTable(place)));
      return place;
    } catch {
      return undefined;
    }
  }

  async rights(): Promise<Map<string, TableRights>> {
    // SQLite has no grants; a file XOS may not write fails to open for writing, as it says.
    return new Map();
  }

  async sortHint(tableName: string, columnName: string): Promise<SortHint> {
    const table = this.#sql().table(tableName);
    const column = table.byName.get(columnName);
    if (!column) throw new Error(`${tableName} has no column ${columnName}`);
    const schema = table.sql.schema ?? 'main';
    // The rowid (an INTEGER PRIMARY KEY names it) is the table's own order.
    const alias = this.#all({ text: 'SELECT name FROM pragma_table_info(?, ?) WHERE pk = 1 AND upper(type) = \'INTEGER\' AND (SELECT COUNT(*) FROM pragma_table_info(?, ?) WHERE pk > 0) = 1', params: [table.sql.name, schema, table.sql.name, schema] })
      .map((row) => String(row.name))[0];
    // What a list sorted by the column orders by: the column, then the row key (seek.ts). An index
    // (not partial) serves it when its entries are ordered by exactly those first, all the same way
    // round; an entry ends with the rowid (a WITHOUT ROWID table's: its key), so an index on the
    // column alone serves when the key is the rowid. A unique index on the column alone leaves no
    // ties for the key to order.
    const key = table.byName.get(ID_COLUMN);
    const order = [column.sql, ...(key && !key.parts && key.sql !== column.sql ? [key.sql] : [])];
    const served = (index: { name: string; unique: boolean }): boolean => {
      const entries = this.#all({ text: 'SELECT cid, name, "desc" AS descending, key FROM pragma_index_xinfo(?, ?) ORDER BY seqno', params: [index.name, schema] })
        .map((row) => ({ name: Number(row.cid) === -1 ? alias : String(row.name ?? ''), descending: Number(row.descending) === 1, key: Number(row.key) === 1 }));
      if (index.unique && entries.filter((entry) => entry.key).length === 1 && entries[0].name === column.sql) return true;
      const leading = entries.slice(0, order.length);
      return leading.length === order.length && leading.every((entry, n) => entry.name === order[n] && entry.descending === leading[0].descending);
    };
    const indexes = this.#all({ text: 'SELECT name, "unique" AS isUnique, partial FROM pragma_index_list(?, ?)', params: [table.sql.name, schema] })
      .filter((row) => Number(row.partial) === 0)
      .map((row) => ({ name: String(row.name), unique: Number(row.isUnique) === 1 }));
    const indexed = alias === column.sql || indexes.some(served);
    return { indexed, rows: await this.count(tableName) };
  }

  async select(spec: SelectSpec): Promise<Row[]> {
    if (spec.after) return selectAfterKey(this, spec);
    const sql = this.#sql();
    return this.#all(sql.select(spec)).map((raw) => sql.decodeRow(spec.table, raw));
  }

  async keys(spec: SelectSpec, every: number, max: number): Promise<ListKey[]> {
    const sql = this.#sql();
    return sql.decodeKeys(spec, this.#all(sql.keys(spec, every, max)));
  }

  async aggregate(spec: AggregateSpec): Promise<AggregateResult> {
    const plan = this.#sql().aggregate(spec);
    const groups = this.#all(plan.groups);
    const past = groups.length > 0 && Number(groups[0].xos_groups) > groups.length;
    return plan.decode(groups, plan.others && past ? this.#all(plan.others) : undefined);
  }

  async count(table: string, where?: Condition): Promise<number> {
    const [row] = this.#all(this.#sql().count(table, where));
    return Number(row.count);
  }

  async insert(table: string, values: Row, audit?: AuditMeta): Promise<Row> {
    const sql = this.#sql();
    const statement = sql.insert(table, [values]);
    return this.#transaction(() => {
      const row = sql.decodeRow(table, this.#all(statement)[0]);
      this.#writeAudit(writeEntry(sql.table(table), 'create', null, row, audit), audit);
      return row;
    }, { table, written: Object.keys(values) });
  }

  async insertMany(batches: readonly InsertBatch[], options: InsertManyOptions = {}): Promise<boolean> {
    const sql = this.#sql();
    const statements = batches.flatMap(({ table, rows }) => rows.map((row) => sql.insert(table, [row])));
    // BEGIN IMMEDIATE holds the write lock: another process seeding at once waits, then sees rows.
    return this.#transaction(() => {
      if (options.onlyIntoEmptyTables && batches.some(({ table }) => Number(this.#all(sql.count(table))[0].count) !== 0)) return false;
      // Check foreign keys at commit, not per row; SQLite resets this at commit.
      this.#db.exec('PRAGMA defer_foreign_keys = ON');
      for (const statement of statements) this.#run(statement);
      return true;
    });
  }

  async update(table: string, id: RecordId, version: number, set: Row, audit?: AuditMeta): Promise<WriteResult> {
    const sql = this.#sql();
    const statement = sql.update(table, id, version, set);
    return this.#transaction((): WriteResult => {
      const [before] = this.#all(sql.selectById(table, id));
      if (!before) return { status: 'missing' };
      const [raw] = this.#all(statement);
      if (!raw) return { status: 'conflict', current: sql.decodeRow(table, before) };
      const row = sql.decodeRow(table, raw);
      this.#writeAudit(writeEntry(sql.table(table), 'update', sql.decodeRow(table, before), row, audit), audit);
      return { status: 'ok', row };
    }, { table, written: Object.keys(set) });
  }

  async updateMany(table: string, updates: readonly RowUpdate[], audit?: AuditMeta): Promise<BatchWriteResult> {
    const plan = new BatchPlan(this.#sql(), table, updates, MAX_PARAMS);
    try {
      return this.#transaction((): BatchWriteResult => {
        // BEGIN IMMEDIATE holds the write lock: the rows read first are the rows the UPDATEs find.
        for (const statement of plan.reads(MAX_ROWS_PER_READ)) plan.read(this.#all(statement));
        plan.checkVersions();
        for (const write of plan.writes()) plan.wrote(write, this.#all(write.statement));
        const { rows, entries, batch } = plan.result(audit);
        this.#writeAuditMany(entries, audit);
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
    return this.#transaction((): DeleteResult => {
      const [before] = this.#all(sql.selectById(table, id));
      if (!before) return { status: 'missing' };
      if (this.#all(statement).length === 0) return { status: 'conflict', current: sql.decodeRow(table, before) };
      this.#writeAudit(writeEntry(sql.table(table), 'delete', sql.decodeRow(table, before), null, audit), audit);
      return { status: 'ok' };
    });
  }

  async recordAudit(entry: NewAuditEntry): Promise<AuditEntry> {
    if (!this.#audit) return unrecordedEntry(entry);
    return this.#transaction(() => decodeAuditRow(this.#all(insertAuditSql(sqliteDialect, entry, { returning: true }))[0]));
  }

  async auditEntries(filter: AuditFilter): Promise<AuditEntry[]> {
    if (!this.#audit) return [];
    return this.#all(selectAuditSql(sqliteDialect, filter)).map(decodeAuditRow);
  }

  async auditCount(filter: Omit<AuditFilter, 'limit' | 'offset'>): Promise<number> {
    if (!this.#audit) return 0;
    return Number(this.#all(countAuditSql(sqliteDialect, filter))[0].count);
  }

  /** Inside the write's transaction (nothing when the app keeps no audit trail); the change feed tells it after the commit. */
  #writeAudit(entry: NewAuditEntry, meta: AuditMeta | undefined): void {
    if (this.#audit) this.#written.auditIds.push(Number(this.#all(insertAuditSql(sqliteDialect, entry, { returning: true }))[0].id));
    this.#written.changes.push(changeOfWrite(entry, meta));
  }

  /** #writeAudit for a batch: a few multi-row INSERTs. */
  #writeAuditMany(entries: readonly NewAuditEntry[], meta: AuditMeta | undefined): void {
    if (this.#audit) {
      for (const chunk of chunked(entries, AUDIT_ROWS_PER_SQLITE_INSERT)) {
        const statement = insertAuditManySql(sqliteDialect, chunk);
        // SQLite returns the rows in no promised order; one INSERT numbers its rows in VALUES order.
        const ids = this.#all({ ...statement, text: `${statement.text} RETURNING "id"` }).map((raw) => Number(raw.id)).sort((a, b) => a - b);
        this.#written.auditIds.push(...ids);
      }
    }
    for (const entry of entries) this.#written.changes.push(changeOfWrite(entry, meta));
  }

  watch(listener: StorageFeedListener): () => void {
    return this.#feed.watch(listener);
  }

  async announce(client: string, presence: SharedPresence | undefined, ttlMs: number): Promise<void> {
    this.#feed.announce(client, presence, ttlMs);
  }

  async changesSince(cursor: number | undefined, limit: number): Promise<ChangesSince | undefined> {
    return this.#feed.changesSince(cursor, limit);
  }

  peopleSql(): PeopleSql {
    return { kind: this.kind, dialect: sqliteDialect, all: async (statement) => this.#all(statement) };
  }

  async ping(): Promise<number> {
    const started = performance.now();
    this.#all({ text: 'SELECT 1', params: [] });
    return performance.now() - started;
  }

  async close(): Promise<void> {
    this.#feed.close();
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  #sql(): SqlBuilder {
    if (!this.#builder) throw new Error('call migrate(model) before using the storage');
    return this.#builder;
  }

  #isEmpty(): boolean {
    try {
      return this.#db.prepare('SELECT COUNT(*) AS n FROM sqlite_schema').get()!.n === 0;
    } catch (error) {
      throw translateSqliteError(error);
    }
  }

  #existingColumns(): Map<string, Set<string>> {
    const tables = this.#all({ text: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'", params: [] });
    const result = new Map<string, Set<string>>();
    for (const { name } of tables) {
      const columns = this.#all({ text: 'SELECT name FROM pragma_table_info(?)', params: [String(name)] });
      result.set(String(name), new Set(columns.map((c) => String(c.name))));
    }
    return result;
  }

  #prepare(text: string): StatementSync {
    let statement = this.#statements.get(text);
    if (statement) {
      // Move to the end: the map's order is the least-recently-used order.
      this.#statements.delete(text);
    } else {
      statement = this.#db.prepare(text);
      // The person's tables may hold integers beyond 2^53, which node:sqlite refuses to read as numbers.
      if (this.#bigInts) statement.setReadBigInts(true);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
    }
    this.#statements.set(text, statement);
    return statement;
  }

  #all(statement: Statement): Record<string, unknown>[] {
    try {
      return this.#prepare(statement.text).all(...toInputs(statement.params));
    } catch (error) {
      throw translateSqliteError(error);
    }
  }

  #run(statement: Statement): void {
    try {
      this.#prepare(statement.text).run(...toInputs(statement.params));
    } catch (error) {
      throw translateSqliteError(error);
    }
  }

  /** `write`: the table a write changes and the row names it sets, to say which rule of the person's table refused it. */
  #transaction<T>(work: () => T, write?: { readonly table: string; readonly written: readonly string[] }): T {
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw translateSqliteError(error);
    }
    this.#written = { changes: [], auditIds: [] };
    try {
      const result = work();
      this.#db.exec('COMMIT');
      const { changes, auditIds } = this.#written;
      this.#written = { changes: [], auditIds: [] };
      this.#feed.committed(changes, auditIds);
      return result;
    } catch (error) {
      this.#written = { changes: [], auditIds: [] };
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      const translated = translateSqliteError(error);
      throw write && translated instanceof StorageError ? this.#explained(translated, write.table, write.written) : translated;
    }
  }

  #explained(error: StorageError, tableName: string, written: readonly string[]): StorageError {
    const table = this.#sql().table(tableName);
    let rule: CheckRule | undefined;
    if (error.code === 'check' && error.constraint !== undefined) {
      const [created] = this.#all({ text: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", params: [table.sql.name] });
      if (typeof created?.sql === 'string') rule = sqliteCheckRule(created.sql, error.constraint);
    }
    return explainRefusal(error, table, written, rule);
  }
}

function createTableSql(table: Table): string {
  const columns = table.columns.map((c) => `${quoteIdentifier(c.name)} ${sqliteColumnType(c)}`);
  return `CREATE TABLE ${quoteIdentifier(table.name)} (${columns.join(', ')})`;
}

function toInputs(params: readonly SqlParam[]): SQLInputValue[] {
  // Booleans never reach here: the dialect stores them as 0/1.
  return params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p) as SQLInputValue);
}

/** XOS's own file beside a SQLite file it adds no table to: presence lives there. */
export function presenceFileOf(location: string): string {
  return `${location}-xos`;
}
