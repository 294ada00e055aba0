// npm run bench:batch — 10,000 rows changed in ONE transaction (Storage.updateMany: each row
// version-checked and audited) against the same 10,000 changes as single saves (one transaction
// each, as today), on SQLite and PostgreSQL, alternating in the same process; the aim for a batch
// the person confirms at once: 10,000 rows commit in under 2 s. Beside them the whole review path
// the tools take: xos_ui_change_required's proposal ({ where, set } with `_add`, every row read and
// checked, the review built) and xos_ui_save's write of the accepted cells (answered at once).
// The baseline, alternated with them on the same table: the database's own bulk write, one bare
// `UPDATE … FROM (VALUES …)` of the same rows over a connection of the bench's own (no version
// check, no audit); the aim for the confirmed save: at most 1.5× that.
// Last, the proposal through xos-mcp as an MCP client starts it (stdio, its own process, the
// built dist/): the first proposal of the session and the next ones until the answer, and its
// memory (RSS) before the first and after the last; the aims: the first answered in under
// 300 ms, memory within 50 MB of before. (Its save waits for the person on the Board page.)
//   npm run build && npm run bench:batch            (XOS_BENCH_ROWS=2000 for less, XOS_BENCH_STORES=sqlite for one store)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startBackend, type Backend } from '../src/backend/backend.ts';
import { demoApp } from '../src/backend/demo.ts';
import type { RowUpdate } from '../src/backend/storage/types.ts';
import { BoardState } from '../src/board/state.ts';
import { proposeChanges } from '../src/core/propose.ts';
import { saveForm } from '../src/core/save.ts';
import { embeddedClient } from '../src/graphql/client.ts';
import type { CoreDeps } from '../src/core/base.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { seedPeople } from '../test/support/seedPeople.ts';
import { tempDir } from '../test/support/tmp.ts';
import { startXosMcp } from '../test/e2e/support/xosMcp.ts';

const ROWS = Number(process.env.XOS_BENCH_ROWS ?? 10_000);
const STORES = (process.env.XOS_BENCH_STORES ?? 'sqlite,postgres').split(',');
const RUNS = Number(process.env.XOS_BENCH_RUNS ?? 3);
const AIM_MS = 2000;
/** The confirmed save against the database's own bulk UPDATE. */
const AIM_RATIO = 1.5;
/** xos-mcp: the first proposal's answer, and its memory after the proposals against before the first. */
const MCP_AIMS = { firstMs: 300, memoryMb: 50 };
const MCP_PROPOSALS = Number(process.env.XOS_BENCH_MCP_PROPOSALS ?? 10);
/** Rows per bare UPDATE statement (SQLite binds at most 32,766 values). */
const BARE_CHUNK = 5000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function changes(backend: Backend, run: number): Promise<RowUpdate[]> {
  const rows = await backend.api.storage.select({ table: 'person', columns: [], orderBy: [{ column: 'id', desc: false }] });
  return rows.map((r) => ({ id: r.id as number, version: r.version as number, set: { city: `Stadt ${run}`, age: run % 100 } }));
}

/** One transaction of bare `UPDATE person … FROM (VALUES …)` statements over the bench's own connection. */
function bareUpdater(store: string, dsn: string): { run(updates: RowUpdate[]): Promise<void>; close(): Promise<void> } {
  const chunks = (updates: RowUpdate[]) => Array.from({ length: Math.ceil(updates.length / BARE_CHUNK) }, (_, i) => updates.slice(i * BARE_CHUNK, (i + 1) * BARE_CHUNK));
  const values = (chunk: RowUpdate[]) => chunk.flatMap((u) => [u.id, u.set.city, u.set.age]);
  if (store === 'sqlite') {
    const db = new DatabaseSync(dsn.slice('sqlite:'.length), { timeout: 10_000 });
    return {
      async run(updates) {
        db.exec('BEGIN IMMEDIATE');
        for (const chunk of chunks(updates)) {
          db.prepare(`UPDATE person SET city = v.column2, age = v.column3 FROM (VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}) AS v WHERE person.id = v.column1`)
            .run(...(values(chunk) as Array<number | string>));
        }
        db.exec('COMMIT');
      },
      async close() { db.close(); },
    };
  }
  const client = new pg.Client({ connectionString: dsn });
  const connected = client.connect();
  return {
    async run(updates) {
      await connected;
      await client.query('BEGIN');
      for (const chunk of chunks(updates)) {
        const tuples = chunk.map((_, i) => `($${3 * i + 1}::bigint, $${3 * i + 2}::text, $${3 * i + 3}::integer)`).join(', ');
        await client.query(`UPDATE person SET city = v.city, age = v.age FROM (VALUES ${tuples}) AS v(id, city, age) WHERE person.id = v.id`, values(chunk));
      }
      await client.query('COMMIT');
    },
    async close() { await connected; await client.end(); },
  };
}

/** A process's resident memory in MB. */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** The proposal through xos-mcp over stdio, on a SQLite file of ROWS people: one line of the report. */
async function throughXosMcp(folder: string): Promise<string> {
  const dsn = `sqlite:${join(folder, 'mcp.db')}`;
  const ast = demoApp();
  delete ast.data;
  const seeding = await startBackend({ ast, dsn });
  await seedPeople(seeding, ROWS);
  await seeding.close();
  const mcp = await startXosMcp({ name: 'bench-batch', data: folder, args: ['--board-port', '0', '--dsn', dsn] });
  try {
    await mcp.client.callTool({ name: 'xos_schema', arguments: {} });
    const before = rssMb(mcp.pid);
    const times: number[] = [];
    for (let i = 0; i < MCP_PROPOSALS; i++) {
      const started = performance.now();
      const result = await mcp.client.callTool({ name: 'xos_ui_change_required', arguments: { context: 'person_list', changes: { where: {}, set: { age: { _add: i + 1 } } } } });
      times.push(performance.now() - started);
      const text = (result.content as Array<{ text?: string }> | undefined)?.[0]?.text ?? '';
      if (result.isError || !text.startsWith('Review on the Board')) throw new Error(`the proposal was refused: ${text}`);
    }
    const after = rssMb(mcp.pid);
    const [first, ...next] = times;
    console.error(`  xos-mcp: first proposal ${first.toFixed(0)} ms, next ${median(next).toFixed(0)} ms (median of ${next.length}), RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`);
    return `| xos-mcp (stdio, sqlite) | ${ROWS} | ${first.toFixed(0)} ms | ${first < MCP_AIMS.firstMs ? 'met' : 'NOT met'} | ${median(next).toFixed(0)} ms | ${before.toFixed(0)} MB | ${after.toFixed(0)} MB (+${(after - before).toFixed(0)}) | ${after - before <= MCP_AIMS.memoryMb ? 'met' : 'NOT met'} |`;
  } finally {
    await mcp.client.close();
  }
}

async function main() {
  const dir = await tempDir('xos-bench-batch');
  const postgres = STORES.includes('postgres') ? await startPostgres() : undefined;
  const lines: string[] = [];
  let mcpLine: string | undefined;
  try {
    for (const store of STORES) {
      const ast = demoApp();
      delete ast.data;
      const dsn = store === 'sqlite' ? `sqlite:${join(dir.path, 'batch.db')}` : await postgres!.createDatabase('batch');
      const backend = await startBackend({ ast, dsn });
      await seedPeople(backend, ROWS);
      const { storage } = backend.api;
      const audit = { path: 'board' as const, approval: 'benchmark' };
      const times = { batch: [] as number[], single: [] as number[], propose: [] as number[], save: [] as number[], bare: [] as number[] };
      const bareUpdate = bareUpdater(store, dsn);
      const deps: CoreDeps = {
        client: embeddedClient(backend), board: new BoardState(), locale: 'en',
        confirmer: { confirmSave: async () => 'save', confirmSend: async () => 'cancel' },
      };
      const review = async () => {
        const started = performance.now();
        const proposed = await proposeChanges(deps, 'person_list', { where: {}, set: { age: { _add: 1 } }, });
        times.propose.push(performance.now() - started);
        if (proposed.kind !== 'batch_previewed') throw new Error(`the proposal was refused: ${proposed.kind}`);
        const saving = performance.now();
        const saved = await saveForm(deps, new AbortController().signal);
        times.save.push(performance.now() - saving);
        if (saved.kind !== 'batch_saved') throw new Error(`the review was not saved: ${saved.kind}`);
      };
      let run = 0;
      const batch = async () => {
        const updates = await changes(backend, ++run);
        const started = performance.now();
        const result = await storage.updateMany('person', updates, audit);
        times.batch.push(performance.now() - started);
        if (result.status !== 'ok') throw new Error('the batch met a conflict');
      };
      const single = async () => {
        const updates = await changes(backend, ++run);
        const started = performance.now();
        for (const u of updates) {
          if ((await storage.update('person', u.id, u.version, u.set, audit)).status !== 'ok') throw new Error('a save met a conflict');
        }
        times.single.push(performance.now() - started);
      };
      const bare = async () => {
        const updates = await changes(backend, ++run);
        const started = performance.now();
        await bareUpdate.run(updates);
        times.bare.push(performance.now() - started);
      };
      for (let i = 0; i < RUNS; i++) {
        // Alternate the order so drift on a noisy machine hits both alike.
        if (i % 2) { await single(); await bare(); await batch(); await review(); } else { await review(); await batch(); await bare(); await single(); }
      }
      await bareUpdate.close();
      await backend.close();
      const b = median(times.batch);
      const s = median(times.single);
      const p = median(times.propose);
      const w = median(times.save);
      const d = median(times.bare);
      console.error(`  ${store}: one transaction ${b.toFixed(0)} ms, single saves ${s.toFixed(0)} ms, review: proposal ${p.toFixed(0)} ms, save ${w.toFixed(0)} ms, bare UPDATE ${d.toFixed(0)} ms`);
      lines.push(`| ${store} | ${ROWS} | ${b.toFixed(0)} ms | ${s.toFixed(0)} ms | ${(b / s).toFixed(2)} | ${b < AIM_MS ? 'met' : 'NOT met'} | ${p.toFixed(0)} ms | ${w.toFixed(0)} ms (${(w / b).toFixed(2)}×) | ${w < AIM_MS ? 'met' : 'NOT met'} | ${d.toFixed(0)} ms | ${(b / d).toFixed(2)}× | ${(w / d).toFixed(2)}× | ${w / d <= AIM_RATIO ? 'met' : 'NOT met'} |`);
    }
    mcpLine = MCP_PROPOSALS > 0 ? await throughXosMcp(dir.path) : undefined;
  } finally {
    await postgres?.stop();
    await dir.remove();
  }
  console.log(`\n${ROWS} people, two fields each, median of ${RUNS} runs\n`);
  console.log(`| store | rows | one transaction (updateMany) | single saves | ratio | under ${AIM_MS / 1000} s | review: proposal | review: save (× updateMany) | save under ${AIM_MS / 1000} s | bare UPDATE … FROM (VALUES …) | updateMany × bare | save × bare | save ≤ ${AIM_RATIO}× bare |`);
  console.log('|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---|');
  for (const line of lines) console.log(line);
  if (mcpLine) {
    console.log(`\nThe proposal ({ where: {}, set: { age: { _add: n } } }) through xos-mcp, ${MCP_PROPOSALS} in a row\n`);
    console.log(`| path | rows | first proposal | under ${MCP_AIMS.firstMs} ms | next (median) | RSS before | RSS after | within ${MCP_AIMS.memoryMb} MB |`);
    console.log('|---|---:|---:|---|---:|---:|---:|---|');
    console.log(mcpLine);
  }
}

await main();
