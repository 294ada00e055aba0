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
import { PRESENCE_TABLE, presenceOfRow, readPresenceSql, writePresenceSql } from './presenceTable.ts';
import type { SharedPresence, StorageFeedEvent, StorageFeedListener } from './types.ts';

export const POLL_MS = 200;
/** Other processes' changes named per tick at most; more: reset. */
const TICK_LIMIT = 1_000;

/** The schema name of XOS's own file attached beside the person's (`<file>-xos`). */
export const SIDE_SCHEMA = 'xos_side';

/** Where presence is kept: the main file's table, or the attached file's (`schema`). */
export interface PresencePlace {
  readonly schema?: string;
}

export function presenceTable(place: PresencePlace): string {
  return place.schema === undefined ? `"${PRESENCE_TABLE}"` : `"${place.schema}"."${PRESENCE_TABLE}"`;
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
    const { write, sweep } = writePresenceSql(this.#options.dialect, presenceTable(place), client, presence, Date.now() + ttlMs);
    this.#options.all(write);
    this.#options.all(sweep);
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
    this.#book.replace(this.#options.all(readPresenceSql(this.#options.dialect, presenceTable(place))).map(presenceOfRow));
  }

  #emitPresence(): void {
    const presence = this.#book.changed();
    if (presence) this.#listeners.emit({ kind: 'presence', presence });
  }
}
