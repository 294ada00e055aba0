// XOS over databases this project did not write: Chinook (SQLite) and Pagila (PostgreSQL), loaded
// from their published scripts. `init` makes the app (a golden file each); then the seed's
// workflow runs through the real MCP tools: schema, a list, a record, a proposal, the person's
// confirmed save, read back — and a full dump of every table before and after shows exactly the
// confirmed cells changed (and what the database's own triggers change with them). Another writer
// between load and save is a conflict that writes nothing; the DDL is byte-identical afterwards.
//   XOS_UPDATE_GOLDEN=1 node --test test/integration/ownDatabase.samples.test.ts   (rewrite the goldens)
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import type { Ast } from '../../src/ast/schema.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import { validateAst } from '../../src/ast/validate.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { readCatalog, runInit } from '../../src/backend/introspect/init.ts';
import { startXosMcp } from '../../src/standalone/xosMcp.ts';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { formatJson } from '../../src/backend/introspect/json.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { changedCells, postgresDdl, postgresRows, sqliteDdl, sqliteRows, type TableRows } from '../support/databaseDumps.ts';
import { connectInMemory } from '../support/mcpClient.ts';
import { SayingSave } from '../support/sayingSave.ts';
import { readEveryContext } from '../support/readEveryContext.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { createChinookSqlite, createSamplePostgres } from '../support/sampleDatabases.ts';
import { tempDir } from '../support/tmp.ts';

const SAMPLES = join(import.meta.dirname, '..', 'fixtures', 'samples');
const updateGolden = process.env.XOS_UPDATE_GOLDEN === '1';

interface Sample {
  readonly dsn: string;
  readonly golden: string;
  ddl(): Promise<string>;
  rows(): Promise<TableRows>;
  /** Another program's write, in its own connection. */
  write(sql: string): Promise<void>;
  /** The record the agent changes, the change, and the cells the database shows changed after it. */
  readonly change: { context: string; id: string; changes: Record<string, unknown>; cells: string[] };
  /** The record another program changes between the agent's load and its save. */
  readonly race: { context: string; id: string; mine: Record<string, unknown>; theirs: string; check: string[] };
  /** A view served read-only: its list context and how many rows it shows. */
  readonly view?: { context: string; rows: number };
  /** Totals per group through the API, checked against the same totals summed here from the database's rows. */
  totals(backend: Backend, rows: TableRows): Promise<void>;
}

type Json = Record<string, any>;

async function aggregate(backend: Backend, query: string): Promise<Json[]> {
  const result = JSON.parse(JSON.stringify(await backend.api.run({ query }))) as { data?: Json; errors?: unknown[] };
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return Object.values(result.data!)[0].groups as Json[];
}

/** Count and cents per key, the keys ascending (as the API orders groups). */
function centsBy(rows: readonly Record<string, unknown>[], key: (row: Record<string, unknown>) => string, amount: (row: Record<string, unknown>) => unknown): [string, { count: number; cents: bigint }][] {
  const totals = new Map<string, { count: number; cents: bigint }>();
  for (const row of rows) {
    const totalsOf = totals.get(key(row)) ?? { count: 0, cents: 0n };
    totals.set(key(row), { count: totalsOf.count + 1, cents: totalsOf.cents + BigInt(Math.round(Number(amount(row)) * 100)) });
  }
  return [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const money = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

function assertGolden(ast: Ast, file: string): void {
  const text = formatJson(ast);
  if (updateGolden || !existsSync(file)) {
    writeFileSync(file, text);
    return;
  }
  assert.equal(text, readFileSync(file, 'utf8'), `${file} differs from what init makes now; review, then XOS_UPDATE_GOLDEN=1`);
}

async function workflow(sample: Sample): Promise<void> {
  const { ast } = catalogToAst(await readCatalog(sample.dsn));
  const validation = validateAst(ast);
  assert.ok(validation.ok, JSON.stringify(validation));
  assertGolden(ast, sample.golden);
  const ddl = await sample.ddl();
  const before = await sample.rows();

  const backend = await startBackend({ ast, dsn: sample.dsn });
  try {
    assert.deepEqual([backend.migration.createdTables, backend.migration.addedColumns, backend.migration.createdIndexes], [[], [], []]);
    assert.equal(backend.migration.audit.kept, false);

    await readEveryContext(backend, ast);
    await sample.totals(backend, before);

    const confirmer = new SayingSave();
    const board = new BoardState();
    const { call } = await connectInMemory({ client: embeddedClient(backend), board, confirmer }, 'samples');

    // Schema first, then a list as the seed's example asks for it.
    const schema = await call('xos_schema');
    assert.equal(schema.isError, false, schema.text);
    const { context, id, changes, cells } = sample.change;
    const listContext = context.replace(/_detail$/, '_list');
    const list = await call('xos_query', { context: listContext, query: exampleQuery(ast, listContext) });
    assert.equal(list.isError, false, list.text);
    assert.equal(board.list()?.context, listContext, 'the Board shows the table');
    assert.match(list.text, /\((59|599) records of customer_list\.\)/);

    // A record, a proposal, the person's Save, read back.
    const detailQuery = exampleQuery(ast, context).replace('(id: "1")', `(id: "${id}")`);
    const loaded = await call('xos_query', { context, query: detailQuery });
    assert.equal(loaded.isError, false, loaded.text);
    const proposed = await call('xos_ui_change_required', { context, changes });
    assert.equal(proposed.isError, false, proposed.text);
    const saved = await call('xos_ui_save');
    assert.equal(saved.isError, false, saved.text);
    // init names a customer by "{first_name} {last_name}": the reply names the record by it.
    assert.match(saved.text, new RegExp(`^Saved customer ${id} "[^"]+ [^"]+" \\(version `), saved.text);
    assert.equal(confirmer.asked, 1);
    const reread = await call('xos_query', { context, query: detailQuery });
    assert.equal(reread.isError, false, reread.text);
    const record = board.snapshot().detail!.record;
    for (const [field, value] of Object.entries(changes)) assert.equal(record[field], value, `${field} reads back`);
    assert.deepEqual(changedCells(before, await sample.rows()), cells, 'exactly the confirmed cells changed');

    // Another program writes the record between the agent's load and the person's Save.
    const race = sample.race;
    const raceQuery = exampleQuery(ast, race.context).replace('(id: "1")', `(id: "${race.id}")`);
    assert.equal((await call('xos_query', { context: race.context, query: raceQuery })).isError, false);
    assert.equal((await call('xos_ui_change_required', { context: race.context, changes: race.mine })).isError, false);
    const beforeRace = await sample.rows();
    confirmer.whileAsked = () => sample.write(race.theirs);
    const conflict = await call('xos_ui_save');
    confirmer.whileAsked = undefined;
    assert.equal(conflict.isError, true, conflict.text);
    assert.match(conflict.text, /changed by someone else .*nothing was written/s);
    const afterRace = await sample.rows();
    assert.deepEqual(changedCells(beforeRace, afterRace), race.check, 'only the other program\'s write landed');

    if (sample.view) {
      // A view is read like a table, and offers nothing to change.
      const shown = await call('xos_query', { context: sample.view.context, query: exampleQuery(ast, sample.view.context) });
      assert.equal(shown.isError, false, shown.text);
      assert.match(shown.text, new RegExp(`\\(${sample.view.rows} records of ${sample.view.context}\\.\\)`));
      const detail = sample.view.context.replace(/_list$/, '_detail');
      const refused = await call('xos_ui_change_required', { context: detail, changes: { title: 'x' } });
      assert.equal(refused.isError, true, refused.text);
    }
  } finally {
    await backend.close();
  }
  assert.equal(await sample.ddl(), ddl, 'the DDL is byte-identical after the session');
}

describe('XOS over public sample databases', () => {
  let server: PostgresServer | undefined;
  after(async () => {
    await server?.stop();
  });

  test('Chinook on SQLite: init, the seed workflow through the tools, a foreign write caught, the schema untouched', async () => {
    await using dir = await tempDir('xos-chinook-app');
    const file = join(dir.path, 'chinook.db');
    await createChinookSqlite(file);
    await workflow({
      dsn: `sqlite:${file}`,
      golden: join(SAMPLES, 'chinook', 'chinook.xos.json'),
      ddl: async () => sqliteDdl(file),
      rows: async () => sqliteRows(file),
      write: async (sql) => {
        const db = new DatabaseSync(file);
        try {
          db.exec(sql);
        } finally {
          db.close();
        }
      },
      change: { context: 'customer_detail', id: '5', changes: { city: 'Lübeck', company: 'Übersee GmbH' }, cells: ['Customer[5].City', 'Customer[5].Company'] },
      race: {
        context: 'customer_detail', id: '7', mine: { city: 'Agentstadt' },
        theirs: 'UPDATE "Customer" SET "Phone" = \'+43 1 234\' WHERE "CustomerId" = 7', check: ['Customer[7].Phone'],
      },
      // Revenue per month (InvoiceDate is SQLite's text "2009-01-01 00:00:00", Total a REAL), and
      // the five countries with the most revenue, the rest as others.
      totals: async (backend, rows) => {
        const invoices = [...rows.get('Invoice')!.values()];
        const months = centsBy(invoices, (row) => `${String(row.InvoiceDate).slice(0, 7)}-01`, (row) => row.Total);
        assert.deepEqual(await aggregate(backend, '{ invoice_list_aggregate(group_by: [{ invoice_date: month }], limit: 10000) { groups { key { invoice_date } count sum { total } } } }'),
          months.map(([month, t]) => ({ key: { invoice_date: month }, count: t.count, sum: { total: money(t.cents) } })));
        const countries = centsBy(invoices, (row) => String(row.BillingCountry), (row) => row.Total).sort(([a, x], [b, y]) => (x.cents === y.cents ? (a < b ? -1 : 1) : x.cents > y.cents ? -1 : 1));
        const result = JSON.parse(JSON.stringify(await backend.api.run({
          query: '{ invoice_list_aggregate(group_by: [{ billing_country: true }], order_by: [{ sum: { total: desc } }], limit: 5, others: true) { total_groups groups { key { billing_country } sum { total } } others { groups count sum { total } } } }',
        }))).data.invoice_list_aggregate;
        const rest = countries.slice(5).map(([, t]) => t);
        assert.deepEqual(result, {
          total_groups: countries.length,
          groups: countries.slice(0, 5).map(([country, t]) => ({ key: { billing_country: country }, sum: { total: money(t.cents) } })),
          others: { groups: rest.length, count: rest.reduce((n, t) => n + t.count, 0), sum: { total: money(rest.reduce((n, t) => n + t.cents, 0n)) } },
        });
      },
    });
  });

  test('Pagila on PostgreSQL: the same; its trigger\'s last_update is the only other cell that moves', async () => {
    server = await startPostgres();
    const dsn = await createSamplePostgres(server, 'pagila_app');
    await workflow({
      dsn,
      golden: join(SAMPLES, 'pagila', 'pagila.xos.json'),
      ddl: () => postgresDdl(dsn),
      rows: () => postgresRows(dsn),
      write: async (sql) => {
        const client = new pg.Client({ connectionString: dsn });
        await client.connect();
        try {
          await client.query(sql);
        } finally {
          await client.end();
        }
      },
      change: { context: 'customer_detail', id: '5', changes: { email: 'elizabeth.brown@example.org' }, cells: ['customer[5].email', 'customer[5].last_update'] },
      race: {
        context: 'customer_detail', id: '7', mine: { last_name: 'AGENT' },
        theirs: 'UPDATE customer SET first_name = \'MARIAH\' WHERE customer_id = 7', check: ['customer[7].first_name', 'customer[7].last_update'],
      },
      view: { context: 'film_list_list', rows: 997 },
      // Stock per store (inventory per store), and revenue per month over payment's monthly partitions.
      totals: async (backend, rows) => {
        const inventory = [...rows.get('inventory')!.values()];
        const stock = centsBy(inventory, (row) => String(row.store_id), () => 0);
        assert.deepEqual(await aggregate(backend, '{ inventory_list_aggregate(group_by: [{ store: true }]) { groups { key { store_id } count } } }'),
          stock.map(([store, t]) => ({ key: { store_id: store }, count: t.count })));
        const payments = [...rows].filter(([name]) => /^(public\.)?payment_p\d{4}_\d{2}$/.test(name)).flatMap(([, table]) => [...table.values()]);
        assert.equal(payments.length, 16_049);
        const months = centsBy(payments, (row) => `${new Date(String(row.payment_date)).toISOString().slice(0, 7)}-01`, (row) => row.amount);
        assert.deepEqual(await aggregate(backend, '{ payment_list_aggregate(group_by: [{ payment_date: month }]) { groups { key { payment_date } count sum { amount } } } }'),
          months.map(([month, t]) => ({ key: { payment_date: month }, count: t.count, sum: { amount: money(t.cents) } })));
      },
    });
  });
});

test('xos-mcp serves the app init made of Chinook: the agent reads it over MCP, the status says nothing is recorded', async () => {
  await using dir = await tempDir('xos-mcp-chinook');
  const file = join(dir.path, 'chinook.db');
  await createChinookSqlite(file);
  const astFile = join(dir.path, 'xos.json');
  await runInit({ from: `sqlite:${file}`, out: astFile }, () => {});
  const ddl = sqliteDdl(file);
  const token = 'xos-mcp-chinook-token-0123456789';
  const running = await startXosMcp({
    ast: astFile, dsn: `sqlite:${file}`, transport: 'http', port: 0, token, boardPort: 0, locale: 'en',
    dataDir: join(dir.path, 'data'), exportDir: dir.path, log: () => {},
  });
  const client = new Client({ name: 'chinook', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(running.mcp!.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const text = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      return { text: (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join(''), isError: result.isError === true, structured: result.structuredContent as Record<string, any> | undefined };
    };
    const schema = await text('xos_schema');
    assert.equal(schema.isError, false, schema.text);
    assert.ok(schema.text.includes('invoice_line_list'), 'the schema names the Chinook contexts');
    const ast = JSON.parse(readFileSync(astFile, 'utf8')) as Ast;
    const tracks = await text('xos_query', { context: 'track_list', query: exampleQuery(ast, 'track_list') });
    assert.match(tracks.text, /\(3503 records of track_list\.\)/);
    const status = await text('xos_system_status');
    assert.equal(status.structured?.dsn.audit.kept, false);
    assert.match(status.structured?.dsn.audit.reason, /"audit": true/);
  } finally {
    await client.close();
    await running.close();
  }
  assert.equal(sqliteDdl(file), ddl);
});
