// "XOS: Create App from Database…" without VS Code (src/app/createAppFlow.ts): the DSN checks,
// which file and which settings are written, the person's messages for what goes wrong, and the
// whole command with scripted answers on a real Chinook SQLite file. No password reaches the
// settings, the log or the file; an existing file is compared, never overwritten.
//   node --test test/host/createApp.test.ts
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { dsnSecretKey } from '../../src/backend/dsn.ts';
import type { Catalog, CatalogColumn } from '../../src/backend/introspect/catalog.ts';
import { readCatalog } from '../../src/backend/introspect/init.ts';
import { formatJson } from '../../src/backend/introspect/json.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import { translator, type Translate } from '../../src/board/texts.ts';
import {
  createAppFromDatabase, explainReadError, postgresDsnProblem, settingsAfterWrite, sqliteDsn,
  type AstTarget, type CreateAppDeps, type CreateAppUi, type CurrentSettings, type DatabaseKind, type SettingsChange,
} from '../../src/app/createAppFlow.ts';
import pg from 'pg';
import { startPostgres } from '../support/postgres.ts';
import { createChinookSqlite } from '../support/sampleDatabases.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

/** English, with the placeholders filled, as vscode.l10n.t does without a bundle. */
const en: Translate = translator('en');

describe('postgresDsnProblem', () => {
  test('accepts postgres://user@host:port/db, with or without port and parameters', () => {
    for (const dsn of ['postgres://me@db.example:5432/shop', 'postgresql://me@localhost/shop', ' postgres://me@10.0.0.1:6543/shop?sslmode=require ', 'postgres://db.example/shop?user=me']) {
      assert.equal(postgresDsnProblem(dsn, en), undefined, dsn);
    }
  });

  test('refuses a password and says where it goes instead', () => {
    for (const dsn of ['postgres://me:secret@db.example:5432/shop', 'postgres://me@db.example/shop?password=secret']) {
      assert.equal(postgresDsnProblem(dsn, en), 'Leave the password out: XOS asks for it next and keeps it in VS Code\'s secret storage, never in the settings.', dsn);
    }
  });

  test('says what is missing', () => {
    assert.equal(postgresDsnProblem('', en), 'Enter the database as postgres://user@host:5432/database.');
    assert.equal(postgresDsnProblem('mysql://me@host/db', en), 'Write it as postgres://user@host:5432/database.');
    assert.equal(postgresDsnProblem('sqlite:./shop.db', en), 'Write it as postgres://user@host:5432/database.');
    assert.equal(postgresDsnProblem('postgres://db.example:5432/shop', en), 'Name the user: postgres://user@host:5432/database.');
    assert.equal(postgresDsnProblem('postgres://me@db.example:5432', en), 'Name the database: postgres://user@host:5432/database.');
    assert.equal(postgresDsnProblem('postgres://me@db.example:5432/', en), 'Name the database: postgres://user@host:5432/database.');
    assert.equal(postgresDsnProblem('postgres://me@db.example:port/shop', en), 'This cannot be read as a URL. Write it as postgres://user@host:5432/database.');
  });
});

describe('settingsAfterWrite', () => {
  const none: CurrentSettings = { dsn: '', ast: '', endpoint: '' };
  const root = '/work/shop';

  test('xos.json at the first folder\'s root: only xos.dsn, in the workspace', () => {
    assert.deepEqual(settingsAfterWrite({ file: '/work/shop/xos.json', dsn: 'sqlite:/data/shop.db', firstRoot: root, current: none, workspace: true }),
      { target: 'workspace', values: { dsn: 'sqlite:/data/shop.db' } });
  });

  test('nothing that is set already', () => {
    assert.deepEqual(settingsAfterWrite({ file: '/work/shop/xos.json', dsn: 'sqlite:/data/shop.db', firstRoot: root, current: { ...none, dsn: 'sqlite:/data/shop.db' }, workspace: true }),
      { target: 'workspace', values: {} });
    assert.deepEqual(settingsAfterWrite({ file: '/work/shop/xos.json', dsn: 'sqlite:/data/shop.db', firstRoot: root, current: { ...none, dsn: 'sqlite:/data/shop.db', ast: './xos.json' }, workspace: true }),
      { target: 'workspace', values: {} });
  });

  test('xos.ast when it names another file, or the file is not the first folder\'s xos.json', () => {
    const dsn = 'postgres://me@db.example:5432/shop';
    assert.deepEqual(settingsAfterWrite({ file: '/work/shop/xos.json', dsn, firstRoot: root, current: { ...none, ast: 'apps/crm.json' }, workspace: true }).values,
      { dsn, ast: 'xos.json' });
    // A second folder of a multi-root workspace: outside the first one, so the full path.
    assert.deepEqual(settingsAfterWrite({ file: '/work/other/xos.json', dsn, firstRoot: root, current: none, workspace: true }).values,
      { dsn, ast: '/work/other/xos.json' });
    assert.deepEqual(settingsAfterWrite({ file: '/work/shop/app/xos.json', dsn, firstRoot: root, current: none, workspace: true }).values,
      { dsn, ast: join('app', 'xos.json') });
  });

  test('no folder open: both, in the user settings, the AST by its full path', () => {
    assert.deepEqual(settingsAfterWrite({ file: '/home/me/shop.json', dsn: 'sqlite:/home/me/shop.db', firstRoot: undefined, current: none, workspace: false }),
      { target: 'user', values: { dsn: 'sqlite:/home/me/shop.db', ast: '/home/me/shop.json' } });
  });

  test('the SQLite DSN names the file by its full path (the backend does not run in the workspace)', () => {
    assert.equal(sqliteDsn('/data/shop.db'), 'sqlite:/data/shop.db');
    assert.equal(sqliteDsn('shop.db'), `sqlite:${join(process.cwd(), 'shop.db')}`);
  });
});

describe('explainReadError', () => {
  const pg = { kind: 'postgres' as const, dsn: 'postgres://me@db.example:5433/shop', shown: 'postgres://db.example:5433/shop' };
  const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

  test('PostgreSQL: what went wrong and what to do', () => {
    assert.equal(explainReadError(coded('ECONNREFUSED', 'connect ECONNREFUSED 1.2.3.4:5433'), pg, en),
      'PostgreSQL at db.example:5433 refused the connection. Check that the server is running and that host and port are right.');
    assert.equal(explainReadError(coded('ENOTFOUND'), pg, en), 'The host db.example was not found. Check the host in the DSN and your network.');
    assert.equal(explainReadError(coded('ETIMEDOUT'), pg, en), 'PostgreSQL at db.example:5433 did not answer. Check the host, the port and your network (VPN, firewall).');
    assert.equal(explainReadError(coded('28P01', 'password authentication failed for user "me"'), pg, en),
      'PostgreSQL refused the password for me@db.example:5433/shop. Run the command again and enter the right password.');
    assert.equal(explainReadError(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'), pg, en),
      'PostgreSQL asks for a password for me@db.example:5433/shop. Run the command again and enter it.');
    assert.equal(explainReadError(coded('3D000', 'database "shop" does not exist'), pg, en),
      'There is no database shop on db.example:5433. Check the database name in the DSN.');
    assert.equal(explainReadError(new Error('the database has no schema "sales"; it has: public, audit'), { ...pg, schema: 'sales' }, en),
      'The database has no schema sales. Run the command again with one of: public, audit.');
  });

  test('SQLite: not a database, no such file', async () => {
    const dir = await tempDir('xos-create-app-errors');
    try {
      const notDb = join(dir.path, 'notes.db');
      writeFileSync(notDb, 'these are notes, not a database\n'.repeat(40));
      const notDbError = await readCatalog(sqliteDsn(notDb)).then(() => undefined, (error: unknown) => error);
      assert.equal(explainReadError(notDbError, { kind: 'sqlite', dsn: sqliteDsn(notDb), shown: notDb }, en),
        `${notDb} is not a SQLite database. Pick a SQLite database file (.db, .sqlite, .sqlite3).`);
      const missing = join(dir.path, 'gone.db');
      const missingError = await readCatalog(sqliteDsn(missing)).then(() => undefined, (error: unknown) => error);
      assert.equal(explainReadError(missingError, { kind: 'sqlite', dsn: sqliteDsn(missing), shown: missing }, en),
        `There is no file ${missing}. Pick a SQLite database file that exists.`);
    } finally {
      await dir.remove();
    }
  });

  test('a password a driver quotes is not repeated', () => {
    const text = explainReadError(new Error('odd failure near s3cr3t!x'), { ...pg, readDsn: 'postgres://me:s3cr3t%21x@db.example:5433/shop' } as never, en);
    assert.equal(text, 'XOS could not read postgres://db.example:5433/shop: odd failure near ***');
  });
});

// ---------------------------------------------------------------- the command, scripted

interface Answers {
  kind?: DatabaseKind;
  file?: string;
  dsn?: string;
  password?: string;
  schema?: string;
  target?: AstTarget;
  /** The action clicked on the closing notification. */
  click?: string;
}

interface Scripted {
  readonly deps: CreateAppDeps;
  readonly notices: Array<{ kind: string; text: string; actions: readonly string[] }>;
  readonly log: string[];
  readonly opened: string[];
  readonly updates: SettingsChange[];
  readonly stored: Map<string, string>;
  readonly asked: string[];
  readonly events: string[];
  boardOpened: number;
}

function scripted(answers: Answers, options: { current?: Partial<CurrentSettings>; firstRoot?: string; readCatalog?: CreateAppDeps['readCatalog']; stored?: Record<string, string> } = {}): Scripted {
  const run: Scripted = {
    notices: [], log: [], opened: [], updates: [], asked: [], events: [], boardOpened: 0,
    stored: new Map(Object.entries(options.stored ?? {})),
    deps: undefined as never,
  };
  let current: CurrentSettings = { dsn: '', ast: '', endpoint: '', ...options.current };
  const ui: CreateAppUi = {
    pickKind: async () => answers.kind,
    pickSqliteFile: async () => answers.file,
    askPostgresDsn: async (validate) => {
      run.asked.push(`dsn problem: ${validate(answers.dsn ?? '') ?? 'none'}`);
      return answers.dsn;
    },
    askPassword: async (target, stored) => {
      run.asked.push(`password of ${target}${stored ? ' (stored)' : ''}`);
      return answers.password;
    },
    askSchema: async () => answers.schema,
    pickTarget: async () => answers.target,
    progress: async (title, work) => {
      run.events.push(`progress: ${title}`);
      return work();
    },
    notify: async (kind, text, actions = []) => {
      run.notices.push({ kind, text, actions });
      return answers.click;
    },
    openFile: async (path) => { run.opened.push(path); },
    openBoard: () => { run.boardOpened++; },
    showOutput: () => {},
  };
  const line = (level: string) => (text: string) => { run.log.push(`${level} ${text}`); };
  (run as { deps: CreateAppDeps }).deps = {
    ui,
    t: en,
    log: { info: line('info'), warn: line('warn'), error: line('error') },
    secrets: {
      get: async (key) => run.stored.get(key),
      store: async (key, value) => { run.events.push(`secret ${key}`); run.stored.set(key, value); },
    },
    settings: {
      current: () => current,
      update: async (change) => {
        run.events.push(`settings ${JSON.stringify(change.values)}`);
        run.updates.push(change);
        current = { ...current, ...change.values };
      },
    },
    firstRoot: () => options.firstRoot,
    applyToBackend: async (change) => {
      run.events.push('hold');
      const wanted = await change();
      run.events.push(wanted ? 'start' : 'no start');
      return wanted;
    },
    readCatalog: options.readCatalog,
  };
  return run;
}

/** Lets the notification's `.then` (the clicked action) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createAppFromDatabase on Chinook (SQLite)', () => {
  let dir: TempDir;
  let chinook: string;

  before(async () => {
    dir = await tempDir('xos-create-app');
    chinook = join(dir.path, 'chinook.db');
    await createChinookSqlite(chinook);
  });

  after(async () => {
    await dir?.remove();
  });

  test('writes xos.json (what xos-server init writes), sets xos.dsn, opens the file and offers the Board', async () => {
    const folder = join(dir.path, 'ws-new');
    mkdir(folder);
    const before = readFileSync(chinook);
    const run = scripted({ kind: 'sqlite', file: chinook, target: { kind: 'folder', folder }, click: 'Open Board' }, { firstRoot: folder });
    const result = await createAppFromDatabase(run.deps);
    await settle();
    const file = join(folder, 'xos.json');
    assert.deepEqual(result, { outcome: 'written', file, entities: 11, settings: { target: 'workspace', values: { dsn: `sqlite:${chinook}` } }, started: true });
    const expected = formatJson(catalogToAst(await readCatalog(`sqlite:${chinook}`)).ast);
    assert.equal(readFileSync(file, 'utf8'), expected);
    assert.ok(JSON.parse(expected).contexts.customer_list, 'Chinook has customer_list');
    assert.deepEqual(readFileSync(chinook), before, 'the database file is only read');
    assert.deepEqual(run.events, [`progress: Reading ${chinook}…`, 'progress: Creating the app chinook…', 'hold', `settings {"dsn":"sqlite:${chinook}"}`, 'start']);
    assert.deepEqual(run.opened, [file]);
    assert.deepEqual(run.notices, [{ kind: 'info', text: `Created ${file} with 11 entities.`, actions: ['Open Board'] }]);
    assert.equal(run.boardOpened, 1);
    assert.ok(run.log.includes(`info read ${chinook}: 11 tables and views, 11 XOS can serve`), run.log.join('\n'));
  });

  test('over an existing xos.json: compares, writes nothing, changes no setting, offers the output', async () => {
    const folder = join(dir.path, 'ws-existing');
    mkdir(folder);
    const file = join(folder, 'xos.json');
    const ast = JSON.parse(formatJson(catalogToAst(await readCatalog(`sqlite:${chinook}`)).ast));
    delete ast.entities.playlist;
    delete ast.contexts.playlist_list;
    delete ast.contexts.playlist_detail;
    delete ast.entities.customer.fields.fax;
    for (const key of ['list_fields', 'editable']) ast.contexts.customer_detail[key] = ast.contexts.customer_detail[key].filter((f: string) => f !== 'fax');
    const mine = `${JSON.stringify(ast, null, 2)}\n`;
    writeFileSync(file, mine);
    const run = scripted({ kind: 'sqlite', file: chinook, target: { kind: 'folder', folder } }, { firstRoot: folder });
    const result = await createAppFromDatabase(run.deps);
    assert.equal(result.outcome, 'exists');
    assert.equal(readFileSync(file, 'utf8'), mine, 'not overwritten');
    assert.deepEqual(run.updates, []);
    assert.ok(!run.events.includes('hold'), 'the backend is not touched');
    assert.deepEqual(run.notices, [{ kind: 'info', actions: ['Show Output'],
      text: `${file} exists, so XOS wrote nothing. Compared with the database: 2 to add, 0 no longer in the database (see the XOS output).` }]);
    const report = run.log.join('\n');
    assert.match(report, /would add \(the database has it, the file does not\):\n/);
    assert.match(report, /\n {4}table "Playlist": the entity playlist \(2 fields\)/);
    assert.match(report, /column "Customer"\."Fax": the field customer\.fax/);
  });

  test('a file that is no SQLite database: a message that says so, nothing written or set', async () => {
    const folder = join(dir.path, 'ws-notdb');
    mkdir(folder);
    const notDb = join(dir.path, 'notes.sqlite');
    writeFileSync(notDb, 'not a database\n'.repeat(100));
    const run = scripted({ kind: 'sqlite', file: notDb, target: { kind: 'folder', folder } }, { firstRoot: folder });
    const result = await createAppFromDatabase(run.deps);
    assert.deepEqual(result, { outcome: 'failed', message: `${notDb} is not a SQLite database. Pick a SQLite database file (.db, .sqlite, .sqlite3).` });
    assert.equal(existsSync(join(folder, 'xos.json')), false);
    assert.deepEqual(run.updates, []);
    assert.deepEqual(run.notices.map((n) => [n.kind, n.actions]), [['error', ['Show Output']]]);
  });

  test('a database without a table XOS can serve: says why, writes nothing', async () => {
    const folder = join(dir.path, 'ws-none');
    mkdir(folder);
    const file = join(dir.path, 'keys.db');
    const db = new DatabaseSync(file);
    db.exec("CREATE TABLE line (a REAL PRIMARY KEY, b INTEGER); CREATE VIEW totals AS SELECT 'x' AS region, 1 AS total");
    db.close();
    const run = scripted({ kind: 'sqlite', file, target: { kind: 'folder', folder } }, { firstRoot: folder });
    const result = await createAppFromDatabase(run.deps);
    assert.equal(result.outcome, 'failed');
    assert.equal((result as { message: string }).message,
      `XOS can serve none of the 2 tables and views of ${file}. Nothing was written; the XOS output says why each was left out.`);
    assert.equal(existsSync(join(folder, 'xos.json')), false);
    assert.ok(run.log.includes('warn   left out table "line": its key is REAL; XOS serves integer, text and uuid keys'), run.log.join('\n'));
    assert.ok(run.log.includes('warn   left out table "totals": a view without a first column that names its rows (like "id" or "film_id")'), run.log.join('\n'));
  });

  test('cancelled at any question: nothing written, nothing asked after', async () => {
    const folder = join(dir.path, 'ws-cancel');
    mkdir(folder);
    for (const answers of [{}, { kind: 'sqlite' as const }, { kind: 'sqlite' as const, file: chinook }, { kind: 'postgres' as const }, { kind: 'postgres' as const, dsn: 'postgres://me@h/db' }, { kind: 'postgres' as const, dsn: 'postgres://me@h/db', password: '' }]) {
      const run = scripted(answers, { firstRoot: folder, readCatalog: () => assert.fail('read although cancelled') });
      assert.deepEqual(await createAppFromDatabase(run.deps), { outcome: 'cancelled' }, JSON.stringify(answers));
      assert.deepEqual(run.notices, []);
    }
    assert.equal(existsSync(join(folder, 'xos.json')), false);
  });

  test('with xos.endpoint set: the file and xos.dsn are written, and the person is told XOS stays on the server', async () => {
    const folder = join(dir.path, 'ws-endpoint');
    mkdir(folder);
    const run = scripted({ kind: 'sqlite', file: chinook, target: { kind: 'folder', folder } }, { firstRoot: folder, current: { endpoint: 'https://xos.example/graphql' } });
    const result = await createAppFromDatabase(run.deps);
    assert.equal(result.outcome, 'written');
    assert.equal(run.events.at(-1), 'no start');
    assert.equal(run.notices[0].kind, 'warning');
    assert.match(run.notices[0].text, /xos\.endpoint is set, so XOS keeps using that server/);
  });
});

describe('createAppFromDatabase on PostgreSQL (the catalog read scripted)', () => {
  let dir: TempDir;
  const column = (name: string, typeName: string, extra: Partial<CatalogColumn> = {}): CatalogColumn => ({ name, type: typeName, typeName, notNull: false, ...extra });
  const shop: Catalog = {
    dialect: 'postgres', database: 'shop', schema: 'sales',
    tables: [
      { name: 'customer', schema: 'sales', kind: 'table', primaryKey: ['id'], foreignKeys: [], uniques: [],
        columns: [column('id', 'int4', { notNull: true, autoincrement: true, default: "nextval('customer_id_seq'::regclass)" }), column('name', 'text', { notNull: true })] },
      { name: 'note', schema: 'sales', kind: 'view', primaryKey: [], foreignKeys: [], uniques: [], columns: [column('body', 'text')] },
    ],
  };

  before(async () => {
    dir = await tempDir('xos-create-app-pg');
  });

  after(async () => {
    await dir?.remove();
  });

  test('the password goes to the driver and the secret storage, never to the settings, the log or the file', async () => {
    const folder = join(dir.path, 'ws-pg');
    mkdir(folder);
    const password = 'pa:ss@w/rd!';
    const reads: Array<[string, string | undefined]> = [];
    const run = scripted({ kind: 'postgres', dsn: ' postgres://me@db.example:5432/shop ', password, schema: 'sales', target: { kind: 'folder', folder } },
      { firstRoot: folder, readCatalog: async (dsn, schema) => { reads.push([dsn, schema]); return shop; } });
    const result = await createAppFromDatabase(run.deps);
    assert.equal(result.outcome, 'written', JSON.stringify(result));
    assert.equal(reads.length, 1);
    assert.equal(decodeURIComponent(new URL(reads[0][0]).password), password);
    assert.equal(reads[0][1], 'sales');
    assert.deepEqual(run.asked, ['dsn problem: none', 'password of me@db.example:5432/shop']);
    const key = dsnSecretKey('postgres://me@db.example:5432/shop')!;
    assert.equal(key, 'xos.dsn.password:me@db.example:5432/shop');
    assert.deepEqual([...run.stored], [[key, password]]);
    assert.deepEqual(run.updates, [{ target: 'workspace', values: { dsn: 'postgres://me@db.example:5432/shop' } }]);
    // Stored while the backend waits, before the settings: its one start has both.
    assert.deepEqual(run.events.slice(2), ['hold', `secret ${key}`, 'settings {"dsn":"postgres://me@db.example:5432/shop"}', 'start']);
    const everything = [...run.log, ...run.notices.map((n) => n.text), readFileSync(join(folder, 'xos.json'), 'utf8'), JSON.stringify(run.updates)].join('\n');
    for (const form of [password, encodeURIComponent(password)]) assert.ok(!everything.includes(form), `the password (${form}) leaked`);
    assert.ok(run.log.includes('info read postgres://db.example:5432/shop (schema sales): 2 tables and views, 1 XOS can serve'), run.log.join('\n'));
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(folder, 'xos.json'), 'utf8')).entities), ['customer']);
  });

  test('an empty password keeps the stored one; a wrong one is not stored and nothing is written', async () => {
    const folder = join(dir.path, 'ws-pg-wrong');
    mkdir(folder);
    const key = dsnSecretKey('postgres://me@db.example:5432/shop')!;
    const reads: string[] = [];
    const refused = Object.assign(new Error('password authentication failed for user "me"'), { code: '28P01' });
    const run = scripted({ kind: 'postgres', dsn: 'postgres://me@db.example:5432/shop', password: '', schema: '', target: { kind: 'folder', folder } },
      { firstRoot: folder, stored: { [key]: 'old' }, readCatalog: async (dsn) => { reads.push(dsn); throw refused; } });
    const result = await createAppFromDatabase(run.deps);
    assert.deepEqual(result, { outcome: 'failed', message: 'PostgreSQL refused the password for me@db.example:5432/shop. Run the command again and enter the right password.' });
    assert.equal(new URL(reads[0]).password, 'old');
    assert.deepEqual(run.asked, ['dsn problem: none', 'password of me@db.example:5432/shop (stored)']);
    assert.deepEqual([...run.stored], [[key, 'old']]);
    assert.equal(existsSync(join(folder, 'xos.json')), false);
    assert.deepEqual(run.updates, []);
  });

  test('a real refused connection (nothing listens on the port)', async () => {
    const folder = join(dir.path, 'ws-pg-refused');
    mkdir(folder);
    const run = scripted({ kind: 'postgres', dsn: 'postgres://me@127.0.0.1:1/shop', password: 'x', schema: 'public', target: { kind: 'folder', folder } }, { firstRoot: folder });
    const result = await createAppFromDatabase(run.deps);
    assert.deepEqual(result, { outcome: 'failed', message: 'PostgreSQL at 127.0.0.1:1 refused the connection. Check that the server is running and that host and port are right.' });
    assert.deepEqual(run.stored.size, 0);
  });
});

test('on a real PostgreSQL server: the schema asked for is read, xos.dsn names it without password', { timeout: 120_000 }, async () => {
  const server = await startPostgres();
  const dir = await tempDir('xos-create-app-real-pg');
  try {
    const client = new pg.Client({ connectionString: server.dsn });
    await client.connect();
    await client.query('CREATE SCHEMA sales; CREATE TABLE sales.client (id serial PRIMARY KEY, name text NOT NULL); CREATE TABLE public.other (id serial PRIMARY KEY)');
    await client.end();
    const url = new URL(server.dsn);
    const dsn = `postgres://${url.username}@${url.host}${url.pathname}`;
    const run = scripted({ kind: 'postgres', dsn, password: 'unused-by-trust', schema: 'sales', target: { kind: 'folder', folder: dir.path } }, { firstRoot: dir.path });
    const result = await createAppFromDatabase(run.deps);
    assert.equal(result.outcome, 'written', JSON.stringify(result));
    const ast = JSON.parse(readFileSync(join(dir.path, 'xos.json'), 'utf8'));
    assert.deepEqual(Object.keys(ast.entities), ['client']);
    assert.equal(ast.entities.client.schema, 'sales');
    assert.deepEqual(run.updates, [{ target: 'workspace', values: { dsn } }]);
    assert.deepEqual([...run.stored], [[dsnSecretKey(dsn), 'unused-by-trust']]);

    const missing = scripted({ kind: 'postgres', dsn, password: '', schema: 'nope', target: { kind: 'folder', folder: join(dir.path, 'x') } }, { firstRoot: dir.path });
    assert.deepEqual(await createAppFromDatabase(missing.deps), { outcome: 'failed', message: 'The database has no schema nope. Run the command again with one of: public, sales.' });
  } finally {
    await dir.remove();
    await server.stop();
  }
});

test('every text of the command has a German translation', () => {
  const source = readFileSync(new URL('../../src/app/createAppFlow.ts', import.meta.url), 'utf8');
  const call = /\bt\(\s*'((?:\\.|[^'\\])*)'/g;
  const messages = [...source.matchAll(call)].map((match) => match[1].replace(/\\(.)/g, '$1'));
  assert.ok(messages.length > 30, `found ${messages.length}`);
  const german = JSON.parse(readFileSync(new URL('../../l10n/bundle.l10n.de.json', import.meta.url), 'utf8')) as Record<string, string>;
  assert.deepEqual(messages.filter((message) => !german[message]), []);
  assert.equal(postgresDsnProblem('postgres://me:pw@h/db', translator('de')),
    'Lassen Sie das Passwort weg: XOS fragt als Nächstes danach und bewahrt es im geheimen Speicher von VS Code auf, nie in den Einstellungen.');
});

function mkdir(path: string): void {
  mkdirSync(path, { recursive: true });
}
