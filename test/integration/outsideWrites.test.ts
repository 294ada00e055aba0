// Writes by other programs show on open Boards: a psql-like client on PostgreSQL (the person's own
// table, no trail, no trigger) and a second connection on SQLite (the person's own file without a
// trail, and XOS's own file with its audit trail)
// change rows the Board shows and rows it does not. The Board's list and form follow what is
// stored through the real change feed (no scripted events); a write to a row not shown sends the
// page nothing. The time from the other program's commit to the page's message is printed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test, type TestContext } from 'node:test';
import pg from 'pg';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { readCatalog } from '../../src/backend/introspect/init.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import type { RowsResult } from '../../src/board/protocol.ts';
import type { GridRow } from '../../src/board/viewTypes.ts';
import { showRecord } from '../../src/core/show.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import type { ChangeFeed } from '../../src/graphql/types.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { openSavingBoard, type SavingBoard } from '../support/savingBoard.ts';
import { tempDir } from '../support/tmp.ts';

/** How long the test waits for the Board to follow a write (the aim is 2 s; a loaded machine gets more). */
const FOLLOW_MS = 30_000;

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + FOLLOW_MS;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Outside {
  /** Runs one statement as another program would (its own connection, autocommit). */
  run(sql: string): Promise<void>;
}

interface Setup {
  readonly entity: string;
  readonly list: string;
  readonly detail: string;
  /** The column of the list's grid holding the city. */
  readonly cityColumn: (board: SavingBoard) => number;
  readonly cityField: string;
  /** SQL setting a row's city, as the other program writes it. */
  readonly setCity: (key: string, city: string) => string;
}

/** The person's own table "Kunde" as init maps it, on either database. */
const KUNDE: Setup = {
  entity: 'kunde', list: 'kunde_list', detail: 'kunde_detail', cityField: 'stadt',
  cityColumn: (board) => board.sent('board/list').at(-1)!.params.list.columns.findIndex((c: { field: string }) => c.field === 'stadt'),
  setCity: (key, city) => `UPDATE "Kunde" SET "Stadt" = '${city}' WHERE "Nr" = ${Number(key)}`,
};

/** Opens the list and a record on a Board, then checks that other programs' writes show, and that a row not shown sends nothing. */
async function followsOutsideWrites(t: TestContext, backend: Backend, outside: Outside, setup: Setup): Promise<void> {
  const client = embeddedClient(backend);
  const board = openSavingBoard(client);
  try {
    const { controller } = board;
    await controller.navigation.openContext(setup.list);
    const listId: number = board.sent('board/list').at(-1)!.params.list.listId;
    const query = {};
    const top = await board.pageAsks<RowsResult>('board/rows', { listId, offset: 0, limit: 50, query });
    assert.ok(top.total > 100, `a list longer than the window (${top.total})`);
    const column = setup.cityColumn(board);

    // A row the page holds, written by another program: the row shows the new value in place.
    const shown = top.rows[7];
    let mark = board.posted.length;
    let wrote = Date.now();
    await outside.run(setup.setCity(shown.key, 'Outside-List'));
    const swapped = await until('the list to show the other program\'s write', () => board.sent('board/listRows', mark)
      .find((m) => (m.params.windows[0]?.rows as GridRow[] | undefined)?.some((r) => r.key === shown.key && r.values[column] === 'Outside-List')));
    t.diagnostic(`list row followed in ${Date.now() - wrote} ms`);
    assert.equal(swapped.params.listId, listId);
    assert.equal(swapped.params.total, top.total, 'the count stays');
    await controller.liveSettled();

    // A row the page does not hold: the Board compares, finds what it shows unchanged, and sends nothing.
    const all = await backend.api.run({ query: `{ ${setup.entity}_list(limit: 1000) { id } }` });
    const keys = (all.data![`${setup.entity}_list`] as Array<{ id: string }>).map((r) => String(r.id));
    const held = new Set(top.rows.map((r) => r.key));
    const hidden = keys.find((key) => !held.has(key))!;
    mark = board.posted.length;
    const heard = waitForOutside(client.feed!);
    await outside.run(setup.setCity(hidden, 'Outside-Unseen'));
    await heard;
    // The feed told the Board too (its listener came first): once its compare is done, nothing was sent.
    await controller.liveSettled();
    assert.deepEqual(board.sent('board/listRows', mark), [], 'a row the page does not hold: nothing sent');

    // The open record, written by another program: the form shows the new value.
    assert.equal((await showRecord(board.deps(), setup.detail, shown.key)).ok, true);
    const before = controller.board.snapshot().detail!.version;
    mark = board.posted.length;
    wrote = Date.now();
    await outside.run(setup.setCity(shown.key, 'Outside-Form'));
    await until('the form to show the other program\'s write', () => (controller.board.snapshot().detail?.record[setup.cityField] === 'Outside-Form' ? true : undefined));
    t.diagnostic(`open record followed in ${Date.now() - wrote} ms`);
    assert.notEqual(controller.board.snapshot().detail!.version, before, 'the version is the row\'s new state');
    assert.equal(board.lastDetail().dirty, false);
    assert.ok(board.sent('board/detail', mark).length >= 1);

    // The list opened again, its page holding only the first rows it came with (it asked for no window).
    await controller.navigation.openContext(setup.list);
    const reopened = board.sent('board/list').at(-1)!.params.list;
    mark = board.posted.length;
    const heardAgain = waitForOutside(client.feed!);
    const firstRows = new Set((reopened.rows as GridRow[]).map((r) => r.key));
    await outside.run(setup.setCity(keys.findLast((key) => !firstRows.has(key))!, 'Outside-Unseen-Again'));
    await heardAgain;
    await controller.liveSettled();
    assert.deepEqual(board.sent('board/listRows', mark), [], 'the first rows compared unchanged: nothing sent');
    const first = (reopened.rows as GridRow[])[3];
    await outside.run(setup.setCity(first.key, 'Outside-First'));
    await until('the first rows to show the other program\'s write', () => board.sent('board/listRows', mark)
      .find((m) => (m.params.windows[0]?.rows as GridRow[] | undefined)?.some((r) => r.key === first.key && r.values[column] === 'Outside-First')));
  } finally {
    board.controller.dispose();
  }
}

/** Resolves when the feed tells of a write by another program (after the Board, which listened first, heard it). */
function waitForOutside(feed: ChangeFeed): Promise<void> {
  return new Promise((resolve) => {
    const off = feed.subscribe((event) => {
      if (event.kind !== 'outside') return;
      off();
      resolve();
    });
  });
}

describe('writes by other programs show on open Boards', () => {
  let postgres: PostgresServer | undefined;
  after(async () => {
    await postgres?.stop();
  });

  test('PostgreSQL, the person\'s own table (no trail, no trigger): a psql UPDATE shows in the list and the form', async (t) => {
    postgres = await startPostgres();
    const dsn = await postgres.createDatabase('outside_own');
    const admin = new pg.Client({ connectionString: dsn });
    await admin.connect();
    try {
      await admin.query('CREATE TABLE "Kunde" ("Nr" integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Name" text NOT NULL, "Stadt" text)');
      await admin.query('INSERT INTO "Kunde" ("Name", "Stadt") SELECT \'Kunde \' || lpad(n::text, 4, \'0\'), \'Stadt \' || n FROM generate_series(1, 300) AS n');
      await admin.query('ANALYZE "Kunde"');
      const { ast } = catalogToAst(await readCatalog(dsn));
      const backend = await startBackend({ ast, dsn });
      try {
        assert.equal(backend.migration.audit.kept, false, 'the person\'s own table: no trail');
        await followsOutsideWrites(t, backend, { run: async (sql) => { await admin.query(sql); } }, KUNDE);
      } finally {
        await backend.close();
      }
    } finally {
      await admin.end();
    }
  });

  test('SQLite, the person\'s own file (no trail): another connection\'s UPDATE shows in the list and the form', async (t) => {
    await using dir = await tempDir('xos-outside-own');
    const file = join(dir.path, 'kunden.db');
    const other = new DatabaseSync(file);
    try {
      other.exec('CREATE TABLE "Kunde" ("Nr" INTEGER PRIMARY KEY, "Name" TEXT NOT NULL, "Stadt" TEXT)');
      other.exec('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO "Kunde" ("Name", "Stadt") SELECT \'Kunde \' || printf(\'%04d\', i), \'Stadt \' || i FROM n');
      const dsn = `sqlite:${file}`;
      const { ast } = catalogToAst(await readCatalog(dsn));
      const backend = await startBackend({ ast, dsn });
      try {
        assert.equal(backend.migration.audit.kept, false, 'the person\'s own file: no trail');
        await followsOutsideWrites(t, backend, { run: async (sql) => { other.exec(sql); } }, KUNDE);
      } finally {
        await backend.close();
      }
    } finally {
      other.close();
    }
  });

  test('SQLite, XOS\'s own file with its audit trail: a second connection\'s UPDATE shows in the list and the form', async (t) => {
    await using dir = await tempDir('xos-outside');
    const file = join(dir.path, 'xos.db');
    const backend = await startBackend({ ast: demoApp(), dsn: `sqlite:${file}`, seed: true });
    const other = new DatabaseSync(file);
    try {
      assert.equal(backend.migration.audit.kept, true, 'XOS\'s own file keeps the trail');
      await followsOutsideWrites(t, backend, { run: async (sql) => { other.exec(sql); } }, {
        entity: 'person', list: 'person_list', detail: 'person_detail', cityField: 'city',
        cityColumn: (board) => board.sent('board/list').at(-1)!.params.list.columns.findIndex((c: { field: string }) => c.field === 'city'),
        // XOS's own tables carry a version: a program writing them raises it, as XOS does.
        setCity: (key, city) => `UPDATE person SET city = '${city}', version = version + 1 WHERE id = ${Number(key)}`,
      });
    } finally {
      other.close();
      await backend.close();
    }
  });
});
