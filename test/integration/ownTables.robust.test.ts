// The person's own tables as databases really are, on SQLite and PostgreSQL: a table of 1,200
// columns is read and saved; columns named like Object.prototype's members (`constructor`,
// `__proto__`, `toString`, `hasOwnProperty`, `valueOf`) never stand in for values a save leaves
// out; a CHECK of the table or of a column's domain refuses a value as a problem of that field,
// naming what the rule allows, with nothing written; enum values that are no GraphQL names
// (Pagila's `PG-13`, a CHECK list's `web shop`) are choices named as PostGraphile names them,
// read, written and filtered in the database's own spelling, and a value outside them is refused
// like any invalid choice.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test, type TestContext } from 'node:test';
import pg from 'pg';
import type { Ast } from '../../src/ast/schema.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { readCatalog } from '../../src/backend/introspect/init.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import { StorageError } from '../../src/backend/storage/errors.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { connectInMemory } from '../support/mcpClient.ts';
import { SayingSave } from '../support/sayingSave.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';

const WIDE_COLUMNS = 1200;
const wideColumns = (type: string) => Array.from({ length: WIDE_COLUMNS }, (_, i) => `"c${i}" ${type}`).join(', ');

const SQLITE_DDL = [
  `CREATE TABLE "wide" ("id" INTEGER PRIMARY KEY, ${wideColumns('TEXT')})`,
  `CREATE TABLE "thing" (
    "id" INTEGER PRIMARY KEY,
    "name" TEXT NOT NULL,
    "constructor" TEXT, "__proto__" TEXT, "toString" TEXT, "hasOwnProperty" TEXT, "valueOf" TEXT,
    "price" NUMERIC(10,2) CHECK ("price" >= 0),
    "stock" INTEGER CONSTRAINT "stock_in_range" CHECK ("stock" BETWEEN 0 AND 1000),
    "released" INTEGER CHECK (released BETWEEN 1901 AND 2155),
    "channel" TEXT CHECK ("channel" IN ('web shop', 'phone', 'in-store')),
    "rating" TEXT CHECK ("rating" IN ('G', 'PG', 'PG-13', 'R', 'NC-17'))
  )`,
];

const POSTGRES_DDL = [
  "CREATE TYPE mpaa_rating AS ENUM ('G', 'PG', 'PG-13', 'R', 'NC-17')",
  'CREATE DOMAIN year AS integer CONSTRAINT year_check CHECK (VALUE >= 1901 AND VALUE <= 2155)',
  `CREATE TABLE "wide" ("id" serial PRIMARY KEY, ${wideColumns('text')})`,
  `CREATE TABLE "thing" (
    "id" serial PRIMARY KEY,
    "name" text NOT NULL,
    "constructor" text, "__proto__" text, "toString" text, "hasOwnProperty" text, "valueOf" text,
    "price" numeric(10,2) CHECK ("price" >= 0),
    "stock" integer CONSTRAINT "stock_in_range" CHECK ("stock" BETWEEN 0 AND 1000),
    "released" year,
    "channel" text CHECK ("channel" IN ('web shop', 'phone', 'in-store')),
    "rating" mpaa_rating
  )`,
];

const ROWS = [
  `INSERT INTO "wide" ("id", "c0", "c1199") VALUES (1, 'first', 'last'), (2, 'second', NULL)`,
  `INSERT INTO "thing" ("id", "name", "price", "stock", "released", "channel", "rating") VALUES
    (1, 'Academy Dinosaur', 9.99, 5, 2006, 'web shop', 'PG-13'),
    (2, 'Ace Goldfinger', 4.99, 0, 2007, 'phone', 'G')`,
];

/** The person's database as another program sees it. */
interface Outside {
  run(sql: string): Promise<Record<string, unknown>[]>;
  /** One cell of a thing, as the database holds it. */
  cell(id: number, column: string): Promise<unknown>;
  close(): Promise<void>;
}

async function sqliteOutside(file: string): Promise<Outside> {
  const db = new DatabaseSync(file);
  const run = async (sql: string) => db.prepare(sql).all() as Record<string, unknown>[];
  return { run, cell: async (id, column) => (await run(`SELECT "${column}" AS v FROM "thing" WHERE "id" = ${id}`))[0].v, close: async () => db.close() };
}

async function postgresOutside(dsn: string): Promise<Outside> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  const run = async (sql: string) => (await client.query(sql)).rows as Record<string, unknown>[];
  return { run, cell: async (id, column) => (await run(`SELECT "${column}"::text AS v FROM "thing" WHERE "id" = ${id}`))[0].v, close: () => client.end() };
}

type Result = { data?: Record<string, any> | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] };

async function gql(backend: Backend, query: string, variables?: Record<string, unknown>): Promise<Result> {
  return await backend.api.run({ query, variables }) as Result;
}

async function ok(backend: Backend, query: string, variables?: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await gql(backend, query, variables);
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return JSON.parse(JSON.stringify(result.data)) as Record<string, any>;
}

async function version(backend: Backend, entity: string, id: string): Promise<number> {
  return (await ok(backend, `{ ${entity}_detail(id: "${id}") { version } }`))[`${entity}_detail`].version as number;
}

/** A hand-written AST may name fields like Object.prototype's members, as GraphQL allows. */
function renameField(ast: Ast, entity: string, from: string, to: string): void {
  const fields = ast.entities[entity].fields;
  ast.entities[entity].fields = Object.fromEntries(Object.entries(fields).map(([name, def]) => (name === from ? [to, def] : [name, def])));
  for (const context of Object.values(ast.contexts)) {
    if (context.entity !== entity) continue;
    context.list_fields = context.list_fields.map((f) => (f === from ? to : f));
    if (context.editable) context.editable = context.editable.map((f) => (f === from ? to : f));
  }
}

async function robust(dsn: string, outside: Outside, t: TestContext): Promise<void> {
  const { ast } = catalogToAst(await readCatalog(dsn));

  assert.deepEqual(Object.keys(ast.entities.thing.fields).slice(0, 7), ['id', 'name', 'constructor', 'proto', 'to_string', 'has_own_property', 'value_of']);
  for (const [generated, member] of [['to_string', 'toString'], ['has_own_property', 'hasOwnProperty'], ['value_of', 'valueOf']]) {
    renameField(ast, 'thing', generated, member);
    assert.equal(ast.entities.thing.fields[member].column, member);
  }

  const backend = await startBackend({ ast, dsn });
  try {
    const board = new BoardState();
    const { call } = await connectInMemory({ client: embeddedClient(backend), board, confirmer: new SayingSave() }, 'robust');
    assert.equal((await call('xos_schema')).isError, false);
    const query = exampleQuery(ast, 'thing_detail');

    await t.test('a table of 1,200 columns is read and saved; a stale save is still a conflict', async () => {
      const wide = await ok(backend, '{ wide_list(order_by: [{ id: asc }]) { id c0 c1199 } }');
      assert.deepEqual(wide.wide_list, [{ id: '1', c0: 'first', c1199: 'last' }, { id: '2', c0: 'second', c1199: null }]);
      const wideVersion = await version(backend, 'wide', '1');
      const saved = await ok(backend, 'mutation ($v: Int!) { update_wide(id: "1", version: $v, set: { c1199: "changed" }) { c1199 version } }', { v: wideVersion });
      assert.equal(saved.update_wide.c1199, 'changed');
      assert.notEqual(saved.update_wide.version, wideVersion, 'the version follows every column');
      await outside.run('UPDATE "wide" SET "c600" = \'someone else\' WHERE "id" = 1');
      const stale = await gql(backend, 'mutation ($v: Int!) { update_wide(id: "1", version: $v, set: { c0: "mine" }) { id } }', { v: saved.update_wide.version });
      assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT', JSON.stringify(stale.errors));
    });

    await t.test('fields named like Object.prototype\'s members: saves and inserts that leave them out', async () => {
      const thingVersion = await version(backend, 'thing', '2');
      const renamed = await ok(backend, 'mutation ($v: Int!, $set: thing_set_input!) { update_thing(id: "2", version: $v, set: $set) { name constructor proto toString hasOwnProperty valueOf } }',
        { v: thingVersion, set: { name: 'Ace Goldfinger II' } });
      assert.deepEqual(renamed.update_thing, { name: 'Ace Goldfinger II', constructor: null, proto: null, toString: null, hasOwnProperty: null, valueOf: null });
      const created = await ok(backend, 'mutation ($o: thing_insert_input!) { insert_thing(object: $o) { id name constructor toString } }', { o: { name: 'Neu' } });
      assert.deepEqual([created.insert_thing.name, created.insert_thing.constructor, created.insert_thing.toString], ['Neu', null, null]);
      const withValues = await ok(backend, 'mutation ($o: thing_insert_input!) { insert_thing(object: $o) { constructor hasOwnProperty } }',
        { o: { name: 'Mit', constructor: 'c', hasOwnProperty: 'h' } });
      assert.deepEqual(withValues.insert_thing, { constructor: 'c', hasOwnProperty: 'h' });

      // The seed workflow through the tools: the person's confirmed save of one field.
      assert.equal((await call('xos_query', { context: 'thing_detail', query })).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'thing_detail', changes: { name: 'Academy Dinosaur II' } })).isError, false);
      const toolSave = await call('xos_ui_save');
      assert.match(toolSave.text, /^Saved thing 1/, toolSave.text);
      assert.equal(await outside.cell(1, 'name'), 'Academy Dinosaur II');
      assert.equal(await outside.cell(1, 'constructor'), null);
    });

    await t.test('a CHECK of the table or of a domain is a problem of its field that says what is allowed; nothing written', async () => {
      const refusals: Array<{ set: Record<string, unknown>; field: string; says: RegExp }> = [
        { set: { price: '-1.00' }, field: 'price', says: /^thing\.price: the database accepts only values for which price >= 0 holds( \(its rule "thing_price_check"\))?; give such a value$/ },
        { set: { stock: 5000 }, field: 'stock', says: /^thing\.stock: the database accepts only values for which .*stock.*1000.* holds \(its rule "stock_in_range"\)/ },
        { set: { released: 1800 }, field: 'released', says: /^thing\.released: the database accepts only values for which .*released.*1901.*2155.* holds/ },
      ];
      const name = await outside.cell(1, 'name');
      for (const { set, field, says } of refusals) {
        const before = await version(backend, 'thing', '1');
        const refused = await gql(backend, 'mutation ($v: Int!, $set: thing_set_input!) { update_thing(id: "1", version: $v, set: $set) { id } }', { v: before, set: { ...set, name: 'never' } });
        assert.equal(refused.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(refused.errors));
        assert.equal(refused.errors?.[0]?.extensions?.field, field, JSON.stringify(refused.errors));
        assert.match(refused.errors?.[0]?.message ?? '', says);
        assert.equal(await outside.cell(1, 'name'), name, 'nothing written');
        assert.equal(await version(backend, 'thing', '1'), before);
      }
      // A new record too; and many records in one batch, none written.
      const refusedInsert = await gql(backend, 'mutation { insert_thing(object: { name: "Teuer", price: "-5" }) { id } }');
      assert.equal(refusedInsert.errors?.[0]?.extensions?.field, 'price', JSON.stringify(refusedInsert.errors));
      assert.equal(Number((await outside.run('SELECT COUNT(*) AS n FROM "thing" WHERE "name" = \'Teuer\''))[0].n), 0);
      const [one, two] = [await version(backend, 'thing', '1'), await version(backend, 'thing', '2')];
      const refusedBatch = await gql(backend, 'mutation ($u: [thing_many_update_input!]!) { update_thing_many(updates: $u) { id } }',
        { u: [{ id: '1', version: one, set: { stock: 7 } }, { id: '2', version: two, set: { stock: -7 } }] });
      assert.equal(refusedBatch.errors?.[0]?.extensions?.field, 'stock', JSON.stringify(refusedBatch.errors));
      assert.equal(Number(await outside.cell(1, 'stock')), 5, 'nothing of the batch written');
      // A NOT NULL the AST does not know of is the field's problem as well.
      await assert.rejects(backend.api.storage.update('thing', 1, await version(backend, 'thing', '1'), { name: null }),
        (error: unknown) => error instanceof StorageError && error.code === 'not_null' && error.column === 'name' && /^thing\.name is required/.test(error.message));
      // Through the tools: the reply names the field and the rule, and nothing is written.
      assert.equal((await call('xos_query', { context: 'thing_detail', query })).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'thing_detail', changes: { price: '-3.50' } })).isError, false);
      const refusedSave = await call('xos_ui_save');
      assert.equal(refusedSave.isError, true);
      assert.match(refusedSave.text, /thing\.price: the database accepts only values for which price >= 0 holds/, refusedSave.text);
      assert.doesNotMatch(refusedSave.text, /internal/i);
      assert.equal(Number(await outside.cell(1, 'price')), 9.99);
    });

    await t.test('enum values that are no GraphQL names: named choices, read, filtered, sorted and written in the database\'s spelling', async () => {
      assert.deepEqual(ast.entities.thing.fields.rating, {
        type: 'enum', label: 'Rating', values: ['G', 'PG', 'PG_13', 'R', 'NC_17'],
        value_labels: { PG_13: 'PG-13', NC_17: 'NC-17' }, column_values: { PG_13: 'PG-13', NC_17: 'NC-17' },
      });
      assert.deepEqual(ast.entities.thing.fields.channel.values, ['web_shop', 'phone', 'in_store']);
      const byRating = await ok(backend, '{ thing_list(where: { rating: { _eq: PG_13 } }) { id rating } }');
      assert.deepEqual(byRating.thing_list, [{ id: '1', rating: 'PG_13' }]);
      const inList = await ok(backend, 'query ($r: [thing_rating!]) { thing_list(where: { rating: { _in: $r } }, order_by: [{ id: asc }]) { id } }', { r: ['NC_17', 'G', 'PG_13'] });
      assert.deepEqual(inList.thing_list.map((row: { id: string }) => row.id), ['1', '2']);
      const notIn = await ok(backend, '{ thing_list(where: { rating: { _nin: [PG_13] } }) { id } }');
      assert.deepEqual(notIn.thing_list, [{ id: '2' }]);
      const sorted = await ok(backend, '{ thing_list(where: { rating: { _is_null: false } }, order_by: [{ rating: desc }]) { id rating } }');
      assert.equal(sorted.thing_list.length, 2);
      const first = await ok(backend, '{ thing_list(order_by: [{ rating: asc }], limit: 1) { id _cursor } }');
      const rest = await ok(backend, 'query ($after: String) { thing_list(order_by: [{ rating: asc }], after: $after) { id } }', { after: first.thing_list[0]._cursor });
      const all = (await ok(backend, '{ thing_list_count }')).thing_list_count as number;
      assert.equal(rest.thing_list.length, all - 1, 'a page by key over the spelt values');
      const rated = await ok(backend, 'mutation ($v: Int!) { update_thing(id: "1", version: $v, set: { rating: NC_17, channel: in_store }) { rating channel } }', { v: await version(backend, 'thing', '1') });
      assert.deepEqual(rated.update_thing, { rating: 'NC_17', channel: 'in_store' });
      assert.deepEqual([await outside.cell(1, 'rating'), await outside.cell(1, 'channel')], ['NC-17', 'in-store']);
      await outside.run(`UPDATE "thing" SET "rating" = 'PG-13' WHERE "id" = 2`);
      assert.equal((await ok(backend, '{ thing_detail(id: "2") { rating } }')).thing_detail.rating, 'PG_13', 'another writer\'s spelling reads as the choice');
      // The database's spelling, or anything else outside the choices, is refused as an invalid choice.
      for (const wrong of ['PG-13', 'XX']) {
        const refused = await gql(backend, 'mutation ($v: Int!, $set: thing_set_input!) { update_thing(id: "1", version: $v, set: $set) { id } }',
          { v: await version(backend, 'thing', '1'), set: { rating: wrong } });
        assert.equal(refused.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(refused.errors));
        assert.match(refused.errors?.[0]?.message ?? '', new RegExp(`Value "${wrong}" does not exist in "thing_rating" enum`));
      }
      assert.equal(await outside.cell(1, 'rating'), 'NC-17');
      // Through the tools: a choice by its name is saved in the database's spelling; any other value is refused.
      assert.equal((await call('xos_query', { context: 'thing_detail', query })).isError, false);
      const notAChoice = await call('xos_ui_change_required', { context: 'thing_detail', changes: { rating: 'PG-13' } });
      assert.equal(notAChoice.isError, true, notAChoice.text);
      assert.match(notAChoice.text, /rating.*one of.*PG_13/s, notAChoice.text);
      assert.equal((await call('xos_ui_change_required', { context: 'thing_detail', changes: { rating: 'PG_13' } })).isError, false);
      assert.match((await call('xos_ui_save')).text, /^Saved thing 1/);
      assert.equal(await outside.cell(1, 'rating'), 'PG-13');
      // Many records in one statement (PostgreSQL casts each value to the enum type) in the same spelling.
      const updates = [{ id: '1', version: await version(backend, 'thing', '1'), set: { rating: 'NC_17' } }, { id: '2', version: await version(backend, 'thing', '2'), set: { rating: 'PG_13' } }];
      await ok(backend, 'mutation ($u: [thing_many_update_input!]!) { update_thing_many(updates: $u) { id } }', { u: updates });
      assert.deepEqual([await outside.cell(1, 'rating'), await outside.cell(2, 'rating')], ['NC-17', 'PG-13']);
    });
  } finally {
    await backend.close();
  }
}

describe('the person\'s own tables as they really are', () => {
  let server: PostgresServer | undefined;
  after(async () => {
    await server?.stop();
  });

  test('SQLite', async (t) => {
    await using dir = await tempDir('xos-own-robust');
    const file = join(dir.path, 'robust.db');
    const outside = await sqliteOutside(file);
    try {
      for (const statement of [...SQLITE_DDL, ...ROWS]) await outside.run(statement);
      await robust(`sqlite:${file}`, outside, t);
    } finally {
      await outside.close();
    }
  });

  test('PostgreSQL', async (t) => {
    server = await startPostgres();
    const dsn = await server.createDatabase('xos_own_robust');
    const outside = await postgresOutside(dsn);
    try {
      for (const statement of [...POSTGRES_DDL, ...ROWS]) await outside.run(statement);
      await outside.run(`SELECT setval(pg_get_serial_sequence('"thing"', 'id'), 2)`);
      await robust(dsn, outside, t);

      await t.test('an enum column an older init made a string: a value outside the enum is a field problem naming the choices', async () => {
        const { ast } = catalogToAst(await readCatalog(dsn));
        ast.entities.thing.fields.rating = { type: 'string', label: 'Rating' };
        const backend = await startBackend({ ast, dsn });
        try {
          const before = await outside.cell(1, 'rating');
          const refused = await gql(backend, 'mutation ($v: Int!) { update_thing(id: "1", version: $v, set: { rating: "XX", name: "never" }) { id } }', { v: await version(backend, 'thing', '1') });
          assert.equal(refused.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(refused.errors));
          assert.equal(refused.errors?.[0]?.extensions?.field, 'rating');
          assert.equal(refused.errors?.[0]?.message, 'thing.rating: the database accepts only one of "G", "PG", "PG-13", "R", "NC-17"; give such a value');
          assert.equal(await outside.cell(1, 'rating'), before);
        } finally {
          await backend.close();
        }
      });
    } finally {
      await outside.close();
    }
  });
});
