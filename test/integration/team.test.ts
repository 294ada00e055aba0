// A team on one database: three xos-server instances over one PostgreSQL, 20 Boards (each keeps
// its own copy of the 1,000 records, reading changed records again as the feed names them) and 10
// agents doing version-checked updates on the same records for ~20 s. No update is lost (every
// record's version is 1 + its successful updates, and the audit trail holds exactly those), and
// every Board's copy ends equal to what is stored.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { runTeam } from '../support/team.ts';
import { until } from '../support/until.ts';

const DURATION_MS = Number(process.env.XOS_TEAM_MS ?? 20_000);
let postgres: PostgresServer;
before(async () => { postgres = await startPostgres(); });
after(async () => { await postgres?.stop(); });

test('20 Boards and 10 agents on three instances: no lost update, every Board converges', { timeout: 180_000 }, async () => {
  const dsn = await postgres.createDatabase('xos_team');
  const team = await runTeam({ dsn, instances: 3, boards: 20, agents: 10, records: 1_000, durationMs: DURATION_MS });
  try {
    const written = [...team.successes.values()].reduce((sum, n) => sum + n, 0);
    assert.ok(written > 100, `the agents wrote (${written} updates, ${team.conflicts} conflicts)`);
    const stored = await team.backends[0].api.storage.select({ table: 'person', columns: ['city'], limit: 100_000 });
    assert.equal(stored.length, 1_000);
    for (const row of stored) assert.equal(row.version, 1 + (team.successes.get(String(row.id)) ?? 0), `person ${row.id}: no update lost`);

    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      const { rows } = await client.query<{ record_id: string; n: string }>(`SELECT record_id, COUNT(*) AS n FROM xos_audit WHERE entity = 'person' AND action = 'update' GROUP BY record_id`);
      const audited = new Map(rows.map((row) => [row.record_id, Number(row.n)]));
      assert.deepEqual(audited, team.successes, 'one audit entry per successful update');
    } finally {
      await client.end();
    }

    const expected = new Map(stored.map((row) => [String(row.id), { version: row.version as number, city: row.city as string | null }]));
    await until('every Board\'s copy equals the stored records', () => team.copies.every((copy) => copy.size === expected.size
      && [...expected].every(([id, row]) => copy.get(id)?.version === row.version && copy.get(id)?.city === row.city)), { timeoutMs: 30_000 });
    assert.ok(team.delays.length > 0, 'changes were heard by every Board');
    assert.deepEqual(team.unexpected, { changes: 0, presence: 0 }, 'no Board heard a change no agent made, nor anyone\'s presence');
  } finally {
    await team.close();
  }
});
