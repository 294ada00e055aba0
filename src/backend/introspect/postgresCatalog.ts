// The catalog of one PostgreSQL schema, read from pg_catalog in a read-only session: reading it
// can change nothing. Every name (the schema, the relations' oids) is a bound parameter.
import pg from 'pg';
import { parseCheckIn } from './catalog.ts';
import type { Catalog, CatalogColumn, CatalogForeignKey, CatalogTable, RelationKind } from './catalog.ts';

type Row = Record<string, unknown>;
type Query = (text: string, params: unknown[]) => Promise<Row[]>;

const READ_TIMEOUT_MS = 60_000;

const RELATION_KINDS: Record<string, RelationKind> = { r: 'table', p: 'partitioned table', v: 'view', m: 'materialized view' };

/** Reads `schema` (default `public`) of the database the DSN names; the password comes from the DSN or PGPASSWORD. */
export async function readPostgresCatalog(dsn: string, schema = 'public'): Promise<Catalog> {
  const client = new pg.Client({
    connectionString: dsn,
    application_name: 'xos-server init',
    options: '-c default_transaction_read_only=on',
    statement_timeout: READ_TIMEOUT_MS,
  });
  await client.connect();
  try {
    const query: Query = async (text, params) => (await client.query(text, params)).rows as Row[];
    return await readSchema(query, schema);
  } finally {
    await client.end();
  }
}

async function readSchema(query: Query, schema: string): Promise<Catalog> {
  const [head] = await query('SELECT current_database() AS database, (SELECT oid FROM pg_namespace WHERE nspname = $1) AS namespace', [schema]);
  if (head.namespace === null) {
    const schemas = await query("SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_' AND nspname <> 'information_schema' ORDER BY nspname", []);
    throw new Error(`the database has no schema "${schema}"; it has: ${schemas.map((s) => String(s.nspname)).join(', ')}`);
  }
  // Partitions are served through their parent: only the parent is read.
  const relations = await query(`
    SELECT c.oid, c.relname, c.relkind, obj_description(c.oid, 'pg_class') AS comment
    FROM pg_class c
    WHERE c.relnamespace = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition
    ORDER BY c.relname`, [head.namespace]);
  const oids = relations.map((r) => Number(r.oid));
  const columns = await query(`
    SELECT a.attrelid AS rel, a.attname AS name, a.atttypid AS type_oid, a.atttypmod AS typmod, a.attnotnull AS not_null,
      a.attidentity AS identity, a.attgenerated AS generated, format_type(a.atttypid, a.atttypmod) AS type,
      pg_get_expr(d.adbin, d.adrelid) AS default_value, col_description(a.attrelid, a.attnum) AS comment
    FROM pg_attribute a
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attrelid, a.attnum`, [oids]);
  const constraints = await query(`
    SELECT k.conrelid AS rel, k.contype AS type, pg_get_constraintdef(k.oid) AS definition,
      ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(num, ord)
            JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.num ORDER BY u.ord)::text[] AS columns,
      tn.nspname AS target_schema, tc.relname AS target_table,
      ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(num, ord)
            JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.num ORDER BY u.ord)::text[] AS target_columns
    FROM pg_constraint k
    LEFT JOIN pg_class tc ON tc.oid = k.confrelid
    LEFT JOIN pg_namespace tn ON tn.oid = tc.relnamespace
    WHERE k.conrelid = ANY($1::oid[]) AND k.contype IN ('p', 'f', 'c', 'u') AND k.conparentid = 0
    ORDER BY k.conrelid, k.contype, k.conname`, [oids]);
  const types = await readTypes(query, columns.map((c) => Number(c.type_oid)));
  const tables = relations.map((r) => table(
    r, schema,
    columns.filter((c) => Number(c.rel) === Number(r.oid)),
    constraints.filter((k) => Number(k.rel) === Number(r.oid)),
    types,
  ));
  return { dialect: 'postgres', database: String(head.database), schema, tables };
}

interface PgType {
  readonly name: string;
  /** b base, d domain, e enum, c composite, r range, m multirange, p pseudo */
  readonly kind: string;
  readonly base: number;
  readonly typmod: number;
  readonly category: string;
  readonly notNull: boolean;
  readonly labels: string[];
  readonly checks: string[];
}

/** The types the columns use, and the base types of their domains (domains over domains too). */
async function readTypes(query: Query, wanted: number[]): Promise<Map<number, PgType>> {
  const types = new Map<number, PgType>();
  let missing = [...new Set(wanted)];
  while (missing.length > 0) {
    const rows = await query(`
      SELECT t.oid, t.typname, t.typtype, t.typbasetype, t.typtypmod, t.typcategory, t.typnotnull,
        ARRAY(SELECT e.enumlabel FROM pg_enum e WHERE e.enumtypid = t.oid ORDER BY e.enumsortorder)::text[] AS labels,
        ARRAY(SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k WHERE k.contypid = t.oid AND k.contype = 'c' ORDER BY k.conname)::text[] AS checks
      FROM pg_type t WHERE t.oid = ANY($1::oid[])`, [missing]);
    for (const row of rows) {
      types.set(Number(row.oid), {
        name: String(row.typname), kind: String(row.typtype), base: Number(row.typbasetype), typmod: Number(row.typtypmod),
        category: String(row.typcategory), notNull: row.typnotnull === true,
        labels: row.labels as string[], checks: row.checks as string[],
      });
    }
    missing = [...new Set(rows.filter((r) => r.typtype === 'd').map((r) => Number(r.typbasetype)))].filter((oid) => !types.has(oid));
  }
  return types;
}

function table(relation: Row, schema: string, columns: Row[], constraints: Row[], types: Map<number, PgType>): CatalogTable {
  const kind = RELATION_KINDS[String(relation.relkind)];
  const checks = new Map<string, string[]>();
  for (const k of constraints.filter((k) => k.type === 'c' && (k.columns as string[]).length === 1)) {
    const parsed = parseCheckIn(String(k.definition));
    const only = (k.columns as string[])[0];
    if (parsed && parsed.column === only) checks.set(only, parsed.values);
  }
  const foreignKeys: CatalogForeignKey[] = constraints.filter((k) => k.type === 'f').map((k) => ({
    columns: k.columns as string[],
    ...(k.target_schema === schema ? {} : { targetSchema: String(k.target_schema) }),
    targetTable: String(k.target_table),
    targetColumns: k.target_columns as string[],
  }));
  const comment = relation.comment === null ? undefined : String(relation.comment);
  return {
    name: String(relation.relname),
    schema,
    kind,
    columns: columns.map((c) => column(c, types, checks.get(String(c.name)))),
    primaryKey: (constraints.find((k) => k.type === 'p')?.columns as string[] | undefined) ?? [],
    foreignKeys,
    uniques: constraints.filter((k) => k.type === 'u').map((k) => k.columns as string[]),
    ...(comment ? { comment } : {}),
  };
}

function column(c: Row, types: Map<number, PgType>, tableCheck: string[] | undefined): CatalogColumn {
  const resolved = resolveType(Number(c.type_oid), Number(c.typmod), types);
  const identity = c.identity === 'a' ? 'always' : c.identity === 'd' ? 'by default' : undefined;
  const generated = c.generated === 's';
  // A generated column's expression is stored like a default; it is no default.
  const defaultValue = c.default_value === null || generated ? undefined : String(c.default_value);
  const checkValues = tableCheck ?? resolved.checkValues;
  const comment = c.comment === null ? undefined : String(c.comment);
  return {
    name: String(c.name),
    type: String(c.type),
    typeName: resolved.name,
    notNull: c.not_null === true || resolved.notNull,
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    ...(identity ? { identity } : {}),
    ...(generated ? { generated } : {}),
    ...(identity || /^nextval\(/i.test(defaultValue ?? '') ? { autoincrement: true } : {}),
    ...lengthAndPrecision(resolved.name, resolved.typmod),
    ...(resolved.enumValues ? { enumValues: resolved.enumValues } : {}),
    ...(checkValues ? { checkValues } : {}),
    ...(resolved.array ? { array: true } : {}),
    ...(comment ? { comment } : {}),
  };
}

interface ResolvedType {
  name: string;
  typmod: number;
  notNull: boolean;
  enumValues?: string[];
  checkValues?: string[];
  array: boolean;
}

/** A domain stands for its base type; its NOT NULL, length and first CHECK IN list carry over. */
function resolveType(oid: number, typmod: number, types: Map<number, PgType>): ResolvedType {
  let type = types.get(oid);
  let mod = typmod;
  let notNull = false;
  let checkValues: string[] | undefined;
  for (let depth = 0; type?.kind === 'd' && depth < 32; depth++) {
    notNull ||= type.notNull;
    if (mod < 0) mod = type.typmod;
    for (const check of type.checks) {
      const parsed = parseCheckIn(check);
      if (!checkValues && parsed?.column === 'VALUE') checkValues = parsed.values;
    }
    type = types.get(type.base);
  }
  if (!type) return { name: 'unknown', typmod: mod, notNull, array: false };
  return {
    name: type.name, typmod: mod, notNull, array: type.category === 'A',
    ...(type.kind === 'e' ? { enumValues: type.labels } : {}),
    ...(checkValues ? { checkValues } : {}),
  };
}

/** varchar(n)/char(n) keep n + 4 in the type modifier; numeric(p, s) keeps ((p << 16) | s) + 4. */
function lengthAndPrecision(name: string, typmod: number): { maxLength?: number; precision?: number; scale?: number } {
  if (typmod < 4) return {};
  if (name === 'varchar' || name === 'bpchar') return { maxLength: typmod - 4 };
  if (name === 'numeric') {
    const precision = ((typmod - 4) >> 16) & 0xffff;
    const scale = (typmod - 4) & 0xffff;
    // PostgreSQL 15 allows a negative scale (rounding left of the point): there is no scale to keep.
    return scale <= precision ? { precision, scale } : { precision };
  }
  return {};
}
