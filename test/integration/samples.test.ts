// The public sample databases load from their vendored, unchanged SQL: Chinook into a SQLite
// file, Pagila into PostgreSQL, with the published row counts, in reasonable time.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import {
  CHINOOK_ROW_COUNTS,
  PAGILA_ROW_COUNTS,
  createChinookSqlite,
  createSamplePostgres,
} from '../support/sampleDatabases.ts';
import { tempDir } from '../support/tmp.ts';

// Generous for a busy 2-core machine: Chinook builds in well under a second, Pagila in about one.
const CHINOOK_LOAD_LIMIT_MS = 10_000;
const PAGILA_LOAD_LIMIT_MS = 30_000;

describe('public sample databases', () => {
  test('Chinook builds as a SQLite file with its published rows', async (t) => {
    await using dir = await tempDir('xos-chinook');
    const path = join(dir.path, 'chinook.db');
    const started = performance.now();
    await createChinookSqlite(path);
    const ms = Math.round(performance.now() - started);
    t.diagnostic(`Chinook (SQLite) built in ${ms} ms`);
    assert.ok(ms < CHINOOK_LOAD_LIMIT_MS, `building Chinook took ${ms} ms`);

    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((row) => row.name);
      assert.deepEqual(tables, Object.keys(CHINOOK_ROW_COUNTS).sort());
      for (const [table, rows] of Object.entries(CHINOOK_ROW_COUNTS)) {
        assert.equal(db.prepare(`SELECT count(*) AS n FROM "${table}"`).get()!.n, rows, table);
      }
      assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []);
      assert.equal(db.prepare('SELECT round(sum(Total), 2) AS total FROM Invoice').get()!.total, 2328.6);
      // UTF-8 came through intact.
      assert.equal(db.prepare('SELECT Name FROM Artist WHERE ArtistId = 6').get()!.Name, 'Antônio Carlos Jobim');
      assert.equal(db.prepare('SELECT BillingAddress FROM Invoice WHERE InvoiceId = 1').get()!.BillingAddress, 'Theodor-Heuss-Straße 34');
    } finally {
      db.close();
    }
  });

  describe('Pagila on PostgreSQL', () => {
    let server: PostgresServer | undefined;
    after(async () => {
      await server?.stop();
    });

    test('loads with psql, with its published rows and types', { timeout: 120_000 }, async (t) => {
      server = await startPostgres();
      const started = performance.now();
      const dsn = await createSamplePostgres(server, 'pagila');
      const ms = Math.round(performance.now() - started);
      t.diagnostic(`Pagila (PostgreSQL) loaded in ${ms} ms`);
      assert.ok(ms < PAGILA_LOAD_LIMIT_MS, `loading Pagila took ${ms} ms`);

      const client = new pg.Client({ connectionString: dsn });
      await client.connect();
      try {
        const count = async (relation: string) => (await client.query(`SELECT count(*)::int AS n FROM public.${relation}`)).rows[0].n;
        for (const [table, rows] of Object.entries(PAGILA_ROW_COUNTS)) {
          assert.equal(await count(table), rows, table);
        }
        // payment is partitioned by month; its rows live in seven partitions.
        const partitions = await client.query(`
          SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'public.payment'::regclass ORDER BY 1`);
        assert.equal(partitions.rows.length, 7);
        let inPartitions = 0;
        for (const { relname } of partitions.rows) inPartitions += await count(relname);
        assert.equal(inPartitions, PAGILA_ROW_COUNTS.payment);

        // Types XOS's own schemas do not produce: enum, text[], tsvector, bytea, domain.
        const film = (await client.query('SELECT title, rating, special_features, fulltext::text AS fulltext, release_year FROM public.film WHERE film_id = 1')).rows[0];
        assert.equal(film.title, 'ACADEMY DINOSAUR');
        assert.equal(film.rating, 'PG');
        assert.deepEqual(film.special_features, ['Deleted Scenes', 'Behind the Scenes']);
        assert.match(film.fulltext, /'dinosaur':2/);
        assert.equal(film.release_year, 2006);
        const picture = (await client.query('SELECT picture FROM public.staff WHERE staff_id = 1')).rows[0].picture as Buffer;
        assert.ok(Buffer.isBuffer(picture) && picture.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])), 'staff 1 has a PNG picture');

        // The objects belong to the dump's owner, not to the role we connect as.
        const owner = (await client.query("SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'public.film'::regclass")).rows[0].owner;
        assert.equal(owner, 'postgres');

        // Views answer; the materialized view is left unpopulated, as published.
        assert.equal(await count('customer_list'), PAGILA_ROW_COUNTS.customer);
        await assert.rejects(count('rental_by_category'), /has not been populated/);
      } finally {
        await client.end();
      }

      // A second load into the same cluster (role already there) and with the view refreshed.
      const again = await createSamplePostgres(server, 'pagila_refreshed', { refreshMaterializedViews: true });
      const other = new pg.Client({ connectionString: again });
      await other.connect();
      try {
        assert.equal((await other.query('SELECT count(*)::int AS n FROM public.rental_by_category')).rows[0].n, PAGILA_ROW_COUNTS.category);
      } finally {
        await other.end();
      }
    });
  });
});
