// Crash durability of the embedded store: a backend process saving records through the XOS API
// is killed with SIGKILL at random moments, again and again, on one SQLite file. After every
// kill the database passes SQLite's integrity check, no record is half-written (the fields one
// save set together are still together), and no save the process had reported as stored is lost.
//   XOS_CRASH_KILLS=1000 node --test test/integration/crash.test.ts   (default 100)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { tempDir } from '../support/tmp.ts';

const KILLS = Number(process.env.XOS_CRASH_KILLS ?? 100);
const backendModule = fileURLToPath(new URL('../../src/backend/backend.ts', import.meta.url));
const demoModule = fileURLToPath(new URL('../../src/backend/demo.ts', import.meta.url));

/** Saves people 1..20 in turn, each save setting three fields to one mark; prints each mark once stored. */
const SAVER = `
  const { startBackend } = await import(${JSON.stringify(backendModule)});
  const { demoApp } = await import(${JSON.stringify(demoModule)});
  const backend = await startBackend({ ast: demoApp(), dsn: process.env.XOS_DSN });
  // A killed process never writes Node's compile cache at exit: written now, the next saver starts faster.
  (await import('node:module')).flushCompileCache?.();
  process.stdout.write('ready\\n');
  const mutation = 'mutation ($id: ID!, $v: Int!, $m: String!) { update_person(id: $id, version: $v, set: { firstname: $m, lastname: $m, city: $m }) { version } }';
  for (let n = 0; ; n++) {
    const id = String(1 + (n % 20));
    const read = await backend.api.run({ query: '{ person_detail(id: "' + id + '") { version } }' });
    const mark = process.env.XOS_RUN + '-' + n;
    const saved = await backend.api.run({ query: mutation, variables: { id, v: read.data.person_detail.version, m: mark } });
    if (saved.errors) throw new Error(JSON.stringify(saved.errors));
    process.stdout.write('stored ' + id + ' ' + mark + '\\n');
  }
`;

/**
 * Runs the saver until `afterMs` after it is ready and has reported `afterSaves` saves, kills it with
 * SIGKILL, and returns the marks it reported stored. Counting saves, not only milliseconds, keeps the
 * kills landing on a saving backend however loaded the machine is.
 */
function runAndKill(dsn: string, run: number, afterSaves: number, afterMs: number): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SAVER], { env: { ...process.env, XOS_DSN: dsn, XOS_RUN: String(run) }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stored = new Map<string, string>();
    let buffer = '';
    let errors = '';
    let reported = 0;
    const killLater = () => setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.stderr.on('data', (chunk: Buffer) => { errors += chunk; });
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line === 'ready' && afterSaves === 0) killLater();
        const [, id, mark] = line.split(' ');
        if (line.startsWith('stored ')) {
          stored.set(id, mark);
          if (++reported === afterSaves) killLater();
        }
      }
    });
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve(stored);
      else reject(new Error(`the saver ended by itself (${code ?? signal}):\n${errors}`));
    });
  });
}

test(`${KILLS} SIGKILLs of a saving backend: the database stays whole, no record half-written, no reported save lost`, { timeout: 900_000 }, async () => {
  await using dir = await tempDir('xos-crash');
  const file = join(dir.path, 'crash.db');
  const dsn = `sqlite:${file}`;
  await (await startBackend({ ast: demoApp(), dsn, seed: true })).close();
  const lastStored = new Map<string, string>();
  const order = (mark: string) => mark.split('-').map(Number);
  const later = (a: string, b: string) => { const [ra, na] = order(a); const [rb, nb] = order(b); return ra !== rb ? ra > rb : na > nb; };
  let saves = 0;
  let run = 0;
  await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 150 }), async (afterSaves, afterMs) => {
    run++;
    const stored = await runAndKill(dsn, run, afterSaves, afterMs);
    saves += stored.size;
    for (const [id, mark] of stored) lastStored.set(id, mark);

    const db = new DatabaseSync(file);
    try {
      assert.deepEqual(db.prepare('PRAGMA integrity_check').all().map((row) => row.integrity_check), ['ok']);
      const rows = db.prepare('SELECT id, firstname, lastname, city FROM person WHERE id <= 20').all() as Array<{ id: number; firstname: string; lastname: string; city: string }>;
      for (const row of rows) {
        // One save wrote all three; seeing them apart would be a half-written record.
        if (row.firstname.includes('-') || row.lastname.includes('-')) {
          assert.ok(row.firstname === row.lastname && row.lastname === row.city, `person ${row.id} is half-written: ${JSON.stringify(row)}`);
        }
        const reported = lastStored.get(String(row.id));
        if (reported) assert.ok(row.firstname === reported || later(row.firstname, reported), `person ${row.id} lost the save ${reported} (now ${row.firstname})`);
      }
    } finally {
      db.close();
    }
  }), { numRuns: KILLS, seed: 9, endOnFailure: true });
  console.log(`crash: ${KILLS} kills, ${saves} saves reported stored, 0 lost, 0 half-written, integrity ok`);
  assert.ok(saves > KILLS, 'the kills interrupted a saving backend, not an idle one');
});
