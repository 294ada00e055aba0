// The change feed of a remote XOS server: GET /xos/changes read as Server-Sent Events through
// fetch while anyone listens, made again with backoff when it breaks (Last-Event-ID: the server
// sends what was missed, or `reset`), and POST /xos/presence for the record this Board has open.
import { randomUUID } from 'node:crypto';
import { Announcer, FeedListeners, type OpenRecord } from './feedListeners.ts';
import type { ChangeFeed, ChangeFeedEvent, PresenceEntry, RecordChange } from './types.ts';

const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 10_000;
/** Without even a heartbeat (every 15 s) for this long, the stream counts as lost. */
const SILENCE_MS = 40_000;

export interface RemoteFeedOptions {
  /** The server's base URL (no trailing slash). */
  readonly base: string;
  readonly headers: Record<string, string>;
  readonly fetch: typeof fetch;
  /** The feed's name for the server (its own presence is left out of what it hears). */
  readonly client?: string;
  /** How often the open record is announced again (default 10 s). */
  readonly reannounceMs?: number;
}

interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/** Splits a stream's text into messages; keeps the unfinished rest. */
export function parseSse(buffer: string): { messages: SseMessage[]; rest: string; comments: number } {
  const messages: SseMessage[] = [];
  let comments = 0;
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    let id: string | undefined;
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) { comments++; continue; }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length > 0 || id !== undefined) messages.push({ event, data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
  }
  return { messages, rest, comments };
}

export function remoteFeed(options: RemoteFeedOptions): ChangeFeed {
  const client = options.client ?? randomUUID();
  let running: AbortController | undefined;
  let lastEventId: string | undefined;

  const listeners = new FeedListeners(() => {
    running = new AbortController();
    void loop(running.signal);
  }, () => {
    running?.abort();
    running = undefined;
  });

  const post = (open: OpenRecord) =>
    options.fetch(`${options.base}/xos/presence`, {
      method: 'POST',
      headers: { ...options.headers, 'content-type': 'application/json', 'x-xos-client': client },
      body: JSON.stringify(open ?? {}),
      signal: AbortSignal.timeout(15_000),
    }).then((response) => response.body?.cancel()).catch(() => undefined);
  const announcer = new Announcer(post, options.reannounceMs);

  const emit = (event: ChangeFeedEvent) => listeners.emit(event);

  async function loop(signal: AbortSignal): Promise<void> {
    let delay = RETRY_FIRST_MS;
    let lost = false;
    while (!signal.aborted) {
      let live = false;
      try {
        await readStream(signal, () => {
          live = true;
          delay = RETRY_FIRST_MS;
        }, (caughtUp) => {
          // Live from here on (the first time too), with what was read on return.
          emit({ kind: 'connection', live: true, caughtUp });
          lost = false;
          // The server may have let this Board's presence expire while it was away.
          announcer.repeat();
        });
      } catch {
        // Told below as a lost connection.
      }
      if (signal.aborted) return;
      if (live || !lost) emit({ kind: 'connection', live: false });
      lost = true;
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay = Math.min(RETRY_MAX_MS, delay * 2);
    }
  }

  /** One stream, until it ends or breaks; `opened` when the server answered, `ready` when caught up. */
  async function readStream(signal: AbortSignal, opened: () => void, ready: (caughtUp: number) => void): Promise<void> {
    const silence = new AbortController();
    const response = await options.fetch(`${options.base}/xos/changes?client=${encodeURIComponent(client)}`, {
      headers: { ...options.headers, accept: 'text/event-stream', ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) },
      signal: AbortSignal.any([signal, silence.signal]),
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`GET /xos/changes answered HTTP ${response.status}`);
    }
    opened();
    let watchdog = setTimeout(() => silence.abort(), SILENCE_MS).unref();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => silence.abort(), SILENCE_MS).unref();
        buffer += decoder.decode(chunk, { stream: true });
        const parsed = parseSse(buffer);
        buffer = parsed.rest;
        for (const message of parsed.messages) {
          if (message.id !== undefined && message.id !== '') lastEventId = message.id;
          handle(message, ready);
        }
      }
    } finally {
      clearTimeout(watchdog);
    }
  }

  function handle(message: SseMessage, ready: (caughtUp: number) => void): void {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(message.data) as Record<string, unknown>;
    } catch {
      return;
    }
    switch (message.event) {
      case 'changes':
        if (Array.isArray(data.changes)) emit({ kind: 'changes', changes: data.changes as RecordChange[] });
        return;
      case 'presence':
        if (Array.isArray(data.presence)) emit({ kind: 'presence', presence: data.presence as PresenceEntry[] });
        return;
      case 'reset':
        emit({ kind: 'reset', reason: data.reason === 'unknown' ? 'unknown' : 'away' });
        return;
      case 'outside':
        if (Array.isArray(data.entities)) emit({ kind: 'outside', entities: data.entities.filter((entity): entity is string => typeof entity === 'string') });
        return;
      case 'ready':
        ready(Number(data.caughtUp ?? 0));
        return;
    }
  }

  return {
    subscribe: (listener) => listeners.subscribe(listener),
    announce: (open) => announcer.announce(open),
  };
}
