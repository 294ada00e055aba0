// "XOS: Create App from Database…" without VS Code: the steps, checks and texts of the command,
// with the person's answers coming in through a port (src/host/createApp.ts is VS Code's side).
// It only reads the database (the catalog, as `xos-server init` does), writes the AST once,
// never over an existing file, and keeps the password out of settings, logs and the file.
// Plain Node: no vscode import (it lives here beside its one user; it belongs with the app's use cases).
import { existsSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { dsnHasPassword, dsnSecretKey, dsnTarget, isPostgresDsn, redactDsn, withDsnPassword } from '../backend/dsn.ts';
import type { Catalog } from '../backend/introspect/catalog.ts';
import { compareAst } from '../backend/introspect/compare.ts';
import { readCatalog } from '../backend/introspect/init.ts';
import { formatJson } from '../backend/introspect/json.ts';
import { catalogToAst, type Introspection, type LeftOut } from '../backend/introspect/toAst.ts';
import type { Translate } from '../board/texts.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

/** The file name the embedded backend looks for at the root of the (first) workspace folder. */
export const DEFAULT_AST_FILE = 'xos.json';
export const DEFAULT_SCHEMA = 'public';

/** Where the AST is written: `xos.json` in a workspace folder, or a file chosen when no folder is open. */
export type AstTarget = { readonly kind: 'folder'; readonly folder: string } | { readonly kind: 'file'; readonly file: string };

/** The questions and notices of the command; each question resolves to undefined when the person cancels. */
export interface CreateAppUi {
  pickKind(): PromiseLike<DatabaseKind | undefined>;
  /** A SQLite file's path. */
  pickSqliteFile(): PromiseLike<string | undefined>;
  /** The DSN without password; `validate` says what is wrong with a text (undefined: fine). */
  askPostgresDsn(validate: (text: string) => string | undefined): PromiseLike<string | undefined>;
  /** The password of `target` (user@host:port/db); `stored`: one is kept already (empty keeps it). */
  askPassword(target: string, stored: boolean): PromiseLike<string | undefined>;
  askSchema(): PromiseLike<string | undefined>;
  /** `near`: a folder to suggest when no workspace folder is open (the SQLite file's). */
  pickTarget(near: string | undefined): PromiseLike<AstTarget | undefined>;
  /** Runs `work` while a progress notification says `title`. */
  progress<T>(title: string, work: () => PromiseLike<T>): PromiseLike<T>;
  /** A notification; resolves with the action chosen. */
  notify(kind: 'info' | 'warning' | 'error', text: string, actions?: readonly string[]): PromiseLike<string | undefined>;
  openFile(path: string): PromiseLike<void>;
  openBoard(): void;
  showOutput(): void;
}

export interface CreateAppLog {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** The xos.* settings this command reads and writes. */
export interface CurrentSettings {
  readonly dsn: string;
  readonly ast: string;
  readonly endpoint: string;
}

/** Settings to write (only those that change); `user`: in the person's settings, as no folder is open. */
export interface SettingsChange {
  readonly target: 'workspace' | 'user';
  readonly values: { readonly dsn?: string; readonly ast?: string };
}

export interface CreateAppDeps {
  readonly ui: CreateAppUi;
  readonly t: Translate;
  readonly log: CreateAppLog;
  /** VS Code's SecretStorage (the database password, under dsnSecretKey). */
  readonly secrets: { get(key: string): PromiseLike<string | undefined>; store(key: string, value: string): PromiseLike<void> };
  readonly settings: { current(): CurrentSettings; update(change: SettingsChange): PromiseLike<void> };
  /** The first workspace folder: relative xos.ast paths and the default xos.json are resolved against it. */
  readonly firstRoot: () => string | undefined;
  /**
   * Runs `change` (writing the AST file, the password and the settings) while the embedded backend
   * does not restart, then starts it once if `change` resolved true; resolves whether it started.
   */
  readonly applyToBackend: (change: () => Promise<boolean>) => Promise<boolean>;
  /** The catalog read (the introspection's own by default). */
  readonly readCatalog?: (dsn: string, schema?: string) => Promise<Catalog>;
}

export type CreateAppResult =
  | { readonly outcome: 'cancelled' }
  | { readonly outcome: 'failed'; readonly message: string }
  | { readonly outcome: 'exists'; readonly file: string; readonly additions: readonly string[]; readonly removals: readonly string[] }
  | { readonly outcome: 'written'; readonly file: string; readonly entities: number; readonly settings: SettingsChange; readonly started: boolean };

/** The database as the person chose it. `readDsn` carries the password and is only handed to the driver. */
interface Source {
  readonly kind: DatabaseKind;
  /** The DSN as it goes into xos.dsn: never with a password. */
  readonly dsn: string;
  readonly readDsn: string;
  readonly schema?: string;
  /** A password entered now, stored once the database accepted it. */
  readonly newPassword?: string;
  /** What the person is told it is: the file, or the DSN without user and password. */
  readonly shown: string;
}

/** The command: asks, reads, writes the AST and the settings, and says what happened. Never throws for the person's mistakes. */
export async function createAppFromDatabase(deps: CreateAppDeps): Promise<CreateAppResult> {
  const { ui, t, log } = deps;
  const source = await askSource(deps);
  if (!source) return { outcome: 'cancelled' };
  const target = await ui.pickTarget(source.kind === 'sqlite' ? dirname(source.shown) : undefined);
  if (!target) return { outcome: 'cancelled' };
  const file = astFileOf(target);

  let introspection: Introspection;
  let catalog: Catalog;
  try {
    ({ catalog, introspection } = await ui.progress(t('Reading {0}…', source.shown), async () => {
      const read = await (deps.readCatalog ?? readCatalog)(source.readDsn, source.schema);
      return { catalog: read, introspection: catalogToAst(read) };
    }));
  } catch (error) {
    return fail(deps, explainReadError(error, source, t), `could not read ${source.shown}: ${scrub(errorText(error), source)}`);
  }
  const { ast, leftOutTables, leftOutColumns } = introspection;
  const entities = Object.keys(ast.entities).length;
  const where = `${source.shown}${catalog.schema ? ` (schema ${catalog.schema})` : ''}`;
  log.info(`read ${where}: ${catalog.tables.length} tables and views, ${entities} XOS can serve`);
  if (entities === 0) {
    for (const table of leftOutTables) log.warn(`  left out table "${table.table}": ${table.reason}`);
    const text = catalog.tables.length === 0
      ? t('{0} has no tables. Pick the database that holds your data.', where)
      : t('XOS can serve none of the {0} tables and views of {1}. Nothing was written; the XOS output says why each was left out.', catalog.tables.length, where);
    return fail(deps, text, `no table of ${where} can be served; nothing written`, true);
  }

  if (existsSync(file)) return reportExisting(deps, file, introspection, where);
  const current = deps.settings.current();
  const change = settingsAfterWrite({ file, dsn: source.dsn, firstRoot: target.kind === 'folder' ? deps.firstRoot() : undefined, current, workspace: target.kind === 'folder' });
  // File, password and settings change together: no backend start in between sees half of them
  // (say the new AST on the old database, where XOS would create its demo tables).
  let problem: { stage: 'exists' | 'write' | 'settings'; error?: unknown } | undefined;
  const started = await ui.progress(t('Creating the app {0}…', ast.app), () => deps.applyToBackend(async () => {
    try {
      await writeNew(file, formatJson(ast));
    } catch (error) {
      problem = { stage: (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists' : 'write', error };
      return false;
    }
    if (source.newPassword !== undefined) await deps.secrets.store(dsnSecretKey(source.dsn)!, source.newPassword);
    try {
      if (Object.keys(change.values).length) await deps.settings.update(change);
    } catch (error) {
      problem = { stage: 'settings', error };
      return false;
    }
    return !current.endpoint;
  }));
  if (problem?.stage === 'exists') return reportExisting(deps, file, introspection, where);
  if (problem?.stage === 'write') return fail(deps, t('XOS could not write {0}: {1}', file, errorText(problem.error)), `could not write ${file}: ${errorText(problem.error)}`);
  log.info(`wrote ${file}: app "${ast.app}" with ${entities} entities and ${Object.keys(ast.contexts).length} contexts`);
  for (const table of leftOutTables) log.info(`  left out table "${table.table}": ${table.reason}`);
  for (const column of leftOutColumns) log.info(`  left out column "${column.table}"."${column.column}": ${column.reason.replace(/^left out column "[^"]*" /, '')}`);
  if (source.newPassword !== undefined) log.info(`database password stored for ${dsnTarget(source.dsn)}`);
  if (problem?.stage === 'settings') {
    return fail(deps, t('XOS wrote {0} but could not set xos.dsn to {1}: {2}. Set it in the settings yourself.', file, source.dsn, errorText(problem.error)),
      `could not write the settings: ${errorText(problem.error)}`);
  }
  for (const [key, value] of Object.entries(change.values)) log.info(`set xos.${key} to ${key === 'dsn' ? redactDsn(value) : value} in the ${change.target} settings`);

  await ui.openFile(file);
  const summary = writtenSummary(t, file, entities, leftOutTables, leftOutColumns, change.target);
  const result: CreateAppResult = { outcome: 'written', file, entities, settings: change, started };
  if (current.endpoint) {
    void ui.notify('warning', `${summary} ${t('xos.endpoint is set, so XOS keeps using that server: clear xos.endpoint to work on this database.')}`);
    return result;
  }
  if (!started) {
    const show = t('Show Output');
    void ui.notify('warning', `${summary} ${t('XOS could not start on it; the XOS output says why.')}`, [show]).then((choice) => choice === show && ui.showOutput());
    return result;
  }
  const board = t('Open Board');
  void ui.notify('info', summary, [board]).then((choice) => choice === board && ui.openBoard());
  return result;
}

async function askSource(deps: CreateAppDeps): Promise<Source | undefined> {
  const { ui, t } = deps;
  const kind = await ui.pickKind();
  if (kind === 'sqlite') {
    const picked = await ui.pickSqliteFile();
    if (picked === undefined) return undefined;
    const path = resolve(picked);
    const dsn = sqliteDsn(path);
    return { kind, dsn, readDsn: dsn, shown: path };
  }
  if (kind !== 'postgres') return undefined;
  const entered = await ui.askPostgresDsn((text) => postgresDsnProblem(text, t));
  if (entered === undefined) return undefined;
  const dsn = entered.trim();
  const target = dsnTarget(dsn)!;
  const stored = await deps.secrets.get(dsnSecretKey(dsn)!);
  const password = await ui.askPassword(target, stored !== undefined);
  if (password === undefined) return undefined;
  const schema = await ui.askSchema();
  if (schema === undefined) return undefined;
  const use = password === '' ? stored : password;
  return {
    kind,
    dsn,
    readDsn: use ? withDsnPassword(dsn, use) : dsn,
    schema: schema.trim() || DEFAULT_SCHEMA,
    newPassword: password === '' || password === stored ? undefined : password,
    shown: redactDsn(dsn),
  };
}

/** `sqlite:` and the file's absolute path (the backend resolves a relative one against its working directory, which is not the workspace). */
export function sqliteDsn(path: string): string {
  return `sqlite:${resolve(path)}`;
}

export function astFileOf(target: AstTarget): string {
  return target.kind === 'folder' ? join(target.folder, DEFAULT_AST_FILE) : target.file;
}

/** What is wrong with a PostgreSQL DSN as the person typed it, or undefined. A password is refused: it goes to the secret storage. */
export function postgresDsnProblem(text: string, t: Translate): string | undefined {
  const dsn = text.trim();
  const form = 'postgres://user@host:5432/database';
  if (dsn === '') return t('Enter the database as {0}.', form);
  if (!isPostgresDsn(dsn)) return t('Write it as {0}.', form);
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return t('This cannot be read as a URL. Write it as {0}.', form);
  }
  if (dsnHasPassword(dsn)) return t('Leave the password out: XOS asks for it next and keeps it in VS Code\'s secret storage, never in the settings.');
  if (!url.username && !url.searchParams.get('user')) return t('Name the user: {0}.', form);
  if (!url.hostname) return t('Name the host: {0}.', form);
  if (url.pathname.replace(/^\//, '') === '') return t('Name the database: {0}.', form);
  return undefined;
}

/**
 * The settings that make the embedded backend serve `file` on `dsn`: xos.dsn, and xos.ast unless
 * the backend finds the file by itself (xos.json at the first folder's root, or xos.ast names it already).
 */
export function settingsAfterWrite(input: { file: string; dsn: string; firstRoot: string | undefined; current: CurrentSettings; workspace: boolean }): SettingsChange {
  const { file, dsn, firstRoot, current, workspace } = input;
  const values: { dsn?: string; ast?: string } = {};
  if (current.dsn !== dsn) values.dsn = dsn;
  const found = current.ast
    ? resolve(isAbsolute(current.ast) || !firstRoot ? current.ast : join(firstRoot, current.ast))
    : firstRoot && resolve(join(firstRoot, DEFAULT_AST_FILE));
  if (found !== resolve(file)) {
    const inside = firstRoot ? relative(firstRoot, file) : '';
    values.ast = firstRoot && inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : resolve(file);
  }
  return { target: workspace ? 'workspace' : 'user', values };
}

/** Why the catalog could not be read, and what to do, in the person's words. */
export function explainReadError(error: unknown, source: { kind: DatabaseKind; dsn: string; shown: string; schema?: string }, t: Translate): string {
  const message = scrub(errorText(error), source);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (source.kind === 'sqlite') {
    const errcode = (error as { errcode?: unknown } | undefined)?.errcode;
    if (/^no SQLite file at /.test(message)) return t('There is no file {0}. Pick a SQLite database file that exists.', source.shown);
    if (errcode === 26 || /file is not a database/i.test(message)) return t('{0} is not a SQLite database. Pick a SQLite database file (.db, .sqlite, .sqlite3).', source.shown);
    if (errcode === 14 || code === 'EACCES' || /unable to open/i.test(message)) return t('XOS cannot open {0} ({1}). Check that the file can be read.', source.shown, message);
    if (errcode === 11) return t('{0} is damaged ({1}). Pick an intact copy of the database.', source.shown, message);
    return t('XOS could not read {0}: {1}', source.shown, message);
  }
  const url = safeUrl(source.dsn);
  const host = url?.hostname || 'localhost';
  const at = `${host}:${url?.port || '5432'}`;
  const target = dsnTarget(source.dsn) ?? source.shown;
  if (code === 'ECONNREFUSED') return t('PostgreSQL at {0} refused the connection. Check that the server is running and that host and port are right.', at);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return t('The host {0} was not found. Check the host in the DSN and your network.', host);
  if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || /timeout/i.test(message)) {
    return t('PostgreSQL at {0} did not answer. Check the host, the port and your network (VPN, firewall).', at);
  }
  if (code === '28P01') return t('PostgreSQL refused the password for {0}. Run the command again and enter the right password.', target);
  if (/client password must be a string|password authentication|no password supplied/i.test(message)) {
    return t('PostgreSQL asks for a password for {0}. Run the command again and enter it.', target);
  }
  if (code === '28000') return t('PostgreSQL does not let {0} in: {1}. Check the user, or ask the database\'s administrator to allow the login.', target, message);
  if (code === '3D000') return t('There is no database {0} on {1}. Check the database name in the DSN.', decodeURIComponent(url?.pathname.replace(/^\//, '') ?? ''), at);
  const noSchema = /^the database has no schema "(.*)"; it has: (.*)$/.exec(message);
  if (noSchema) return t('The database has no schema {0}. Run the command again with one of: {1}.', noSchema[1], noSchema[2] || '-');
  if (code === '42501') return t('The user of {0} may not read the catalog: {1}. Ask the database\'s administrator for read access.', target, message);
  return t('XOS could not read {0}: {1}', source.shown, message);
}

function writtenSummary(t: Translate, file: string, entities: number, tables: readonly LeftOut[], columns: readonly LeftOut[], target: SettingsChange['target']): string {
  const parts = [t('Created {0} with {1}.', file, entities === 1 ? t('1 entity') : t('{0} entities', entities))];
  const leftOut = [
    ...(tables.length ? [tables.length === 1 ? t('1 table') : t('{0} tables', tables.length)] : []),
    ...(columns.length ? [columns.length === 1 ? t('1 column') : t('{0} columns', columns.length)] : []),
  ];
  if (leftOut.length) parts.push(t('Left out: {0} (see the notes in the file).', leftOut.join(', ')));
  if (target === 'user') parts.push(t('No folder is open, so xos.dsn and xos.ast are set in your user settings.'));
  return parts.join(' ');
}

async function reportExisting(deps: CreateAppDeps, file: string, { ast, leftOutTables, leftOutColumns }: Introspection, where: string): Promise<CreateAppResult> {
  const { ui, t, log } = deps;
  let existing: unknown;
  try {
    existing = parseYaml(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    return fail(deps, t('{0} exists and XOS wrote nothing. It could not be read for a comparison: {1}', file, errorText(error)), `${file} exists and could not be read: ${errorText(error)}`);
  }
  const { additions, removals } = compareAst(ast, existing, { tables: leftOutTables, columns: leftOutColumns });
  log.info(`${file} exists: nothing written. Compared with ${where}:`);
  if (additions.length === 0 && removals.length === 0) log.info('  the file maps everything XOS can serve of the database.');
  if (additions.length) log.info(['  would add (the database has it, the file does not):', ...additions.map((line) => `    ${line}`)].join('\n'));
  if (removals.length) log.info(['  no longer in the database (the file names it):', ...removals.map((line) => `    ${line}`)].join('\n'));
  if (additions.length) log.info(`To start over, move ${file} away and run the command again; or add what you need by hand.`);
  const show = t('Show Output');
  const text = additions.length === 0 && removals.length === 0
    ? t('{0} exists, so XOS wrote nothing. It maps everything XOS can serve of the database.', file)
    : t('{0} exists, so XOS wrote nothing. Compared with the database: {1} to add, {2} no longer in the database (see the XOS output).', file, additions.length, removals.length);
  void ui.notify('info', text, [show]).then((choice) => choice === show && ui.showOutput());
  return { outcome: 'exists', file, additions, removals };
}

function fail(deps: CreateAppDeps, text: string, logLine: string, warning = false): CreateAppResult {
  if (warning) deps.log.warn(logLine);
  else deps.log.error(logLine);
  const show = deps.t('Show Output');
  void deps.ui.notify(warning ? 'warning' : 'error', text, [show]).then((choice) => choice === show && deps.ui.showOutput());
  return { outcome: 'failed', message: text };
}

/** Creates `file` (never over an existing one) with `text`; a failed write leaves no file behind. */
async function writeNew(file: string, text: string): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(file).catch(() => undefined);
    throw error;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The error text without the password, should a driver ever quote it. */
function scrub(text: string, source: { readDsn?: string; dsn: string }): string {
  const password = source.readDsn ? safeUrl(source.readDsn)?.password : undefined;
  if (!password) return text;
  let out = text;
  for (const form of new Set([password, safeDecode(password)])) if (form) out = out.split(form).join('***');
  return out;
}

function safeUrl(dsn: string): URL | undefined {
  try {
    return new URL(dsn.trim());
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
