// The catalog of a SQLite file, read through its PRAGMA functions with the file opened read-only:
// reading it can change nothing. Table names are bound parameters of the table-valued pragmas
// (pragma_table_xinfo(?)), never spliced into SQL.
import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { checkClauses, parseCheckIn } from './catalog.ts';
import type { Catalog, CatalogColumn, CatalogForeignKey, CatalogTable, RelationKind } from './catalog.ts';

type Row = Record<string, unknown>;

export function readSqliteCatalog(path: string): Catalog {
  if (!existsSync(path)) throw new Error(`no SQLite file at ${path}`);
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const all = (sql: string, ...params: string[]): Row[] => db.prepare(sql).all(...params) as Row[];
    const relations = all("SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name");
    const tables = relations
      .filter((r) => r.type === 'table' || r.type === 'view' || r.type === 'virtual')
      .map((r) => readTable(all, String(r.name), kindOf(String(r.type)), Number(r.wr) === 1));
    return { dialect: 'sqlite', database: basename(path, extname(path)), tables: resolveForeignKeyTargets(tables) };
  } finally {
    db.close();
  }
}

function kindOf(type: string): RelationKind {
  if (type === 'view') return 'view';
  return type === 'virtual' ? 'virtual table' : 'table';
}

type All = (sql: string, ...params: string[]) => Row[];

function readTable(all: All, name: string, kind: RelationKind, withoutRowid: boolean): CatalogTable {
  const info = all('SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid', name)
    .filter((c) => Number(c.hidden) !== 1);
  const primaryKey = info.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((c) => String(c.name));
  const sql = String(all("SELECT sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?", name)[0]?.sql ?? '');
  const checks = new Map<string, string[]>();
  for (const clause of checkClauses(sql)) {
    const parsed = parseCheckIn(clause);
    if (parsed) checks.set(parsed.column.toLowerCase(), parsed.values);
  }
  // INTEGER PRIMARY KEY (spelt exactly so) is the rowid: SQLite numbers new rows itself.
  const rowidAlias = kind === 'table' && !withoutRowid && primaryKey.length === 1
    && String(info.find((c) => c.name === primaryKey[0])?.type).toUpperCase() === 'INTEGER';
  const columns = info.map((c) => column(c, checks, rowidAlias && c.name === primaryKey[0]));
  return {
    name, kind, columns, primaryKey,
    ...(kind === 'table' && !withoutRowid ? { rowid: true } : {}),
    foreignKeys: kind === 'table' ? foreignKeys(all, name) : [],
    uniques: kind === 'table' ? uniques(all, name) : [],
  };
}

function column(c: Row, checks: Map<string, string[]>, rowid: boolean): CatalogColumn {
  const declared = String(c.type ?? '').trim();
  const modifiers = /^(.*?)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/.exec(declared);
  const typeName = (modifiers ? modifiers[1] : declared).trim().toLowerCase().replace(/\s+/g, ' ');
  const first = modifiers ? Number(modifiers[2]) : undefined;
  const second = modifiers?.[3] === undefined ? undefined : Number(modifiers[3]);
  const numeric = /^(decimal|numeric)$/.test(typeName);
  const hidden = Number(c.hidden);
  const check = checks.get(String(c.name).toLowerCase());
  return {
    name: String(c.name),
    type: declared,
    typeName,
    notNull: Number(c.notnull) === 1,
    ...(c.dflt_value === null ? {} : { default: String(c.dflt_value) }),
    ...(hidden === 2 || hidden === 3 ? { generated: true } : {}),
    ...(rowid ? { autoincrement: true } : {}),
    ...(first !== undefined && !numeric ? { maxLength: first } : {}),
    ...(first !== undefined && numeric ? { precision: first, scale: second ?? 0 } : {}),
    ...(check ? { checkValues: check } : {}),
  };
}

function foreignKeys(all: All, table: string): CatalogForeignKey[] {
  const rows = all('SELECT id, seq, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq', table);
  const byId = new Map<number, { target: string; columns: string[]; targets: (string | null)[] }>();
  for (const row of rows) {
    const id = Number(row.id);
    let key = byId.get(id);
    if (!key) byId.set(id, (key = { target: String(row.table), columns: [], targets: [] }));
    key.columns.push(String(row.from));
    key.targets.push(row.to === null ? null : String(row.to));
  }
  // A key without target columns points at the target's primary key; resolved once all tables are read.
  return [...byId.values()].map((k) => ({
    columns: k.columns, targetTable: k.target,
    targetColumns: k.targets.every((t) => t === null) ? [] : k.targets.map((t) => t ?? ''),
  }));
}

function uniques(all: All, table: string): string[][] {
  return all("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND partial = 0 AND origin <> 'pk' ORDER BY name", table)
    .map((index) => all('SELECT name FROM pragma_index_info(?) ORDER BY seqno', String(index.name)).map((c) => (c.name === null ? '' : String(c.name))))
    .filter((columns) => !columns.includes(''));
}

/**
 * `REFERENCES artist` (no columns) means the artist's primary key. SQLite matches table and
 * column names without regard to case: each is given as the table spells it.
 */
function resolveForeignKeyTargets(tables: CatalogTable[]): CatalogTable[] {
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  const spelt = (table: CatalogTable | undefined, name: string) =>
    table?.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())?.name ?? name;
  return tables.map((table) => ({
    ...table,
    foreignKeys: table.foreignKeys.map((key) => {
      const target = byName.get(key.targetTable.toLowerCase());
      const targetColumns = key.targetColumns.length === 0 ? [...(target?.primaryKey ?? [])] : key.targetColumns.map((c) => spelt(target, c));
      return { columns: key.columns.map((c) => spelt(table, c)), targetTable: target?.name ?? key.targetTable, targetColumns };
    }),
  }));
}
