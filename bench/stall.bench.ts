// npm run bench:stall — how long the front end's own thread (VS Code's extension host, xos-mcp)
// stands still while the Board works on a large list of the embedded SQLite store: the backend
// in the same thread (as XOS ran it before) against the backend on its own thread
// (src/graphql/workerBackend.ts), alternately in the same process on the same database file.
// Each Board action goes through the Board's own list source (src/core/listSource.ts), as a
// scroll, a sort, Ctrl+End or the quick filter do. Per action: the longest stall of this
// thread's event loop (the widest gap between ticks of a 1 ms timer) and the action's time,
// median of the runs, and the worst stall of any run: the aim is judged on that, not on a median.
//   npm run bench:stall                       (1,000,000 people; XOS_BENCH_ROWS=200000 for less)
import { join } from 'node:path';
import { appModel } from '../src/ast/appModel.ts';
import { startBackend } from '../src/backend/backend.ts';
import { demoApp } from '../src/backend/demo.ts';
import { QueryListSource } from '../src/core/listSource.ts';
import type { ListQuery } from '../src/core/domain.ts';
import { embeddedClient } from '../src/graphql/client.ts';
import { contextSelection } from '../src/graphql/requests.ts';
import type { XosClient } from '../src/graphql/types.ts';
import { startWorkerBackend } from '../src/graphql/workerBackend.ts';
import { seedPeople } from '../test/support/seedPeople.ts';
import { tempDir } from '../test/support/tmp.ts';

const ROWS = Number(process.env.XOS_BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.XOS_BENCH_RUNS ?? 5);
const WINDOW = 100;
/** The aim: no Board action holds the front end's thread longer than this. */
const AIM_STALL_MS = 50;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Action {
  readonly name: string;
  /** On a list source opened just before (so no count is cached from an earlier run). */
  run(source: QueryListSource, total: number): Promise<unknown>;
  /** What the Board did just before, not measured (the window the action scrolls on from). */
  before?(source: QueryListSource, total: number): Promise<unknown>;
}

const bySort = (field: string): ListQuery => ({ sort: { field, direction: 'asc' } });
const ACTIONS: Action[] = [
  { name: 'open the list (count + first window)', run: (source) => source.reopen() },
  { name: 'scroll to the middle', run: (source, total) => source.window(Math.floor(total / 2), WINDOW, {}) },
  {
    name: 'scroll on from the middle (by key)',
    before: (source, total) => source.window(Math.floor(total / 2), WINDOW, {}),
    run: (source, total) => source.window(Math.floor(total / 2) + WINDOW, WINDOW, {}),
  },
  { name: 'Ctrl+End (last window)', run: (source, total) => source.window(total - WINDOW, WINDOW, {}) },
  { name: 'sort by city, first window', run: (source) => source.window(0, WINDOW, bySort('city')) },
  { name: 'sort by city, Ctrl+End', run: (source, total) => source.window(total - WINDOW, WINDOW, bySort('city')) },
  { name: 'quick filter "berg" (count + first window)', run: (source) => source.window(0, WINDOW, { filter: 'berg' }) },
];

/**
 * The action's time and this thread's longest stall while it ran: the widest gap between two
 * ticks of a 1 ms timer that runs from before the action until the first tick after it (a
 * synchronous query shows as one gap as long as the query).
 */
async function measure(action: Action, open: () => Promise<QueryListSource>): Promise<{ ms: number; stallMs: number }> {
  const source = await open();
  await action.before?.(source, source.total);
  let last = performance.now();
  let widest = 0;
  let onTick: (() => void) | undefined;
  const ticker = setInterval(() => {
    const now = performance.now();
    widest = Math.max(widest, now - last);
    last = now;
    onTick?.();
  }, 1);
  const nextTick = () => new Promise<void>((resolve) => { onTick = resolve; });
  await nextTick();
  widest = 0;
  const start = performance.now();
  await action.run(source, source.total);
  const ms = performance.now() - start;
  await nextTick();
  clearInterval(ticker);
  return { ms, stallMs: widest };
}

async function main(): Promise<void> {
  await using dir = await tempDir('xos-bench-stall');
  const dsn = `sqlite:${join(dir.path, 'xos.db')}`;
  const ast = demoApp();
  console.log(`seeding ${ROWS.toLocaleString('en')} people into ${dsn} …`);
  const seeder = await startBackend({ ast, dsn });
  await seedPeople(seeder, ROWS);
  await seeder.close();

  const here = await startBackend({ ast, dsn });
  const there = await startWorkerBackend({ ast, dsn });
  const context = appModel(ast, 'en').context('person_list')!;
  const open = (client: XosClient) => QueryListSource.open({ client, context, selection: contextSelection(ast, 'person_list') });
  const sources = { here: () => open(embeddedClient(here)), there: () => open(there.client) };

  console.log(`\nbench:stall — ${ROWS.toLocaleString('en')} rows, SQLite file, median of ${RUNS} runs (Node ${process.version})`);
  console.log('action'.padEnd(44) + 'same thread: stall / time'.padStart(28) + 'own thread: stall / time'.padStart(28) + '  stall ratio' + '  worst stall: same / own'.padStart(28));
  let worst = 0;
  for (const action of ACTIONS) {
    const results = { here: [] as Array<{ ms: number; stallMs: number }>, there: [] as Array<{ ms: number; stallMs: number }> };
    for (let run = 0; run < RUNS; run++) {
      // Alternate which side goes first, so drift on a noisy machine hits both alike.
      const order = run % 2 ? (['there', 'here'] as const) : (['here', 'there'] as const);
      for (const side of order) results[side].push(await measure(action, sources[side]));
    }
    const cell = (side: 'here' | 'there') => `${median(results[side].map((r) => r.stallMs)).toFixed(1)} ms / ${median(results[side].map((r) => r.ms)).toFixed(0)} ms`;
    const stallHere = median(results.here.map((r) => r.stallMs));
    const stallThere = median(results.there.map((r) => r.stallMs));
    const worstHere = Math.max(...results.here.map((r) => r.stallMs));
    const worstThere = Math.max(...results.there.map((r) => r.stallMs));
    worst = Math.max(worst, worstThere);
    console.log(action.name.padEnd(44) + cell('here').padStart(28) + cell('there').padStart(28) + `  ${(stallThere / stallHere).toFixed(3)}`.padEnd(13)
      + `${worstHere.toFixed(1)} ms / ${worstThere.toFixed(1)} ms`.padStart(28));
  }
  console.log(`\nworst stall of any run with the backend on its own thread: ${worst.toFixed(1)} ms (aim < ${AIM_STALL_MS} ms): ${worst < AIM_STALL_MS ? 'met' : 'NOT met'}`);
  await here.close();
  await there.close();
}

await main();
