// A database's catalog as an XOS AST (docs/own-database.md): an entity per table XOS can serve,
// a field per column it has a type for, refs from foreign keys, a list and a detail context per
// entity. What is left out is said in `notes`, with the reason. Pure: the same catalog gives the
// same AST, byte for byte once written.
import type { Ast, ContextDef, EntityDef, FieldDef, FieldType, NavigateDef } from '../../ast/schema.ts';
import { fieldTypeRows } from '../../ast/fieldTypes.ts';
import { checkAst, formatPath } from '../../ast/validate.ts';
import type { Catalog, CatalogColumn, CatalogDialect, CatalogForeignKey, CatalogTable } from './catalog.ts';
import { plural, readable, readablePlural, snakeAscii } from './names.ts';
import { FOREIGN_DESCRIPTION_MAX, FOREIGN_LABEL_MAX, cleanForeignText, type CleanedText } from '../../text/foreignText.ts';
import { AGGREGATE_SHARED_TYPES, AGGREGATE_TYPE_SUFFIXES } from '../graphql/aggregates.ts';

export interface LeftOut {
  readonly table: string;
  readonly column?: string;
  readonly reason: string;
}

export interface Introspection {
  readonly ast: Ast;
  /** Tables and views without an entity, and why. */
  readonly leftOutTables: readonly LeftOut[];
  /** Columns of served tables without a field, and why. */
  readonly leftOutColumns: readonly LeftOut[];
  /** Labels and descriptions init cleaned or cut, and how. */
  readonly cleaned: readonly CleanedLabel[];
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const RESERVED_ENUM_VALUES = new Set(['true', 'false', 'null']);
/** Field names XOS gives a meaning of its own; a column of that name becomes `<name>_no`. */
const RESERVED_FIELDS = new Set(['id', 'version', '_and', '_or', '_not']);
const RESERVED_SUFFIX = '_no';
/** The most fields (the id included) of an entity over a SQLite table: a row read with its version is then SQLite's most columns, 2,000. */
const SQLITE_MAX_FIELDS = 1999;
/** How many fields besides `id` a list context shows; of them at most so many names and places. */
const LIST_COLUMNS = 5;
const LIST_NAMES = 3;
const LIST_PLACES = 2;

// ---------------------------------------------------------------- which tables are served

/**
 * Why a table or view gets no entity, or undefined when XOS serves it. One place, so that
 * tables with other keys and views can become read-only contexts by changing only this.
 */
export function whyNotServed(table: CatalogTable, dialect: CatalogDialect): string | undefined {
  const plan = keyPlan(table, dialect);
  return typeof plan === 'string' ? plan : undefined;
}

/**
 * How XOS keys a table's records: by its one key column (a view: its first column, read-only),
 * or, read-only, by a composite key's values joined, or by the row's own key where there is none
 * (SQLite's rowid, PostgreSQL's ctid). A string: why the table is not served.
 */
export type KeyPlan =
  | { readonly kind: 'column'; readonly column: CatalogColumn; readonly readOnly?: string }
  | { readonly kind: 'composite'; readonly columns: readonly string[]; readonly readOnly: string }
  | { readonly kind: 'row'; readonly column: 'rowid' | 'ctid'; readonly key: 'int' | 'text'; readonly readOnly: string };

export function keyPlan(table: CatalogTable, dialect: CatalogDialect): KeyPlan | string {
  if (table.kind === 'view') {
    const first = viewKey(table, dialect);
    return first
      ? { kind: 'column', column: first, readOnly: `a view: the database computes its rows; XOS reads them by "${first.name}", taken to be unique` }
      : 'a view without a first column that names its rows (like "id" or "film_id")';
  }
  if (table.kind === 'materialized view') return 'a materialized view';
  if (table.kind === 'virtual table') return 'a virtual table';
  if (table.primaryKey.length === 0) {
    if (dialect === 'postgres') return { kind: 'row', column: 'ctid', key: 'text', readOnly: 'no primary key: XOS reads its rows by their place in the table (ctid) and does not write them' };
    if (table.rowid) return { kind: 'row', column: 'rowid', key: 'int', readOnly: 'no primary key: XOS reads its rows by their rowid and does not write them' };
    return 'no primary key (a table WITHOUT ROWID)';
  }
  if (table.primaryKey.length > 1) {
    return { kind: 'composite', columns: table.primaryKey, readOnly: `composite key (${table.primaryKey.join(', ')}): XOS reads its rows by the key's values joined by "|" and does not write them` };
  }
  const key = table.columns.find((c) => c.name === table.primaryKey[0]);
  if (key && keyOf(key, dialect) !== undefined) return { kind: 'column', column: key };
  return `its key is ${key ? keyKind(key, dialect) : 'unknown'}; XOS serves integer, text and uuid keys`;
}

/**
 * A view is read as a read-only entity when its first column looks like its rows' key (`id`,
 * `fid`, `actor_id`, `CustomerId`) and has a type XOS keys by; XOS takes it to be unique.
 */
export function viewKey(table: CatalogTable, dialect: CatalogDialect): CatalogColumn | undefined {
  const first = table.columns[0];
  if (table.kind !== 'view' || !first || !/id$/i.test(first.name)) return undefined;
  return keyOf(first, dialect) ? first : undefined;
}

/** How a key column keys records, as the AST's `key` says; undefined: XOS cannot key by it. */
export function keyOf(column: CatalogColumn, dialect: CatalogDialect): 'int' | 'text' | 'uuid' | undefined {
  const base = baseType(column, dialect);
  if (base === 'int') return 'int';
  if (base === 'string' || base === 'text') return 'text';
  return base === 'uuid' ? 'uuid' : undefined;
}

/** The `key` an id or ref field says: absent for integer keys (the default). */
function keyField(kind: 'int' | 'text' | 'uuid' | undefined): { key?: 'text' | 'uuid' } {
  return kind === 'text' || kind === 'uuid' ? { key: kind } : {};
}

function keyKind(column: CatalogColumn, dialect: CatalogDialect): string {
  const base = baseType(column, dialect);
  if (base === 'string' || base === 'text') return 'text';
  return base === 'uuid' ? 'uuid' : column.type || 'untyped';
}

// ---------------------------------------------------------------- column types

/** What a column holds: a field type, or a kind XOS reads otherwise (a uuid or a time of day as text, JSON as text). */
type BaseType = FieldType | 'uuid' | 'json' | 'clock';

/** The types whose rows (fieldTypes.ts) do not name their own columns, or that XOS reads as another type. */
const POSTGRES_TYPES: Record<string, BaseType> = {
  int2: 'int', int4: 'int', int8: 'int',
  numeric: 'decimal', float4: 'decimal', float8: 'decimal',
  text: 'text', citext: 'text',
  varchar: 'string', bpchar: 'string', char: 'string', name: 'string',
  time: 'clock', timetz: 'clock', uuid: 'uuid', json: 'json', jsonb: 'json',
};

/** The field type whose row claims a column type, first in the table's order. */
function rowType(name: string, dialect: CatalogDialect): FieldType | undefined {
  return fieldTypeRows().find(([, row]) => (dialect === 'postgres' ? row.columns?.postgres?.includes(name) : row.columns?.sqlite?.test(name)))?.[0];
}

/** What a column holds, as far as XOS has a field type for it; undefined: nothing XOS can show. */
export function baseType(column: CatalogColumn, dialect: CatalogDialect): BaseType | undefined {
  if (column.array) return undefined;
  return rowType(column.typeName, dialect) ?? (dialect === 'postgres' ? POSTGRES_TYPES[column.typeName] : sqliteType(column.typeName));
}

/** SQLite's declared type names are free text: the common names first, then SQLite's own affinity rules. */
function sqliteType(name: string): BaseType | undefined {
  if (/^time\b/.test(name)) return 'clock';
  if (/^jsonb?$/.test(name)) return 'json';
  if (/^(uuid|guid)$/.test(name)) return 'uuid';
  // https://sqlite.org/datatype3.html#determination_of_column_affinity, in its order.
  if (name.includes('int')) return 'int';
  if (/char|clob|text/.test(name)) return name.includes('char') ? 'string' : 'text';
  if (name === '' || name.includes('blob')) return undefined;
  if (/real|floa|doub/.test(name)) return 'decimal';
  if (/^(decimal|numeric)$/.test(name)) return 'decimal';
  return undefined;
}

function isBigint(column: CatalogColumn, dialect: CatalogDialect): boolean {
  return dialect === 'postgres' ? column.typeName === 'int8' : /big ?int|int8/.test(column.typeName);
}

interface MappedColumn {
  readonly def: FieldDef;
  readonly notes: string[];
}

/** The field for a (non-key, non-ref) column, without label; undefined when XOS has no type for it. */
function mapColumn(column: CatalogColumn, dialect: CatalogDialect): MappedColumn | undefined {
  const base = baseType(column, dialect);
  if (base === undefined && !column.enumValues) return undefined;
  const notes: string[] = [];
  let def: FieldDef;
  const listed = column.enumValues ?? (base === 'string' || base === 'text' ? column.checkValues : undefined);
  if (listed) {
    def = enumOrString(column, listed, notes);
  } else if (base === 'int') {
    // A 64-bit integer is a whole decimal: exact at any size (GraphQL's Int holds 32 bits).
    def = isBigint(column, dialect) ? { type: 'decimal', scale: 0 } : { type: 'int' };
  } else if (base === 'decimal') {
    def = { type: 'decimal', ...decimalScale(column, notes) };
  } else if (base === 'string') {
    def = { type: 'string', ...(column.maxLength ? { max: column.maxLength } : {}) };
  } else if (base === 'json') {
    def = { type: 'text' };
  } else if (base === 'clock' || base === 'uuid') {
    def = { type: 'string' };
  } else {
    def = { type: base! };
  }
  return { def, notes };
}

/**
 * An enum of the listed values. A value that is no GraphQL name gets one as PostGraphile names it
 * (`PG-13` -> `PG_13`, `3D` -> `_3D`, `''` -> `_EMPTY_`), `_2`, `_3`… where that is taken; the
 * database's spelling is kept in `column_values` and shown as the value's label.
 */
function enumOrString(column: CatalogColumn, listed: readonly string[], notes: string[]): FieldDef {
  const spellings = [...new Set(listed)];
  const isName = (v: string) => GRAPHQL_NAME.test(v) && !v.startsWith('__') && !RESERVED_ENUM_VALUES.has(v);
  const taken = new Set(spellings.filter(isName));
  const columnValues: Record<string, string> = {};
  const values = spellings.map((spelling) => {
    if (isName(spelling)) return spelling;
    const base = enumValueName(spelling);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    columnValues[name] = spelling;
    return name;
  });
  const renamed = Object.entries(columnValues);
  if (renamed.length === 0) return { type: 'enum', values };
  const shown = renamed.slice(0, 3).map(([name, spelling]) => `${JSON.stringify(spelling)} is ${name}`).join(', ') + (renamed.length > 3 ? ', …' : '');
  notes.push(`column "${column.name}": values that are no GraphQL names have names in the API (${shown}); XOS reads and writes the database's spelling`);
  // The label is foreign text like a comment: cleaned and bounded; the exact spelling stays in column_values.
  const labels = Object.fromEntries(renamed.map(([name, spelling]) => [name, cleanForeignText(spelling, { max: FOREIGN_LABEL_MAX, kind: 'label' }).text || name]));
  return { type: 'enum', values, value_labels: labels, column_values: columnValues };
}

/** Symbols PostGraphile names in words when they are a whole value. */
const SYMBOL_NAMES: Readonly<Record<string, string>> = {
  '>': 'GREATER_THAN', '>=': 'GREATER_THAN_OR_EQUAL', '=': 'EQUAL', '!=': 'NOT_EQUAL', '<>': 'DIFFERENT', '<=': 'LESS_THAN_OR_EQUAL', '<': 'LESS_THAN',
  '%': 'PERCENT', '+': 'PLUS', '-': 'MINUS', '/': 'SLASH', '\\': 'BACKSLASH', _: 'UNDERSCORE', '#': 'POUND', '$': 'DOLLAR', '&': 'AMPERSAND',
  '@': 'AT', '*': 'ASTERISK', '.': 'DOT', ',': 'COMMA', ':': 'COLON', ';': 'SEMICOLON', '!': 'EXCLAMATION_POINT', '?': 'QUESTION_MARK', '|': 'BAR',
};

/** A database's enum value as a GraphQL name, as PostGraphile's coerceToGraphQLName makes it; accents dropped first. */
export function enumValueName(spelling: string): string {
  if (spelling === '') return '_EMPTY_';
  if (Object.hasOwn(SYMBOL_NAMES, spelling)) return SYMBOL_NAMES[spelling];
  if (RESERVED_ENUM_VALUES.has(spelling)) return `${spelling}_`;
  let name = spelling.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^_a-zA-Z0-9]/g, '_');
  if (/^[0-9]/.test(name)) name = `_${name}`;
  // Names beginning with two underscores belong to GraphQL itself.
  return name.replace(/^__+/, '_');
}

function decimalScale(column: CatalogColumn, notes: string[]): { scale?: number } {
  if (column.scale === undefined) return {};
  if (column.scale <= 18) return { scale: column.scale };
  notes.push(`column "${column.name}" (${column.type}) keeps ${column.scale} digits after the point; XOS's scale goes to 18, so the field has none`);
  return {};
}

function bigintNote(column: CatalogColumn): string {
  return `the key "${column.name}" (${column.type}): keys beyond 2^53 (9007199254740992) are not exact in XOS`;
}

/** The database fills it in: a generated or identity column, a serial, or one with a default. */
function filledByDatabase(column: CatalogColumn): boolean {
  return column.default !== undefined || column.generated === true || column.identity !== undefined || column.autoincrement === true;
}

function isReadOnly(column: CatalogColumn, dialect: CatalogDialect): boolean {
  return column.generated === true || column.identity === 'always' || baseType(column, dialect) === 'json';
}

// ---------------------------------------------------------------- GraphQL names

/** The names the generated API declares per entity (DESIGN §4): no two entities' may meet. */
class GraphqlNames {
  private readonly types = new Set(['order_by', ...AGGREGATE_SHARED_TYPES]);
  private readonly rootFields = new Set<string>();

  /** `wanted`, or `wanted_2`, `wanted_3`… whose API names are all free; taken for it. */
  takeEntity(wanted: string): string {
    let name = wanted;
    for (let n = 2; !this.entityFree(name); n++) name = `${wanted}_${n}`;
    for (const type of entityTypes(name)) this.types.add(type);
    for (const field of entityRootFields(name)) this.rootFields.add(field);
    return name;
  }

  enumFree(entity: string, field: string): boolean {
    return !this.types.has(`${entity}_${field}`) && !this.types.has(`${entity}_${field}_comparison_exp`);
  }

  takeEnum(entity: string, field: string): void {
    this.types.add(`${entity}_${field}`);
    this.types.add(`${entity}_${field}_comparison_exp`);
  }

  private entityFree(name: string): boolean {
    return entityTypes(name).every((t) => !this.types.has(t)) && entityRootFields(name).every((f) => !this.rootFields.has(f));
  }
}

function entityTypes(entity: string): string[] {
  return ['', '_bool_exp', '_order_by', '_insert_input', '_set_input', ...AGGREGATE_TYPE_SUFFIXES].map((suffix) => `${entity}${suffix}`);
}

function entityRootFields(entity: string): string[] {
  const list = listContextName(entity);
  return [list, `${list}_count`, `${list}_cursors`, `${list}_aggregate`, detailContextName(entity), ...['insert', 'update', 'delete'].map((verb) => `${verb}_${entity}`)];
}

export function listContextName(entity: string): string {
  return `${entity}_list`;
}

export function detailContextName(entity: string): string {
  return `${entity}_detail`;
}

/**
 * Longest entity or field name made from a database's name (PostgreSQL's own names stop at 63;
 * SQLite's have no bound): the model reads every one, and `_2` and the like still fit after it.
 */
const NAME_MAX = 48;

/** `snakeAscii` of a database's name, at most NAME_MAX characters. */
function boundedName(identifier: string): string {
  return snakeAscii(identifier).slice(0, NAME_MAX).replace(/_+$/, '');
}

/** `Order` -> `order`, `2019_sales` -> `t_2019_sales`, `xos_log` -> `db_xos_log`. */
function entityBaseName(table: string): string {
  const name = boundedName(table) || 'table';
  if (/^[0-9]/.test(name)) return `t_${name}`;
  return /^xos/.test(name) ? `db_${name}` : name;
}

/** `CustomerName` -> `customer_name`, `2nd_phone` -> `c_2nd_phone`. */
function fieldBaseName(column: string): string {
  const name = boundedName(column) || 'column';
  return /^[0-9]/.test(name) ? `c_${name}` : name;
}

/** `SupportRepId` -> `support_rep`, `manager_id` -> `manager`, `parent` -> `parent`. */
function refBaseName(column: string): string {
  const name = fieldBaseName(column);
  return name.endsWith('_id') && name.length > 3 ? name.slice(0, -3) : name;
}

/** `SupportRepId` -> "Support rep": a ref's label leaves the key suffix off. */
function refLabelSource(column: string): string {
  const stripped = column.replace(/[_\s-]?(id|Id|ID)$/, '');
  return stripped === '' ? column : stripped;
}

/** The field names of one entity: `id` is the key's; a ref `x` and a scalar `x_id` never meet. */
class FieldNames {
  private readonly taken = new Set(['id']);
  private readonly refs = new Set<string>();

  take(wanted: string, isRef: boolean, free: (name: string) => boolean = () => true): string {
    const base = RESERVED_FIELDS.has(wanted) ? `${wanted}${RESERVED_SUFFIX}` : wanted;
    let name = base;
    for (let n = 2; !this.free(name, isRef) || !free(name); n++) name = `${base}_${n}`;
    this.taken.add(name);
    if (isRef) this.refs.add(name);
    return name;
  }

  private free(name: string, isRef: boolean): boolean {
    if (this.taken.has(name) || RESERVED_FIELDS.has(name)) return false;
    if (isRef) return !this.taken.has(`${name}_id`);
    return !(name.endsWith('_id') && this.refs.has(name.slice(0, -3)));
  }
}

// ---------------------------------------------------------------- labels

/** What init changed in a text it took from the database (docs/own-database.md): said in its report. */
export interface CleanedLabel {
  readonly table: string;
  readonly column?: string;
  readonly changes: readonly string[];
}

/** Where a label or description comes from, and where init notes what it cleaned. */
interface TextSource {
  readonly table: string;
  readonly column?: string;
  readonly cleaned: CleanedLabel[];
}

/**
 * A label from the comment when it is one short line, else from the name, with the comment as
 * description; both cleaned as data (foreignText.ts), and what was cut or removed noted.
 */
function labelled(identifier: string, comment: string | undefined, source: TextSource): { label: string; description?: string } {
  const changes: string[] = [];
  const take = (cleaned: CleanedText) => {
    changes.push(...cleaned.changes);
    return cleaned.text;
  };
  const fromName = () => take(cleanForeignText(readable(identifier), { max: FOREIGN_LABEL_MAX, kind: 'label' })) || boundedName(identifier) || 'unnamed';
  let text: { label: string; description?: string };
  const raw = comment?.trim() ?? '';
  const oneLine = cleanForeignText(raw, { max: Number.MAX_SAFE_INTEGER, kind: 'label' });
  if (raw === '') text = { label: fromName() };
  else if (!/[\r\n\u2028\u2029\u0085]/.test(raw) && oneLine.text !== '' && [...oneLine.text].length <= FOREIGN_LABEL_MAX) text = { label: take(oneLine) };
  else {
    const description = take(cleanForeignText(raw, { max: FOREIGN_DESCRIPTION_MAX, lines: true, kind: 'description' }));
    text = { label: fromName(), ...(description !== '' ? { description } : {}) };
  }
  if (changes.length) source.cleaned.push({ table: source.table, ...(source.column !== undefined ? { column: source.column } : {}), changes: [...new Set(changes)] });
  return text;
}

/** A label made from a name alone (a list's plural, the app's): cleaned the same way; its changes are the entity's. */
function nameLabel(label: string, fallback: string): string {
  return cleanForeignText(label, { max: FOREIGN_LABEL_MAX, kind: 'label' }).text || fallback;
}

// ---------------------------------------------------------------- entities

interface PlannedRef {
  readonly field: string;
  readonly target: string;
}

interface EntityPlan {
  readonly table: CatalogTable;
  readonly name: string;
  readonly fields: Record<string, FieldDef>;
  readonly notes: string[];
  readonly refs: PlannedRef[];
  /** Why the detail context cannot create records; empty: it can. */
  readonly noCreate: string[];
  /** Why its records can only be read (a view, a composite key, none); absent: they can be written. */
  readonly readOnly?: string;
}

interface Served {
  readonly table: CatalogTable;
  readonly entity: string;
}

function planEntity(
  table: CatalogTable, name: string, catalog: Catalog, served: readonly Served[], graphql: GraphqlNames, leftOut: LeftOut[],
  cleaned: CleanedLabel[],
): EntityPlan {
  const dialect = catalog.dialect;
  const names = new FieldNames();
  const keyed = keyPlan(table, dialect) as KeyPlan;
  const key = keyed.kind === 'column' ? keyed.column : undefined;
  const fields: Record<string, FieldDef> = { id: idField(keyed, dialect, { table: table.name, ...(key ? { column: key.name } : {}), cleaned }) };
  const entityReadOnly = keyed.readOnly;
  const plan: EntityPlan = { table, name, fields, notes: [], refs: [], noCreate: [], ...(entityReadOnly !== undefined ? { readOnly: entityReadOnly } : {}) };
  if (key && isBigint(key, dialect)) plan.notes.push(bigintNote(key));
  if (key && entityReadOnly === undefined) {
    // An integer key numbered by the database (identity, serial, rowid); a uuid or text key it fills by a default.
    const kind = keyOf(key, dialect);
    const numbered = kind === 'int' ? key.autoincrement === true : filledByDatabase(key);
    if (!numbered) {
      plan.noCreate.push(kind === 'int'
        ? `the database does not number new records (the key "${key.name}" has no default)`
        : `the database gives new records no key (the ${kind} key "${key.name}" has no default), and XOS does not make one up`);
    }
  }
  const refs = refColumns(table, catalog, served, plan.notes);
  for (const column of table.columns) {
    if (column === key) continue;
    const tooWide = dialect === 'sqlite' && Object.keys(fields).length >= SQLITE_MAX_FIELDS;
    const target = tooWide ? undefined : refs.get(column.name);
    if (target !== undefined) {
      addRef(plan, names, column, target, keyOfEntity(served, target, dialect), cleaned);
      continue;
    }
    const mapped = tooWide ? undefined : mapColumn(column, dialect);
    const blocks = column.notNull && !filledByDatabase(column) && entityReadOnly === undefined;
    if (!mapped) {
      const reason = tooWide
        ? `left out column "${column.name}": SQLite returns at most 2,000 columns of a row, and XOS reads the row's version besides its ${SQLITE_MAX_FIELDS} fields`
        : `left out column "${column.name}" (type ${column.type || 'none'}): XOS has no field type for it`;
      plan.notes.push(reason);
      leftOut.push({ table: table.name, column: column.name, reason });
      if (blocks) plan.noCreate.push(`the column "${column.name}" needs a value and is left out`);
      continue;
    }
    plan.notes.push(...mapped.notes);
    const readOnly = isReadOnly(column, dialect);
    if (readOnly && blocks) plan.noCreate.push(`the column "${column.name}" needs a value and is read-only here`);
    const isEnum = mapped.def.type === 'enum';
    const field = names.take(fieldBaseName(column.name), false, (f) => !isEnum || graphql.enumFree(name, f));
    if (isEnum) graphql.takeEnum(name, field);
    fields[field] = withColumn({
      type: mapped.def.type,
      ...labelled(column.name, column.comment, { table: table.name, column: column.name, cleaned }),
      ...(blocks && !readOnly ? { required: true } : {}),
      ...withoutType(mapped.def),
      ...(readOnly ? { read_only: true } : {}),
    }, column.name, field);
  }
  return plan;
}

/** The key kind of a served entity (its table's one key column). */
function keyOfEntity(served: readonly Served[], entity: string, dialect: CatalogDialect): 'int' | 'text' | 'uuid' | undefined {
  const table = served.find((s) => s.entity === entity)?.table;
  const keyed = table ? keyPlan(table, dialect) : undefined;
  return keyed !== undefined && typeof keyed !== 'string' && keyed.kind === 'column' ? keyOf(keyed.column, dialect) : undefined;
}

/** The id field of a table keyed as `keyed` says. */
function idField(keyed: KeyPlan, dialect: CatalogDialect, source: TextSource): FieldDef {
  switch (keyed.kind) {
    case 'column':
      return withColumn({ type: 'id', ...labelled(keyed.column.name, keyed.column.comment, source), ...keyField(keyOf(keyed.column, dialect)) }, keyed.column.name, 'id');
    case 'composite':
      return { type: 'id', label: 'Key', key: 'text', columns: [...keyed.columns] };
    case 'row':
      return { type: 'id', label: 'Row', column: keyed.column, ...keyField(keyed.key) };
  }
}

function addRef(
  plan: EntityPlan, names: FieldNames, column: CatalogColumn, target: string, kind: 'int' | 'text' | 'uuid' | undefined, cleaned: CleanedLabel[],
): void {
  const field = names.take(refBaseName(column.name), true);
  const def: FieldDef = {
    type: 'ref',
    ...labelled(refLabelSource(column.name), column.comment, { table: plan.table.name, column: column.name, cleaned }),
    ...(column.notNull && !filledByDatabase(column) ? { required: true } : {}),
    entity: target,
    ...keyField(kind),
  };
  // A ref's column is `<field>_id` unless named otherwise.
  if (column.name !== `${field}_id`) def.column = column.name;
  plan.fields[field] = def;
  plan.refs.push({ field, target });
}

/** `column` only where the real name differs from the field's. */
function withColumn(def: FieldDef, column: string, field: string): FieldDef {
  return column === field ? def : { ...def, column };
}

function withoutType(def: FieldDef): Omit<FieldDef, 'type'> {
  const { type: _type, ...rest } = def;
  return rest;
}

/** Column -> target entity, for each single-column foreign key to a served table's key; the rest noted. */
function refColumns(table: CatalogTable, catalog: Catalog, served: readonly Served[], notes: string[]): Map<string, string> {
  const refs = new Map<string, string>();
  for (const key of table.foreignKeys) {
    const target = servedTarget(key, table, catalog, served);
    const column = key.columns[0];
    if (typeof target !== 'string') notes.push(target.note);
    else if (refs.has(column)) notes.push(`column "${column}" has a second foreign key (to "${key.targetTable}"): only the first is a ref`);
    else refs.set(column, target);
  }
  return refs;
}

function servedTarget(key: CatalogForeignKey, table: CatalogTable, catalog: Catalog, served: readonly Served[]): string | { note: string } {
  const to = `"${key.targetTable}" (${key.targetColumns.join(', ')})`;
  if (key.columns.length > 1) return { note: `left out the foreign key (${key.columns.join(', ')}) -> ${to}: a ref has one column` };
  const column = key.columns[0];
  if (key.targetSchema !== undefined && key.targetSchema !== catalog.schema) {
    return { note: `column "${column}" points at "${key.targetSchema}"."${key.targetTable}" in another schema: it is a plain value` };
  }
  if (table.primaryKey.includes(column)) return { note: `the key "${column}" also points at ${to}: it is the id, without a ref` };
  const target = served.find((s) => s.table.name === key.targetTable);
  if (!target) return { note: `column "${column}" points at "${key.targetTable}", which XOS does not serve (see the app's notes): it is a plain value` };
  if (key.targetColumns.length !== 1 || key.targetColumns[0] !== target.table.primaryKey[0]) {
    return { note: `column "${column}" points at ${to}, not at its key: it is a plain value` };
  }
  return target.entity;
}

/** Each ref's list on its target: the source in plural (`invoices`), `invoices_by_<field>` when that is taken or ambiguous. */
function addInverses(plans: readonly EntityPlan[]): void {
  const byEntity = new Map(plans.map((p) => [p.name, p]));
  const declared = new Map<string, Set<string>>();
  for (const plan of plans) {
    for (const ref of plan.refs) {
      const target = byEntity.get(ref.target)!;
      const taken = declared.get(ref.target) ?? new Set<string>();
      declared.set(ref.target, taken);
      const free = (name: string) => !taken.has(name) && !Object.hasOwn(target.fields, name) && name !== 'version';
      const base = plural(plan.name);
      const several = plan.refs.filter((r) => r.target === ref.target).length > 1;
      let inverse = several || !free(base) ? `${base}_by_${ref.field}` : base;
      for (let n = 2; !free(inverse); n++) inverse = `${base}_by_${ref.field}_${n}`;
      taken.add(inverse);
      plan.fields[ref.field] = insertAfter(plan.fields[ref.field], 'entity', { inverse });
    }
  }
}

/** `def` with `extra` right after its key `after`: the written JSON keeps a readable order. */
function insertAfter(def: FieldDef, after: keyof FieldDef, extra: Partial<FieldDef>): FieldDef {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(def)) {
    out[key] = value;
    if (key === after) Object.assign(out, extra);
  }
  return out as FieldDef;
}

// ---------------------------------------------------------------- contexts

// Columns that name a record, most telling first (a column named like its table, `city.city`, too).
const NAME_LIKE = [
  /^name$/, /^title$/, /^(first|given|fore)_?name$/, /^(last|family|sur)_?name$/, /name$/, /title$/,
  /^(company|organi[sz]ation)$/, /(^|_)e_?mail$/, /^(label|subject|code)$/,
];
// Texts that are long by their name: never a list column.
const LONG_TEXT = /(^|_)(description|notes?|comments?|remarks?|body|content|bio|summary|details?|text|html|markdown|message)$/;

// Columns that say where a record is: a city, then a country, then a state or region.
const PLACE_LIKE = [/(^|_)(city|town)(_id)?$/, /(^|_)country(_id)?$/, /(^|_)(state|region|province)$/];

function placeRank(field: string, def: FieldDef): number {
  if (!['string', 'text', 'enum', 'ref'].includes(def.type)) return -1;
  return PLACE_LIKE.findIndex((pattern) => pattern.test(field));
}

/** A person's name from two columns, `{first_name} {last_name}`; else none (the first string field names a record). */
function displayOf(fields: Record<string, FieldDef>): { display?: string } {
  const named = (pattern: RegExp) => Object.entries(fields).find(([name, def]) => pattern.test(name) && ['string', 'text'].includes(def.type))?.[0];
  const first = named(/^(first|given|fore)_?name$/);
  const last = named(/^(last|family|sur)_?name$/);
  return first && last ? { display: `{${first}} {${last}}` } : {};
}

function nameRank(field: string, def: FieldDef, entity: string): number {
  if (!['string', 'text', 'enum'].includes(def.type) || def.read_only) return -1;
  if (field === entity) return 0;
  return NAME_LIKE.findIndex((pattern) => pattern.test(field));
}

/**
 * Kinds taken in turn after the names and places, so a list shows a bit of each (refs, dates and times, and
 * amounts before other short strings); texts last, as PostgreSQL
 * and SQLite schemas often keep short strings in `text` too.
 */
const TIERS: ReadonlyArray<(def: FieldDef, field: string) => boolean> = [
  (d) => d.type === 'ref',
  (d) => d.type === 'date' || d.type === 'datetime' || d.type === 'time',
  (d) => d.type === 'int' || d.type === 'decimal',
  (d) => ['string', 'email', 'phone', 'url', 'enum'].includes(d.type),
  (d) => d.type === 'bool',
  (d, field) => d.type === 'text' && d.read_only !== true && !LONG_TEXT.test(field),
];

/**
 * `id` and up to five telling fields of `entity`, in the table's order, the columns a person scans:
 * up to three names, up to two places (city, country), then one of each kind in turn (refs, dates,
 * amounts, short strings, yes/no, texts); no long texts and no JSON.
 */
export function listFieldsOf(entity: string, fields: Record<string, FieldDef>): string[] {
  const candidates = Object.entries(fields).filter(([name]) => name !== 'id');
  const ranked = (rank: (name: string, def: FieldDef) => number, most: number, taken: ReadonlySet<string>) => candidates
    .filter(([name]) => !taken.has(name))
    .map(([name, def]) => ({ name, rank: rank(name, def) }))
    .filter((c) => c.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, most)
    .map((c) => c.name);
  const chosen = new Set(ranked((name, def) => nameRank(name, def, entity), LIST_NAMES, new Set()));
  for (const name of ranked(placeRank, LIST_PLACES, chosen)) chosen.add(name);
  const queues = TIERS.map((fits) => candidates.filter(([name, def]) => !chosen.has(name) && fits(def, name)).map(([name]) => name));
  while (chosen.size < LIST_COLUMNS && queues.some((q) => q.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next !== undefined && chosen.size < LIST_COLUMNS) chosen.add(next);
    }
  }
  return ['id', ...Object.keys(fields).filter((name) => chosen.has(name))];
}

function contextsOf(plan: EntityPlan, label: string): Record<string, ContextDef> {
  const { name, fields } = plan;
  const detail = detailContextName(name);
  const others = Object.keys(fields).filter((f) => f !== 'id');
  const navigate: Record<string, NavigateDef> = {};
  for (const ref of plan.refs) navigate[ref.field] = { context: detailContextName(ref.target), params: { id: `${ref.field}.id` } };
  const editable = plan.readOnly !== undefined ? [] : others.filter((f) => fields[f].read_only !== true);
  return {
    [listContextName(name)]: {
      kind: 'list', entity: name, label: nameLabel(readablePlural(plan.table.name), name),
      list_fields: listFieldsOf(name, fields),
      navigate: { row: { context: detail, params: { id: 'id' } } },
    },
    [detail]: {
      kind: 'detail', entity: name, label,
      list_fields: ['id', ...others],
      ...(editable.length ? { editable } : {}),
      ...(plan.noCreate.length === 0 && plan.readOnly === undefined ? { create: true } : {}),
      ...(plan.readOnly === undefined ? { delete: true } : {}),
      ...(plan.refs.length ? { navigate } : {}),
    },
  };
}

// ---------------------------------------------------------------- the AST

/** The AST for `catalog`; throws (a bug) when it would not validate. */
export function catalogToAst(catalog: Catalog): Introspection {
  const tables = [...catalog.tables].sort((a, b) => compareText(a.name.toLowerCase(), b.name.toLowerCase()) || compareText(a.name, b.name));
  const leftOutTables: LeftOut[] = [];
  const leftOutColumns: LeftOut[] = [];
  const graphql = new GraphqlNames();
  const served: Served[] = [];
  for (const table of tables) {
    const reason = whyNotServed(table, catalog.dialect);
    if (reason) leftOutTables.push({ table: table.name, reason });
    else served.push({ table, entity: graphql.takeEntity(entityBaseName(table.name)) });
  }
  const cleaned: CleanedLabel[] = [];
  const plans = served.map((s) => planEntity(s.table, s.entity, catalog, served, graphql, leftOutColumns, cleaned));
  addInverses(plans);

  const entities: Record<string, EntityDef> = {};
  const contexts: Record<string, ContextDef> = {};
  for (const plan of plans) {
    const { table, name } = plan;
    const text = labelled(table.name, table.comment, { table: table.name, cleaned });
    const notes = [...plan.notes];
    if (plan.noCreate.length) notes.push(`new records cannot be created here: ${plan.noCreate.join('; ')}`);
    entities[name] = {
      ...text,
      table: table.name,
      ...(table.schema !== undefined && table.schema !== 'public' ? { schema: table.schema } : {}),
      ...(plan.readOnly !== undefined ? { read_only: plan.readOnly } : {}),
      ...(notes.length ? { notes } : {}),
      ...displayOf(plan.fields),
      fields: plan.fields,
    };
    Object.assign(contexts, contextsOf(plan, text.label));
  }
  const ast: Ast = {
    xos: '1',
    app: boundedName(catalog.database) || 'app',
    label: nameLabel(readable(catalog.database), 'app'),
    locales: ['en'],
    audit: false,
    notes: [...leftOutTables.map((t) => `table "${t.table}": ${t.reason}`), auditNote(catalog.dialect)],
    entities,
    contexts,
  };
  const { problems } = checkAst(ast);
  if (problems.length) {
    throw new Error(`the AST made from the database does not validate (a bug in xos-server init):\n${problems.map((p) => `  ${formatPath(p.segments)}: ${p.message}`).join('\n')}`);
  }
  return { ast, leftOutTables, leftOutColumns, cleaned };
}

function auditNote(dialect: CatalogDialect): string {
  const where = dialect === 'postgres' ? 'its own schema xos (the table xos.audit)' : 'its own table xos_audit';
  return `"audit" is false: XOS keeps no History or Undo over these tables. With "audit": true it keeps them in ${where} and changes nothing else in the database.`;
}

/** Code-point order: the same on every machine, unlike a locale's. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
