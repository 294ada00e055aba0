// The presence of every front end on one database, each entry with its own expiry: what the
// storage's feed hands on whole whenever it changes (an announcement, a clear, an expiry).
import type { SharedPresence } from './types.ts';

export class PresenceBook {
  readonly #entries = new Map<string, { entry: SharedPresence; expires: number }>();
  #signature = '[]';

  /** `entry` undefined: the client has nothing open any more. */
  put(client: string, entry: SharedPresence | undefined, expires: number): void {
    if (entry) this.#entries.set(client, { entry, expires });
    else this.#entries.delete(client);
  }

  /** Replaces everything (the SQLite presence table read whole). */
  replace(entries: readonly { entry: SharedPresence; expires: number }[]): void {
    this.#entries.clear();
    for (const item of entries) this.#entries.set(item.entry.client, item);
  }

  /** The entries alive now (what a new listener is told first). */
  current(now = Date.now()): SharedPresence[] {
    return [...this.#entries.values()].filter(({ expires }) => expires > now).map(({ entry }) => entry);
  }

  /** The entries alive at `now`, when they differ from those last returned; undefined: no change. */
  changed(now = Date.now()): SharedPresence[] | undefined {
    for (const [client, { expires }] of this.#entries) if (expires <= now) this.#entries.delete(client);
    const list = [...this.#entries.values()].map(({ entry }) => entry).sort((a, b) => a.client.localeCompare(b.client));
    const signature = JSON.stringify(list);
    if (signature === this.#signature) return undefined;
    this.#signature = signature;
    return list;
  }
}
