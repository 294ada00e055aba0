// npm run bench:live — a team on one database for ~2 minutes: three xos-server instances over
// one PostgreSQL, 20 Boards keeping copies through the change feed, 10 agents doing
// version-checked updates on the same 1,000 records. Prints the delay from an update sent to
// the last Board hearing it (p50/p95/max) against a bare pg LISTEN/NOTIFY round trip measured in
// the same process, and checks that no update was lost. First, what telling the change costs a
// write: single-row writes as XOS makes them (update, audit entry, commit) with the change's
// pg_notify and without, alternating in rounds, while a LISTEN connection hears the channel.
// Last, writes by another program: a psql client updates a row every Board shows, on XOS's
// tables and on a table XOS did not create; the delay from its commit until all 20 Boards (three
// instances, the real Board with its compare of what it shows) show the new value. Then all of it
// at once: the agents and their Boards, psql on another of XOS's tables (20 Boards on the agents'
// instances) and on the table XOS did not create, and a read-only role forging changes, presence
// and presence rows on both databases; "met" when every delay's p95 < 1 s, no update is lost and
// no forgery is written or shown.
//   npm run bench:live                 (-- --seconds 20 for a shorter run)
import pg from 'pg';
import type { Ast } from '../src/ast/schema.ts';
import { startBackend, type Backend } from '../src/backend/backend.ts';
import { CHANGES_CHANNEL, notifyChangesSql } from '../src/backend/changes/notifyPayload.ts';
import { presencePayload } from '../src/backend/changes/postgresFeed.ts';
import { demoApp } from '../src/backend/demo.ts';
import { startHttpServer, type RunningHttpServer } from '../src/backend/http.ts';
import { readCatalog } from '../src/backend/introspect/init.ts';
import { catalogToAst } from '../src/backend/introspect/toAst.ts';
import type { RowsResult } from '../src/board/protocol.ts';
import type { GridRow } from '../src/board/viewTypes.ts';
import { connectRemoteClient } from '../src/graphql/client.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { openSavingBoard, type SavingBoard } from '../test/support/savingBoard.ts';
import { lostUpdates, percentile, runTeam, type TeamApp } from '../test/support/team.ts';

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

const OUTSIDE_INSTANCES = 3;
const OUTSIDE_BOARDS = 20;
const OUTSIDE_WRITES = 40;
/** A write no Board showed within this long counts as missed. */
const OUTSIDE_GIVE_UP_MS = 10_000;

interface OutsideTable {
  readonly what: string;
  readonly ast: Ast;
  readonly list: string;
  readonly field: string;
  /** The UPDATE another program runs: `$1` the new value, `$2` the row's key. */
  readonly update: string;
}

/**
 * Another program (psql) writes a row every Board shows: the delay from its commit until every
 * Board's page was sent the new value, one write at a time, with the Boards spread over the instances.
 */
async function outsideWrites(dsn: string, table: OutsideTable, run: string, running: readonly RunningHttpServer[] = []): Promise<{ delays: number[]; missed: number }> {
  const backends: Backend[] = [];
  // Instances already running (the team's, in the run with everything at once) stay theirs to close.
  const servers: RunningHttpServer[] = [...running];
  const boards: SavingBoard[] = [];
  const psql = new pg.Client({ connectionString: dsn });
  await psql.connect();
  try {
    for (let i = running.length; i < OUTSIDE_INSTANCES; i++) {
      const backend = await startBackend({ ast: table.ast, dsn });
      backends.push(backend);
      servers.push(await startHttpServer(backend.api));
    }
    let shown: GridRow[] = [];
    let column = -1;
    for (let i = 0; i < OUTSIDE_BOARDS; i++) {
      const board = openSavingBoard(await connectRemoteClient({ endpoint: servers[i % servers.length].url }));
      boards.push(board);
      await board.controller.navigation.openContext(table.list);
      const list = board.sent('board/list').at(-1)!.params.list;
      column = list.columns.findIndex((c: { field: string }) => c.field === table.field);
      shown = (await board.pageAsks<RowsResult>('board/rows', { listId: list.listId, offset: 0, limit: 100, query: {} })).rows as GridRow[];
    }
    const delays: number[] = [];
    let missed = 0;
    for (let n = 0; n < OUTSIDE_WRITES; n++) {
      const row = shown[(n * 7) % shown.length];
      // A value no other phase wrote: a row that already holds it would show no change.
      const value = `Outside ${run} ${n}`;
      const marks = boards.map((board) => board.posted.length);
      await psql.query(table.update, [value, Number(row.key)]);
      const committed = performance.now();
      const showsIt = (board: SavingBoard, i: number) => board.sent('board/listRows', marks[i])
        .some((m) => (m.params.windows as { rows: GridRow[] }[]).some((w) => w.rows.some((r) => r.key === row.key && r.values[column] === value)));
      while (!boards.every(showsIt) && performance.now() - committed < OUTSIDE_GIVE_UP_MS) await new Promise((resolve) => setTimeout(resolve, 2));
      if (boards.every(showsIt)) delays.push(performance.now() - committed);
      else missed++;
      // Writes spaced like a person's or a script's, not back to back.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return { delays, missed };
  } finally {
    for (const board of boards) board.controller.dispose();
    for (const server of servers.slice(running.length)) await server.close();
    for (const backend of backends) await backend.close();
    await psql.end();
  }
}

/** A role that may only read, as a reporting tool has: it can still send notifications on any channel. */
async function createReporter(dsn: string): Promise<string> {
  const admin = new pg.Client({ connectionString: dsn });
  await admin.connect();
  try {
    await admin.query(`DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'xos_reporter') THEN CREATE ROLE xos_reporter LOGIN; END IF; END $$`);
    await admin.query('GRANT USAGE ON SCHEMA public TO xos_reporter');
    await admin.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO xos_reporter');
  } finally {
    await admin.end();
  }
  const url = new URL(dsn);
  url.username = 'xos_reporter';
  return url.toString();
}

const FORGER = 'Mallory';

/**
 * The reporting role forges until `stop`: changes of people no one wrote (a version far ahead, a
 * delete), "Mallory is editing", and a row of its own in XOS's presence table (refused). Counts
 * what it sent and what the database let it write.
 */
async function forge(reporterDsn: string, stop: () => boolean): Promise<{ sent: number; written: number }> {
  const reporter = new pg.Client({ connectionString: reporterDsn });
  await reporter.connect();
  let sent = 0;
  let written = 0;
  try {
    for (let n = 0; !stop(); n++) {
      const id = String(1 + (n % 100));
      await reporter.query("SELECT pg_notify('xos_changes', $1)", [JSON.stringify({ cursor: 999_999_999_999 + n, changes: [{ entity: 'person', id, action: 'update', version: 1_000_000 + n, person: FORGER, path: 'board' }] })]);
      await reporter.query("SELECT pg_notify('xos_changes', $1)", [JSON.stringify({ changes: [{ entity: 'person', id, action: 'delete', version: null }] })]);
      await reporter.query("SELECT pg_notify('xos_presence', $1)", [presencePayload(`forged-${n}`, { client: `forged-${n}`, person: FORGER, entity: 'person', id, editing: true }, 30_000)]);
      sent += 3;
      for (const table of ['xos_presence', 'xos.presence']) {
        const tried = await reporter.query(`INSERT INTO ${table} ("client", "person", "entity", "record_id", "editing", "expires") VALUES ($1, $2, 'person', $3, 1, $4)`,
          [`forged-${n}`, FORGER, id, Date.now() + 60_000]).then(() => true, () => false);
        sent++;
        if (tried) written++;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await reporter.end();
  }
  return { sent, written };
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
    console.log(`updates: ${written} written (${(written / SECONDS).toFixed(0)}/s), ${team.conflicts} conflicts, ${lost} records with a lost update, ${team.resets} feed resets`);
    console.log(`update sent -> every Board heard it: p50 ${ms(percentile(delays, 50))}, p95 ${ms(percentile(delays, 95))}, max ${ms(Math.max(...delays))} (${delays.length} changes)`);
    const fromAnswer = team.delaysFromAnswer;
    console.log(`update answered -> every Board heard it: p50 ${ms(percentile(fromAnswer, 50))}, p95 ${ms(percentile(fromAnswer, 95))}, max ${ms(Math.max(...fromAnswer))} (commit lies between send and answer)`);
    const ratio = (values: number[], p: number) => (percentile(values, p) / percentile(baseline, p)).toFixed(1);
    console.log(`ratio against the bare round trip: from sent p50 ${ratio(delays, 50)}x, p95 ${ratio(delays, 95)}x; from answered p50 ${ratio(fromAnswer, 50)}x, p95 ${ratio(fromAnswer, 95)}x`);
    if (lost > 0) process.exitCode = 1;
  } finally {
    await team.close();
  }

  const ownDsn = await postgres.createDatabase('xos_live_outside');
  const setup = new pg.Client({ connectionString: ownDsn });
  await setup.connect();
  try {
    await setup.query('CREATE TABLE "Kunde" ("Nr" integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Name" text NOT NULL, "Stadt" text)');
    await setup.query('INSERT INTO "Kunde" ("Name", "Stadt") SELECT \'Kunde \' || n, \'Stadt \' || n FROM generate_series(1, 10000) AS n');
  } finally {
    await setup.end();
  }
  const tables: Array<{ dsn: string; table: OutsideTable }> = [
    { dsn, table: { what: 'XOS\'s table person', ast: demoApp(), list: 'person_list', field: 'city', update: 'UPDATE person SET city = $1, version = version + 1 WHERE id = $2' } },
    { dsn: ownDsn, table: { what: 'a table XOS did not create', ast: catalogToAst(await readCatalog(ownDsn)).ast, list: 'kunde_list', field: 'stadt', update: 'UPDATE "Kunde" SET "Stadt" = $1 WHERE "Nr" = $2' } },
  ];
  for (const { dsn: where, table } of tables) {
    const { delays, missed } = await outsideWrites(where, table, 'alone');
    const p95 = delays.length ? percentile(delays, 95) : Infinity;
    console.log(`another program's write (psql) -> all ${OUTSIDE_BOARDS} Boards show it, ${table.what}: p50 ${ms(percentile(delays, 50))}, p95 ${ms(p95)}, max ${ms(Math.max(...delays))}, `
      + `${missed} missed (${OUTSIDE_WRITES} writes, ${OUTSIDE_INSTANCES} instances); aim p95 < 1000 ms: ${p95 < 1000 && missed === 0 ? 'met' : 'NOT met'}`);
    if (missed > 0) process.exitCode = 1;
  }

  // Everything at once, as a team lives, on both kinds of table: on XOS's, the agents and their
  // Boards and a psql writer on another table (20 Boards on the agents' instances); on a database
  // XOS did not create, the same (agents on "Kunde", psql too); and the read-only role forging on both.
  console.log(`all at once: on XOS's tables and on a database XOS did not create, each: 3 instances, 20 Boards and 10 agents, psql writing (20 more Boards); a read-only role forging on both, ${SECONDS} s …`);
  const teamDsn = await postgres.createDatabase('xos_live_together');
  let forging = true;
  const forgers: Promise<{ sent: number; written: number }>[] = [];
  const outside: Array<Promise<{ what: string; delays: number[]; missed: number }>> = [];
  const kunde = tables[1].table;
  const teamOn = (dsn: string, app: TeamApp | undefined, psqlTable: OutsideTable) => runTeam({
    dsn, instances: 3, boards: 20, agents: 10, records: 1_000, durationMs: SECONDS * 1000, ...(app ? { app } : {}),
    during: async (servers) => {
      outside.push(outsideWrites(dsn, psqlTable, 'together', servers).then((result) => ({ what: psqlTable.what, ...result })));
      await outside.at(-1);
    },
  });
  // One role for the whole server, its read rights granted in each database, one after the other.
  for (const where of [teamDsn, ownDsn]) forgers.push(forge(await createReporter(where), () => !forging));
  const companies: OutsideTable = { what: 'XOS\'s table company', ast: demoApp(), list: 'company_list', field: 'city', update: 'UPDATE company SET city = $1, version = version + 1 WHERE id = $2' };
  const teams = await Promise.allSettled([
    teamOn(teamDsn, undefined, companies),
    teamOn(ownDsn, { ast: kunde.ast, entity: 'kunde', list: 'kunde_list', detail: 'kunde_detail', field: 'stadt', countedVersions: false }, kunde),
  ]);
  forging = false;
  try {
    const failed = teams.find((team) => team.status === 'rejected');
    if (failed) throw failed.reason;
    const [onXos, onOwn] = teams.map((team) => (team as PromiseFulfilledResult<Awaited<ReturnType<typeof runTeam>>>).value);
    const forged = await Promise.all(forgers);
    let met = true;
    for (const [what, team, table, column] of [['XOS\'s table person', onXos, 'person', 'city'], ['"Kunde", a table XOS did not create', onOwn, 'kunde', 'stadt']] as const) {
      const written = [...team.successes.values()].reduce((sum, n) => sum + n, 0);
      const stored = await team.backends[0].api.storage.select({ table, columns: [column], limit: 100_000 });
      let lost = 0;
      for (const row of stored) {
        const value = row[column] as string | null;
        // psql wrote last on some rows: then only writes checked against the same version are lost ones.
        const psqlLast = typeof value === 'string' && value.startsWith('Outside ');
        lost += lostUpdates(team.writes.get(String(row.id)) ?? [], psqlLast ? undefined : { version: row.version as number, value });
      }
      const p95 = percentile(team.delays, 95);
      met &&= p95 < 1000 && lost === 0;
      console.log(`  agents on ${what}: ${written} updates, ${team.conflicts} conflicts, ${lost} lost, ${team.resets} feed resets; sent -> every Board heard it: p50 ${ms(percentile(team.delays, 50))}, p95 ${ms(p95)}, max ${ms(Math.max(...team.delays))}`);
    }
    for (const { what, delays, missed } of await Promise.all(outside)) {
      const outsideP95 = delays.length ? percentile(delays, 95) : Infinity;
      met &&= outsideP95 < 1000 && missed === 0;
      console.log(`  psql on ${what} -> all ${OUTSIDE_BOARDS} Boards: p50 ${ms(percentile(delays, 50))}, p95 ${ms(outsideP95)}, max ${ms(Math.max(...delays))}, ${missed} missed`);
    }
    const sent = forged.reduce((sum, f) => sum + f.sent, 0);
    const forgedWritten = forged.reduce((sum, f) => sum + f.written, 0);
    const changes = onXos.unexpected.changes + onOwn.unexpected.changes;
    const presence = onXos.unexpected.presence + onOwn.unexpected.presence;
    console.log(`  forger (read-only role): ${sent} forgeries sent, ${forgedWritten} written; ${changes} changes and ${presence} presence entries no one made heard by a Board`);
    met &&= changes === 0 && presence === 0 && forgedWritten === 0;
    console.log(`  aim p95 < 1000 ms to every Board, 0 lost updates, 0 forged events shown: ${met ? 'met' : 'NOT met'}`);
    if (!met) process.exitCode = 1;
  } finally {
    for (const team of teams) if (team.status === 'fulfilled') await team.value.close();
  }
} finally {
  await postgres.stop();
}
