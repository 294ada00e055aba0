// npm run bench:aggregate — totals per group through XOS's GraphQL API (`<context>_aggregate`:
// the checks, the SQL builder, the storage, exact decimals) against the bare SQL `GROUP BY` of the
// same result on a connection of its own, alternately on the same database, on SQLite and
// PostgreSQL. Per query: the medians, and their ratio against the aim of at most 1.2x.
//   npm run bench:aggregate                 (1,000,000 people; XOS_BENCH_ROWS=100000 for less)
//   XOS_BENCH_STORES=sqlite XOS_BENCH_RUNS=7 npm run bench:aggregate
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startBackend, type Backend } from '../src/backend/backend.ts';
import { demoApp } from '../src/backend/demo.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { seedPeople } from '../test/support/seedPeople.ts';
import { tempDir } from '../test/support/tmp.ts';

const ROWS = Number(process.env.XOS_BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.XOS_BENCH_RUNS ?? 5);
const STORES = (process.env.XOS_BENCH_STORES ?? 'sqlite,postgres').split(',');
const AIM_RATIO = 1.2;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Case {
  readonly name: string;
  readonly graphql: string;
  /** The same groups and totals in the store's own SQL (exact decimals: SQLite sums cents as integers). */
  readonly sql: Record<'sqlite' | 'postgres', string>;
}

const CASES: Case[] = [
  {
    name: 'people per city: count, exact sum of net worth',
    graphql: '{ person_list_aggregate(group_by: [{ city: true }], limit: 10000) { groups { key { city } count sum { net_worth } } } }',
    sql: {
      sqlite: 'SELECT city, COUNT(*), CAST(SUM(CAST(ROUND(CAST(net_worth AS REAL) * 100) AS INTEGER)) AS TEXT) FROM person GROUP BY city ORDER BY city ASC NULLS LAST LIMIT 10000',
      postgres: 'SELECT city, COUNT(*), CAST(SUM(net_worth) AS TEXT) FROM person GROUP BY city ORDER BY city ASC NULLS LAST LIMIT 10000',
    },
  },
  {
    name: 'people per month of last contact: count',
    graphql: '{ person_list_aggregate(group_by: [{ last_contact: month }], limit: 10000) { groups { key { last_contact } count } } }',
    sql: {
      sqlite: "SELECT date(last_contact, 'start of month') AS m, COUNT(*) FROM person GROUP BY m ORDER BY m ASC NULLS LAST LIMIT 10000",
      postgres: "SELECT to_char(date_trunc('month', CAST(last_contact AS timestamp)), 'YYYY-MM-DD') AS m, COUNT(*) FROM person GROUP BY m ORDER BY m ASC NULLS LAST LIMIT 10000",
    },
  },
  {
    name: 'the 10 companies with the most net worth, named',
    graphql: '{ person_list_aggregate(group_by: [{ company: true }], order_by: [{ sum: { net_worth: desc } }], limit: 10) { groups { key { company } sum { net_worth } } } }',
    sql: {
      sqlite: 'SELECT c.name, g.s FROM (SELECT company_id, SUM(CAST(ROUND(CAST(net_worth AS REAL) * 100) AS INTEGER)) AS s FROM person GROUP BY company_id ORDER BY SUM(CAST(net_worth AS REAL)) DESC NULLS FIRST, company_id LIMIT 10) AS g LEFT JOIN company c ON c.id = g.company_id',
      postgres: 'SELECT c.name, g.s FROM (SELECT company_id, SUM(net_worth) AS s FROM person GROUP BY company_id ORDER BY SUM(net_worth) DESC NULLS FIRST, company_id LIMIT 10) AS g LEFT JOIN company c ON c.id = g.company_id',
    },
  },
];

interface Bare {
  run(sql: string): Promise<number>;
  close(): Promise<void>;
}

async function bareConnection(store: string, dsn: string): Promise<Bare> {
  if (store === 'sqlite') {
    const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true });
    db.exec('PRAGMA cache_size = -32768');
    return { run: async (sql) => db.prepare(sql).all().length, close: async () => db.close() };
  }
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  return { run: async (sql) => (await client.query(sql)).rowCount ?? 0, close: () => client.end() };
}

async function throughApi(backend: Backend, query: string): Promise<number> {
  const result = await backend.api.run({ query });
  if (result.errors?.length) throw new Error(`the aggregate failed: ${JSON.stringify(result.errors)}`);
  return ((result.data as { person_list_aggregate: { groups: unknown[] } }).person_list_aggregate.groups).length;
}

async function main() {
  const dir = await tempDir('xos-bench-aggregate');
  const postgres = STORES.includes('postgres') ? await startPostgres() : undefined;
  const lines: string[] = [];
  try {
    for (const store of STORES) {
      const ast = demoApp();
      delete ast.data;
      const dsn = store === 'sqlite' ? `sqlite:${join(dir.path, 'aggregate.db')}` : await postgres!.createDatabase('aggregate');
      const backend = await startBackend({ ast, dsn });
      const seeding = performance.now();
      await seedPeople(backend, ROWS);
      console.error(`  ${store}: ${ROWS} people seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
      const bare = await bareConnection(store, dsn);
      if (store === 'postgres') await bare.run('ANALYZE');
      for (const c of CASES) {
        const sql = c.sql[store as 'sqlite' | 'postgres'];
        const times = { api: [] as number[], bare: [] as number[] };
        const api = async () => {
          const started = performance.now();
          const groups = await throughApi(backend, c.graphql);
          times.api.push(performance.now() - started);
          return groups;
        };
        const plain = async () => {
          const started = performance.now();
          const groups = await bare.run(sql);
          times.bare.push(performance.now() - started);
          return groups;
        };
        // One of each first, not counted (caches); the same number of groups both ways.
        const [a, b] = [await api(), await plain()];
        if (a !== b) throw new Error(`${c.name}: ${a} groups through the API, ${b} by SQL`);
        times.api.length = times.bare.length = 0;
        // Alternate the order so drift on a noisy machine hits both alike.
        for (let i = 0; i < RUNS; i++) {
          if (i % 2) { await plain(); await api(); } else { await api(); await plain(); }
        }
        const x = median(times.api);
        const y = median(times.bare);
        console.error(`  ${store}: ${c.name}: API ${x.toFixed(1)} ms, bare SQL ${y.toFixed(1)} ms (${a} groups)`);
        lines.push(`| ${store} | ${c.name} | ${a} | ${x.toFixed(1)} ms | ${y.toFixed(1)} ms | ${(x / y).toFixed(2)}× | ${x / y <= AIM_RATIO ? 'met' : 'NOT met'} |`);
      }
      await bare.close();
      await backend.close();
    }
  } finally {
    await postgres?.stop();
    await dir.remove();
  }
  console.log(`\n${ROWS} people over 50 companies, median of ${RUNS} runs each, alternately\n`);
  console.log(`| store | query | groups | through the API | bare SQL | ratio | aim ≤ ${AIM_RATIO}× |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const line of lines) console.log(line);
}

await main();
