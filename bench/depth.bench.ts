// npm run bench:depth — what a window of a large list costs at depth, through the GraphQL API
// on SQLite and PostgreSQL: the first, a middle and the last window of 100 rows, by id, by a
// list column (which has its sort index) and by a column without an index, read by offset and
// by key (`after` the _cursor of the row before, as the Board reads on), and the last window
// read from the end (the reversed order, as the Board reads Ctrl+End). Every time is the median
// of alternating runs in the same process, printed with its ratio to the first window of the
// same order; also the key map (the Board's step: every 125th row's cursor at a million, one
// scan) and the worst jump by it. On SQLite also the quick filter's case folding: SQLite's LOWER (ASCII text)
// against folding in JavaScript (xos_lower), as raw SQL on the same file; on PostgreSQL the same
// filter with its trigram indexes against without them (index scans off), on the same table; and
// PostGraphile 5 (a devDependency used only here) on the same PostgreSQL table in the same run,
// paging by its own cursors, as the peer. On PostgreSQL also the person's own table: the same rows
// in a table XOS did not create (other names, a bigint key, only the person's own index on the
// city), mapped by the AST's `table`/`column`, read the same ways.
//   npm run bench:depth            (1,000,000 people; XOS_BENCH_ROWS=200000 for less,
//                                   XOS_BENCH_STORES=sqlite for one store)
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { join } from 'node:path';
import type { Ast } from '../src/ast/schema.ts';
import { startBackend, type Backend } from '../src/backend/backend.ts';
import { demoApp } from '../src/backend/demo.ts';
import { KEY_MAP_MIN_STEP, KEY_MAP_SIZE } from '../src/core/listSource.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { seedPeople } from '../test/support/seedPeople.ts';
import { startPostgraphile, type Peer } from './support/postgraphilePeer.ts';
import { tempDir } from '../test/support/tmp.ts';

const ROWS = Number(process.env.XOS_BENCH_ROWS ?? 1_000_000);
const STORES = (process.env.XOS_BENCH_STORES ?? 'sqlite,postgres').split(',');
const RUNS = Number(process.env.XOS_BENCH_RUNS ?? 5);
const WINDOW = 100;
/** The aim: no window costs more than twice the first of its order. */
const AIM_RATIO = 2;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

type Args = Record<string, unknown>;
const QUERY = 'query ($order: [person_order_by!], $limit: Int, $offset: Int, $after: String) '
  + '{ person_list(order_by: $order, limit: $limit, offset: $offset, after: $after) { id firstname lastname city zip _cursor } }';

async function rows(backend: Backend, variables: Args): Promise<Array<{ id: string; _cursor: string }>> {
  const result = await backend.api.run({ query: QUERY, variables });
  if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
  return (result.data as { person_list: Array<{ id: string; _cursor: string }> }).person_list;
}

interface Line { store: string; order: string; window: string; ms: number; ratio: number }

/** PostGraphile's reads of the same windows, by its own cursors (`after`) and `last`. */
async function peerReads(peer: Peer, orderBy: string[], middle: number, last: number, expectedLast: string): Promise<Array<[string, () => Promise<unknown>]>> {
  const page = async (args: string, variables?: Record<string, unknown>) => {
    const declared = variables ? '($after: Cursor) ' : '';
    const data = await peer.run(`query ${declared}{ allPeople(orderBy: [${orderBy.join(', ')}], ${args}) { edges { cursor node { rowId firstname lastname city zip } } } }`, variables);
    return (data.allPeople as { edges: Array<{ cursor: string; node: { rowId: number } }> }).edges;
  };
  const [beforeMiddle] = await page(`first: 1, offset: ${middle - 1}`);
  const [beforeLast] = await page(`first: 1, offset: ${last - 1}`);
  const check = (edges: Array<{ node: { rowId: number } }>) => {
    if (edges.map((e) => String(e.node.rowId)).join() !== expectedLast) throw new Error(`PostGraphile ${orderBy.join(', ')}: the last window differs`);
  };
  return [
    ['PostGraphile: first', () => page(`first: ${WINDOW}`)],
    ['PostGraphile: middle by cursor', () => page(`first: ${WINDOW}, after: $after`, { after: beforeMiddle.cursor })],
    ['PostGraphile: last by cursor', async () => check(await page(`first: ${WINDOW}, after: $after`, { after: beforeLast.cursor }))],
    ['PostGraphile: last (last: 100)', async () => check(await page(`last: ${WINDOW}`))],
  ];
}

async function measureStore(store: string, backend: Backend, peer?: Peer): Promise<Line[]> {
  const lines: Line[] = [];
  // PostGraphile offers orderBy only on indexed columns: no peer for the column without an index.
  const orders: Array<[string, unknown[], string[] | undefined]> = [
    ['id', [{ id: 'asc' }], ['PRIMARY_KEY_ASC']],
    ['city (indexed)', [{ city: 'asc' }], ['CITY_ASC', 'PRIMARY_KEY_ASC']],
    ['zip (no index)', [{ zip: 'asc' }], undefined],
  ];
  for (const [name, order, peerOrder] of orders) {
    const reversed = order.map((entry) => Object.fromEntries(Object.entries(entry as Args).map(([k, d]) => [k, d === 'asc' ? 'desc' : 'asc'])));
    const middle = Math.floor(ROWS / 2);
    const last = ROWS - WINDOW;
    // The rows before the middle and the last window, whose cursors key the reads by key.
    const [beforeMiddle] = await rows(backend, { order, offset: middle - 1, limit: 1 });
    const [beforeLast] = await rows(backend, { order, offset: last - 1, limit: 1 });
    const expected = (await rows(backend, { order, offset: last, limit: WINDOW })).map((r) => r.id).join();
    const fromEnd = async () => {
      const got = (await rows(backend, { order: [...reversed, { id: 'desc' }], limit: WINDOW })).reverse();
      if (got.map((r) => r.id).join() !== expected) throw new Error(`${store} ${name}: the last window from the end differs`);
    };
    const byKey = async () => {
      const got = await rows(backend, { order, after: beforeLast._cursor, limit: WINDOW });
      if (got.map((r) => r.id).join() !== expected) throw new Error(`${store} ${name}: the last window by key differs`);
    };
    // The key map the Board asks for after its second deep jump (its step), and the worst jump by
    // it: after a mapped row, skipping half a step.
    const step = Math.max(KEY_MAP_MIN_STEP, Math.ceil(ROWS / KEY_MAP_SIZE));
    const keyMap = async () => {
      const result = await backend.api.run({ query: 'query ($order: [person_order_by!], $every: Int!) { person_list_cursors(order_by: $order, every: $every) }', variables: { order, every: step } });
      if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
      return (result.data as { person_list_cursors: string[] }).person_list_cursors;
    };
    const map = await keyMap();
    const mapped = Math.floor(middle / step) * step;
    const jump = mapped + Math.floor(step / 2);
    const [jumpExpected] = await rows(backend, { order, offset: jump, limit: 1 });
    const byMap = async () => {
      // As the Board reads it: from the mapped row up to the window, the rows before it dropped.
      const got = (await rows(backend, { order, after: map[mapped / step - 1], limit: WINDOW + jump - mapped })).slice(jump - mapped);
      if (got[0].id !== jumpExpected.id) throw new Error(`${store} ${name}: the jump by the key map differs`);
    };
    const reads: Array<[string, () => Promise<unknown>]> = [
      ['first', () => rows(backend, { order, limit: WINDOW })],
      ['middle by offset', () => rows(backend, { order, offset: middle, limit: WINDOW })],
      ['middle by key', () => rows(backend, { order, after: beforeMiddle._cursor, limit: WINDOW })],
      ['last by offset', () => rows(backend, { order, offset: last, limit: WINDOW })],
      ['last by key', byKey],
      ['last from the end', fromEnd],
      [`key map (every ${step}th cursor)`, keyMap],
      ['middle by the key map (half a step)', byMap],
      ...(peer && peerOrder ? await peerReads(peer, peerOrder, middle, last, expected) : []),
    ];
    const slow = name.includes('no index');
    const runs = slow ? Math.min(RUNS, 3) : RUNS;
    const times = reads.map(() => [] as number[]);
    for (const [, read] of reads) await read();
    for (let run = 0; run < runs; run++) {
      // Alternate the order of the reads so drift on a noisy machine hits all alike.
      const order = run % 2 ? [...reads.keys()].reverse() : [...reads.keys()];
      for (const i of order) {
        const start = performance.now();
        await reads[i][1]();
        times[i].push(performance.now() - start);
      }
    }
    const first = median(times[0]);
    reads.forEach(([window], i) => {
      const ms = median(times[i]);
      lines.push({ store, order: name, window, ms, ratio: ms / first });
      console.error(`  ${store} ${name} ${window}: ${ms.toFixed(2)} ms (${(ms / first).toFixed(2)}x)`);
    });
  }
  return lines;
}

/** The quick filter's SQL on the same file, SQLite's LOWER against folding in JavaScript. */
function foldingOnSqlite(file: string): { lower: number; js: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec('PRAGMA case_sensitive_like = ON');
  db.function('xos_lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
  const where = (fold: string) => ['firstname', 'lastname', 'email', 'city'].map((c) => `${fold}("${c}") LIKE ${fold}(?) ESCAPE '\\'`).join(' OR ');
  const lower = db.prepare(`SELECT COUNT(*) AS n FROM "person" WHERE ${where('LOWER')}`);
  const js = db.prepare(`SELECT COUNT(*) AS n FROM "person" WHERE ${where('xos_lower')}`);
  const pattern = Array(4).fill('%berg%');
  if (lower.get(...pattern)!.n !== js.get(...pattern)!.n) throw new Error('the two foldings count different rows');
  const times = { lower: [] as number[], js: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const [name, statement] of (run % 2 ? [['js', js], ['lower', lower]] : [['lower', lower], ['js', js]]) as Array<['lower' | 'js', typeof js]>) {
      const start = performance.now();
      statement.get(...pattern);
      times[name].push(performance.now() - start);
    }
  }
  db.close();
  return { lower: median(times.lower), js: median(times.js) };
}

/** The quick filter's SQL on PostgreSQL: with the trigram indexes, and with index scans turned off (what it costs without them). */
async function searchOnPostgres(dsn: string): Promise<{ indexed: number; scan: number }> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    const sql = `SELECT COUNT(*) AS n FROM "person" WHERE ${['firstname', 'lastname', 'email', 'city'].map((c) => `"${c}" ILIKE $1 ESCAPE '\\'`).join(' OR ')}`;
    const count = async (indexes: boolean) => {
      await client.query(`SET enable_bitmapscan = ${indexes ? 'on' : 'off'}`);
      return Number((await client.query(sql, ['%berg%'])).rows[0].n);
    };
    if (await count(true) !== await count(false)) throw new Error('the two plans count different rows');
    const times = { indexed: [] as number[], scan: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      for (const indexes of run % 2 ? [false, true] : [true, false]) {
        const start = performance.now();
        await count(indexes);
        times[indexes ? 'indexed' : 'scan'].push(performance.now() - start);
      }
    }
    return { indexed: median(times.indexed), scan: median(times.scan) };
  } finally {
    await client.end();
  }
}

/** The same people in a table of the person's own, and the AST that maps it (entity and field names as the demo's). */
async function ownTable(dsn: string): Promise<Ast> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    await client.query(`CREATE TABLE "People" ("PersonId" bigint PRIMARY KEY, "First" text NOT NULL, "Last" text, "City" varchar(80), "Zip" text);
      INSERT INTO "People" SELECT id, firstname, lastname, city, zip FROM person;
      CREATE INDEX "People_City" ON "People" ("City");
      ANALYZE "People";`);
  } finally {
    await client.end();
  }
  return {
    xos: '1', app: 'people', locales: ['en'],
    entities: {
      person: {
        table: 'People',
        fields: {
          id: { type: 'id', column: 'PersonId' },
          firstname: { type: 'string', required: true, column: 'First' },
          lastname: { type: 'string', column: 'Last' },
          city: { type: 'string', column: 'City' },
          zip: { type: 'string', column: 'Zip' },
        },
      },
    },
    contexts: { person_list: { kind: 'list', entity: 'person', list_fields: ['id', 'firstname', 'lastname', 'city', 'zip'] } },
  };
}

async function main() {
  const dir = await tempDir('xos-bench-depth');
  const postgres = STORES.includes('postgres') ? await startPostgres() : undefined;
  const lines: Line[] = [];
  let folding: { lower: number; js: number } | undefined;
  let search: { indexed: number; scan: number } | undefined;
  try {
    for (const store of STORES) {
      const file = join(dir.path, 'depth.db');
      const dsn = store === 'sqlite' ? `sqlite:${file}` : await postgres!.createDatabase('depth');
      const ast = demoApp();
      delete ast.data;
      const backend = await startBackend({ ast, dsn });
      console.error(`${store}: seeding ${ROWS} people…`);
      await seedPeople(backend, ROWS);
      // The peer reads the same table as it stands after seeding (its own schema over it).
      const peer = store === 'postgres' ? await startPostgraphile(dsn) : undefined;
      try {
        lines.push(...await measureStore(store, backend, peer));
      } finally {
        await peer?.release();
      }
      await backend.close();
      if (store === 'sqlite') folding = foldingOnSqlite(file);
      else {
        search = await searchOnPostgres(dsn);
        const own = await startBackend({ ast: await ownTable(dsn), dsn });
        try {
          lines.push(...await measureStore('postgres (own table)', own));
        } finally {
          await own.close();
        }
      }
    }
  } finally {
    await postgres?.stop();
    await dir.remove();
  }
  console.log(`\n${ROWS} people, windows of ${WINDOW} rows, median of ${RUNS} runs (3 without an index)\n`);
  console.log('| store | order | window | ms | × first window |');
  console.log('|---|---|---|---:|---:|');
  for (const l of lines.filter((line) => !line.window.startsWith('PostGraphile'))) {
    console.log(`| ${l.store} | ${l.order} | ${l.window} | ${l.ms.toFixed(2)} | ${l.ratio.toFixed(2)} |`);
  }
  const peerLines = lines.filter((l) => l.window.startsWith('PostGraphile'));
  if (peerLines.length) {
    console.log('\nXOS against PostGraphile 5 on the same PostgreSQL table (each by its own cursors; ratio < 1: XOS is faster)\n');
    console.log('| order | window | XOS (ms) | PostGraphile (ms) | XOS ÷ PostGraphile |');
    console.log('|---|---|---:|---:|---:|');
    const pairs: Array<[string, string, string]> = [
      ['first', 'first', 'PostGraphile: first'],
      ['middle', 'middle by key', 'PostGraphile: middle by cursor'],
      ['last', 'last by key', 'PostGraphile: last by cursor'],
      ['last from the end', 'last from the end', 'PostGraphile: last (last: 100)'],
    ];
    for (const order of [...new Set(peerLines.map((l) => l.order))]) {
      for (const [label, xosWindow, peerWindow] of pairs) {
        const xos = lines.find((l) => l.store === 'postgres' && l.order === order && l.window === xosWindow)!;
        const other = peerLines.find((l) => l.order === order && l.window === peerWindow)!;
        console.log(`| ${order} | ${label} | ${xos.ms.toFixed(2)} | ${other.ms.toFixed(2)} | ${(xos.ms / other.ms).toFixed(2)} |`);
      }
    }
  }
  const indexed = lines.filter((l) => !l.order.includes('no index') && !l.window.includes('offset') && !l.window.startsWith('key map') && !l.window.startsWith('PostGraphile'));
  const worst = Math.max(...indexed.map((l) => l.ratio));
  console.log(`\nBy key or from the end, with an index: at most ${worst.toFixed(2)}x the first window (aim: ${AIM_RATIO}x) — ${worst <= AIM_RATIO ? 'met' : 'NOT met'}.`);
  if (folding) {
    console.log(`Quick filter "berg" over 4 columns (SQLite, count): LOWER ${folding.lower.toFixed(1)} ms, xos_lower ${folding.js.toFixed(1)} ms — ${(folding.js / folding.lower).toFixed(2)}x faster.`);
  }
  if (search) {
    console.log(`Quick filter "berg" over 4 columns (PostgreSQL, count): trigram indexes ${search.indexed.toFixed(1)} ms, without them ${search.scan.toFixed(1)} ms — ${(search.scan / search.indexed).toFixed(2)}x faster.`);
  }
}

await main();
