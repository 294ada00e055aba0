// One database, several processes: `npm start`'s xos-server and every VS Code window's
// embedded backend open the same demo database, and a reloaded window's old extension
// host keeps its backend open for a while. Each must start (migrate and seed) without
// failing and without seeding twice, and their writes must stay version-checked.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';

const backendModule = fileURLToPath(new URL('../../src/backend/backend.ts', import.meta.url));
const demoModule = fileURLToPath(new URL('../../src/backend/demo.ts', import.meta.url));
const PROCESSES = 4;

/** Starts the demo backend (migrate + seed) in a separate Node process; resolves with what it seeded. */
function startInProcess(dsn: string): Promise<Record<string, number>> {
  const script = `
    const { startBackend } = await import(${JSON.stringify(backendModule)});
    const { demoApp } = await import(${JSON.stringify(demoModule)});
    const backend = await startBackend({ ast: demoApp(), dsn: process.env.XOS_DSN, seed: true });
    process.stdout.write(JSON.stringify(backend.seeded));
    await backend.close();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, XOS_DSN: dsn }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { err += chunk; });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Record<string, number>) : reject(new Error(`backend process exited ${code}:\n${err}`))));
  });
}

async function startsTogether(dsn: string): Promise<void> {
  const ast = demoApp();
  const results = await Promise.all(Array.from({ length: PROCESSES }, () => startInProcess(dsn)));
  // Exactly one process seeded each table; the others found it filled.
  for (const entity of Object.keys(ast.data ?? {})) {
    const seeders = results.filter((seeded) => seeded[entity] > 0);
    assert.equal(seeders.length, 1, `${entity} was seeded by ${seeders.length} processes: ${JSON.stringify(results)}`);
  }
  const backend = await startBackend({ ast, dsn });
  try {
    for (const [entity, records] of Object.entries(ast.data ?? {})) {
      const counted = await backend.api.storage.count(backend.api.model.table(entity).name);
      assert.equal(counted, records.length, `${entity} rows after ${PROCESSES} concurrent starts`);
    }
    // Two backends on one database: a write through one makes the other's stale version fail.
    const other = await startBackend({ ast, dsn });
    try {
      const mutation = 'mutation ($v: Int!) { update_person(id: "1", version: $v, set: { lastname: "Schmidt" }) { version } }';
      const first = await backend.api.run({ query: mutation, variables: { v: 1 } });
      assert.equal(first.errors, undefined);
      const stale = await other.api.run({ query: mutation, variables: { v: 1 } });
      assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT');
    } finally {
      await other.close();
    }
  } finally {
    await backend.close();
  }
}

describe('several processes on one database', () => {
  let postgres: PostgresServer;
  before(async () => { postgres = await startPostgres(); });
  after(async () => { await postgres?.stop(); });

  test(`${PROCESSES} processes start on one new SQLite file at once: seeded once, writes version-checked`, async () => {
    await using dir = await tempDir('xos-sharing');
    await startsTogether(`sqlite:${join(dir.path, 'demo.db')}`);
  });

  test(`${PROCESSES} processes start on one new PostgreSQL database at once: seeded once, writes version-checked`, async () => {
    await startsTogether(await postgres.createDatabase('xos_sharing'));
  });
});
