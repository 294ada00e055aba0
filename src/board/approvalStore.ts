// Pending approvals kept in one SQLite file in the front end's private data folder (node:sqlite),
// so they survive a restart and two processes on the same file share them. Every change of an
// approval's state is one UPDATE … WHERE id = ? AND state = ? in a write transaction: of two
// front ends deciding one approval, exactly one moves it on.
import { closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ApprovalState, ApprovalStore, PendingApproval, Requester } from '../core/approvals.ts';
import { requesterKey } from '../core/approvals.ts';
import { ensurePrivateDir, openPrivateFile, tightenFile } from '../core/privateFiles.ts';

/** The approvals file's name in a front end's private data folder (every front end on one folder shares it). */
export const APPROVALS_FILE = 'approvals.sqlite';
/** How long a write waits for another process's write on the same file. */
const BUSY_TIMEOUT_MS = 5_000;
const FORMAT = 1;

export class SqliteApprovalStore implements ApprovalStore {
  readonly path: string;
  readonly #db: DatabaseSync;

  /** Opens (or creates, owner-only) the approvals file at `path`. */
  constructor(path: string) {
    this.path = path;
    ensurePrivateDir(dirname(path));
    closeSync(openPrivateFile(path, { truncate: false }));
    this.#db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
    this.#db.exec('PRAGMA journal_mode = WAL');
    for (const side of ['-wal', '-shm']) tightenFile(`${path}${side}`);
    this.#db.exec('CREATE TABLE IF NOT EXISTS "approvals" ("id" TEXT PRIMARY KEY, "requester" TEXT NOT NULL, "state" TEXT NOT NULL, '
      + '"created_at" TEXT NOT NULL, "expires_at" TEXT NOT NULL, "decided_at" TEXT, "format" INTEGER NOT NULL, "body" TEXT NOT NULL)');
    this.#db.exec('CREATE INDEX IF NOT EXISTS "approvals_by_state" ON "approvals" ("state", "created_at")');
    this.#db.exec('CREATE INDEX IF NOT EXISTS "approvals_by_requester" ON "approvals" ("requester", "state")');
  }

  async insert(approval: PendingApproval, maxPending: number, now: string): Promise<boolean> {
    return this.#writing(() => {
      const { changes } = this.#db.prepare('INSERT INTO "approvals" ("id", "requester", "state", "created_at", "expires_at", "decided_at", "format", "body") '
        + 'SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM "approvals" WHERE "requester" = ? AND "state" = \'pending\' AND "expires_at" > ?) < ?')
        .run(approval.id, requesterKey(approval.requester), approval.state, approval.createdAt, approval.expiresAt, approval.decidedAt ?? null, FORMAT,
          JSON.stringify(approval), requesterKey(approval.requester), now, maxPending);
      return Number(changes) === 1;
    });
  }

  async get(id: string): Promise<PendingApproval | undefined> {
    const row = this.#db.prepare('SELECT "body" FROM "approvals" WHERE "id" = ? AND "format" = ?').get(id, FORMAT) as { body: string } | undefined;
    return row ? JSON.parse(row.body) as PendingApproval : undefined;
  }

  async update(next: PendingApproval, from: ApprovalState): Promise<boolean> {
    return this.#writing(() => {
      const { changes } = this.#db.prepare('UPDATE "approvals" SET "state" = ?, "decided_at" = ?, "body" = ? WHERE "id" = ? AND "state" = ?')
        .run(next.state, next.decidedAt ?? null, JSON.stringify(next), next.id, from);
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
