// Before a sort that reads every row: whether an index serves a list's sort (its first column,
// the row key, or the sort index XOS makes for its own tables) and how many rows the table holds,
// on the person's own databases (Chinook on SQLite, Pagila on PostgreSQL) and on XOS's own tables.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Ast } from '../../src/ast/schema.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { readCatalog } from '../../src/backend/introspect/init.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import { costlySort } from '../../src/core/sortHint.ts';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { createChinookSqlite, createSamplePostgres, SAMPLES } from '../support/sampleDatabases.ts';
import { tempDir } from '../support/tmp.ts';

async function golden(name: string): Promise<Ast> {
  return JSON.parse(await readFile(join(SAMPLES, name, `${name}.xos.json`), 'utf8')) as Ast;
}

describe('what a sort costs before it runs', () => {
  let server: PostgresServer | undefined;
  after(async () => {
    await server?.stop();
  });

  test('Chinook on SQLite: a column without an index is named with the index that would serve it; keys and indexed refs are not', async () => {
    await using dir = await tempDir('xos-sort-hint');
    const file = join(dir.path, 'chinook.db');
    await createChinookSqlite(file);
    const backend = await startBackend({ ast: await golden('chinook'), dsn: `sqlite:${file}` });
    try {
      const deps = { client: embeddedClient(backend) };
      assert.deepEqual(await costlySort(deps, 'track_list', 'name', 1000), { field: 'name', rows: 3503, index: 'CREATE INDEX ON "Track" ("Name", "TrackId")' });
      assert.equal(await costlySort(deps, 'track_list', 'name'), undefined, '3,503 rows are no wait');
      assert.equal(await costlySort(deps, 'track_list', 'album', 1000), undefined, 'its foreign key has an index (IFK_TrackAlbumId)');
      assert.equal(await costlySort(deps, 'track_list', 'id', 1000), undefined, 'the row key');
      const refused = await backend.api.run({ query: '{ xos_sort_hint(context: "track_detail", field: "name") { indexed } }' });
      assert.match(refused.errors?.[0]?.message ?? '', /is not a list context/);
    } finally {
      await backend.close();
    }
  });

  test('Pagila on PostgreSQL: the same from the catalog (idx_title serves title, nothing serves description)', async () => {
    server = await startPostgres();
    const dsn = await createSamplePostgres(server, 'pagila_sort');
    const backend = await startBackend({ ast: await golden('pagila'), dsn });
    try {
      const deps = { client: embeddedClient(backend) };
      assert.equal(await costlySort(deps, 'film_list', 'title', 100), undefined);
      assert.deepEqual(await costlySort(deps, 'film_list', 'description', 100), { field: 'description', rows: 1000, index: 'CREATE INDEX ON "film" ("description", "film_id")' });
    } finally {
      await backend.close();
    }
  });

  test('PostgreSQL: an index serves a sort when it orders by the column and then the key, either way round, or is unique on it; one on the column alone only while a value has few rows; a partial or hash index never', async () => {
    server ??= await startPostgres();
    const dsn = await server.createDatabase('sort_shapes');
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      await client.query(`CREATE TABLE item (item_id integer PRIMARY KEY, active boolean, code text, label text, note text, serial text, ref text, mixed text);
        INSERT INTO item SELECT g, g % 2 = 0, 'c' || g, 'l' || g, 'n' || g, 's' || g, 'r' || g, 'm' || (g % 3) FROM generate_series(1, 20000) g;
        CREATE INDEX ON item (active);
        CREATE INDEX ON item (code DESC, item_id DESC);
        CREATE INDEX ON item (label);
        CREATE INDEX ON item USING hash (note);
        CREATE UNIQUE INDEX ON item (serial);
        CREATE INDEX ON item (ref) WHERE active;
        CREATE INDEX ON item (mixed DESC, item_id ASC);
        ANALYZE item;`);
    } finally {
      await client.end();
    }
    const { ast } = catalogToAst(await readCatalog(dsn));
    const backend = await startBackend({ ast, dsn });
    try {
      const hint = async (field: string) => {
        const result = await backend.api.run({ query: 'query ($field: String!) { xos_sort_hint(context: "item_list", field: $field) { indexed index } }', variables: { field } });
        assert.equal(result.errors, undefined, field);
        return { ...(result.data?.xos_sort_hint as { indexed: boolean; index: string | null }) };
      };
      assert.deepEqual(await hint('active'), { indexed: false, index: 'CREATE INDEX ON "item" ("active", "item_id")' }, '10,000 rows a value: each sorted by the key');
      assert.deepEqual(await hint('code'), { indexed: true, index: null }, '(code DESC, item_id DESC): scanned either way');
      assert.deepEqual(await hint('label'), { indexed: true, index: null }, 'one row a value: the key sorts nothing');
      assert.equal((await hint('note')).indexed, false, 'a hash index keeps no order');
      assert.deepEqual(await hint('serial'), { indexed: true, index: null }, 'unique');
      assert.equal((await hint('ref')).indexed, false, 'a partial index holds some rows only');
      assert.equal((await hint('mixed')).indexed, false, '(mixed DESC, item_id ASC): the key the other way round, and 6,667 rows a value');
      assert.deepEqual(await hint('id'), { indexed: true, index: null }, 'the key');
    } finally {
      await backend.close();
    }
  });

  test('SQLite: an index on the column alone ends with the rowid, so it serves when the key is the rowid; with another key, the column and the key', async () => {
    await using dir = await tempDir('xos-sort-shapes');
    const file = join(dir.path, 'shapes.db');
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE item (item_id INTEGER PRIMARY KEY, active INTEGER, code TEXT, note TEXT);
      CREATE INDEX item_active ON item (active);
      CREATE INDEX item_note ON item (note) WHERE active = 1;
      CREATE TABLE tag (tag_code TEXT PRIMARY KEY, colour TEXT, weight INTEGER, label TEXT) WITHOUT ROWID;
      CREATE INDEX tag_colour ON tag (colour);
      CREATE TABLE part (part_no TEXT PRIMARY KEY, colour TEXT, weight INTEGER, label TEXT);
      CREATE INDEX part_colour ON part (colour);
      CREATE INDEX part_weight ON part (weight DESC, part_no DESC);
      CREATE UNIQUE INDEX part_label ON part (label);`);
    db.close();
    const { ast } = catalogToAst(await readCatalog(`sqlite:${file}`));
    const backend = await startBackend({ ast, dsn: `sqlite:${file}` });
    try {
      const indexed = async (context: string, field: string) => {
        const result = await backend.api.run({ query: 'query ($context: String!, $field: String!) { xos_sort_hint(context: $context, field: $field) { indexed } }', variables: { context, field } });
        assert.equal(result.errors, undefined, `${context}.${field}`);
        return (result.data?.xos_sort_hint as { indexed: boolean }).indexed;
      };
      assert.equal(await indexed('item_list', 'active'), true, '(active, rowid) and the key is the rowid');
      assert.equal(await indexed('item_list', 'code'), false, 'no index');
      assert.equal(await indexed('item_list', 'note'), false, 'partial');
      assert.equal(await indexed('tag_list', 'colour'), true, 'WITHOUT ROWID: (colour, tag_code)');
      assert.equal(await indexed('part_list', 'colour'), false, '(colour, rowid), but the key is part_no');
      assert.equal(await indexed('part_list', 'weight'), true, '(weight DESC, part_no DESC)');
      assert.equal(await indexed('part_list', 'label'), true, 'unique');
    } finally {
      await backend.close();
    }
  });

  test('XOS\'s own tables: every sortable list column has its index (the Board does not even ask)', async () => {
    const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    try {
      for (const field of ['lastname', 'city', 'age']) {
        const result = await backend.api.run({ query: `{ xos_sort_hint(context: "person_list", field: "${field}") { indexed index } }` });
        assert.deepEqual({ ...(result.data?.xos_sort_hint as object) }, { indexed: true, index: null }, field);
      }
    } finally {
      await backend.close();
    }
  });
});
