// The change feed over HTTP (xos-server): GET /xos/changes streams Server-Sent Events — `changes`
// (id: the audit cursor, so a client that comes back with Last-Event-ID reads what it missed from
// the audit trail, up to CATCH_UP_LIMIT, else `reset`), `presence`, `reset`, and `ready` once the
// stream is caught up — with a heartbeat comment every 15 s; POST /xos/presence announces the
// record a front end has open. http.ts checks Host, Origin and the token before either is served.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Person } from '../people/person.ts';
import type { Storage } from '../storage/types.ts';
import { ChangeHub, parseOpenRecord, type HubEvent } from './hub.ts';
import type { RecordChange } from './types.ts';

export const CHANGES_PATH = '/xos/changes';
export const PRESENCE_PATH = '/xos/presence';
/** The header naming the front end (its presence is left out of what its own stream gets). */
export const CLIENT_HEADER = 'x-xos-client';
export const DEFAULT_MAX_STREAMS = 200;
/** Streams one person may hold open at once (their windows and devices): none takes all the server's. */
export const DEFAULT_MAX_STREAMS_PER_PERSON = 20;
/** Front ends one person may have a record announced open from at once: nobody floods the others' lists. */
export const DEFAULT_MAX_PRESENCE_PER_PERSON = 10;
export const HEARTBEAT_MS = 15_000;
/** Changes a returning client may catch up on; more: reset. */
export const STREAM_CATCH_UP_LIMIT = 1_000;
/** How often an open stream of a person asks whether their token still lets them in with the same role. */
export const RECHECK_MS = 1_000;
const MAX_PRESENCE_BODY = 4_096;
const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface ChangeRoutesOptions {
  /** Concurrent streams at most; one more gets 503 (default 200). */
  readonly maxStreams?: number;
  /** Concurrent streams of one named person at most; one more gets 429 (default 20). A plain token names nobody. */
  readonly maxStreamsPerPerson?: number;
  /** Front ends of one named person with a record announced open at once, in this instance; one more gets 429 (default 10). */
  readonly maxPresencePerPerson?: number;
  readonly heartbeatMs?: number;
  /** How long an announcement lives unless repeated (default 30 s). */
  readonly presenceTtlMs?: number;
  readonly log?: (line: string) => void;
  /**
   * The entities a person may read (their role's AST); undefined: all. A stream tells a person
   * nothing of the others: no change or presence on an entity their role cannot read.
   */
  readonly readableEntities?: (person: Person | undefined) => ReadonlySet<string> | undefined;
  /** How often an open stream asks `stillLetIn` (default RECHECK_MS). */
  readonly recheckMs?: number;
  /**
   * Of the records named (of one entity), the ids the person may read, where their role reads
   * only some rows of it (own records); undefined: all of them. A stream tells a person nothing of
   * a record they cannot read: no change, no presence.
   */
  readonly visibleRecords?: (person: Person, entity: string, ids: readonly string[]) => Promise<ReadonlySet<string> | undefined>;
}

/** The items (changes or presence entries) of records the person may read, in their order. */
async function seeable<T extends { readonly entity: string; readonly id: string }>(items: readonly T[], person: Person | undefined, visible: ChangeRoutesOptions['visibleRecords']): Promise<T[]> {
  if (!person || !visible || items.length === 0) return [...items];
  const ids = new Map<string, Set<string>>();
  for (const item of items) (ids.get(item.entity) ?? ids.set(item.entity, new Set()).get(item.entity)!).add(item.id);
  const shown = new Map<string, ReadonlySet<string> | undefined>();
  for (const [entity, named] of ids) shown.set(entity, await visible(person, entity, [...named]));
  return items.filter((item) => shown.get(item.entity)?.has(item.id) ?? true);
}

/** Whether the token that opened a stream still lets the same person in with the same role. */
export type StillLetIn = () => Promise<boolean>;

export interface ChangeRoutes {
  /** Serves the request if it is one of the feed's routes (after http.ts's checks); false: not one. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, person?: Person, stillLetIn?: StillLetIn): Promise<boolean>;
  /** Streams open now. */
  readonly streams: number;
}

function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const text = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(text);
}

function clientOf(req: IncomingMessage, url: URL): string | undefined {
  const given = url.searchParams.get('client') ?? req.headers[CLIENT_HEADER];
  return typeof given === 'string' && CLIENT_ID.test(given) ? given : undefined;
}

function sseEvent(event: string, data: unknown, id?: number): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function frame(event: HubEvent): string {
  switch (event.kind) {
    case 'changes': return sseEvent('changes', { changes: event.changes }, event.cursor);
    case 'presence': return sseEvent('presence', { presence: event.presence });
    case 'reset': return sseEvent('reset', { reason: event.reason });
    case 'outside': return sseEvent('outside', { entities: event.entities });
    case 'connection': return '';
  }
}

/** What a change is, whichever way it was told (catch-up or live). */
function changeKey(change: RecordChange): string {
  return `${change.entity}\u0000${change.id}\u0000${change.action}\u0000${change.version ?? ''}`;
}

/** The event as a person whose role reads only `readable` may see it; undefined: nothing left. */
function readableOnly(event: HubEvent, readable: ReadonlySet<string>): HubEvent | undefined {
  if (event.kind === 'changes') {
    const changes = event.changes.filter((change) => readable.has(change.entity));
    return changes.length > 0 ? { ...event, changes } : undefined;
  }
  if (event.kind === 'presence') return { ...event, presence: event.presence.filter((entry) => readable.has(entry.entity)) };
  if (event.kind === 'outside') {
    const entities = event.entities.filter((entity) => readable.has(entity));
    return entities.length > 0 ? { ...event, entities } : undefined;
  }
  return event;
}

async function readSmallBody(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PRESENCE_BODY) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createChangeRoutes(storage: Storage, entities: ReadonlySet<string>, options: ChangeRoutesOptions = {}): ChangeRoutes {
  const hub = new ChangeHub(storage, { presenceTtlMs: options.presenceTtlMs });
  const maxStreams = options.maxStreams ?? DEFAULT_MAX_STREAMS;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const recheckMs = options.recheckMs ?? RECHECK_MS;
  const maxPerPerson = options.maxStreamsPerPerson ?? DEFAULT_MAX_STREAMS_PER_PERSON;
  const maxPresencePerPerson = options.maxPresencePerPerson ?? DEFAULT_MAX_PRESENCE_PER_PERSON;
  let streams = 0;
  const streamsOf = new Map<string, number>();
  /** Per named person: the front ends with a record announced open here, and until when it lives. */
  const announcedBy = new Map<string, Map<string, number>>();
  const forgetAnnounced = (name: string, client: string) => {
    const clients = announcedBy.get(name);
    clients?.delete(client);
    if (clients?.size === 0) announcedBy.delete(name);
  };

  const stream = async (req: IncomingMessage, res: ServerResponse, url: URL, person: Person | undefined, stillLetIn: StillLetIn | undefined) => {
    if (req.method !== 'GET') return sendError(res, 405, 'METHOD_NOT_ALLOWED', `Use GET ${CHANGES_PATH} (Server-Sent Events).`, { allow: 'GET' });
    if (!hub.available) return sendError(res, 404, 'NOT_FOUND', 'This XOS server has no change feed.');
    if (streams >= maxStreams) {
      return sendError(res, 503, 'TOO_MANY_STREAMS', `This XOS server already serves ${maxStreams} change streams, its most; try again shortly, or raise its limit.`, { 'retry-after': '5' });
    }
    if (person && (streamsOf.get(person.name) ?? 0) >= maxPerPerson) {
      return sendError(res, 429, 'TOO_MANY_STREAMS_OF_PERSON', `${person.name} already has ${maxPerPerson} change streams open here, the most one person may; close a window or Board that is not needed, then try again.`, { 'retry-after': '5' });
    }
    const lastHeader = req.headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? undefined;
    const last = typeof lastHeader === 'string' && /^\d{1,15}$/.test(lastHeader.trim()) ? Number(lastHeader) : undefined;
    const client = clientOf(req, url) ?? randomUUID();
    streams++;
    if (person) streamsOf.set(person.name, (streamsOf.get(person.name) ?? 0) + 1);
    // A stream is quiet between heartbeats, and open for as long as the front end wants it.
    req.socket.setTimeout(0);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive',
      'x-content-type-options': 'nosniff', 'x-accel-buffering': 'no',
    });
    // Nothing is written once the stream was ended (a revoked token) or the front end went.
    const put = (text: string) => { if (!res.writableEnded && !res.destroyed) res.write(text); };
    put('retry: 2000\n\n');
    // Live events wait while the missed ones are read, so nothing is told out of order; a live
    // change the catch-up already told is left out by what it is, not by its audit id: on
    // PostgreSQL a write that took a lower id can commit after the catch-up read, and must still
    // be told. The event ids the stream sends only grow (Last-Event-ID).
    let backlog: HubEvent[] | undefined = [];
    let caughtUpTo: number | undefined;
    let told: ReadonlySet<string> | undefined;
    const readable = options.readableEntities?.(person);
    // Which records the person may read is asked of the database, so events are told one after
    // the other, each once its records are checked.
    let telling = Promise.resolve();
    const write = (event: HubEvent) => {
      telling = telling.then(() => tell(event)).catch((error: unknown) => {
        options.log?.(`change stream: checking what a person may see failed: ${(error as Error).message}`);
        put(sseEvent('reset', { reason: 'away' }));
      });
    };
    const tell = async (event: HubEvent) => {
      let shown: HubEvent | undefined = readable ? readableOnly(event, readable) : event;
      if (shown?.kind === 'presence') shown = { ...shown, presence: await seeable(shown.presence, person, options.visibleRecords) };
      if (shown?.kind === 'changes') {
        const unseen = told ? shown.changes.filter((change) => !told!.has(changeKey(change))) : shown.changes;
        const fresh = await seeable(unseen, person, options.visibleRecords);
        if (fresh.length === 0) return;
        const cursor = shown.cursor === undefined ? caughtUpTo : Math.max(shown.cursor, caughtUpTo ?? 0);
        caughtUpTo = cursor;
        shown = { ...shown, changes: fresh, ...(cursor !== undefined ? { cursor } : {}) };
      }
      if (shown) put(frame(shown));
    };
    const unsubscribe = hub.subscribe(client, (event) => (backlog ? backlog.push(event) : write(event)));
    const heartbeat = setInterval(() => put(': heartbeat\n\n'), heartbeatMs).unref();
    // A revoked token, or a person given another role, is not told more under the old grant: the
    // stream ends, and coming back asks the token again (refused, or filtered by the new role).
    const recheck = stillLetIn && setInterval(() => {
      stillLetIn().then((letIn) => { if (!letIn) res.end(); }, () => undefined);
    }, recheckMs).unref();
    let closed = false;
    const gone = () => {
      if (closed) return;
      closed = true;
      streams--;
      if (person) {
        const left = (streamsOf.get(person.name) ?? 1) - 1;
        if (left > 0) streamsOf.set(person.name, left);
        else streamsOf.delete(person.name);
        forgetAnnounced(person.name, client);
      }
      clearInterval(heartbeat);
      clearInterval(recheck);
      unsubscribe();
      // The front end is gone: so is what it had open.
      hub.announce(client, 'someone', undefined).catch(() => undefined);
    };
    req.on('close', gone);
    res.on('close', gone);
    let caughtUp = 0;
    try {
      await hub.ready();
      const since = last === undefined ? undefined : await hub.changesSince(last, STREAM_CATCH_UP_LIMIT);
      if (last !== undefined && !since) {
        const newest = await hub.changesSince(undefined, 0).catch(() => undefined);
        caughtUpTo = newest?.cursor;
        put(sseEvent('reset', { reason: 'away' }, caughtUpTo));
      } else if (since) {
        caughtUpTo = since.cursor;
        caughtUp = since.changes.length;
        told = new Set(since.changes.map(changeKey));
        const changes = await seeable(readable ? since.changes.filter((change) => readable.has(change.entity)) : since.changes, person, options.visibleRecords);
        if (changes.length > 0) put(sseEvent('changes', { changes }, since.cursor));
      } else {
        caughtUpTo = (await hub.changesSince(undefined, 0))?.cursor;
      }
    } catch (error) {
      options.log?.(`change stream: catching up failed: ${(error as Error).message}`);
      put(sseEvent('reset', { reason: 'away' }));
    }
    if (closed) return;
    put(sseEvent('ready', { client, caughtUp, presenceTtlMs: hub.presenceTtlMs }, caughtUpTo));
    const waiting = backlog;
    backlog = undefined;
    for (const event of waiting) write(event);
  };

  const presence = async (req: IncomingMessage, res: ServerResponse, url: URL, person: Person | undefined) => {
    if (req.method !== 'POST') return sendError(res, 405, 'METHOD_NOT_ALLOWED', `Send POST ${PRESENCE_PATH} with {"entity": "...", "id": "...", "editing": false}, or {} for none.`, { allow: 'POST' });
    if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) return sendError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the presence as Content-Type: application/json.');
    const text = await readSmallBody(req);
    if (text === undefined) return sendError(res, 413, 'PAYLOAD_TOO_LARGE', `A presence is at most ${MAX_PRESENCE_BODY} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(text || '{}');
    } catch {
      return sendError(res, 400, 'BAD_REQUEST', 'The body is not valid JSON; send {"entity": "...", "id": "...", "editing": false}, or {} for none.');
    }
    const open = parseOpenRecord(body, entities);
    if (typeof open === 'string') return sendError(res, 400, 'BAD_REQUEST', `The presence is not valid: ${open}.`);
    const name = person?.name ?? 'someone';
    const client = clientOf(req, url) ?? name;
    if (person) {
      const now = Date.now();
      const clients = announcedBy.get(name) ?? new Map<string, number>();
      for (const [other, until] of clients) if (until <= now) clients.delete(other);
      if (open && !clients.has(client) && clients.size >= maxPresencePerPerson) {
        const wait = Math.max(1, Math.ceil((Math.min(...clients.values()) - now) / 1000));
        return sendError(res, 429, 'TOO_MANY_PRESENCES_OF_PERSON', `${name} already has a record open in ${maxPresencePerPerson} front ends, the most one person may announce; close a record in one of them (announce {}), or wait ${wait} s until an announcement lapses.`, { 'retry-after': String(wait) });
      }
      if (open) clients.set(client, now + hub.presenceTtlMs);
      else clients.delete(client);
      if (clients.size > 0) announcedBy.set(name, clients);
      else announcedBy.delete(name);
    }
    await hub.announce(client, name, open);
    res.writeHead(204, { 'cache-control': 'no-store' });
    res.end();
  };

  return {
    get streams() {
      return streams;
    },
    async handle(req, res, path, person, stillLetIn) {
      if (path !== CHANGES_PATH && path !== PRESENCE_PATH) return false;
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (path === CHANGES_PATH) await stream(req, res, url, person, stillLetIn);
      else await presence(req, res, url, person);
      return true;
    },
  };
}
