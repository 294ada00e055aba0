// Writes by other programs on PostgreSQL (psql, a script, another application): no audit entry
// or notification names them, and XOS never puts triggers on the person's tables. What every
// write does change is the database's transaction snapshot (`txid_current_snapshot()`: a write
// takes a transaction id, its commit leaves the running list), readable by any role at no cost.
// While anyone listens, it is read every OUTSIDE_POLL_MS; when it moved, the app's entities are
// told as possibly written outside, and the front ends compare what they show with the rows —
// cheap when nothing they show changed. XOS's own writes and presence move it too (and writes
// to other databases of the server): those compares find nothing. The per-table write counters
// (pg_stat_user_tables) would name the table, but a writer's counts can wait 10 s to be flushed.
import { Listeners } from './listeners.ts';
import type { StorageFeedEvent, StorageFeedListener } from './types.ts';

export const OUTSIDE_POLL_MS = 500;

/** What moves with every write: the snapshot as text; undefined: nothing to watch yet. */
export type ReadWriteMark = () => Promise<string | undefined>;

export const WRITE_MARK_SQL = 'SELECT txid_current_snapshot()::text AS mark';

export class OutsideWrites {
  readonly #read: ReadWriteMark;
  readonly #entities: () => readonly string[];
  readonly #pollMs: number;
  readonly #listeners = new Listeners<StorageFeedEvent>();
  #timer: NodeJS.Timeout | undefined;
  #last: string | undefined;
  #reading = false;

  constructor(read: ReadWriteMark, entities: () => readonly string[], pollMs = OUTSIDE_POLL_MS) {
    this.#read = read;
    this.#entities = entities;
    this.#pollMs = pollMs;
  }

  watch(listener: StorageFeedListener): () => void {
    const off = this.#listeners.add(listener);
    if (!this.#timer) {
      this.#last = undefined;
      this.#timer = setInterval(() => void this.#poll(), this.#pollMs).unref();
      void this.#poll();
    }
    return () => {
      off();
      if (this.#listeners.size === 0) this.close();
    };
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#last = undefined;
  }

  async #poll(): Promise<void> {
    // One read at a time: a slow database skips ticks rather than piling reads up.
    if (this.#reading) return;
    this.#reading = true;
    try {
      const mark = await this.#read();
      if (mark === undefined || !this.#timer) return;
      const before = this.#last;
      this.#last = mark;
      const entities = this.#entities();
      if (before !== undefined && before !== mark && entities.length > 0) this.#listeners.emit({ kind: 'outside', entities });
    } catch {
      // The database away: the change feed says so; the next tick reads again.
    } finally {
      this.#reading = false;
    }
  }
}
