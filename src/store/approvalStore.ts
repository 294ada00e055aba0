// Pending approvals kept in one SQLite file in the front end's private data folder (node:sqlite),
// so they survive a restart and two processes on the same file share them. Every change of an
// approval's state is one UPDATE … WHERE id = ? AND state = ? in a write transaction: of two
// front ends deciding one approval, exactly one moves it on. The file has a size budget: a
// request, the pending requests of one credential, and the whole file are bounded in bytes.
import { closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ApprovalState, ApprovalStore, InsertOutcome, PendingApproval, Requester } from '../core/approvals.ts';
import { boundKey, requesterKey } from '../core/approvals.ts';
import { ensurePrivateDir, openPrivateFile, tightenFile } from '../core/privateFiles.ts';

/** The approvals file's name in a front end's private data folder (every front end on one folder shares it). */
export const APPROVALS_FILE = 'approvals.sqlite';
/** How long a write waits for another process's write on the same file. */
const BUSY_TIMEOUT_MS = 5_000;
const FORMAT = 1;
const MIB = 1024 * 1024;
/** The approvals file's budget unless the front end says otherwise (a review of 10,000 records is about 1.2 MB). */
export const DEFAULT_APPROVAL_BUDGET: ApprovalBudget = { requestBytes: 2 * MIB, pendingBytes: 8 * MIB, fileBytes: 32 * MIB };
/** Requesters one pending approval remembers besides the first (the same write asked again in other conversations). */
const MAX_ALSO_REQUESTED = 20;

/** Bytes the approvals file keeps, each counted as the stored approval's JSON. */
export interface ApprovalBudget {
  /** One request. */
  readonly requestBytes: number;
  /** The pending requests of one credential together. */
  readonly pendingBytes: number;
  /**
   * Every approval in the file (all credentials, every state): decided ones, kept for the agent to
   * learn their outcome, make room oldest first; pending and committing ones never do.
   */
  readonly fileBytes: number;
}

export class SqliteApprovalStore implements ApprovalStore {
  readonly path: string;
  readonly budget: ApprovalBudget;
  readonly #db: DatabaseSync;

  /** Opens (or creates, owner-only) the approvals file at `path`. */
  constructor(path: string, options: { readonly budget?: Partial<ApprovalBudget> } = {}) {
    this.path = path;
    this.budget = { ...DEFAULT_APPROVAL_BUDGET, ...options.budget };
    ensurePrivateDir(dirname(path));
    closeSync(openPrivateFile(path, { truncate: false }));
    this.#db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
    this.#db.exec('PRAGMA journal_mode = WAL');
    for (const side of ['-wal', '-shm']) tightenFile(`${path}${side}`);
    this.#db.exec('CREATE TABLE IF NOT EXISTS "approvals" ("id" TEXT PRIMARY KEY, "requester" TEXT NOT NULL, "state" TEXT NOT NULL, '
      + '"created_at" TEXT NOT NULL, "expires_at" TEXT NOT NULL, "decided_at" TEXT, "format" INTEGER NOT NULL, "body" TEXT NOT NULL)');
    this.#addBudgetColumns();
    this.#db.exec('CREATE INDEX IF NOT EXISTS "approvals_by_state" ON "approvals" ("state", "created_at")');
    this.#db.exec('CREATE INDEX IF NOT EXISTS "approvals_by_requester" ON "approvals" ("requester", "state")');
    this.#db.exec('CREATE INDEX IF NOT EXISTS "approvals_by_bound" ON "approvals" ("bound", "state", "hash")');
  }

  /**
   * In one write transaction: the same write already pending for the same credential is answered
   * with that approval (remembering this requester, so it may ask for its outcome); otherwise the
   * approval is stored if the credential has fewer than `maxPending` pending and the budget allows.
   */
  async insert(approval: PendingApproval, maxPending: number, now: string): Promise<InsertOutcome> {
    const body = JSON.stringify(approval);
    const bytes = Buffer.byteLength(body);
    const budget = this.budget;
    if (bytes > budget.requestBytes) return { kind: 'too_large', bytes, max: budget.requestBytes, within: 'request' };
    const bound = boundKey(approval.requester);
    return this.#writing((): InsertOutcome => {
      const same = this.#db.prepare('SELECT "body" FROM "approvals" WHERE "bound" = ? AND "state" = \'pending\' AND "hash" = ? AND "expires_at" > ? ORDER BY "created_at"')
        .all(bound, approval.hash, now) as Array<{ body: string }>;
      for (const row of same) {
        const existing = JSON.parse(row.body) as PendingApproval;
        if (existing.backend !== approval.backend) continue;
        return { kind: 'already_pending', approval: this.#alsoRequestedBy(existing, approval.requester) };
      }
      const mine = this.#db.prepare('SELECT COUNT(*) AS "count", COALESCE(SUM("bytes"), 0) AS "bytes", MIN("expires_at") AS "first" '
        + 'FROM "approvals" WHERE "bound" = ? AND "state" = \'pending\' AND "expires_at" > ?').get(bound, now) as { count: number; bytes: number; first: string | null };
      const first = mine.first === null ? {} : { nextExpiry: mine.first };
      if (mine.count >= maxPending) return { kind: 'too_many', max: maxPending, ...first };
      if (mine.bytes + bytes > budget.pendingBytes) return { kind: 'too_large', bytes: mine.bytes + bytes, max: budget.pendingBytes, within: 'credential', ...first };
      if (!this.#makeRoom(bytes, budget.fileBytes)) return { kind: 'too_large', bytes: this.#fileBytes() + bytes, max: budget.fileBytes, within: 'file', ...first };
      this.#db.prepare('INSERT INTO "approvals" ("id", "requester", "state", "created_at", "expires_at", "decided_at", "format", "body", "bound", "hash", "bytes") '
        + 'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(approval.id, requesterKey(approval.requester), approval.state, approval.createdAt, approval.expiresAt, approval.decidedAt ?? null, FORMAT,
          body, bound, approval.hash, bytes);
      return { kind: 'stored' };
    });
  }

  async get(id: string): Promise<PendingApproval | undefined> {
    const row = this.#db.prepare('SELECT "body" FROM "approvals" WHERE "id" = ? AND "format" = ?').get(id, FORMAT) as { body: string } | undefined;
    return row ? JSON.parse(row.body) as PendingApproval : undefined;
  }

  async update(next: PendingApproval, from: ApprovalState): Promise<boolean> {
    return this.#writing(() => {
      const body = JSON.stringify(next);
      const { changes } = this.#db.prepare('UPDATE "approvals" SET "state" = ?, "decided_at" = ?, "body" = ?, "bytes" = ? WHERE "id" = ? AND "state" = ?')
        .run(next.state, next.decidedAt ?? null, body, Buffer.byteLength(body), next.id, from);
      return Number(changes) === 1;
    });
  }

  async list(states: readonly ApprovalState[], requester?: Requester): Promise<PendingApproval[]> {
    if (states.length === 0) return [];
    const marks = states.map(() => '?').join(', ');
    const byRequester = requester ? ' AND "requester" = ?' : '';
    const rows = this.#db.prepare(`SELECT "body" FROM "approvals" WHERE "format" = ? AND "state" IN (${marks})${byRequester} ORDER BY "created_at", "id"`)
      .all(FORMAT, ...states, ...(requester ? [requesterKey(requester)] : [])) as Array<{ body: string }>;
    return rows.map((row) => JSON.parse(row.body) as PendingApproval);
  }

  async deleteDecidedBefore(before: string): Promise<number> {
    return this.#writing(() => {
      const { changes } = this.#db.prepare('DELETE FROM "approvals" WHERE "state" NOT IN (\'pending\', \'committing\') AND COALESCE("decided_at", "expires_at") < ?').run(before);
      return Number(changes);
    });
  }

  /**
   * SQLite's data_version of this connection: it changes whenever another connection (another
   * store, another process) committed to the file, so a cheap poll tells a front end to read again.
   */
  dataVersion(): number {
    const row = this.#db.prepare('PRAGMA data_version').get() as { data_version: number | bigint };
    return Number(row.data_version);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /** The bytes of every approval in the file, as the budget counts them. */
  #fileBytes(): number {
    return (this.#db.prepare('SELECT COALESCE(SUM("bytes"), 0) AS "bytes" FROM "approvals"').get() as { bytes: number }).bytes;
  }

  /** Room for `bytes` more within `max`: decided approvals go, oldest decision first; false when pending and committing ones alone leave none. */
  #makeRoom(bytes: number, max: number): boolean {
    let over = this.#fileBytes() + bytes - max;
    if (over <= 0) return true;
    const undecided = (this.#db.prepare('SELECT COALESCE(SUM("bytes"), 0) AS "bytes" FROM "approvals" WHERE "state" IN (\'pending\', \'committing\')').get() as { bytes: number }).bytes;
    if (undecided + bytes > max) return false;
    const decided = this.#db.prepare('SELECT "id", "bytes" FROM "approvals" WHERE "state" NOT IN (\'pending\', \'committing\') ORDER BY COALESCE("decided_at", "expires_at"), "created_at", "rowid"')
      .all() as Array<{ id: string; bytes: number }>;
    const remove = this.#db.prepare('DELETE FROM "approvals" WHERE "id" = ?');
    for (const row of decided) {
      if (over <= 0) break;
      remove.run(row.id);
      over -= row.bytes;
    }
    return over <= 0;
  }

  /** `existing`, remembering that `requester` asked for it too (it may then learn its outcome); within a write transaction. */
  #alsoRequestedBy(existing: PendingApproval, requester: Requester): PendingApproval {
    const key = requesterKey(requester);
    const also = existing.alsoRequestedBy ?? [];
    if (requesterKey(existing.requester) === key || also.some((r) => requesterKey(r) === key) || also.length >= MAX_ALSO_REQUESTED) return existing;
    const next: PendingApproval = { ...existing, alsoRequestedBy: [...also, requester] };
    const body = JSON.stringify(next);
    this.#db.prepare('UPDATE "approvals" SET "body" = ?, "bytes" = ? WHERE "id" = ? AND "state" = \'pending\'').run(body, Buffer.byteLength(body), existing.id);
    return next;
  }

  /**
   * Files written before the budget: the columns it needs, filled in from the stored bodies. Their
   * approvals count in the file's bytes, and under no credential (they expire within minutes).
   */
  #addBudgetColumns(): void {
    const hasBytes = () => (this.#db.prepare('PRAGMA table_info("approvals")').all() as Array<{ name: string }>).some((c) => c.name === 'bytes');
    if (hasBytes()) return;
    this.#writing(() => {
      if (hasBytes()) return; // another process on the file was first
      this.#db.exec('ALTER TABLE "approvals" ADD COLUMN "bound" TEXT');
      this.#db.exec('ALTER TABLE "approvals" ADD COLUMN "hash" TEXT');
      this.#db.exec('ALTER TABLE "approvals" ADD COLUMN "bytes" INTEGER NOT NULL DEFAULT 0');
      this.#db.exec('UPDATE "approvals" SET "bytes" = length(CAST("body" AS BLOB)), "hash" = json_extract("body", \'$.hash\')');
    });
  }

  /** Runs `write` holding the file's write lock from the start (BEGIN IMMEDIATE), so what it reads is what it changes. */
  #writing<T>(write: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = write();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }
}
