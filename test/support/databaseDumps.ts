// A database as a program other than XOS sees it: its DDL, and every row of every table, so a
// test can show that a session changed nothing of the schema and exactly the cells confirmed.
import { execFile } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresTool } from './postgres.ts';

const run = promisify(execFile);

/** The database's DDL as pg_dump writes it (comments, types, constraints and all), without its random \restrict key. */
export async function postgresDdl(dsn: string, schema = 'public'): Promise<string> {
  const { stdout } = await run(postgresTool('pg_dump'), ['--schema-only', '--no-owner', `--schema=${schema}`, dsn], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.replace(/^\\(un)?restrict .*$/gm, '');
}

/** A SQLite file's DDL: every table, index, view and trigger as stored, and its journal mode. */
export function sqliteDdl(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const schema = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name').all();
    return JSON.stringify({ schema, journal: db.prepare('PRAGMA journal_mode').get() });
  } finally {
    db.close();
  }
}

/** Every row of every table, each as JSON keyed by its table; the first column is the row's key. */
export type TableRows = Map<string, Map<string, Record<string, unknown>>>;

export function sqliteRows(file: string): TableRows {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").all();
    const out: TableRows = new Map();
    for (const { name } of tables) {
      const rows = db.prepare(`SELECT * FROM "${String(name).replaceAll('"', '""')}"`).all() as Record<string, unknown>[];
      out.set(String(name), keyed(rows));
    }
    return out;
  } finally {
    db.close();
  }
}

export async function postgresRows(dsn: string, schema = 'public'): Promise<TableRows> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    // Tables that hold rows (a partitioned table's rows are its partitions').
    const tables = await client.query<{ name: string }>(
      "SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1",
      [schema]);
    const out: TableRows = new Map();
    for (const { name } of tables.rows) {
      const rows = await client.query(`SELECT row_to_json(t) AS row FROM ${name} AS t`);
      out.set(name, keyed(rows.rows.map((r) => r.row as Record<string, unknown>)));
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Rows by their first column's value, or by all their values where that is not unique. */
function keyed(rows: readonly Record<string, unknown>[]): Map<string, Record<string, unknown>> {
  const byFirst = new Map(rows.map((row) => [JSON.stringify(Object.values(row)[0]), row]));
  return byFirst.size === rows.length ? byFirst : new Map(rows.map((row) => [JSON.stringify(row), row]));
}

/** `table[key].column` of every cell that differs, rows added or removed as `table[key]`, sorted. */
export function changedCells(before: TableRows, after: TableRows): string[] {
  const out: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(table) ?? new Map();
    const is = after.get(table) ?? new Map();
    for (const key of new Set([...was.keys(), ...is.keys()])) {
      const a = was.get(key);
      const b = is.get(key);
      if (!a || !b) {
        out.push(`${table}[${key}] ${a ? 'removed' : 'added'}`);
        continue;
      }
      for (const column of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (JSON.stringify(a[column]) !== JSON.stringify(b[column])) out.push(`${table}[${key}].${column}`);
      }
    }
  }
  return out.sort();
}
