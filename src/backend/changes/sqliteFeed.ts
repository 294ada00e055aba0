// The change feed on SQLite. This process's writes are told right after their commit; other
// processes on the same file (another VS Code window) are noticed by PRAGMA data_version, which
// changes only when another connection commits — read every ~200 ms, it costs microseconds —
// and then named from the audit trail's entries after the last one seen. The trail names only
// XOS's writes: a commit by another program (sqlite3, a script) changes data_version too, so
// every such tick also tells the app's entities as written outside (without a trail that is all
// it tells), and the front ends compare what they show with the rows. Presence lives in the small
// xos_presence table: beside the audit trail, or, where XOS may not add a table to the file (the
// person's own, without a trail), in a file of XOS's own beside it (`<file>-xos`, attached),
// whose data_version is read on the same tick.
import type { RecordChange } from './types.ts';
import type { Dialect, Statement } from '../storage/sql.ts';
import { decodeAuditRow } from '../storage/audit.ts';
import { auditAfterSql, auditNewestSql, changeOfEntry, changesAfter } from './fromAudit.ts';
import { Listeners } from './listeners.ts';
import { PresenceBook } from './presenceBook.ts';
import { PRESENCE_KEEP_MS, type SharedPresence, type StorageFeedEvent, type StorageFeedListener } from './types.ts';

export const PRESENCE_TABLE = 'xos_presence';
export const POLL_MS = 200;
/** Other processes' changes named per tick at most; more: reset. */
const TICK_LIMIT = 1_000;

/** The schema name of XOS's own file attached beside the person's (`<file>-xos`). */
export const SIDE_SCHEMA = 'xos_side';

/** Where presence is kept: the main file's table, or the attached file's (`schema`). */
export interface PresencePlace {
  readonly schema?: string;
}

function presenceTable(place: PresencePlace): string {
  return place.schema === undefined ? `"${PRESENCE_TABLE}"` : `"${place.schema}"."${PRESENCE_TABLE}"`;
}

export function createPresenceTableSql(place: PresencePlace = {}): string {
  return `CREATE TABLE IF NOT EXISTS ${presenceTable(place)} ("client" TEXT PRIMARY KEY, "person" TEXT NOT NULL, "entity" TEXT NOT NULL, `
    + '"record_id" TEXT NOT NULL, "editing" INTEGER NOT NULL, "expires" INTEGER NOT NULL)';
}

export interface SqliteFeedOptions {
  /** Runs one statement on the storage's connection. */
  readonly all: (statement: Statement) => Record<string, unknown>[];
  readonly dialect: Dialect;
  /** Whether the audit trail is there (an app on the person's own file may not allow it). */
  readonly kept: () => boolean;
  /** Where presence is kept; undefined: nowhere (an in-memory database, a folder XOS may not write). */
  readonly presence: () => PresencePlace | undefined;
  /** The app's entities (their tables are what other programs may write). */
  readonly entities: () => readonly string[];
}

export class SqliteFeed {
  readonly #options: SqliteFeedOptions;
  readonly #listeners = new Listeners<StorageFeedEvent>();
  readonly #book = new PresenceBook();
  /** This process's audit ids already told (the tick skips them). */
  readonly #own = new Set<number>();
  #timer: NodeJS.Timeout | undefined;
  #dataVersion = 0;
  /** The attached presence file's data_version, where presence is kept there. */
  #sideVersion: number | undefined;
  #lastSeen = 0;
  #closed = false;

  constructor(options: SqliteFeedOptions) {
    this.#options = options;
  }

  watch(listener: StorageFeedListener): () => void {
    const off = this.#listeners.add(listener);
    if (!this.#timer && !this.#closed) {
      this.#dataVersion = this.#readDataVersion();
      this.#sideVersion = this.#readSideVersion();
      if (this.#options.kept()) this.#lastSeen = Number(this.#options.all(auditNewestSql())[0]?.id ?? 0);
      this.#readPresence();
      this.#timer = setInterval(() => this.#tick(), POLL_MS).unref();
    }
    const present = this.#book.current();
    if (present.length > 0) listener({ kind: 'presence', presence: present });
    return () => {
      off();
      if (this.#listeners.size === 0) this.#stop();
    };
  }

  /** This process's write, just committed. */
  committed(changes: readonly RecordChange[], auditIds: readonly number[]): void {
    if (this.#listeners.size === 0 || changes.length === 0) return;
    for (const id of auditIds) this.#own.add(id);
    const cursor = auditIds.length ? Math.max(...auditIds) : undefined;
    this.#listeners.emit({ kind: 'changes', changes, ...(cursor !== undefined ? { cursor } : {}) });
  }

  announce(client: string, presence: SharedPresence | undefined, ttlMs: number): void {
    const place = this.#options.presence();
    if (!place) return;
    const table = presenceTable(place);
    const now = Date.now();
    if (presence) {
      this.#options.all({
        text: `INSERT INTO ${table} ("client", "person", "entity", "record_id", "editing", "expires") VALUES (?, ?, ?, ?, ?, ?) `
          + 'ON CONFLICT ("client") DO UPDATE SET "person" = excluded."person", "entity" = excluded."entity", "record_id" = excluded."record_id", "editing" = excluded."editing", "expires" = excluded."expires"',
        params: [client, presence.person, presence.entity, presence.id, presence.editing ? 1 : 0, now + ttlMs],
      });
    } else {
      this.#options.all({ text: `DELETE FROM ${table} WHERE "client" = ?`, params: [client] });
    }
    this.#options.all({ text: `DELETE FROM ${table} WHERE "expires" < ?`, params: [now - PRESENCE_KEEP_MS] });
    if (this.#timer) {
      this.#readPresence();
      this.#emitPresence();
    }
  }

  changesSince(cursor: number | undefined, limit: number) {
    if (!this.#options.kept()) return undefined;
    if (cursor === undefined) return { changes: [], cursor: Number(this.#options.all(auditNewestSql())[0]?.id ?? 0) };
    return changesAfter(cursor, limit, this.#options.all(auditAfterSql(this.#options.dialect, cursor, limit)));
  }

  close(): void {
    this.#closed = true;
    this.#stop();
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #readDataVersion(): number {
    return Number(this.#options.all({ text: 'PRAGMA data_version', params: [] })[0]?.data_version ?? 0);
  }

  /** The attached presence file's data_version; undefined where presence is kept in the main file or nowhere. */
  #readSideVersion(): number | undefined {
    const side = this.#options.presence()?.schema;
    return side === undefined ? undefined : Number(this.#options.all({ text: `PRAGMA "${side}".data_version`, params: [] })[0]?.data_version ?? 0);
  }

  #tick(): void {
    try {
      const version = this.#readDataVersion();
      if (version !== this.#dataVersion) {
        this.#readOthers();
        this.#readPresence();
        // Only once read: a read that failed (the file busy) is made again on the next tick.
        this.#dataVersion = version;
      }
      // Presence in a file of its own: its commits are presence only, nothing shown to compare.
      const side = this.#readSideVersion();
      if (side !== this.#sideVersion) {
        this.#readPresence();
        this.#sideVersion = side;
      }
      this.#emitPresence();
    } catch {
      // Busy or closed: the next tick tries again.
    }
  }

  /** Another process committed: its writes, named from the audit trail, and what another program may have written. */
  #readOthers(): void {
    if (this.#options.kept()) this.#readTrail();
    // The file says only that someone committed: XOS elsewhere (named by the trail, where there is one), a presence, or another program.
    const entities = this.#options.entities();
    if (entities.length > 0) this.#listeners.emit({ kind: 'outside', entities });
  }

  #readTrail(): void {
    const rows = this.#options.all(auditAfterSql(this.#options.dialect, this.#lastSeen, TICK_LIMIT));
    if (rows.length > TICK_LIMIT) {
      this.#lastSeen = Number(this.#options.all(auditNewestSql())[0]?.id ?? this.#lastSeen);
      this.#own.clear();
      this.#listeners.emit({ kind: 'reset', reason: 'away' });
      return;
    }
    const entries = rows.map(decodeAuditRow);
    const changes = entries.filter((entry) => !this.#own.has(entry.id)).map(changeOfEntry).filter((change) => change !== undefined);
    this.#lastSeen = entries.reduce((top, entry) => Math.max(top, entry.id), this.#lastSeen);
    for (const id of this.#own) if (id <= this.#lastSeen) this.#own.delete(id);
    if (changes.length > 0) this.#listeners.emit({ kind: 'changes', changes, cursor: this.#lastSeen });
  }

  #readPresence(): void {
    const place = this.#options.presence();
    if (!place) return;
    const rows = this.#options.all({ text: `SELECT * FROM ${presenceTable(place)} WHERE "expires" > ?`, params: [Date.now()] });
    this.#book.replace(rows.map((row) => ({
      entry: { client: String(row.client), person: String(row.person), entity: String(row.entity), id: String(row.record_id), editing: Number(row.editing) === 1 },
      expires: Number(row.expires),
    })));
  }

  #emitPresence(): void {
    const presence = this.#book.changed();
    if (presence) this.#listeners.emit({ kind: 'presence', presence });
  }
}
