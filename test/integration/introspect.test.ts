// xos-server init on real databases: each edge schema of test/fixtures/ownDatabase/ is loaded into
// SQLite and PostgreSQL, read, and mapped to an AST that must equal its golden file
// (XOS_UPDATE_GOLDEN=1 writes them anew), validate, and leave the database as it was. The CLI
// runs once end to end (from source): it writes the file, then only compares.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Ast } from '../../src/ast/schema.ts';
import { validateAst } from '../../src/ast/validate.ts';
import { formatJson } from '../../src/backend/introspect/json.ts';
import { readPostgresCatalog } from '../../src/backend/introspect/postgresCatalog.ts';
import { readSqliteCatalog } from '../../src/backend/introspect/sqliteCatalog.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { postgresDdl } from '../support/databaseDumps.ts';
import { readEveryContext } from '../support/readEveryContext.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { tempDir } from '../support/tmp.ts';

const run = promisify(execFile);
const FIXTURES = new URL('../fixtures/ownDatabase/', import.meta.url).pathname;
const CLI = new URL('../../src/backend/cli.ts', import.meta.url).pathname;
const UPDATE_GOLDEN = process.env.XOS_UPDATE_GOLDEN === '1';

const dir = await tempDir('xos-introspect');
after(() => dir.remove());

// ---------------------------------------------------------------- golden files

/** The AST as init writes it must equal the golden file, or the test fails with a line diff. */
async function assertGolden(name: string, ast: Ast): Promise<void> {
  const path = join(FIXTURES, name);
  const actual = formatJson(ast);
  if (UPDATE_GOLDEN) {
    await writeFile(path, actual);
    return;
  }
  const expected = existsSync(path) ? await readFile(path, 'utf8') : undefined;
  if (expected === undefined) assert.fail(`${name} is missing: run this test with XOS_UPDATE_GOLDEN=1 to write it`);
  if (actual !== expected) {
    assert.fail(`the AST differs from test/fixtures/ownDatabase/${name} (- golden, + now; XOS_UPDATE_GOLDEN=1 accepts it):\n${lineDiff(expected, actual)}`);
  }
}

/** The changed lines with two lines around each change: `-` and the golden file's line, `+` and the new one's. */
function lineDiff(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  // Longest common subsequence, table from the end.
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const lines: Array<{ mark: ' ' | '-' | '+'; text: string; line: number }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i], line: ++i });
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1][j] >= lcs[i][j + 1])) lines.push({ mark: '-', text: a[i], line: ++i });
    else lines.push({ mark: '+', text: b[j], line: ++j });
  }
  const near = (k: number) => lines.slice(Math.max(0, k - 2), k + 3).some((l) => l.mark !== ' ');
  const out: string[] = [];
  lines.forEach((l, k) => {
    if (!near(k)) return;
    if (out.length > 0 && !near(k - 1)) out.push('  …');
    out.push(`${l.mark} ${String(l.line).padStart(4)} ${l.text}`);
  });
  return out.join('\n');
}

function assertValid(ast: Ast): void {
  const result = validateAst(ast);
  assert.ok(result.ok, result.ok ? '' : result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
}

// ---------------------------------------------------------------- SQLite

function createSqlite(path: string): void {
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: true });
  try {
    db.exec(readFileSync(join(FIXTURES, 'edge.sqlite.sql'), 'utf8'));
  } finally {
    db.close();
  }
}

/** The schema as SQLite keeps it, and the file's bytes: reading must change neither. */
function sqliteState(path: string): { ddl: unknown[]; sha256: string } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const ddl = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name').all()
      .concat(db.prepare('SELECT * FROM pragma_schema_version').all());
    return { ddl, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
  } finally {
    db.close();
  }
}

describe('init on SQLite', () => {
  test('the edge schema maps to the golden AST, which validates; the file is unchanged', async () => {
    const path = join(dir.path, 'edge.db');
    createSqlite(path);
    const state = sqliteState(path);
    const { ast, leftOutTables, leftOutColumns } = catalogToAst(readSqliteCatalog(path));
    assertValid(ast);
    await assertGolden('edge.sqlite.xos.json', ast);
    assert.deepEqual(sqliteState(path), state);
    const backend = await startBackend({ ast, dsn: `sqlite:${path}` });
    try {
      await readEveryContext(backend, ast);
    } finally {
      await backend.close();
    }
    assert.deepEqual(sqliteState(path), state, 'served, the file is the same');

    // A table without a key and one with a composite key are read-only entities now; nothing is left out.
    assert.deepEqual(leftOutTables.map((t) => `${t.table}: ${t.reason}`), []);
    assert.match(ast.entities.order_line.read_only ?? '', /^composite key \(order_id, line_no\)/);
    assert.deepEqual(ast.entities.log_entry.fields.id, { type: 'id', label: 'Row', column: 'rowid' });
    assert.deepEqual(leftOutColumns.map((c) => `${c.table}.${c.column}`), ['Customer.photo', 'Customer.anything', 'product.picture']);
    const { customer, order, employee } = ast.entities;
    assert.deepEqual(customer.fields.select, { type: 'text', label: 'Select' });
    assert.deepEqual(customer.fields.groesse, { type: 'int', label: 'Größe', column: 'Größe' });
    assert.deepEqual(order.fields.status, { type: 'enum', label: 'Status', values: ['open', 'paid', 'shipped'] });
    assert.deepEqual([order.fields.tax.read_only, order.fields.gross.read_only], [true, true]);
    assert.equal(employee.fields.manager.entity, 'employee');
    assert.equal(ast.contexts.t_2024_sales_detail.create, undefined, 'INT PRIMARY KEY is no rowid: SQLite does not number it');
    assert.equal(ast.contexts.order_detail.create, true);
  });
});

// ---------------------------------------------------------------- PostgreSQL

describe('init on PostgreSQL', () => {
  let server: PostgresServer;
  let dsn: string;
  before(async () => {
    server = await startPostgres();
    dsn = await server.createDatabase('edge');
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      await client.query(readFileSync(join(FIXTURES, 'edge.postgres.sql'), 'utf8'));
    } finally {
      await client.end();
    }
  });
  after(() => server?.stop());

  test('the edge schema maps to the golden AST, which validates; the DDL is unchanged', async () => {
    const ddl = await postgresDdl(dsn);
    const { ast, leftOutTables } = catalogToAst(await readPostgresCatalog(dsn));
    assertValid(ast);
    await assertGolden('edge.postgres.xos.json', ast);
    assert.equal(await postgresDdl(dsn), ddl);

    assert.deepEqual(leftOutTables.map((t) => t.table), ['order_totals']);
    // Served, every context reads (the ctid of a table without a key, a composite key, a view, uuid and text keys), and the DDL stays.
    const backend = await startBackend({ ast, dsn });
    try {
      await readEveryContext(backend, ast);
    } finally {
      await backend.close();
    }
    assert.equal(await postgresDdl(dsn), ddl);
    const { customer, order, employee, reading } = ast.entities;
    assert.ok(reading, 'a partitioned table is served by its parent');
    assert.ok(!Object.values(ast.entities).some((e) => e.table?.startsWith('reading_')), 'partitions are no entities');
    assert.deepEqual(customer.fields.country, { type: 'enum', label: 'Country', values: ['DE', 'AT', 'CH'] }, 'a domain\'s CHECK IN list');
    assert.deepEqual(customer.fields.home, { type: 'enum', label: 'Home', values: ['DE', 'AT', 'CH'] }, 'a domain over a domain');
    assert.equal(customer.label, 'Customers who order');
    assert.deepEqual(order.fields.total, { type: 'decimal', label: 'Total', scale: 2 }, 'a domain over numeric(10,2)');
    assert.deepEqual(order.fields.status, { type: 'enum', label: 'Status', values: ['open', 'paid', 'shipped'] });
    assert.equal(order.fields.tax.read_only, true);
    assert.equal(employee.fields.badge.read_only, true, 'GENERATED ALWAYS AS IDENTITY');
    assert.equal(ast.contexts.order_detail.create, true, 'the key is an identity column');
  });

  test('another schema: its entities say so; an unknown schema is named with those there are', async () => {
    const { ast } = catalogToAst(await readPostgresCatalog(dsn, 'other'));
    assert.deepEqual(ast.entities.region, {
      label: 'Region', table: 'region', schema: 'other',
      fields: { id: { type: 'id', label: 'ID' }, name: { type: 'text', label: 'Name', required: true } },
    });
    await assert.rejects(readPostgresCatalog(dsn, 'nowhere'), /the database has no schema "nowhere"; it has: other, public/);
  });

  test('the CLI keeps the password out of what it prints', async () => {
    const out = join(dir.path, 'pg.xos.json');
    const withPassword = dsn.replace('://xos@', '://xos:s3cret-pw@');
    const { stdout } = await run(process.execPath, [CLI, 'init', '--from', withPassword, '--out', out]);
    assert.match(stdout, /Read postgres:\/\/127\.0\.0\.1:\d+\/edge \(schema public\): 14 tables and views/);
    // The command to run next connects as printed: the user stays (PostgreSQL refuses a start without one), only the password is left out.
    assert.match(stdout, /\nNext: npx xos-server --ast \S*pg\.xos\.json --dsn postgres:\/\/xos@127\.0\.0\.1:\d+\/edge\n {2}\(the password is left out: give it in PGPASSWORD or in ~\/\.pgpass\)\n$/);
    assert.ok(!stdout.includes('s3cret'), stdout);
    const printed = /--dsn (\S+)/.exec(stdout)?.[1] ?? '';
    const client = new pg.Client({ connectionString: printed, password: 's3cret-pw' });
    await client.connect();
    try {
      assert.equal((await client.query<{ user: string }>('SELECT current_user AS user')).rows[0].user, 'xos');
    } finally {
      await client.end();
    }
    assert.equal(await readFile(out, 'utf8'), await readFile(join(FIXTURES, 'edge.postgres.xos.json'), 'utf8'));
  });
});

// ---------------------------------------------------------------- the CLI

describe('xos-server init', () => {
  test('writes the AST and a summary; run again, it writes nothing and says what the database has that the file lacks', async () => {
    const workDir = join(dir.path, 'cli');
    execFileSync('mkdir', ['-p', workDir]);
    const db = join(workDir, 'edge.db');
    createSqlite(db);
    const out = join(workDir, 'xos.json');
    const init = () => run(process.execPath, [CLI, 'init', '--from', `sqlite:${db}`, '--out', out]);

    const first = await init();
    assert.equal(first.stderr, '');
    assert.equal(first.stdout, [
      `Read sqlite:${db}: 13 tables and views`,
      `Wrote ${out}: app "Edge" with 13 entities and 26 contexts`,
      '  left out 3 columns (see each entity\'s "notes"):',
      '    "Customer"."photo" (type BLOB): XOS has no field type for it',
      '    "Customer"."anything" (type none): XOS has no field type for it',
      '    "product"."picture" (type BLOB): XOS has no field type for it',
      '  audit is off ("audit": false); set it to true for History and Undo (XOS then creates its one audit table)',
      `Next: npx xos-server --ast ${out} --dsn sqlite:${db}`,
      '',
    ].join('\n'));
    const written = await readFile(out, 'utf8');
    assert.equal(written, await readFile(join(FIXTURES, 'edge.sqlite.xos.json'), 'utf8'));

    const again = await init();
    assert.equal(again.stdout, `${out} exists: nothing written. Compared with sqlite:${db}:\n  the file maps everything XOS can serve of the database.\n`);

    const change = new DatabaseSync(db);
    change.exec('ALTER TABLE "Customer" ADD COLUMN "Nickname" VARCHAR(30)');
    change.exec('CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)');
    change.exec('ALTER TABLE product DROP COLUMN id');
    change.close();
    const changed = await init();
    assert.equal(changed.stdout, [
      `${out} exists: nothing written. Compared with sqlite:${db}:`,
      '  would add (the database has it, the file does not):',
      '    column "Customer"."Nickname": the field customer.nickname (string, max 30)',
      '    table "note": the entity note (2 fields)',
      '  no longer in the database (the file names it):',
      '    field product.id_no: the table "product" has no column "id"',
      `To start over, move ${out} away and run init again; or add what you need by hand.`,
      '',
    ].join('\n'));
    assert.equal(await readFile(out, 'utf8'), written, 'the file is never overwritten');
  });

  test('usage errors: no --from, --schema with SQLite, a file that is not there', async () => {
    const refused = async (args: string[]) => {
      const error = await run(process.execPath, [CLI, 'init', ...args]).then(() => undefined, (e: { code: number; stderr: string }) => e);
      assert.ok(error, `init ${args.join(' ')} should fail`);
      return error;
    };
    const noFrom = await refused([]);
    assert.equal(noFrom.code, 2);
    assert.match(noFrom.stderr, /xos-server: init needs --from <dsn>: the database to read\n\nUsage: xos-server/);
    const schema = await refused(['--from', `sqlite:${join(dir.path, 'edge.db')}`, '--schema', 'main']);
    assert.equal(schema.code, 2);
    assert.match(schema.stderr, /--schema is for PostgreSQL/);
    const missing = join(dir.path, 'missing.db');
    const absent = await refused(['--from', `sqlite:${missing}`, '--out', join(dir.path, 'never.json')]);
    assert.equal(absent.code, 1);
    assert.match(absent.stderr, /no SQLite file at .*missing\.db/);
    assert.equal(existsSync(missing), false, 'reading never creates the database');
    assert.equal(existsSync(join(dir.path, 'never.json')), false);
  });
});
