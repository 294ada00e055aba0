// The change feed on PostgreSQL: one dedicated LISTEN connection per storage hears every
// instance's writes (NOTIFY at commit, see notifyPayload.ts) and presence. Any role that may
// connect can NOTIFY, so where the app keeps an audit trail a notification only says "look": the
// changes and the cursor told are read from the trail (which only XOS's writes fill), never taken
// from the payload. Without a trail the payload's changes are all there is; they make the front
// ends read again what they show, never show a value. A lost connection is made again with
// backoff; what was written meanwhile is read back from the audit trail, or, where that cannot
// tell, the front ends are told to read again (reset).
import pg from 'pg';
import type { TrailRead } from './fromAudit.ts';
import { Listeners } from './listeners.ts';
import { CHANGES_CHANNEL, isShortText, parseChangesPayload, PRESENCE_CHANNEL } from './notifyPayload.ts';
import { PresenceBook } from './presenceBook.ts';
import { PRESENCE_TTL_MS, type ChangesSince, type RecordChange, type SharedPresence, type StorageFeedEvent, type StorageFeedListener } from './types.ts';

/** Changes read back at most after a reconnect; more: reset. */
export const CATCH_UP_LIMIT = 1_000;
/** Entries read from the trail at a time while live (more: read on at once). */
const PULL_LIMIT = 1_000;
/**
 * Audit ids are taken in one order and committed in another: an id a read skipped is looked for
 * again until the read's snapshot shows every transaction then running has ended (it was rolled
 * back, or is found), or this long at most (one left running would keep it forever).
 */
export const GAP_MAX_MS = 60_000;
/** The most skipped ids looked for again at once. */
const MAX_GAPS = 1_000;
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
const EXPIRY_TICK_MS = 1_000;
/**
 * The longest an announcement heard on the channel lives. Any role that may connect can NOTIFY,
 * so a payload is taken only in XOS's own shape and never for longer than XOS announces (its
 * default 30 s, twice over): a forged "… is editing" goes as a real one does.
 */
export const MAX_HEARD_PRESENCE_MS = 2 * PRESENCE_TTL_MS;
const HEARD_CLIENT = /^[A-Za-z0-9_@.:-]{1,128}$/;
/**
 * What a feed says on the presence channel when it starts listening: every instance announces its
 * front ends' open records again at once, so a new listener knows who is where before their next
 * repeat (up to 10 s later). Answered at most once a second, however often it is heard.
 */
export const PRESENCE_HELLO = '{"hello":true}';
/** What an announcement stored in the presence table says on the channel: read the table. */
export const PRESENCE_LOOK = '{"look":true}';
const HELLO_ANSWER_MS = 1_000;
/** How the LISTEN connection shows in pg_stat_activity. */
export const FEED_APPLICATION_NAME = 'xos-change-feed';

export interface PostgresFeedOptions {
  /** A new connection for LISTEN (never one of the pool's: it stays open). */
  readonly connect: () => pg.Client;
  readonly changesSince: (cursor: number | undefined, limit: number) => Promise<ChangesSince | undefined>;
  /** Sends a presence payload on the channel (through the pool). */
  readonly sendPresence: (payload: string) => Promise<void>;
  /** The trail's entries after `cursor` and among `gaps`; undefined where the app keeps no trail. */
  readonly readTrail?: (cursor: number, gaps: readonly number[], limit: number) => Promise<TrailRead | undefined>;
  /**
   * XOS's presence table, where the role could make it: an announcement is stored there (and the
   * channel told to look), and presence is read from it, never from a notification's payload.
   */
  readonly presenceTable?: () => PresenceTable | undefined;
}

export interface PresenceTable {
  /** Stores (or clears) one front end's presence and tells every instance to look, in one transaction. */
  store(client: string, entry: SharedPresence | undefined, expires: number): Promise<void>;
  /** Every presence alive now. */
  read(): Promise<Array<{ entry: SharedPresence; expires: number }>>;
}

interface PresencePayload {
  readonly client: string;
  readonly entry?: SharedPresence;
  readonly ttlMs: number;
}

export function presencePayload(client: string, entry: SharedPresence | undefined, ttlMs: number): string {
  return JSON.stringify({ client, ...(entry ? { entry } : {}), ttlMs } satisfies PresencePayload);
}

export class PostgresFeed {
  readonly #options: PostgresFeedOptions;
  readonly #listeners = new Listeners<StorageFeedEvent>();
  readonly #book = new PresenceBook();
  #client: pg.Client | undefined;
  #started = false;
  #closed = false;
  #connectedOnce = false;
  #delay = RETRY_FIRST_MS;
  #retry: NodeJS.Timeout | undefined;
  #expiry: NodeJS.Timeout | undefined;
  /** The newest audit id read: where the next read and a catch-up after a reconnect start. */
  #cursor: number | undefined;
  /** Ids below the cursor a read skipped, with the snapshot's end then and when. */
  readonly #gaps = new Map<number, { readonly xmax: bigint; readonly at: number }>();
  /** The changes heard in payloads since the last read: told as they are where there is no trail. */
  #heardChanges: RecordChange[][] = [];
  /** Reads of the trail, one at a time, in order. */
  #reads: Promise<void> = Promise.resolve();
  #readQueued = false;
  #catchUpWanted = false;
  /** What this process's front ends announced, until when: said again when another feed says hello. */
  readonly #own = new Map<string, { readonly entry: SharedPresence; readonly until: number }>();
  #helloAnswer: NodeJS.Timeout | undefined;
  #helloAnsweredAt = 0;
  /** Reads of the presence table, one at a time (one queued serves every look heard meanwhile). */
  #presenceReads: Promise<void> = Promise.resolve();
  #presenceReadQueued = false;

  constructor(options: PostgresFeedOptions) {
    this.#options = options;
  }

  watch(listener: StorageFeedListener): () => void {
    const off = this.#listeners.add(listener);
    const present = this.#book.current();
    if (present.length > 0) listener({ kind: 'presence', presence: present });
    if (!this.#started && !this.#closed) {
      this.#started = true;
      this.#expiry = setInterval(() => this.#emitPresence(), EXPIRY_TICK_MS).unref();
      void this.#connect();
    }
    return off;
  }

  /** Resolves once the LISTEN connection is up, or after `timeoutMs` (a stream must not wait for a database that is down). */
  async ready(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#closed && !this.#client && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** A front end of this process announces its open record (or none) to every instance. */
  async announce(client: string, entry: SharedPresence | undefined, ttlMs: number): Promise<void> {
    if (entry) this.#own.set(client, { entry, until: Date.now() + ttlMs });
    else this.#own.delete(client);
    const table = this.#options.presenceTable?.();
    if (table) await table.store(client, entry, Date.now() + ttlMs);
    else await this.#options.sendPresence(presencePayload(client, entry, ttlMs));
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#helloAnswer);
    clearTimeout(this.#retry);
    clearInterval(this.#expiry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = this.#options.connect();
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      void client.end().catch(() => undefined);
      this.#scheduleRetry();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (message) => this.#heard(message.channel, message.payload ?? ''));
    const returning = this.#connectedOnce;
    try {
      await client.connect();
      // Where reads start, taken before listening: a change heard the moment LISTEN is in place is
      // then read from the trail after it. Taken after, such a change found no cursor yet and every
      // listener was told `reset` (which anyone on the channel could cause while an instance starts).
      if (!returning && this.#cursor === undefined) await this.#startCursor();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      await client.query(`LISTEN ${PRESENCE_CHANNEL}`);
      await client.query(`SELECT pg_notify('${PRESENCE_CHANNEL}', $1)`, [PRESENCE_HELLO]);
    } catch {
      onLost();
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#delay = RETRY_FIRST_MS;
    // Who is where now, from the table (announcements made while this feed was not listening).
    if (this.#options.presenceTable?.()) void this.#readPresence();
    this.#connectedOnce = true;
    if (returning) await this.#read({ catchUp: true });
    // Changes committed between taking the cursor and listening were not heard: read them now.
    else if (this.#cursor !== undefined) await this.#read();
    // The trail could not be read before listening: where a catch-up after a later cut would start.
    else await this.#startCursor();
  }

  /** The trail's newest id as where reads start (left unset when the trail cannot be read now). */
  async #startCursor(): Promise<void> {
    const now = await this.#options.changesSince(undefined, 0).catch(() => undefined);
    if (now) this.#cursor = Math.max(this.#cursor ?? 0, now.cursor);
  }

  #scheduleRetry(): void {
    if (this.#closed) return;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#connect(), this.#delay).unref();
    this.#delay = Math.min(RETRY_MAX_MS, this.#delay * 2);
  }

  /** Queues one read of the trail (a read already queued serves); resolves when it is done. */
  #read({ catchUp = false } = {}): Promise<void> {
    if (catchUp) this.#catchUpWanted = true;
    if (this.#readQueued) return this.#reads;
    this.#readQueued = true;
    this.#reads = this.#reads.then(async () => {
      this.#readQueued = false;
      const wanted = this.#catchUpWanted;
      this.#catchUpWanted = false;
      await this.#readOnce(wanted);
    }).catch(() => undefined);
    return this.#reads;
  }

  /**
   * The changes since the last read, from the audit trail: after a reconnect the ones missed (or a
   * reset when there are too many); while live, what the notifications said was written.
   */
  async #readOnce(catchUp: boolean): Promise<void> {
    const heard = this.#heardChanges;
    this.#heardChanges = [];
    const readTrail = this.#options.readTrail;
    let read: TrailRead | undefined;
    try {
      if (this.#cursor === undefined) {
        const now = await this.#options.changesSince(undefined, 0);
        if (now) {
          // The trail could not be read before: what was written until now cannot be named.
          this.#cursor = now.cursor;
          this.#listeners.emit({ kind: 'reset', reason: 'away' });
          return;
        }
      }
      read = this.#cursor === undefined || !readTrail ? undefined : await readTrail(this.#cursor, [...this.#gaps.keys()], catchUp ? CATCH_UP_LIMIT : PULL_LIMIT);
    } catch {
      // The database did not answer: what was written meanwhile cannot be told.
      this.#listeners.emit({ kind: 'reset', reason: 'away' });
      return;
    }
    if (!read) {
      // No audit trail: after a cut nothing tells what was missed; while live the payloads are all there is.
      if (catchUp) this.#listeners.emit({ kind: 'reset', reason: 'away' });
      else for (const changes of heard) this.#listeners.emit({ kind: 'changes', changes });
      return;
    }
    if (catchUp && read.more) {
      this.#listeners.emit({ kind: 'reset', reason: 'away' });
      const now = await this.#options.changesSince(undefined, 0).catch(() => undefined);
      if (now) this.#cursor = now.cursor;
      this.#gaps.clear();
      return;
    }
    const cursor = this.#followGaps(read);
    const changes = read.entries.flatMap((entry) => (entry.change ? [entry.change] : []));
    if (changes.length > 0) this.#listeners.emit({ kind: 'changes', changes, cursor });
    if (read.more) void this.#read();
  }

  /** Moves the cursor past what `read` found and keeps the ids it skipped to look for again; returns the cursor. */
  #followGaps(read: TrailRead): number {
    const now = Date.now();
    const found = new Set(read.entries.map((entry) => entry.id));
    for (const [id, gap] of this.#gaps) {
      if (found.has(id) || read.xmin >= gap.xmax || now - gap.at > GAP_MAX_MS) this.#gaps.delete(id);
    }
    const before = this.#cursor ?? 0;
    const top = read.entries.reduce((max, entry) => Math.max(max, entry.id), before);
    for (let id = before + 1; id < top && this.#gaps.size < MAX_GAPS; id++) {
      if (!found.has(id)) this.#gaps.set(id, { xmax: read.xmax, at: now });
    }
    this.#cursor = top;
    return top;
  }

  #heard(channel: string, payload: string): void {
    if (channel === CHANGES_CHANNEL) {
      // Only a wake-up where there is a trail: its cursor is never taken, its changes are read again.
      const parsed = parseChangesPayload(payload);
      if (!parsed) return;
      this.#heardChanges.push(parsed.changes);
      void this.#read();
      return;
    }
    if (channel === PRESENCE_CHANNEL) {
      // With the table, anything said on the channel (anyone may say anything) only makes it read.
      if (this.#options.presenceTable?.()) {
        void this.#readPresence();
        return;
      }
      if (payload === PRESENCE_HELLO) {
        this.#answerHello();
        return;
      }
      const parsed = heardPresence(payload);
      if (!parsed) return;
      this.#book.put(parsed.client, parsed.entry ? { ...parsed.entry, client: parsed.client } : undefined, Date.now() + Math.min(parsed.ttlMs, MAX_HEARD_PRESENCE_MS));
      this.#emitPresence();
    }
  }

  /** This process's announcements again, at most once a second (a hello can be sent by anyone, as often as they like). */
  #answerHello(): void {
    if (this.#helloAnswer || this.#closed) return;
    const wait = Math.max(0, this.#helloAnsweredAt + HELLO_ANSWER_MS - Date.now());
    this.#helloAnswer = setTimeout(() => {
      this.#helloAnswer = undefined;
      this.#helloAnsweredAt = Date.now();
      for (const [client, { entry, until }] of this.#own) {
        const left = until - Date.now();
        if (left <= 0) this.#own.delete(client);
        else this.#options.sendPresence(presencePayload(client, entry, left)).catch(() => undefined);
      }
    }, wait).unref();
  }

  /** Queues one read of the presence table (a read already queued serves); replaces the book with it. */
  #readPresence(): Promise<void> {
    if (this.#presenceReadQueued) return this.#presenceReads;
    this.#presenceReadQueued = true;
    this.#presenceReads = this.#presenceReads.then(async () => {
      this.#presenceReadQueued = false;
      const table = this.#options.presenceTable?.();
      if (!table || this.#closed) return;
      this.#book.replace(await table.read());
      this.#emitPresence();
    }).catch(() => undefined);
    return this.#presenceReads;
  }

  #emitPresence(): void {
    const presence = this.#book.changed();
    if (presence) this.#listeners.emit({ kind: 'presence', presence });
  }
}

/** A presence payload in exactly the shape XOS sends (presencePayload), else undefined. */
export function heardPresence(payload: string): PresencePayload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { client, entry, ttlMs } = value as Record<string, unknown>;
  if (typeof client !== 'string' || !HEARD_CLIENT.test(client) || typeof ttlMs !== 'number' || !(ttlMs > 0)) return undefined;
  if (entry === undefined) return { client, ttlMs };
  if (entry === null || typeof entry !== 'object') return undefined;
  const { person, entity, id, editing } = entry as Record<string, unknown>;
  if (!isShortText(person, 64) || !isShortText(entity, 200) || !isShortText(id, 200) || typeof editing !== 'boolean') return undefined;
  return { client, entry: { client, person, entity, id, editing }, ttlMs };
}
