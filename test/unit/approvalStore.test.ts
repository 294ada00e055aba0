// Stored pending approvals without a backend: the SQLite store (a restart is a new store on the
// same file; two stores on one file never both move an approval on) and the state machine's
// paths that write nothing (decline, expiry, void on change, the per-requester bound, the
// requester's scope). A client that fails the test when used stands for "nothing is written".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import {
  approvalStatus, decideApproval, pendingApprovals, requestApproval, sweepApprovals, voidChanged,
  type ApprovalDeps, type PendingApproval, type Requester,
} from '../../src/core/approvals.ts';
import { payloadHash, type PreparedWrite } from '../../src/core/boundWrites.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const MINUTE = 60_000;

/** A client that must not be used: any write (or read) fails the test. */
const untouched: XosClient = {
  run: async (query) => assert.fail(`nothing may be written or read, but ran: ${query}`),
  ast: () => demoApp(),
  status: async () => assert.fail('no status expected'),
};

function saveOf(id: string, version: number, city: string): PreparedWrite {
  return {
    kind: 'save',
    payload: { kind: 'save', context: 'person_detail', entity: 'person', id, version, set: { city }, action: 'Save' },
    summary: { entity: 'person', id, changes: [{ field: 'city', label: 'City', from: 'Old', to: city }] },
  };
}

function approvalAt(id: string, requester: Requester, createdAt: number, state: PendingApproval['state'] = 'pending'): PendingApproval {
  const prepared = saveOf('1', 1, id);
  return {
    id, kind: 'save', summary: prepared.summary, payload: prepared.payload, hash: payloadHash(prepared.payload), versions: [{ entity: 'person', id: '1', version: 1 }],
    requester, createdAt: new Date(createdAt).toISOString(), expiresAt: new Date(createdAt + 15 * MINUTE).toISOString(), state,
  };
}

describe('the approvals file', () => {
  let dir: TempDir;
  before(async () => { dir = await tempDir('approvals-store'); });
  after(() => dir.remove());

  test('keeps approvals over a restart, owner-only, oldest first, by state and requester', async () => {
    const path = join(dir.path, 'private', APPROVALS_FILE);
    const first = new SqliteApprovalStore(path);
    const anna: Requester = { client: 'vscode', conversation: 'c1' };
    const ben: Requester = { client: 'vscode', conversation: 'c2' };
    assert.equal((await first.insert(approvalAt('b', anna, T0 + 2), 20, new Date(T0).toISOString())).kind, 'stored');
    assert.equal((await first.insert(approvalAt('a', ben, T0 + 1), 20, new Date(T0).toISOString())).kind, 'stored');
    assert.equal((await first.insert(approvalAt('c', anna, T0 + 3), 20, new Date(T0).toISOString())).kind, 'stored');
    for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
    first.close();
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir.path, 'private')).mode & 0o777, 0o700);

    const again = new SqliteApprovalStore(path);
    try {
      assert.deepEqual((await again.list(['pending'])).map((a) => a.id), ['a', 'b', 'c']);
      assert.deepEqual((await again.list(['pending'], anna)).map((a) => a.id), ['b', 'c']);
      assert.deepEqual(await again.get('b'), approvalAt('b', anna, T0 + 2));
      assert.equal(await again.get('nope'), undefined);
    } finally {
      again.close();
    }
  });

  test('a change of state is a compare-and-set: of two stores on one file exactly one moves an approval on', async () => {
    const path = join(dir.path, 'cas.sqlite');
    const one = new SqliteApprovalStore(path);
    const two = new SqliteApprovalStore(path);
    try {
      const pending = approvalAt('x', { credential: 'token c', client: 'c' }, T0);
      await one.insert(pending, 20, new Date(T0).toISOString());
      const results = await Promise.all([
        one.update({ ...pending, state: 'committing', decidedBy: 'Anna' }, 'pending'),
        two.update({ ...pending, state: 'declined', decidedBy: 'Ben' }, 'pending'),
      ]);
      assert.deepEqual(results.toSorted(), [false, true]);
      const stored = await two.get('x');
      assert.equal(stored!.state, results[0] ? 'committing' : 'declined');
      assert.equal(await one.update({ ...pending, state: 'approved' }, 'pending'), false);
      assert.equal(await one.update({ ...stored!, state: 'approved' }, stored!.state), true);
      assert.equal((await two.get('x'))!.state, 'approved');
    } finally {
      one.close();
      two.close();
    }
  });

  test('two processes on one file race for 300 approvals: each is moved on by exactly one', async () => {
    const path = join(dir.path, 'race.sqlite');
    const store = new SqliteApprovalStore(path);
    const ids = Array.from({ length: 300 }, (_, i) => `race-${String(i).padStart(3, '0')}`);
    try {
      for (const [i, id] of ids.entries()) await store.insert(approvalAt(id, { credential: 'token c', client: 'c' }, T0 + i), 1000, new Date(T0).toISOString());
    } finally {
      store.close();
    }
    const racer = fileURLToPath(new URL('../support/approvalRacer.ts', import.meta.url));
    const racers = ['a', 'b'].map((who) => {
      const child = spawn(process.execPath, [racer, path, who], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => { out += chunk; });
      const ready = new Promise<void>((resolve) => child.stderr.on('data', (chunk) => { err += chunk; if (err.includes('ready')) resolve(); }));
      const done = once(child, 'exit').then(([code]) => {
        assert.equal(code, 0, err);
        return JSON.parse(out) as string[];
      });
      return { child, ready, done };
    });
    await Promise.all(racers.map((r) => r.ready));
    for (const r of racers) r.child.stdin.write('go\n');
    const [a, b] = await Promise.all(racers.map((r) => r.done));
    assert.deepEqual([...a, ...b].toSorted(), ids);
    const after = new SqliteApprovalStore(path);
    try {
      const moved = await after.list(['committing']);
      assert.equal(moved.length, 300);
      assert.deepEqual(moved.filter((m) => m.decidedBy === 'a').map((m) => m.id).toSorted(), a.toSorted());
    } finally {
      after.close();
    }
  });

  test('a file written before the size budget gets its columns: its approvals are read, counted in the file\'s bytes, and decided as before', async () => {
    const path = join(dir.path, 'before-budget.sqlite');
    const old = new DatabaseSync(path);
    old.exec('CREATE TABLE "approvals" ("id" TEXT PRIMARY KEY, "requester" TEXT NOT NULL, "state" TEXT NOT NULL, '
      + '"created_at" TEXT NOT NULL, "expires_at" TEXT NOT NULL, "decided_at" TEXT, "format" INTEGER NOT NULL, "body" TEXT NOT NULL)');
    const kept = approvalAt('kept', { client: 'old' }, T0);
    old.prepare('INSERT INTO "approvals" VALUES (?, ?, ?, ?, ?, NULL, 1, ?)').run(kept.id, '["old",null,null]', 'pending', kept.createdAt, kept.expiresAt, JSON.stringify(kept));
    old.close();
    const bytes = Buffer.byteLength(JSON.stringify(kept));
    const stores = [new SqliteApprovalStore(path, { budget: { fileBytes: 2 * bytes + 100 } }), new SqliteApprovalStore(path)];
    try {
      const [store] = stores;
      assert.deepEqual(await store.get('kept'), kept);
      const now = new Date(T0).toISOString();
      assert.equal((await store.insert(approvalAt('new', { credential: 'token', client: 'new' }, T0), 20, now)).kind, 'stored');
      assert.deepEqual(await store.insert(approvalAt('third', { credential: 'token', client: 'new' }, T0), 20, now),
        { kind: 'too_large', bytes: Buffer.byteLength(JSON.stringify(approvalAt('third', { credential: 'token', client: 'new' }, T0))) + bytes + Buffer.byteLength(JSON.stringify(approvalAt('new', { credential: 'token', client: 'new' }, T0))), max: 2 * bytes + 100, within: 'file', nextExpiry: kept.expiresAt },
        'the old approval counts in the file\'s bytes');
      assert.equal(await store.update({ ...kept, state: 'declined', decidedAt: now }, 'pending'), true);
      assert.equal((await store.insert(approvalAt('third', { credential: 'token', client: 'new' }, T0), 20, now)).kind, 'stored', 'the decided old one made room');
      assert.equal(await store.get('kept'), undefined);
    } finally {
      for (const store of stores) store.close();
    }
  });

  test('at most N pending per requester (expired ones do not count); decided ones are deleted after the retention', async () => {
    const store = new SqliteApprovalStore(join(dir.path, 'bound.sqlite'));
    try {
      const me: Requester = { credential: 'token', client: 'mcp', person: 'anna' };
      const now = new Date(T0).toISOString();
      assert.equal((await store.insert(approvalAt('1', me, T0 - 20 * MINUTE), 2, now)).kind, 'stored'); // expired at T0
      assert.equal((await store.insert(approvalAt('2', me, T0), 2, now)).kind, 'stored');
      assert.equal((await store.insert(approvalAt('3', me, T0), 2, now)).kind, 'stored');
      assert.equal((await store.insert(approvalAt('4', me, T0), 2, now)).kind, 'too_many');
      assert.equal((await store.insert(approvalAt('5', { credential: 'token', client: 'mcp', person: 'ben' }, T0), 2, now)).kind, 'stored');

      const old = approvalAt('old', me, T0 - 9 * 24 * 60 * MINUTE, 'declined');
      await store.insert({ ...old, decidedAt: old.createdAt }, 99, now);
      assert.equal(await store.deleteDecidedBefore(new Date(T0 - 7 * 24 * 60 * MINUTE).toISOString()), 1);
      assert.equal(await store.get('old'), undefined);
      assert.ok(await store.get('1'), 'a pending approval is never deleted by age');
    } finally {
      store.close();
    }
  });
});

describe('the approval state machine without a write', () => {
  let dir: TempDir;
  let store: SqliteApprovalStore;
  let now = T0;
  let deps: ApprovalDeps;
  const agent: Requester = { credential: 'token agent', client: 'xos-mcp', conversation: 'chat-1' };

  before(async () => {
    dir = await tempDir('approvals-states');
    store = new SqliteApprovalStore(join(dir.path, 'approvals.sqlite'));
    deps = { client: untouched, store, now: () => now, maxPending: 3 };
  });
  after(async () => {
    store.close();
    await dir.remove();
  });

  test('request → pending with its expiry; only the requester learns its status; decline writes nothing and is final', async () => {
    const requested = await requestApproval(deps, saveOf('7', 3, 'Kiel'), agent, { ttlMs: 5 * MINUTE });
    assert.equal(requested.kind, 'requested');
    if (requested.kind !== 'requested') return;
    const { id } = requested.approval;
    assert.match(id, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(requested.approval.hash, payloadHash(saveOf('7', 3, 'Kiel').payload));
    assert.deepEqual(requested.approval.versions, [{ entity: 'person', id: '7', version: 3 }]);
    assert.deepEqual(await approvalStatus(deps, id, agent), { state: 'pending', id, kind: 'save', expiresAt: new Date(T0 + 5 * MINUTE).toISOString() });
    assert.deepEqual(await approvalStatus(deps, id, { client: 'xos-mcp', conversation: 'chat-2' }), { state: 'unknown', id });
    assert.deepEqual(await approvalStatus(deps, 'made-up', agent), { state: 'unknown', id: 'made-up' });

    const declined = await decideApproval(deps, id, 'decline', 'Anna');
    assert.equal(declined.kind, 'decided');
    assert.equal(declined.kind === 'decided' && declined.approval.decidedBy, 'Anna');
    assert.equal((await approvalStatus(deps, id, agent)).state, 'declined');
    const again = await decideApproval(deps, id, 'approve', 'Anna');
    assert.equal(again.kind, 'already_decided');
    assert.equal((await store.get(id))!.state, 'declined');
  });

  test('expiry applies lazily (status, decide, the list) and by the sweep; an expired approval is never written', async () => {
    now = T0;
    const a = await requestApproval(deps, saveOf('8', 1, 'Ulm'), agent, { ttlMs: MINUTE });
    const b = await requestApproval(deps, saveOf('9', 1, 'Ulm'), agent, { ttlMs: MINUTE });
    assert.ok(a.kind === 'requested' && b.kind === 'requested');
    now = T0 + 2 * MINUTE;
    assert.equal((await approvalStatus(deps, a.approval.id, agent)).state, 'expired');
    const decided = await decideApproval(deps, b.approval.id, 'approve', 'Anna');
    assert.equal(decided.kind === 'decided' && decided.approval.state, 'expired');
    assert.equal((await pendingApprovals(deps)).some((p) => p.id === a.approval.id || p.id === b.approval.id), false);
    const c = await requestApproval(deps, saveOf('10', 1, 'Ulm'), agent, { ttlMs: MINUTE });
    now += 2 * MINUTE;
    assert.deepEqual(await sweepApprovals(deps), { expired: 1, settled: 0, deleted: 0 });
    assert.equal(c.kind === 'requested' && (await store.get(c.approval.id))!.state, 'expired');
  });

  test('the N+1st pending request of one requester is refused, naming when the first waiting one expires', async () => {
    const busy: Requester = { credential: 'token busy', client: 'xos-mcp', conversation: 'busy' };
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await requestApproval(deps, saveOf(String(20 + i), 1, 'Bonn'), busy, { ttlMs: (10 + i) * MINUTE }));
    assert.ok(made.every((m) => m.kind === 'requested'));
    const refused = await requestApproval(deps, saveOf('30', 1, 'Bonn'), busy);
    assert.deepEqual(refused, { kind: 'too_many_pending', ok: false, max: 3, nextExpiry: new Date(now + 10 * MINUTE).toISOString() });
    assert.equal((await requestApproval(deps, saveOf('30', 1, 'Bonn'), agent)).kind, 'requested');
  });

  test('a change feed report voids the approvals bound to an older version of that record, and only those', async () => {
    const older = await requestApproval(deps, saveOf('40', 4, 'Hof'), { credential: 'token x', client: 'x' });
    const current = await requestApproval(deps, saveOf('41', 4, 'Hof'), { credential: 'token x', client: 'x' });
    const gone = await requestApproval(deps, saveOf('42', 4, 'Hof'), { credential: 'token x', client: 'x' });
    assert.ok(older.kind === 'requested' && current.kind === 'requested' && gone.kind === 'requested');
    const voided = await voidChanged(deps, [
      { entity: 'person', id: '40', action: 'update', version: 5 },
      { entity: 'person', id: '41', action: 'update', version: 4 },
      { entity: 'company', id: '42', action: 'update', version: 9 },
      { entity: 'person', id: '42', action: 'delete', version: null },
    ]);
    assert.deepEqual(voided.map((v) => v.id).toSorted(), [older.approval.id, gone.approval.id].toSorted());
    assert.deepEqual(await approvalStatus(deps, older.approval.id, { credential: 'token x', client: 'x' }), {
      state: 'void', id: older.approval.id, kind: 'save', why: 'changed', outcome: { kind: 'record_changed', ok: false, entity: 'person', ids: ['40'], versionNow: 5 },
    });
    assert.equal((await approvalStatus(deps, gone.approval.id, { credential: 'token x', client: 'x' })).state === 'void' && (await approvalStatus(deps, gone.approval.id, { credential: 'token x', client: 'x' }) as { why: string }).why, 'deleted');
    assert.equal((await store.get(current.approval.id))!.state, 'pending');
    assert.equal((await decideApproval(deps, older.approval.id, 'approve', 'Anna')).kind, 'already_decided');
  });

  test('on the person\'s own table any other version voids: a row\'s version is its state (a digest), not a count', async () => {
    const base = demoApp();
    const ownPerson: XosClient = { ...untouched, ast: () => ({ ...base, entities: { ...base.entities, person: { ...base.entities.person, table: 'people' } } }) };
    const own = { ...deps, client: ownPerson };
    const smaller = await requestApproval(own, saveOf('70', 900, 'Suhl'), { credential: 'token o', client: 'o' });
    const same = await requestApproval(own, saveOf('71', 900, 'Suhl'), { credential: 'token o', client: 'o' });
    assert.ok(smaller.kind === 'requested' && same.kind === 'requested');
    const voided = await voidChanged(own, [
      { entity: 'person', id: '70', action: 'update', version: 17 },
      { entity: 'person', id: '71', action: 'update', version: 900 },
    ]);
    assert.deepEqual(voided.map((v) => v.id), [smaller.approval.id]);
    assert.equal((await store.get(same.approval.id))!.state, 'pending');
  });

  test('an approval is written only to the backend it was requested for, and listed only there', async () => {
    const made = await requestApproval({ ...deps, backend: 'sqlite:/data/crm.db' }, saveOf('60', 1, 'Gera'), { credential: 'token z', client: 'z' });
    assert.ok(made.kind === 'requested');
    assert.equal(made.approval.backend, 'sqlite:/data/crm.db');
    const elsewhere = { ...deps, backend: 'postgres://db.example/crm' };
    const decided = await decideApproval(elsewhere, made.approval.id, 'approve', 'Anna');
    assert.deepEqual(decided, { kind: 'not_committed', approval: made.approval, why: { kind: 'other_backend', requestedFor: 'sqlite:/data/crm.db' } });
    assert.equal((await store.get(made.approval.id))!.state, 'pending');
    assert.equal((await pendingApprovals(elsewhere)).some((a) => a.id === made.approval.id), false);
    assert.equal((await pendingApprovals({ ...deps, backend: 'sqlite:/data/crm.db' })).some((a) => a.id === made.approval.id), true);
    assert.deepEqual(await voidChanged(elsewhere, [{ entity: 'person', id: '60', action: 'update', version: 2 }]), [], 'another backend\'s change voids nothing');
    assert.equal((await store.get(made.approval.id))!.state, 'pending');
    await assert.rejects(requestApproval(deps, saveOf('61', 1, 'Gera'), { credential: 'token z', client: 'z' }, { ttlMs: 0 }), RangeError);
  });

  test('an approval whose stored payload no longer matches its hash fails without a write', async () => {
    const made = await requestApproval(deps, saveOf('50', 1, 'Jena'), { credential: 'token y', client: 'y' });
    assert.ok(made.kind === 'requested');
    const altered = { ...made.approval, payload: { ...made.approval.payload, set: { city: 'Elsewhere' } } } as PendingApproval;
    assert.equal(await store.update(altered, 'pending'), true);
    const decided = await decideApproval(deps, made.approval.id, 'approve', 'Anna');
    assert.deepEqual(decided.kind === 'decided' && decided.approval.outcome, { kind: 'payload_altered', ok: false });
    assert.equal((await store.get(made.approval.id))!.state, 'failed');
  });
});
