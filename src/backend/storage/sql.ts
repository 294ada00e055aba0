// The one SQL builder behind both storage adapters. The differences between
// SQLite and PostgreSQL live in a small Dialect; everything else (conditions,
// ordering, paging, writes, value encoding) is written once here.
// Every value is a bound parameter; every identifier is checked against the
// Model and double-quoted, so nothing from a request is ever spliced into SQL.
import { ID_COLUMN, VERSION_COLUMN } from '../model.ts';
import type { Column, Model, Table } from '../model.ts';
import type {
  AggregateMeasure, AggregateResult, AggregateSpec, Condition, DateBucket, ListKey, OrderBy, RecordId, Row, RowUpdate, Scalar, SelectSpec,
} from './rows.ts';
import { averageText, scaledOf, sumText } from './aggregate.ts';
import { orderTerms } from './seek.ts';
import { UUID } from '../../ast/values.ts';
import { fieldType, type FieldTypeRow } from '../../ast/fieldTypes.ts';
import type { FieldType } from '../../ast/schema.ts';

export type SqlParam = string | number | boolean | null | readonly (string | number | boolean | null)[];

export interface Statement {
  readonly text: string;
  readonly params: readonly SqlParam[];
}

export interface Dialect {
  /** The placeholder for the index-th parameter (1-based): `?` or `$1`. */
  placeholder(index: number): string;
  /** A canonical boolean as the database stores it. */
  boolParam(value: boolean): SqlParam;
  /** The expression compared and ordered for a column (decimals stored as text compare numerically). */
  comparable(column: Column, expression: string): string;
  /** `expression LIKE pattern`, case-sensitive or not; `asciiPattern`: the pattern has no letter beyond ASCII. */
  like(column: Column, expression: string, pattern: string, caseInsensitive: boolean, asciiPattern: boolean): string;
  /** What precedes OFFSET when no LIMIT is given (SQLite needs `LIMIT -1`). */
  readonly offsetWithoutLimit: string;
  /**
   * `expression IN <list>` with the whole list bound as ONE parameter, so the
   * SQL text (and the statement cache) does not grow with the list and no
   * parameter limit is reached.
   */
  inList(column: Column, expression: string, values: readonly (string | number | boolean | null)[], params: { add(value: SqlParam): string }, negate: boolean): string;
  /**
   * The version of a row of the person's own table, which has no version column: an integer that
   * changes whenever the row does (PostgreSQL: the row's transaction id; SQLite: a digest of the
   * given column expressions). A save compares it like a stored version.
   */
  rowVersion(columns: readonly string[]): string;
  /** `(VALUES …)` as a FROM item named `alias` with columns `names` (SQLite takes no column list after an alias). */
  valuesTable(tuples: readonly string[], alias: string, names: readonly string[]): string;
  /** A datetime (ISO 8601 UTC) as a column of the person's own table stores it; absent: as it is. */
  foreignDatetime?(iso: string): string;
  /** The first day (UTC) of the bucket a date or datetime falls in, as `YYYY-MM-DD` text. */
  dateBucket(bucket: DateBucket, expression: string): string;
  /**
   * An exact sum of an int or decimal column: `sql` as text, `numeric` the same aggregate as a
   * number to order and compare by (the database computes one aggregate for both). Of the values
   * themselves, or (`scale` set) of the values times 10^scale rounded to integers, where the
   * database has no exact decimals.
   */
  exactSum(column: Column, expression: string): { readonly sql: string; readonly numeric: string; readonly scale?: number };
  /** The exact sum (text) of exact sums as `exactSum` gives them. */
  sumOfSums(expression: string): string;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A table as SQL names it: `"schema"."name"` or `"name"`. */
export function tableSql(table: Table): string {
  return table.sql.schema === undefined ? quoteIdentifier(table.sql.name) : `${quoteIdentifier(table.sql.schema)}.${quoteIdentifier(table.sql.name)}`;
}

const INTEGER_TYPES = new Set(['id', 'ref', 'int', 'version']);

/** Collects bound parameters in text order and hands out their placeholders. */
class Params {
  readonly values: SqlParam[] = [];
  readonly #dialect: Dialect;

  constructor(dialect: Dialect) {
    this.#dialect = dialect;
  }

  add(value: SqlParam): string {
    this.values.push(value);
    return this.#dialect.placeholder(this.values.length);
  }
}

export class SqlBuilder {
  readonly model: Model;
  readonly dialect: Dialect;

  constructor(model: Model, dialect: Dialect) {
    this.model = model;
    this.dialect = dialect;
  }

  table(name: string): Table {
    const table = this.model.tables.get(name);
    if (!table) throw new Error(`unknown table "${name}"`);
    return table;
  }

  column(table: Table, name: string): Column {
    const column = table.byName.get(name);
    if (!column) throw new Error(`unknown column "${name}" on table "${table.name}"`);
    return column;
  }

  /** One select without a key (a select with one runs in parts: `selectAfterKey` in seek.ts). */
  select(spec: SelectSpec): Statement {
    if (spec.after) throw new Error('a select with a key runs through selectAfterKey');
    const table = this.table(spec.table);
    const names = [ID_COLUMN, ...spec.columns, VERSION_COLUMN];
    const columns = [...new Set(names)].map((name) => this.column(table, name));
    const params = new Params(this.dialect);
    let text = `SELECT ${this.#selectList(table, columns)} FROM ${tableSql(table)}`;
    if (spec.where) text += ` WHERE ${this.#condition(table, spec.where, params)}`;
    text += ` ORDER BY ${this.#orderBy(table, spec.orderBy ?? [])}`;
    text += this.#paging(spec.limit, spec.offset, params);
    return { text, params: params.values };
  }

  /**
   * The key (the values of the order's terms, the id last) of every `every`-th row in `spec`'s
   * order, at most `max`, each with its 1-based row number `xos_n`: a map of a long list by key.
   */
  keys(spec: SelectSpec, every: number, max: number): Statement {
    const table = this.table(spec.table);
    const terms = orderTerms(spec.orderBy);
    const termColumns = terms.map((t) => this.column(table, t.column));
    const columns = termColumns.map((c) => quoteIdentifier(c.name)).join(', ');
    const params = new Params(this.dialect);
    const where = spec.where ? ` WHERE ${this.#condition(table, spec.where, params)}` : '';
    const numbered = `SELECT ${this.#selectList(table, termColumns)}, ROW_NUMBER() OVER (ORDER BY ${this.#orderBy(table, terms)}) AS "xos_n" FROM ${tableSql(table)}${where}`;
    const text = `SELECT ${columns}, "xos_n" FROM (${numbered}) AS "xos_keys" WHERE "xos_n" % ${params.add(checkCount('every', every))} = 0 ORDER BY "xos_n" LIMIT ${params.add(checkCount('max', max))}`;
    return { text, params: params.values };
  }

  /** The positions (0-based) and keys of the rows `keys` returned. */
  decodeKeys(spec: SelectSpec, raws: readonly Record<string, unknown>[]): ListKey[] {
    const terms = orderTerms(spec.orderBy);
    return raws.map((raw) => {
      const row = this.decodeRow(spec.table, raw);
      return { position: Number(raw.xos_n) - 1, key: terms.map((t) => row[t.column] ?? null) };
    });
  }

  selectById(tableName: string, id: RecordId): Statement {
    const table = this.table(tableName);
    const params = new Params(this.dialect);
    const idColumn = this.column(table, ID_COLUMN);
    const text = `SELECT ${this.#allColumns(table)} FROM ${tableSql(table)} WHERE ${this.#ref(table, idColumn)} = ${params.add(this.#encode(idColumn, id))}`;
    return { text, params: params.values };
  }

  count(tableName: string, where?: Condition): Statement {
    const table = this.table(tableName);
    const params = new Params(this.dialect);
    let text = `SELECT COUNT(*) AS "count" FROM ${tableSql(table)}`;
    if (where) text += ` WHERE ${this.#condition(table, where, params)}`;
    return { text, params: params.values };
  }

  /**
   * The statements of an aggregate: `groups` (every group's key and measures, past the limit
   * counted as `xos_groups`), and `others` when asked (the groups past the limit as one, merged
   * from each group's partial measures). `decode` turns their rows into the result.
   */
  aggregate(spec: AggregateSpec): AggregatePlan {
    const table = this.table(spec.table);
    const groupColumns = spec.groups.map((g) => this.column(table, g.column));
    const groupSql = spec.groups.map((g, i) => {
      const ref = this.#ref(table, groupColumns[i]);
      if (g.bucket === undefined) return ref;
      if (!aggregateOf(groupColumns[i]).buckets) throw new Error(`column "${g.column}" is no date: it has no ${g.bucket}`);
      return this.dialect.dateBucket(g.bucket, ref);
    });
    const groupOrderSql = spec.groups.map((g, i) => (g.bucket === undefined ? this.dialect.comparable(groupColumns[i], groupSql[i]) : groupSql[i]));
    const measures = spec.measures.map((m) => this.#measure(table, m));
    const params = new Params(this.dialect);
    const where = spec.where ? ` WHERE ${this.#condition(table, spec.where, params)}` : '';
    const groupBy = groupSql.length ? ` GROUP BY ${groupSql.join(', ')}` : '';
    const having = (spec.having ?? []).map((h) => {
      const measure = measures[h.measure];
      if (!measure) throw new Error(`having names measure ${h.measure}, which is not asked`);
      const operator = COMPARE_OPERATORS[h.op];
      if (measure.column && !measure.numeric) return `${measure.sortable} ${operator} ${this.dialect.comparable(measure.column, params.add(this.#encode(measure.column, h.value)))}`;
      const value = Number(h.value);
      if (!Number.isFinite(value)) throw new Error(`having compares ${spec.measures[h.measure].fn} with a number, got ${JSON.stringify(h.value)}`);
      return `${measure.sortable} ${operator} CAST(${params.add(value)} AS NUMERIC)`;
    });
    const havingSql = having.length ? ` HAVING ${having.join(' AND ')}` : '';
    const order = [
      ...(spec.orderBy ?? []).map((o) => {
        const expression = 'group' in o ? groupOrderSql[o.group] : measures[o.measure]?.sortable;
        if (expression === undefined) throw new Error(`order_by names ${'group' in o ? `group ${o.group}` : `measure ${o.measure}`}, which is not asked`);
        return `${expression} ${o.desc ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}`;
      }),
      ...groupOrderSql.map((expression) => `${expression} ASC NULLS LAST`),
    ];
    const orderSql = order.length ? ` ORDER BY ${order.join(', ')}` : '';
    const parts = measures.flatMap((m, i) => m.parts.map((part, p) => `${part} AS "m${i}_${p}"`));
    const keys = groupSql.map((expression, i) => `${expression} AS "g${i}"`);
    const body = `FROM ${tableSql(table)}${where}${groupBy}${havingSql}`;
    const select = [...keys, ...parts];
    // The groups' statement ends in LIMIT, the others' in OFFSET: the same last parameter.
    const last = this.dialect.placeholder(params.values.length + 1);
    const lastParams = [...params.values, checkCount('limit', spec.limit)];
    const groups: Statement = { text: `SELECT ${[...select, 'COUNT(*) OVER () AS "xos_groups"'].join(', ')} ${body}${orderSql} LIMIT ${last}`, params: lastParams };
    let others: Statement | undefined;
    if (spec.others && groupSql.length) {
      const rest = `SELECT ${select.join(', ')} ${body}${orderSql} ${this.dialect.offsetWithoutLimit} OFFSET ${last}`;
      const merged = measures.flatMap((m, i) => m.merge.map((merge, p) => `${merge(`"m${i}_${p}"`)} AS "m${i}_${p}"`));
      others = { text: `SELECT ${['COUNT(*) AS "xos_groups"', ...merged].join(', ')} FROM (${rest}) AS "xos_rest"`, params: lastParams };
    }
    const decodeValues = (raw: Record<string, unknown>): Scalar[] => measures.map((m, i) => m.decode((p) => raw[`m${i}_${p}`]));
    return {
      groups,
      others,
      decode: (groupRows, otherRows) => {
        const result: AggregateResult = {
          groups: groupRows.map((raw) => ({
            key: spec.groups.map((g, i) => {
              const value = raw[`g${i}`];
              if (value === null || value === undefined) return null;
              return g.bucket === undefined ? decodeValue(groupColumns[i], value) : String(value);
            }),
            values: decodeValues(raw),
          })),
          totalGroups: groupRows.length ? Number(groupRows[0].xos_groups) : 0,
        };
        const rest = otherRows?.[0];
        if (!rest || Number(rest.xos_groups) === 0) return result;
        return { ...result, others: { groups: Number(rest.xos_groups), values: decodeValues(rest).map((v, i) => (spec.measures[i].fn === 'count_distinct' ? null : v)) } };
      },
    };
  }

  /** A measure's SQL parts (one, or a sum and a count for an average), how to merge them over groups and read them back. */
  #measure(table: Table, measure: AggregateMeasure): Measure {
    if (measure.fn === 'count') {
      return { numeric: true, sortable: 'COUNT(*)', parts: ['COUNT(*)'], merge: [(p) => `SUM(${p})`], decode: (part) => Number(part(0) ?? 0) };
    }
    if (measure.column === undefined) throw new Error(`${measure.fn} needs a column`);
    const column = this.column(table, measure.column);
    const ref = this.#ref(table, column);
    const comparable = this.dialect.comparable(column, ref);
    switch (measure.fn) {
      case 'count_distinct':
        return { column, numeric: true, sortable: `COUNT(DISTINCT ${ref})`, parts: [`COUNT(DISTINCT ${ref})`], merge: [() => 'NULL'], decode: (part) => (part(0) === null ? null : Number(part(0))) };
      case 'min': case 'max': {
        const sql = `${measure.fn.toUpperCase()}(${comparable})`;
        if (!aggregateOf(column).extremes) throw new Error(`${measure.fn} needs a number, date or time column; "${column.name}" is ${column.type}`);
        return { column, numeric: aggregateOf(column).sum === true, sortable: sql, parts: [sql], merge: [(p) => `${measure.fn.toUpperCase()}(${p})`], decode: (part) => decodeValue(column, part(0)) };
      }
      case 'sum': case 'avg': {
        if (!aggregateOf(column).sum) throw new Error(`${measure.fn} needs a number column; "${column.name}" is ${column.type}`);
        const sum = this.dialect.exactSum(column, ref);
        const sumOfSums = (p: string) => this.dialect.sumOfSums(p);
        // Ordered and compared by the sum itself (scaled sums by their value); an average by the sum over the count.
        const value = sum.scale === undefined ? sum.numeric : `(${sum.numeric} / ${10 ** sum.scale}.0)`;
        if (measure.fn === 'sum') {
          return { column, numeric: true, sortable: value, parts: [sum.sql], merge: [sumOfSums], decode: (part) => sumText(part(0), sum.scale) };
        }
        return {
          column, numeric: true, sortable: `(${value} * 1.0 / NULLIF(COUNT(${ref}), 0))`, parts: [sum.sql, `COUNT(${ref})`], merge: [sumOfSums, (p) => `SUM(${p})`],
          decode: (part) => {
            const total = sumText(part(0), sum.scale);
            const scale = (column.type === 'int' ? 0 : column.def?.scale ?? (total === null ? 0 : scaledOf(total)!.scale)) + 2;
            return averageText(total, Number(part(1) ?? 0), scale);
          },
        };
      }
    }
  }

  /** One INSERT of one or more rows that all set the same columns; returns the stored rows. */
  insert(tableName: string, rows: readonly Row[]): Statement {
    const table = this.writable(tableName);
    if (rows.length === 0) throw new Error('insert needs at least one row');
    const columns = this.#insertColumns(table, rows[0]);
    const signature = insertSignature(columns.map((c) => c.name));
    const params = new Params(this.dialect);
    const target = tableSql(table);
    const returning = ` RETURNING ${this.#allColumns(table)}`;
    if (columns.length === 0) {
      if (rows.length !== 1) throw new Error('only one row can be inserted with default values');
      return { text: `INSERT INTO ${target} DEFAULT VALUES${returning}`, params: [] };
    }
    const tuples = rows.map((row) => {
      const names = this.#insertColumns(table, row).map((c) => c.name);
      if (insertSignature(names) !== signature) throw new Error(`rows of one INSERT into "${table.name}" must set the same columns`);
      return `(${columns.map((c) => params.add(this.#encode(c, row[c.name] ?? null))).join(', ')})`;
    });
    const text = `INSERT INTO ${target} (${columns.map((c) => quoteIdentifier(c.sql)).join(', ')}) VALUES ${tuples.join(', ')}${returning}`;
    return { text, params: params.values };
  }

  /** The columns a row sets on insert, in model order; `version` always starts at its default. */
  insertColumnNames(tableName: string, row: Row): string[] {
    return this.#insertColumns(this.table(tableName), row).map((c) => c.name);
  }

  /** The table, when its records may be written; a read-only one is refused with its reason. */
  writable(tableName: string): Table {
    const table = this.table(tableName);
    if (table.readOnly !== undefined) throw new Error(`${table.name} can only be read: ${table.readOnly}`);
    return table;
  }

  update(tableName: string, id: RecordId, version: number, set: Row): Statement {
    const table = this.writable(tableName);
    const params = new Params(this.dialect);
    const assignments: string[] = [];
    for (const [name, value] of Object.entries(set)) {
      const column = this.column(table, name);
      if (column.type === 'id' || column.type === 'version' || column.readOnly) throw new Error(`column "${name}" cannot be set`);
      assignments.push(`${quoteIdentifier(column.sql)} = ${params.add(this.#encode(column, value))}`);
    }
    // The person's own tables have no version column: their version follows the row by itself.
    if (table.owned) assignments.push('"version" = "version" + 1');
    if (assignments.length === 0) {
      // Nothing to set: a no-op that still checks the version and returns the row.
      const idColumn = this.column(table, ID_COLUMN);
      assignments.push(`${quoteIdentifier(idColumn.sql)} = ${quoteIdentifier(idColumn.sql)}`);
    }
    const where = this.#idAndVersion(table, id, version, params);
    const text = `UPDATE ${tableSql(table)} SET ${assignments.join(', ')} WHERE ${where} RETURNING ${this.#allColumns(table)}`;
    return { text, params: params.values };
  }

  /**
   * Many rows of one table set to the same columns in ONE statement: their values in a VALUES
   * list, each row version-checked; the rows written come back. On PostgreSQL each value is cast
   * to its column's type (`types`: the real column name -> its type as the catalog writes it);
   * SQLite takes them as bound, as a single row's UPDATE does.
   */
  updateFromValues(tableName: string, updates: readonly RowUpdate[], names: readonly string[], types?: ReadonlyMap<string, string>): Statement {
    const table = this.writable(tableName);
    const params = new Params(this.dialect);
    const idColumn = this.column(table, ID_COLUMN);
    const columns = names.map((name) => {
      const column = this.column(table, name);
      if (column.type === 'id' || column.type === 'version' || column.readOnly) throw new Error(`column "${name}" cannot be set`);
      return column;
    });
    const cast = (placeholder: string, sqlName: string, type?: string) => {
      if (!types) return placeholder;
      const known = type ?? types.get(sqlName);
      if (!known) throw new Error(`no type known for column "${sqlName}" of "${table.name}"`);
      return `CAST(${placeholder} AS ${known})`;
    };
    const tuples = updates.map((u) => {
      const values = [
        cast(params.add(this.#encode(idColumn, u.id)), idColumn.sql),
        cast(params.add(u.version), VERSION_COLUMN, 'integer'),
        ...columns.map((c) => cast(params.add(this.#encode(c, u.set[c.name] ?? null)), c.sql)),
      ];
      return `(${values.join(', ')})`;
    });
    // The VALUES' columns are named xos_*, so every other name in the statement is the table's own.
    const assignments = columns.map((c, i) => `${quoteIdentifier(c.sql)} = "xos_v"."xos_${i}"`);
    if (table.owned) assignments.push('"version" = "version" + 1');
    // Nothing to set: a no-op that still checks the versions and returns the rows.
    if (assignments.length === 0) assignments.push(`${quoteIdentifier(idColumn.sql)} = ${quoteIdentifier(idColumn.sql)}`);
    const versionColumn = this.column(table, VERSION_COLUMN);
    const values = this.dialect.valuesTable(tuples, '"xos_v"', ['"xos_id"', '"xos_version"', ...columns.map((_, i) => `"xos_${i}"`)]);
    const text = `UPDATE ${tableSql(table)} SET ${assignments.join(', ')} FROM ${values} `
      + `WHERE ${this.#ref(table, idColumn)} = "xos_v"."xos_id" AND ${this.#ref(table, versionColumn)} = "xos_v"."xos_version" RETURNING ${this.#allColumns(table)}`;
    return { text, params: params.values };
  }

  delete(tableName: string, id: RecordId, version: number): Statement {
    const table = this.writable(tableName);
    const params = new Params(this.dialect);
    const idColumn = this.column(table, ID_COLUMN);
    const text = `DELETE FROM ${tableSql(table)} WHERE ${this.#idAndVersion(table, id, version, params)} RETURNING ${this.#ref(table, idColumn)} AS "id"`;
    return { text, params: params.values };
  }

  /**
   * A database row in canonical form, as a plain object; columns the model does
   * not know are left out. Large lists make this a hot path, so values already
   * in canonical form are taken as they are.
   */
  decodeRow(tableName: string, raw: Record<string, unknown>): Row {
    const table = this.table(tableName);
    const row: Row = {};
    for (const name in raw) {
      const column = table.byName.get(name);
      if (!column) continue;
      const value = raw[name];
      // The person's tables hold their own forms (a datetime as `2009-01-01 00:00:00`): always decoded.
      row[name] = value === null || (column.owned && typeof value === canonicalTypeof(column)) ? value as Scalar : decodeValue(column, value);
    }
    return row;
  }

  #allColumns(table: Table): string {
    return this.#selectList(table, table.columns);
  }

  /** Columns as a select list: the real name, named as rows name it where the two differ. */
  #selectList(table: Table, columns: readonly Column[]): string {
    return columns.map((c) => {
      const ref = this.#ref(table, c);
      const name = quoteIdentifier(c.name);
      return ref === name ? ref : `${ref} AS ${name}`;
    }).join(', ');
  }

  /** A column in SQL: its real name, or, for the version of the person's own table, the row's state. */
  #ref(table: Table, column: Column): string {
    // A composite key's columns, read as one text: "3|17".
    if (column.parts) return `(${column.parts.map((part) => `CAST(${quoteIdentifier(part)} AS TEXT)`).join(` || '|' || `)})`;
    if (column.type !== 'version' || table.owned) return quoteIdentifier(column.sql);
    // A view or a table without one key is never written: its rows need no version.
    if (table.readOnly !== undefined) return '0';
    return this.dialect.rowVersion(table.columns.filter((c) => c.type !== 'version').map((c) => quoteIdentifier(c.sql)));
  }

  #insertColumns(table: Table, row: Row): Column[] {
    for (const name of Object.keys(row)) {
      const column = this.column(table, name);
      if (column.readOnly) throw new Error(`column "${name}" cannot be set`);
    }
    return table.columns.filter((c) => c.type !== 'version' && Object.hasOwn(row, c.name));
  }

  #idAndVersion(table: Table, id: RecordId, version: number, params: Params): string {
    const idColumn = this.column(table, ID_COLUMN);
    const versionColumn = this.column(table, VERSION_COLUMN);
    const idParam = params.add(this.#encode(idColumn, id));
    const versionParam = params.add(this.#encode(versionColumn, version));
    return `${this.#ref(table, idColumn)} = ${idParam} AND ${this.#ref(table, versionColumn)} = ${versionParam}`;
  }

  #condition(table: Table, condition: Condition, params: Params): string {
    switch (condition.kind) {
      case 'and':
        if (condition.items.length === 0) return '1 = 1';
        return `(${condition.items.map((c) => this.#condition(table, c, params)).join(' AND ')})`;
      case 'or':
        if (condition.items.length === 0) return '1 = 0';
        return `(${condition.items.map((c) => this.#condition(table, c, params)).join(' OR ')})`;
      case 'not':
        return `(NOT ${this.#condition(table, condition.item, params)})`;
      case 'compare':
        return this.#compare(table, condition.column, condition.op, condition.value, params);
      case 'in': {
        const column = this.column(table, condition.column);
        if (condition.values.length === 0) return condition.negate ? '1 = 1' : '1 = 0';
        const expression = this.dialect.comparable(column, this.#ref(table, column));
        const values = condition.values.map((v) => this.#encode(column, v) as string | number | boolean | null);
        return this.dialect.inList(column, expression, values, params, condition.negate);
      }
      case 'is_null': {
        const column = this.column(table, condition.column);
        return `${this.#ref(table, column)} ${condition.isNull ? 'IS NULL' : 'IS NOT NULL'}`;
      }
      case 'ref': {
        const column = this.column(table, condition.column);
        const target = this.table(condition.table);
        if (column.type !== 'ref' || column.references !== target.name) {
          throw new Error(`column "${column.name}" on table "${table.name}" does not reference table "${target.name}"`);
        }
        const inner = this.#condition(target, condition.where, params);
        return `${this.#ref(table, column)} IN (SELECT ${this.#ref(target, this.column(target, ID_COLUMN))} FROM ${tableSql(target)} WHERE ${inner})`;
      }
      case 'inverse': {
        const source = this.table(condition.table);
        const column = this.column(source, condition.column);
        if (column.type !== 'ref' || column.references !== table.name) {
          throw new Error(`column "${column.name}" on table "${source.name}" does not reference table "${table.name}"`);
        }
        const inner = this.#condition(source, condition.where, params);
        return `${this.#ref(table, this.column(table, ID_COLUMN))} IN (SELECT ${this.#ref(source, column)} FROM ${tableSql(source)} WHERE ${inner})`;
      }
    }
  }

  #compare(table: Table, columnName: string, op: string, value: Scalar, params: Params): string {
    const column = this.column(table, columnName);
    const quoted = this.#ref(table, column);
    // "equals null" is the useful reading of eq/neq with null; SQL's `= NULL` matches nothing.
    if (value === null && op === 'eq') return `${quoted} IS NULL`;
    if (value === null && op === 'neq') return `${quoted} IS NOT NULL`;
    if (op === 'like' || op === 'ilike') {
      const text = value === null ? null : String(value);
      const pattern = params.add(text);
      return this.dialect.like(column, quoted, pattern, op === 'ilike', text === null || /^\p{ASCII}*$/u.test(text));
    }
    const operator = COMPARE_OPERATORS[op];
    if (!operator) throw new Error(`unknown comparison "${op}"`);
    const left = this.dialect.comparable(column, quoted);
    const right = this.dialect.comparable(column, params.add(this.#encode(column, value)));
    return `${left} ${operator} ${right}`;
  }

  #orderBy(table: Table, orderBy: readonly OrderBy[]): string {
    return orderTerms(orderBy).map(({ column: name, desc }) => {
      // The id is unique and never null: it ends the order as it is (no null placement, nothing
      // after it), so an index on (column, id) serves the whole ORDER BY, either way round.
      if (name === ID_COLUMN) return `${this.#ref(table, this.column(table, ID_COLUMN))} ${desc ? 'DESC' : 'ASC'}`;
      const column = this.column(table, name);
      const expression = this.dialect.comparable(column, this.#ref(table, column));
      // One null placement on both databases: nulls count as the largest value.
      return `${expression} ${desc ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}`;
    }).join(', ');
  }

  #paging(limit: number | undefined, offset: number | undefined, params: Params): string {
    let text = '';
    if (limit !== undefined) text += ` LIMIT ${params.add(checkCount('limit', limit))}`;
    if (offset !== undefined) {
      if (limit === undefined && this.dialect.offsetWithoutLimit) text += ` ${this.dialect.offsetWithoutLimit}`;
      text += ` OFFSET ${params.add(checkCount('offset', offset))}`;
    }
    return text;
  }

  #encode(column: Column, value: Scalar): SqlParam {
    const canonical = encodeValue(column, value);
    if (typeof canonical === 'boolean') return this.dialect.boolParam(canonical);
    // The person's table keeps its own datetime form, so their other programs read what XOS writes.
    if (column.type === 'datetime' && !column.owned && typeof canonical === 'string' && this.dialect.foreignDatetime) return this.dialect.foreignDatetime(canonical);
    return canonical;
  }
}

/** An aggregate's statements and how their rows become the result (`SqlBuilder.aggregate`). */
export interface AggregatePlan {
  readonly groups: Statement;
  readonly others?: Statement;
  decode(groups: readonly Record<string, unknown>[], others?: readonly Record<string, unknown>[]): AggregateResult;
}

interface Measure {
  /** The measured column (none for count). */
  readonly column?: Column;
  /** Compared as a number in `having` (a min or max compares as its column). */
  readonly numeric: boolean;
  /** The expression ordered by and compared in `having`. */
  readonly sortable: string;
  /** The SQL of each part, per group. */
  readonly parts: readonly string[];
  /** Each part merged over the groups of `others`. */
  readonly merge: readonly ((part: string) => string)[];
  decode(part: (index: number) => unknown): Scalar;
}

const COMPARE_OPERATORS: Readonly<Record<string, string>> = {
  eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=',
};

/**
 * The index each sortable list column gets: on the expression the ORDER BY uses (decimals as
 * numbers on SQLite) and the id, the ORDER BY's last term, so both ends of a sorted list are
 * read by key. `name` is how the catalog knows it.
 */
export function sortIndexes(table: Table, dialect: Dialect): Array<{ readonly column: string; readonly name: string; readonly sql: string }> {
  return table.sortColumns.map((name) => {
    const column = table.byName.get(name)!;
    const index = `${table.name}_${name}_sort_idx`;
    const quoted = quoteIdentifier(name);
    const compared = dialect.comparable(column, quoted);
    // An expression (not a bare column) is parenthesised, as PostgreSQL asks.
    const expression = compared === quoted ? quoted : `(${compared})`;
    return { column: name, name: index, sql: `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(index)} ON ${quoteIdentifier(table.name)} (${expression}, "id")` };
  });
}

function insertSignature(names: readonly string[]): string {
  return JSON.stringify(names);
}

function checkCount(what: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${what} must be a non-negative integer, got ${value}`);
  return value;
}

/** A canonical value (types.ts) as the parameter both databases accept. */
export function encodeValue(column: Column, value: Scalar): SqlParam {
  if (value === null || value === undefined) return null;
  if (isTextKey(column)) {
    if (typeof value !== 'string' || value === '') throw new Error(`column "${column.name}" expects a ${column.key} key, got ${JSON.stringify(value)}`);
    if (column.key === 'uuid' && !UUID.test(value)) throw new Error(`column "${column.name}" expects a uuid, got ${JSON.stringify(value)}`);
    return column.key === 'uuid' ? value.toLowerCase() : value;
  }
  if (INTEGER_TYPES.has(column.type)) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new Error(`column "${column.name}" expects an integer, got ${JSON.stringify(value)}`);
    return n;
  }
  // The type's own form (fieldTypes.ts), else a string as it is.
  const storage = column.type === 'version' ? undefined : fieldType(column.type).storage;
  if (storage?.encode) {
    const encoded = storage.encode(value);
    if (encoded === undefined) throw new Error(`column "${column.name}" expects ${storage.expects ?? 'a value of its type'}, got ${JSON.stringify(value)}`);
    return encoded;
  }
  if (typeof value !== 'string') throw new Error(`column "${column.name}" expects a string, got ${JSON.stringify(value)}`);
  return column.spelling?.stored.get(value) ?? value;
}

/** What totals take of a column (its type's row); the version and key columns: nothing. */
function aggregateOf(column: Column): NonNullable<FieldTypeRow['aggregate']> {
  return column.type === 'version' ? {} : fieldType(column.type).aggregate ?? {};
}

/** typeof of a column's canonical value (types.ts); such values need no decoding. */
function canonicalTypeof(column: Column): string {
  return column.type === 'version' ? 'number' : fieldType(column.type).storage.canonical;
}

/** A value read from either database in canonical form. */
export function decodeValue(column: Column, value: unknown): Scalar {
  if (value === null || value === undefined) return null;
  if (isTextKey(column)) return String(value);
  if (INTEGER_TYPES.has(column.type)) return Number(value);
  const decode = fieldType(column.type as FieldType).storage.decode;
  if (decode) return decode(value, column.def);
  // A json column of the person's table (read-only text here) arrives parsed.
  const text = typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : String(value);
  return column.spelling?.value.get(text) ?? text;
}

/** An id or ref column whose records are keyed by text or uuid (the person's own tables). */
export function isTextKey(column: Column): boolean {
  return (column.type === 'id' || column.type === 'ref') && column.key !== undefined && column.key !== 'int';
}
