// npm run bench:live — a team on one database for ~2 minutes: three xos-server instances over
// one PostgreSQL, 20 Boards keeping copies through the change feed, 10 agents doing
// version-checked updates on the same 1,000 records. Prints the delay from an update sent to
// the last Board hearing it (p50/p95/max) against a bare pg LISTEN/NOTIFY round trip measured in
// the same process, and checks that no update was lost. First, what telling the change costs a
// write: single-row writes as XOS makes them (update, audit entry, commit) with the change's
// pg_notify and without, alternating in rounds, while a LISTEN connection hears the channel.
//   npm run bench:live                 (-- --seconds 20 for a shorter run)
import pg from 'pg';
import { CHANGES_CHANNEL, notifyChangesSql } from '../src/backend/changes/notifyPayload.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { percentile, runTeam } from '../test/support/team.ts';

const flag = process.argv.indexOf('--seconds');
const SECONDS = flag >= 0 ? Number(process.argv[flag + 1]) : Number(process.env.XOS_BENCH_SECONDS ?? 120);
const BASELINE_ROUNDS = 500;

/** A NOTIFY sent on one connection until a LISTEN connection hears it, one at a time. */
async function notifyRoundTrips(dsn: string): Promise<number[]> {
  const listener = new pg.Client({ connectionString: dsn });
  const sender = new pg.Client({ connectionString: dsn });
  await listener.connect();
  await sender.connect();
  await listener.query('LISTEN xos_bench');
  const times: number[] = [];
  try {
    for (let i = 0; i < BASELINE_ROUNDS; i++) {
      const heard = new Promise<void>((resolve) => listener.once('notification', () => resolve()));
      const started = performance.now();
      await sender.query("SELECT pg_notify('xos_bench', $1)", [String(i)]);
      await heard;
      times.push(performance.now() - started);
    }
  } finally {
    await listener.end();
    await sender.end();
  }
  return times;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

const WRITE_ROWS = 1_000;
const WRITE_ROUNDS = 5;

/** Median time per write over alternating rounds, with the change's notification and without. */
async function notifyCostPerWrite(dsn: string): Promise<{ withNotify: number; without: number }> {
  const listener = new pg.Client({ connectionString: dsn });
  const writer = new pg.Client({ connectionString: dsn });
  await listener.connect();
  await writer.connect();
  await listener.query(`LISTEN ${CHANGES_CHANNEL}`);
  listener.on('notification', () => undefined);
  await writer.query('CREATE TABLE bench_person ("id" INTEGER PRIMARY KEY, "version" INTEGER NOT NULL, "city" TEXT)');
  await writer.query('CREATE TABLE bench_audit ("id" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "record_id" TEXT, "version_to" INTEGER, "changes" TEXT)');
  await writer.query('INSERT INTO bench_person SELECT i, 1, NULL FROM generate_series(1, $1) AS i', [WRITE_ROWS]);
  const perWrite = { withNotify: [] as number[], without: [] as number[] };
  try {
    for (let round = 0; round < WRITE_ROUNDS * 2; round++) {
      const notify = round % 2 === 0;
      const started = performance.now();
      for (let id = 1; id <= WRITE_ROWS; id++) {
        await writer.query('BEGIN');
        const [row] = (await writer.query('UPDATE bench_person SET "city" = $2, "version" = "version" + 1 WHERE "id" = $1 RETURNING "version"', [id, `Ort ${round}`])).rows;
        const [audit] = (await writer.query('INSERT INTO bench_audit ("record_id", "version_to", "changes") VALUES ($1, $2, $3) RETURNING "id"', [String(id), row.version, '{"city":1}'])).rows;
        if (notify) {
          const statement = notifyChangesSql([{ change: { entity: 'person', id: String(id), action: 'update', version: row.version, path: 'agent' }, auditId: Number(audit.id) }])!;
          await writer.query(statement.text, statement.params as unknown[]);
        }
        await writer.query('COMMIT');
      }
      (notify ? perWrite.withNotify : perWrite.without).push((performance.now() - started) / WRITE_ROWS);
    }
  } finally {
    await listener.end();
    await writer.end();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { withNotify: median(perWrite.withNotify), without: median(perWrite.without) };
}

const postgres = await startPostgres();
try {
  const dsn = await postgres.createDatabase('xos_live_bench');
  const cost = await notifyCostPerWrite(dsn);
  console.log(`a write with its change told: ${cost.withNotify.toFixed(3)} ms, without: ${cost.without.toFixed(3)} ms `
    + `(ratio ${(cost.withNotify / cost.without).toFixed(2)}x; ${WRITE_ROWS} single-row writes a round, ${WRITE_ROUNDS} rounds each, medians)`);
  const baseline = await notifyRoundTrips(dsn);
  console.log(`baseline: bare LISTEN/NOTIFY round trip p50 ${ms(percentile(baseline, 50))}, p95 ${ms(percentile(baseline, 95))}, max ${ms(Math.max(...baseline))} (${BASELINE_ROUNDS} rounds)`);
  console.log(`team: 3 instances, 20 Boards, 10 agents, 1,000 records, ${SECONDS} s …`);
  const team = await runTeam({ dsn, instances: 3, boards: 20, agents: 10, records: 1_000, durationMs: SECONDS * 1000 });
  try {
    const written = [...team.successes.values()].reduce((sum, n) => sum + n, 0);
    const stored = await team.backends[0].api.storage.select({ table: 'person', columns: [], limit: 100_000 });
    const lost = stored.filter((row) => row.version !== 1 + (team.successes.get(String(row.id)) ?? 0)).length;
    const { delays } = team;
    console.log(`updates: ${written} written (${(written / SECONDS).toFixed(0)}/s), ${team.conflicts} conflicts, ${lost} records with a lost update`);
    console.log(`update sent -> every Board heard it: p50 ${ms(percentile(delays, 50))}, p95 ${ms(percentile(delays, 95))}, max ${ms(Math.max(...delays))} (${delays.length} changes)`);
    const fromAnswer = team.delaysFromAnswer;
    console.log(`update answered -> every Board heard it: p50 ${ms(percentile(fromAnswer, 50))}, p95 ${ms(percentile(fromAnswer, 95))}, max ${ms(Math.max(...fromAnswer))} (commit lies between send and answer)`);
    const ratio = (values: number[], p: number) => (percentile(values, p) / percentile(baseline, p)).toFixed(1);
    console.log(`ratio against the bare round trip: from sent p50 ${ratio(delays, 50)}x, p95 ${ratio(delays, 95)}x; from answered p50 ${ratio(fromAnswer, 50)}x, p95 ${ratio(fromAnswer, 95)}x`);
    if (lost > 0) process.exitCode = 1;
  } finally {
    await team.close();
  }
} finally {
  await postgres.stop();
}
