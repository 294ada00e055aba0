// One process's door to its storage's change feed: it listens to the storage while anyone
// listens to it, hands every front end the changes and the others' presence (each front end's own
// left out), and shares each front end's presence with every process on the database.
import type { ChangeFeedEvent, PresenceEntry } from './types.ts';
import type { Storage } from '../storage/types.ts';
import { Listeners } from './listeners.ts';
import { PRESENCE_TTL_MS, type OpenRecord, type SharedPresence, type StorageFeedEvent } from './types.ts';

/** A feed event as the hub hands it on: changes with the audit cursor they reach, where known. */
export type HubEvent = ChangeFeedEvent & { readonly cursor?: number };

export interface ChangeHubOptions {
  /** How long an announcement lives unless repeated (default 30 s). */
  readonly presenceTtlMs?: number;
}

export class ChangeHub {
  readonly #storage: Storage;
  readonly #ttlMs: number;
  readonly #events = new Listeners<StorageFeedEvent>();
  #stopWatching: (() => void) | undefined;
  #presence: readonly SharedPresence[] = [];
  /** Each front end's last announcement on its way: the next waits for it (the pool's connections could reorder them). */
  readonly #announcing = new Map<string, Promise<void>>();

  constructor(storage: Storage, options: ChangeHubOptions = {}) {
    this.#storage = storage;
    this.#ttlMs = options.presenceTtlMs ?? PRESENCE_TTL_MS;
  }

  /** Whether the storage has a change feed. */
  get available(): boolean {
    return this.#storage.watch !== undefined;
  }

  get presenceTtlMs(): number {
    return this.#ttlMs;
  }

  /** `client`: the front end listening (its own presence is left out of what it gets). */
  subscribe(client: string, listener: (event: HubEvent) => void): () => void {
    if (!this.#storage.watch) throw new Error(`the ${this.#storage.kind} storage has no change feed`);
    const off = this.#events.add((event) => {
      if (event.kind === 'presence') listener({ kind: 'presence', presence: othersOf(event.presence, client) });
      else listener(event);
    });
    this.#stopWatching ??= this.#storage.watch((event) => {
      if (event.kind === 'presence') this.#presence = event.presence;
      this.#events.emit(event);
    });
    if (this.#presence.length > 0) listener({ kind: 'presence', presence: othersOf(this.#presence, client) });
    return () => {
      off();
      if (this.#events.size === 0) {
        this.#stopWatching?.();
        this.#stopWatching = undefined;
        this.#presence = [];
      }
    };
  }

  /** Resolves once the storage's feed hears the database (call after subscribe). */
  async ready(): Promise<void> {
    await this.#storage.feedReady?.();
  }

  /** `open` undefined: the front end has no record open (or is gone). */
  announce(client: string, person: string, open: OpenRecord | undefined): Promise<void> {
    const entry = open ? { client, person, entity: open.entity, id: open.id, editing: open.editing } : undefined;
    const before = this.#announcing.get(client) ?? Promise.resolve();
    const sent = before.catch(() => undefined).then(async () => { await this.#storage.announce?.(client, entry, this.#ttlMs); });
    this.#announcing.set(client, sent);
    const forget = () => {
      if (this.#announcing.get(client) === sent) this.#announcing.delete(client);
    };
    sent.then(forget, forget);
    return sent;
  }

  changesSince(cursor: number | undefined, limit: number) {
    return this.#storage.changesSince?.(cursor, limit) ?? Promise.resolve(undefined);
  }
}

function othersOf(presence: readonly SharedPresence[], client: string): PresenceEntry[] {
  return presence.filter((entry) => entry.client !== client).map(({ person, entity, id, editing }) => ({ person, entity, id, editing }));
}

/** What a front end may announce, checked (the HTTP body, a worker message); a string says what is wrong. */
export function parseOpenRecord(value: unknown, entities: ReadonlySet<string>): OpenRecord | undefined | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'send a JSON object: {"entity": "...", "id": "...", "editing": false}, or {} for none';
  const { entity, id, editing } = value as Record<string, unknown>;
  if (entity === undefined && id === undefined) return undefined;
  if (typeof entity !== 'string' || !entities.has(entity)) return `"entity" must name one of the app's entities (${[...entities].slice(0, 5).join(', ')}${entities.size > 5 ? ', …' : ''})`;
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0 || String(id).length > 200) return '"id" must be the record\'s id (a string or number)';
  if (editing !== undefined && typeof editing !== 'boolean') return '"editing" must be true or false';
  return { entity, id: String(id), editing: editing === true };
}
