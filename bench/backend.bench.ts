// npm run bench:backend — the backend's cost of a person_list GraphQL request
// against a raw SELECT of the same rows plus JSON.stringify, measured
// alternately in the same process (ratios, not absolute times, are the result).
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import pg from 'pg';
import { startBackend } from '../src/backend/backend.ts';
import { demoApp } from '../src/backend/demo.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { seedPeople } from '../test/support/seedPeople.ts';
import { tempDir } from '../test/support/tmp.ts';

const QUERY = '{ person_list { id firstname lastname email city age net_worth } }';
const RAW_SQL = 'SELECT "id", "firstname", "lastname", "email", "city", "age", "net_worth", "version" FROM "person" ORDER BY "id"';
const SIZES = (process.env.XOS_BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const STORES = (process.env.XOS_BENCH_STORES ?? 'sqlite,postgres').split(',');

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

interface Result { store: string; rows: number; raw: number; xos: number }

async function measure(store: string, rows: number, raw: () => Promise<unknown>, xos: () => Promise<unknown>): Promise<Result> {
  const rounds = rows <= 1000 ? 40 : rows <= 10000 ? 12 : 5;
  for (let i = 0; i < 2; i++) { await raw(); await xos(); }
  const rawTimes: number[] = [];
  const xosTimes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate the order so drift on a noisy machine hits both sides alike.
    if (i % 2) { rawTimes.push(await time(raw)); xosTimes.push(await time(xos)); }
    else { xosTimes.push(await time(xos)); rawTimes.push(await time(raw)); }
  }
  return { store, rows, raw: median(rawTimes), xos: median(xosTimes) };
}

async function main() {
  const results: Result[] = [];
  const dir = await tempDir('xos-bench');
  const postgres = STORES.includes('postgres') ? await startPostgres() : undefined;
  try {
    for (const store of STORES) {
      for (const n of SIZES) {
        const dsn = store === 'sqlite' ? `sqlite:${join(dir.path, `bench-${n}.db`)}` : await postgres!.createDatabase(`bench_${n}`);
        const ast = demoApp();
        delete ast.data;
        const backend = await startBackend({ ast, dsn });
        await seedPeople(backend, n);
        const xos = async () => JSON.stringify(await backend.api.run({ query: QUERY }));
        let raw: () => Promise<unknown>;
        let closeRaw: () => Promise<void>;
        if (store === 'sqlite') {
          const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true });
          const stmt = db.prepare(RAW_SQL);
          raw = async () => JSON.stringify(stmt.all());
          closeRaw = async () => db.close();
        } else {
          const client = new pg.Client({ connectionString: dsn });
          await client.connect();
          raw = async () => JSON.stringify((await client.query(RAW_SQL)).rows);
          closeRaw = () => client.end();
        }
        const check = JSON.parse(await xos() as string);
        if (check.errors || check.data.person_list.length !== n) throw new Error(`unexpected result for ${n} rows: ${JSON.stringify(check.errors)}`);
        results.push(await measure(store, n, raw, xos));
        const r = results[results.length - 1];
        console.error(`  ${store} ${n}: raw ${r.raw.toFixed(2)} ms, xos ${r.xos.toFixed(2)} ms`);
        await closeRaw();
        await backend.close();
      }
    }
  } finally {
    await postgres?.stop();
    await dir.remove();
  }
  console.log('\n| store | rows | raw select + JSON.stringify (ms) | XOS GraphQL request (ms) | ratio |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.store} | ${r.rows} | ${r.raw.toFixed(2)} | ${r.xos.toFixed(2)} | ${(r.xos / r.raw).toFixed(2)} |`);
  }
}

await main();
