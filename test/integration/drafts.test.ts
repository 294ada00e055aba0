// Unsaved Board work survives a crash: a process holding the Board (the extension host's part,
// without VS Code) takes the person's edits and the agent's proposals one after another and is
// killed with SIGKILL at a random moment, again and again. The kept draft is never damaged, and
// every edit older than 2 × DRAFT_DELAY_MS before the kill comes back when the Board is restored.
//   XOS_DRAFT_KILLS=1000 node --test test/integration/drafts.test.ts   (default 100)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { DRAFT_DELAY_MS, DraftFile } from '../../src/store/drafts.ts';
import { BoardState } from '../../src/board/state.ts';
import { tempDir } from '../support/tmp.ts';

const KILLS = Number(process.env.XOS_DRAFT_KILLS ?? 100);
const stateModule = fileURLToPath(new URL('../../src/board/state.ts', import.meta.url));
const draftsModule = fileURLToPath(new URL('../../src/store/drafts.ts', import.meta.url));

/** Edits fields of a loaded record every few milliseconds; reports each edit with its time. */
const EDITOR = `
  const { BoardState } = await import(${JSON.stringify(stateModule)});
  const { DraftFile, keepDrafts } = await import(${JSON.stringify(draftsModule)});
  // A killed process never writes Node's compile cache at exit: written now, the next editor starts faster.
  (await import('node:module')).flushCompileCache?.();
  const state = new BoardState();
  keepDrafts(state, new DraftFile(process.env.XOS_DRAFT_FILE));
  state.showDetail({ context: 'person_detail', record: { id: 7, firstname: 'Max', lastname: 'Mustermann', city: 'Berlin' }, version: 3 });
  state.showMail({ to: { name: 'Max', email: 'max@nordlicht.example' }, subject: 'Termin', body: 'Hallo' });
  const fields = ['firstname', 'lastname', 'city'];
  let n = 0;
  setInterval(() => {
    n++;
    const field = fields[n % 3];
    if (n % 2) state.edit(field, 'edit-' + n); else state.preview({ [field]: 'edit-' + n });
    process.stdout.write(field + ' ' + n + ' ' + Date.now() + '\\n');
  }, 7);
`;

function editAndKill(file: string, afterMs: number): Promise<{ edits: Array<{ field: string; n: number; at: number }>; killedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', EDITOR], { env: { ...process.env, XOS_DRAFT_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
    const edits: Array<{ field: string; n: number; at: number }> = [];
    let buffer = '';
    let errors = '';
    let killedAt = 0;
    child.stderr.on('data', (chunk: Buffer) => { errors += chunk; });
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const [field, n, at] = buffer.slice(0, newline).split(' ');
        buffer = buffer.slice(newline + 1);
        if (edits.length === 0) setTimeout(() => { killedAt = Date.now(); child.kill('SIGKILL'); }, afterMs);
        edits.push({ field, n: Number(n), at: Number(at) });
      }
    });
    child.on('close', (_code, signal) => (signal === 'SIGKILL' ? resolve({ edits, killedAt }) : reject(new Error(`the editor ended by itself:\n${errors}`))));
  });
}

/** Edits older than this before the kill must be in the kept draft: four times the write delay, for a busy machine. */
const GUARANTEE_MS = 4 * DRAFT_DELAY_MS;
/** Editors killed at once in one run of the property. */
const PARALLEL = 5;

test(`${KILLS} SIGKILLs while the Board takes edits: the kept draft is whole and every edit older than ${GUARANTEE_MS} ms is restored`, { timeout: 900_000 }, async () => {
  await using dir = await tempDir('xos-drafts');
  let restoredEdits = 0;
  let kills = 0;
  await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: GUARANTEE_MS + 50, max: GUARANTEE_MS + 700 }), { minLength: PARALLEL, maxLength: PARALLEL }), async (delays) => {
    await Promise.all(delays.map(async (afterMs) => {
      const run = ++kills;
      const file = join(dir.path, `draft-${run}.json`);
      const { edits, killedAt } = await editAndKill(file, afterMs);
      const kept = new DraftFile(file).read();
      assert.ok(kept, `run ${run}: no readable draft after ${edits.length} edits`);
      const state = new BoardState();
      state.restore(kept.draft);
      const restored = state.formValues();
      assert.equal(state.snapshot().detail?.version, 3);
      assert.equal(state.snapshot().mail?.subject, 'Termin');
      for (const field of ['firstname', 'lastname', 'city']) {
        const old = edits.filter((e) => e.field === field && e.at <= killedAt - GUARANTEE_MS).at(-1);
        if (!old) continue;
        const value = Number(String(restored[field]).replace('edit-', ''));
        assert.ok(value >= old.n, `run ${run}: ${field} restored as ${restored[field]}, but edit-${old.n} was made ${killedAt - old.at} ms before the kill`);
        restoredEdits++;
      }
      // Proposals stay proposals, edits stay edits.
      for (const [field, value] of Object.entries(state.snapshot().pending)) assert.equal(Number(String(value).replace('edit-', '')) % 2, 0, `${field} is a proposal`);
    }));
  }), { numRuns: Math.ceil(KILLS / PARALLEL), seed: 2026, endOnFailure: true });
  console.log(`drafts: ${kills} kills, ${restoredEdits} fields checked against edits older than ${GUARANTEE_MS} ms, 0 lost, 0 damaged drafts`);
  assert.ok(restoredEdits >= kills * 2, 'the kills came after enough edits to check');
});
