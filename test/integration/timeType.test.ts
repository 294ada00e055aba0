// A time of day as a field type of its own (`time`), on SQLite and PostgreSQL: XOS's own tables
// store it in its column (TEXT, TIME), the API types it (`Time`), filters, sorts and pages by it;
// the person's own `time` columns are read as it and written in place; the Board and the agent's
// tools take it like any other type.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import type { Ast } from '../../src/ast/schema.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { readCatalog } from '../../src/backend/introspect/init.ts';
import { catalogToAst } from '../../src/backend/introspect/toAst.ts';
import { BoardState } from '../../src/board/state.ts';
import { buildBoardView } from '../../src/board/view.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { connectInMemory } from '../support/mcpClient.ts';
import { SayingSave } from '../support/sayingSave.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';

const ast: Ast = {
  xos: '1',
  app: 'shifts',
  locales: ['en', 'de'],
  entities: {
    shift: {
      fields: {
        id: { type: 'id' },
        name: { type: 'string', required: true },
        starts: { type: 'time', required: true, label: { en: 'Starts', de: 'Beginn' } },
        ends: { type: 'time' },
      },
    },
  },
  contexts: {
    shift_list: { kind: 'list', entity: 'shift', label: 'Shifts', list_fields: ['id', 'name', 'starts', 'ends'], navigate: { row: { context: 'shift_detail', params: { id: 'id' } } } },
    shift_detail: { kind: 'detail', entity: 'shift', label: 'Shift', list_fields: ['id', 'name', 'starts', 'ends'], editable: ['name', 'starts', 'ends'] },
  },
};

async function gql(backend: Backend, query: string, variables?: Record<string, unknown>) {
  return backend.api.run({ query, variables });
}

async function ok(backend: Backend, query: string, variables?: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await gql(backend, query, variables);
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return result.data as Record<string, any>;
}

/** Everything XOS does with a time on its own tables; `columnType` reads the column's type from the database. */
async function onOwnTables(backend: Backend, columnType: () => Promise<string>): Promise<void> {
  const inserted = [];
  for (const [name, starts, ends] of [['Early', '06:00', '14:00:00'], ['Late', '14:00', '22:00'], ['Night', '22:00:00', '06:00'], ['Split', '09:30:15.250', null]]) {
    inserted.push((await ok(backend, 'mutation ($o: shift_insert_input!) { insert_shift(object: $o) { id starts ends } }', { o: { name, starts, ends } })).insert_shift);
  }
  // One canonical form: seconds always, a fraction without trailing zeros.
  assert.deepEqual(inserted.map((s) => [s.starts, s.ends]), [['06:00:00', '14:00:00'], ['14:00:00', '22:00:00'], ['22:00:00', '06:00:00'], ['09:30:15.25', null]]);
  assert.match(await columnType(), /^(text|time without time zone)$/i);

  // Filters and sorts compare times, in variables and literals alike.
  const late = await ok(backend, '{ shift_list(where: { starts: { _gte: "09:30:15.25" } }, order_by: [{ starts: desc }]) { name } }');
  assert.deepEqual(late.shift_list.map((s: { name: string }) => s.name), ['Night', 'Late', 'Split']);
  const exact = await ok(backend, 'query ($t: Time) { shift_list(where: { ends: { _eq: $t } }) { name } }', { t: '06:00' });
  assert.deepEqual(exact.shift_list, [{ name: 'Night' }]);
  // Pages by a time: the cursor carries it in canonical form.
  const first = await ok(backend, '{ shift_list(order_by: [{ starts: asc }], limit: 2) { name _cursor } }');
  const rest = await ok(backend, 'query ($after: String) { shift_list(order_by: [{ starts: asc }], after: $after) { name } }', { after: first.shift_list[1]._cursor });
  assert.deepEqual([...first.shift_list, ...rest.shift_list].map((s: { name: string }) => s.name), ['Early', 'Split', 'Late', 'Night']);

  // A value that is no time of day is refused, saying what to write; nothing is written.
  for (const wrong of ['25:00', '9:00', '14.30', 'noon']) {
    const refused = await gql(backend, 'mutation ($o: shift_insert_input!) { insert_shift(object: $o) { id } }', { o: { name: 'Bad', starts: wrong } });
    assert.match(refused.errors?.[0]?.message ?? '', /Time must be a time of day like "14:30" or "14:30:15"/, wrong);
  }
  const literal = await gql(backend, '{ shift_list(where: { starts: { _lt: "24:00" } }) { id } }');
  assert.match(literal.errors?.[0]?.message ?? '', /Time must be a time of day/);
  assert.equal((await ok(backend, '{ shift_list_count }')).shift_list_count, 4);

  // The agent's workflow: the time is changed on the Board, confirmed, saved, read back.
  const board = new BoardState();
  const { call } = await connectInMemory({ client: embeddedClient(backend), board, confirmer: new SayingSave() }, 'times');
  const schema = await call('xos_schema');
  assert.equal(schema.isError, false);
  assert.match(schema.text, /\bstarts\b[^\n]*\btime\b/);
  const id = inserted[1].id as string;
  const query = exampleQuery(ast, 'shift_detail').replace('(id: "1")', `(id: "${id}")`);
  const shown = await call('xos_query', { context: 'shift_detail', query });
  assert.equal(shown.isError, false, shown.text);
  const wrongChange = await call('xos_ui_change_required', { context: 'shift_detail', changes: { starts: '2 pm' } });
  assert.equal(wrongChange.isError, true);
  assert.match(wrongChange.text, /time of day HH:MM or HH:MM:SS/);
  assert.equal((await call('xos_ui_change_required', { context: 'shift_detail', changes: { starts: '13:45' } })).isError, false);
  // The person sees it in the Board's language and edits it in a time input.
  const detail = buildBoardView({ ast, locale: 'de', snapshot: board.snapshot(), list: board.list(), listId: 1, listQuery: board.listQuery(), form: board.formValues() }).detail!;
  const starts = detail.fields.find((f) => f.field === 'starts')!;
  assert.deepEqual([starts.label, starts.type, starts.input, starts.value], ['Beginn', 'time', 'text', '13:45']);
  assert.equal((await call('xos_ui_save')).isError, false);
  assert.equal((await ok(backend, `{ shift_detail(id: "${id}") { starts } }`)).shift_detail.starts, '13:45:00');
}

describe('a time of day on XOS\'s own tables', () => {
  let server: PostgresServer | undefined;
  after(async () => {
    await server?.stop();
  });

  test('SQLite', async () => {
    await using dir = await tempDir('xos-time');
    const file = join(dir.path, 'xos.db');
    const backend = await startBackend({ ast, dsn: `sqlite:${file}` });
    try {
      await onOwnTables(backend, async () => {
        const db = new DatabaseSync(file, { readOnly: true });
        try {
          return String((db.prepare(`SELECT type FROM pragma_table_info('shift') WHERE name = 'starts'`).get() as { type: string }).type);
        } finally {
          db.close();
        }
      });
    } finally {
      await backend.close();
    }
  });

  test('PostgreSQL', async () => {
    server = await startPostgres();
    const dsn = await server.createDatabase('xos_time');
    const backend = await startBackend({ ast, dsn });
    try {
      await onOwnTables(backend, async () => {
        const client = new pg.Client({ connectionString: dsn });
        await client.connect();
        try {
          const { rows } = await client.query(`SELECT data_type FROM information_schema.columns WHERE table_name = 'shift' AND column_name = 'starts'`);
          return String(rows[0].data_type);
        } finally {
          await client.end();
        }
      });
    } finally {
      await backend.close();
    }
  });

  test('seeding writes times', async () => {
    await using dir = await tempDir('xos-time-seed');
    const backend = await startBackend({ ast, dsn: `sqlite:${join(dir.path, 'seeded.db')}`, seed: 20 });
    try {
      const seeded = (await ok(backend, '{ shift_list { starts } }')).shift_list as Array<{ starts: string }>;
      assert.equal(seeded.length, 20);
      for (const { starts } of seeded) assert.match(starts, /^(0[89]|1[0-7]):(00|15|30|45):00$/);
    } finally {
      await backend.close();
    }
  });
});

describe('a time of day in the person\'s own tables', () => {
  let server: PostgresServer | undefined;
  after(async () => {
    await server?.stop();
  });

  test('PostgreSQL: time is a time, timetz stays text; read, filtered and written in place', async () => {
    server = await startPostgres();
    const dsn = await server.createDatabase('own_time');
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      await client.query(`CREATE TABLE "Schicht" ("Id" serial PRIMARY KEY, "Name" text NOT NULL, "Beginn" time NOT NULL, "Zone" timetz)`);
      await client.query(`INSERT INTO "Schicht" ("Name", "Beginn", "Zone") VALUES ('Früh', '06:00', '06:00+01'), ('Spät', '14:00:30', NULL)`);
      const { ast: own } = catalogToAst(await readCatalog(dsn));
      assert.deepEqual([own.entities.schicht.fields.beginn.type, own.entities.schicht.fields.beginn.required, own.entities.schicht.fields.zone.type], ['time', true, 'string']);
      const backend = await startBackend({ ast: own, dsn });
      try {
        const late = await ok(backend, '{ schicht_list(where: { beginn: { _gt: "12:00" } }) { id beginn version } }');
        assert.deepEqual(late.schicht_list.map((s: { beginn: string }) => s.beginn), ['14:00:30']);
        const { id, version } = late.schicht_list[0];
        await ok(backend, 'mutation ($id: ID!, $v: Int!) { update_schicht(id: $id, version: $v, set: { beginn: "13:15" }) { beginn } }', { id, v: version });
        const { rows } = await client.query(`SELECT "Beginn"::text AS beginn FROM "Schicht" WHERE "Name" = 'Spät'`);
        assert.equal(rows[0].beginn, '13:15:00');
      } finally {
        await backend.close();
      }
    } finally {
      await client.end();
    }
  });

  test('SQLite: a TIME column is a time; its values read in canonical form', async () => {
    await using dir = await tempDir('xos-own-time');
    const file = join(dir.path, 'own.db');
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE "Schicht" ("Id" INTEGER PRIMARY KEY, "Name" TEXT NOT NULL, "Beginn" TIME NOT NULL);
      INSERT INTO "Schicht" VALUES (1, 'Früh', '06:00'), (2, 'Spät', '14:00:30');`);
    db.close();
    const { ast: own } = catalogToAst(await readCatalog(`sqlite:${file}`));
    assert.equal(own.entities.schicht.fields.beginn.type, 'time');
    const backend = await startBackend({ ast: own, dsn: `sqlite:${file}` });
    try {
      const all = await ok(backend, '{ schicht_list(order_by: [{ beginn: asc }]) { name beginn } }');
      assert.deepEqual(all.schicht_list, [{ name: 'Früh', beginn: '06:00:00' }, { name: 'Spät', beginn: '14:00:30' }]);
    } finally {
      await backend.close();
    }
  });
});
