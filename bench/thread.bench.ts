// npm run bench:thread — where the embedded backend should run off the front end's thread: a
// worker thread (what XOS does, src/graphql/workerBackend.ts) or a child process (the same
// backend behind the process's IPC channel, bench/support/backendChild.ts). Both on the same
// SQLite file, alternately in the same run: the time to start, a request's round trip for a
// small answer, a Board window of 200 rows and one of 5,000, and the memory each adds.
//   npm run bench:thread           (100,000 people; XOS_BENCH_ROWS, XOS_BENCH_RUNS to change)
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startBackend } from '../src/backend/backend.ts';
import { demoApp } from '../src/backend/demo.ts';
import { startWorkerBackend, type WorkerBackend } from '../src/graphql/workerBackend.ts';
import { seedPeople } from '../test/support/seedPeople.ts';
import { tempDir } from '../test/support/tmp.ts';

const ROWS = Number(process.env.XOS_BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.XOS_BENCH_RUNS ?? 30);
const STARTS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

type Run = (query: string) => Promise<unknown>;

interface Side {
  readonly run: Run;
  /** What the side added to memory when it started (MB): the child's own RSS, or this process's growth. */
  readonly addedMb: number;
  close(): Promise<void>;
}

async function startWorker(dsn: string): Promise<Side> {
  const ast = demoApp();
  delete ast.data;
  const before = process.memoryUsage().rss;
  const backend: WorkerBackend = await startWorkerBackend({ ast, dsn });
  // One request so both sides have loaded what answering takes.
  await backend.client.run('{ person_list(limit: 1) { id } }');
  const addedMb = (process.memoryUsage().rss - before) / 2 ** 20;
  return { run: (query) => backend.client.run(query), addedMb, close: () => backend.close() };
}

async function startChild(dsn: string): Promise<Side> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'support', 'backendChild.ts'), [dsn], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (json: string) => void>();
  let nextId = 1;
  const ready = new Promise<{ rssMb: number }>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: { ready?: boolean; rssMb?: number; id?: number; json?: string }) => {
      if (message.ready) { resolve({ rssMb: message.rssMb! }); return; }
      const answer = pending.get(message.id!);
      pending.delete(message.id!);
      answer?.(message.json!);
    });
  });
  const { rssMb } = await ready;
  const run: Run = (query) => new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, (json) => resolve(JSON.parse(json)));
    child.send({ id, query });
  });
  await run('{ person_list(limit: 1) { id } }');
  return {
    run,
    addedMb: rssMb,
    close: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.send('close'); }),
  };
}

const SIDES = { 'worker thread': startWorker, 'child process': startChild } as const;
type SideName = keyof typeof SIDES;

const WINDOW = (limit: number) => `{ person_list(order_by: [{ city: asc }, { id: asc }], offset: 1000, limit: ${limit}) { id firstname lastname email city age net_worth company { id name } } }`;
const REQUESTS: Array<[string, string, number]> = [
  ['small answer (1 row)', '{ person_list(limit: 1) { id firstname } }', RUNS * 3],
  ['Board window (200 rows)', WINDOW(200), RUNS],
  ['large window (5,000 rows)', WINDOW(5000), Math.max(5, Math.floor(RUNS / 3))],
];

async function main(): Promise<void> {
  await using dir = await tempDir('xos-bench-thread');
  const dsn = `sqlite:${join(dir.path, 'xos.db')}`;
  const ast = demoApp();
  delete ast.data;
  console.log(`seeding ${ROWS.toLocaleString('en')} people into ${dsn} …`);
  const seeder = await startBackend({ ast, dsn });
  await seedPeople(seeder, ROWS);
  await seeder.close();

  const names = Object.keys(SIDES) as SideName[];
  const starts: Record<SideName, number[]> = { 'worker thread': [], 'child process': [] };
  const memory: Record<SideName, number[]> = { 'worker thread': [], 'child process': [] };
  for (let run = 0; run < STARTS; run++) {
    for (const name of run % 2 ? [...names].reverse() : names) {
      const begin = performance.now();
      const side = await SIDES[name](dsn);
      starts[name].push(performance.now() - begin);
      memory[name].push(side.addedMb);
      await side.close();
    }
  }

  const sides = { 'worker thread': await startWorker(dsn), 'child process': await startChild(dsn) };
  const times: Record<string, Record<SideName, number[]>> = {};
  for (const [label, query, runs] of REQUESTS) {
    times[label] = { 'worker thread': [], 'child process': [] };
    for (let run = 0; run < runs; run++) {
      // Alternate which side goes first, so drift on a noisy machine hits both alike.
      for (const name of run % 2 ? [...names].reverse() : names) {
        const begin = performance.now();
        await sides[name].run(query);
        times[label][name].push(performance.now() - begin);
      }
    }
  }
  for (const side of Object.values(sides)) await side.close();

  console.log(`\nbench:thread — ${ROWS.toLocaleString('en')} people, SQLite file (Node ${process.version}); medians, child process ÷ worker thread\n`);
  console.log('| measure | worker thread | child process | ratio |');
  console.log('|---|---:|---:|---:|');
  const line = (label: string, worker: number, child: number, unit: string) =>
    console.log(`| ${label} | ${worker.toFixed(2)} ${unit} | ${child.toFixed(2)} ${unit} | ${(child / worker).toFixed(2)} |`);
  line(`start until the first answer (${STARTS} starts)`, median(starts['worker thread']), median(starts['child process']), 'ms');
  for (const [label] of REQUESTS) line(label, median(times[label]['worker thread']), median(times[label]['child process']), 'ms');
  line('memory added', median(memory['worker thread']), median(memory['child process']), 'MB');
}

await main();
