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
import { costlySort } from '../../src/core/sortHint.ts';
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
