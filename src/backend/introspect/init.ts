// `xos-server init --from <dsn>`: reads the catalog of the person's database and writes an AST
// for it, or, when that file exists, says how it differs from the database and writes nothing.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { dsnHasPassword, dsnWithoutPassword, isPostgresDsn, redactDsn } from '../dsn.ts';
import { shellWord } from '../launchCommand.ts';
import { appName } from '../../ast/appName.ts';
import type { Catalog } from './catalog.ts';
import { compareAst } from './compare.ts';
import { readPostgresCatalog } from './postgresCatalog.ts';
import { readSqliteCatalog } from './sqliteCatalog.ts';
import { formatJson } from './json.ts';
import { catalogToAst, type CleanedLabel, type LeftOut } from './toAst.ts';
import { displayText, shorten } from '../../text/personText.ts';

export interface InitOptions {
  /** sqlite:<path> or postgres://… */
  readonly from: string;
  /** PostgreSQL schema (default `public`). */
  readonly schema?: string;
  /** Where the AST is written (default `./xos.json`). */
  readonly out: string;
  /** How the person starts xos-server (launchCommand), for the command printed to run next; default `xos-server`. */
  readonly command?: string;
}

/** Lines listed in full before "and N more". */
const SHOWN = 8;
/** Longest name of the database a line of the report shows. */
const NAME_SHOWN = 80;

/** The catalog of the database `dsn` names; the database is only read. */
export async function readCatalog(dsn: string, schema?: string): Promise<Catalog> {
  if (dsn.startsWith('sqlite:')) {
    const location = dsn.slice('sqlite:'.length);
    if (location.trim() === '' || location === ':memory:') throw new Error('init reads a SQLite file that exists: give it as sqlite:<path>');
    if (schema !== undefined) throw new Error('--schema is for PostgreSQL; a SQLite file has one schema');
    return readSqliteCatalog(resolve(location));
  }
  if (isPostgresDsn(dsn)) return readPostgresCatalog(dsn, schema ?? 'public');
  throw new Error(`init reads sqlite:<path> or postgres://user@host:port/database, not ${redactDsn(dsn)}`);
}

/** Runs init; `print` gets the lines of the report. */
export async function runInit(options: InitOptions, print: (...lines: string[]) => void): Promise<void> {
  const catalog = await readCatalog(options.from, options.schema);
  const { ast, leftOutTables, leftOutColumns, cleaned } = catalogToAst(catalog);
  const out = resolve(options.out);
  const where = `${redactDsn(options.from)}${catalog.schema ? ` (schema ${catalog.schema})` : ''}`;
  if (existsSync(out)) {
    const existing = parseYaml(await readFile(out, 'utf8')) as unknown;
    const { additions, removals } = compareAst(ast, existing, { tables: leftOutTables, columns: leftOutColumns });
    print(`${options.out} exists: nothing written. Compared with ${where}:`);
    if (additions.length === 0 && removals.length === 0) print('  the file maps everything XOS can serve of the database.');
    if (additions.length) print('  would add (the database has it, the file does not):', ...limited(additions, '    '));
    if (removals.length) print('  no longer in the database (the file names it):', ...limited(removals, '    '));
    if (additions.length) print(`To start over, move ${options.out} away and run init again; or add what you need by hand.`);
    return;
  }
  // `wx`: a file that appeared meanwhile is not overwritten either.
  await writeFile(out, formatJson(ast), { flag: 'wx' });
  const entities = Object.keys(ast.entities).length;
  const contexts = Object.keys(ast.contexts).length;
  print(`Read ${where}: ${catalog.tables.length} tables and views`);
  print(`Wrote ${options.out}: app "${appName(ast)}" with ${count(entities, 'entity', 'entities')} and ${count(contexts, 'context', 'contexts')}`);
  if (leftOutTables.length) print(`  left out ${count(leftOutTables.length, 'table', 'tables')} (see "notes"):`, ...limited(leftOutTables.map(tableLine), '    '));
  if (leftOutColumns.length) print(`  left out ${count(leftOutColumns.length, 'column', 'columns')} (see each entity's "notes"):`, ...limited(leftOutColumns.map(columnLine), '    '));
  if (cleaned.length) print(`  cleaned ${count(cleaned.length, 'label or description', 'labels and descriptions')} taken from the database (they are data, not markup):`, ...limited(cleaned.map(cleanedLine), '    '));
  print('  audit is off ("audit": false); set it to true for History and Undo (XOS then creates its one audit table)');
  print(`Next: ${nextCommand(options)}`);
  if (dsnHasPassword(options.from)) print('  (the password is left out: give it in PGPASSWORD or in ~/.pgpass)');
}

/** The command that serves the new AST, as the person can run it: their DSN with its user, only without the password. */
function nextCommand(options: InitOptions): string {
  return [options.command ?? 'xos-server', '--ast', shellWord(options.out), '--dsn', shellWord(dsnWithoutPassword(options.from))].join(' ');
}

/** `customer.notes: description cut to 500 characters (of 1,048,576); removed 2 control characters`. */
function cleanedLine(c: CleanedLabel): string {
  const where = c.column === undefined ? c.table : `${c.table}.${c.column}`;
  return `${shown(where)}: ${c.changes.join('; ')}`;
}

/** A database's name as the report prints it: invisible characters shown, at most NAME_SHOWN characters. */
function shown(name: string): string {
  return shorten(displayText(name), NAME_SHOWN);
}

function tableLine(t: LeftOut): string {
  return `"${shown(t.table)}": ${t.reason}`;
}

function columnLine(c: LeftOut): string {
  return `"${shown(c.table)}"."${shown(c.column ?? '')}" ${c.reason.replace(/^left out column "[^"]*" /, '')}`;
}

function limited(lines: readonly string[], indent: string): string[] {
  const shown = lines.slice(0, SHOWN).map((line) => `${indent}${line}`);
  if (lines.length > SHOWN) shown.push(`${indent}… and ${lines.length - SHOWN} more`);
  return shown;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
