// npm run bench:batch — 10,000 rows changed in ONE transaction (Storage.updateMany: each row
// version-checked and audited) against the same 10,000 changes as single saves (one transaction
// each, as today), on SQLite and PostgreSQL, alternating in the same process; the aim for a batch
// the person confirms at once: 10,000 rows commit in under 2 s. Beside them the whole review path
// the tools take: xos_ui_change_required's proposal ({ where, set } with `_add`, every row read and
// checked, the review built) and xos_ui_save's write of the accepted cells (answered at once).
//   npm run bench:batch            (XOS_BENCH_ROWS=2000 for less, XOS_BENCH_STORES=sqlite for one store)
import { join } from 'node:path';
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

const ROWS = Number(process.env.XOS_BENCH_ROWS ?? 10_000);
const STORES = (process.env.XOS_BENCH_STORES ?? 'sqlite,postgres').split(',');
const RUNS = Number(process.env.XOS_BENCH_RUNS ?? 3);
const AIM_MS = 2000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function changes(backend: Backend, run: number): Promise<RowUpdate[]> {
  const rows = await backend.api.storage.select({ table: 'person', columns: [], orderBy: [{ column: 'id', desc: false }] });
  return rows.map((r) => ({ id: r.id as number, version: r.version as number, set: { city: `Stadt ${run}`, age: run % 100 } }));
}

async function main() {
  const dir = await tempDir('xos-bench-batch');
  const postgres = STORES.includes('postgres') ? await startPostgres() : undefined;
  const lines: string[] = [];
  try {
    for (const store of STORES) {
      const ast = demoApp();
      delete ast.data;
      const dsn = store === 'sqlite' ? `sqlite:${join(dir.path, 'batch.db')}` : await postgres!.createDatabase('batch');
      const backend = await startBackend({ ast, dsn });
      await seedPeople(backend, ROWS);
      const { storage } = backend.api;
      const audit = { path: 'board' as const, approval: 'benchmark' };
      const times = { batch: [] as number[], single: [] as number[], propose: [] as number[], save: [] as number[] };
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
      for (let i = 0; i < RUNS; i++) {
        // Alternate the order so drift on a noisy machine hits both alike.
        if (i % 2) { await single(); await batch(); await review(); } else { await review(); await batch(); await single(); }
      }
      await backend.close();
      const b = median(times.batch);
      const s = median(times.single);
      const p = median(times.propose);
      const w = median(times.save);
      console.error(`  ${store}: one transaction ${b.toFixed(0)} ms, single saves ${s.toFixed(0)} ms, review: proposal ${p.toFixed(0)} ms, save ${w.toFixed(0)} ms`);
      lines.push(`| ${store} | ${ROWS} | ${b.toFixed(0)} ms | ${s.toFixed(0)} ms | ${(b / s).toFixed(2)} | ${b < AIM_MS ? 'met' : 'NOT met'} | ${p.toFixed(0)} ms | ${w.toFixed(0)} ms (${(w / b).toFixed(2)}×) | ${w < AIM_MS ? 'met' : 'NOT met'} |`);
    }
  } finally {
    await postgres?.stop();
    await dir.remove();
  }
  console.log(`\n${ROWS} people, two fields each, median of ${RUNS} runs\n`);
  console.log(`| store | rows | one transaction (updateMany) | single saves | ratio | under ${AIM_MS / 1000} s | review: proposal | review: save (× updateMany) | save under ${AIM_MS / 1000} s |`);
  console.log('|---|---:|---:|---:|---:|---|---:|---:|---|');
  for (const line of lines) console.log(line);
}

await main();
