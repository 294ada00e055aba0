// What the clients' change feeds share: their listeners (the source runs while there are any)
// and the presence announcement repeated before it expires.
import type { ChangeFeedEvent } from './types.ts';

/** The front end repeats its announcement this often (the backend keeps it 30 s). */
export const REANNOUNCE_MS = 10_000;

export type OpenRecord = { readonly entity: string; readonly id: string; readonly editing: boolean } | undefined;

export class FeedListeners {
  readonly #items = new Set<(event: ChangeFeedEvent) => void>();
  readonly #start: () => void;
  readonly #stop: () => void;

  constructor(start: () => void, stop: () => void) {
    this.#start = start;
    this.#stop = stop;
  }

  get size(): number {
    return this.#items.size;
  }

  subscribe(listener: (event: ChangeFeedEvent) => void): () => void {
    this.#items.add(listener);
    if (this.#items.size === 1) this.#start();
    return () => {
      if (this.#items.delete(listener) && this.#items.size === 0) this.#stop();
    };
  }

  emit(event: ChangeFeedEvent): void {
    for (const listener of [...this.#items]) {
      try {
        listener(event);
      } catch {
        // One listener's bug must not stop the feed for the others.
      }
    }
  }
}

/**
 * Sends the open record now and again every REANNOUNCE_MS while one is open (the timer never keeps
 * the process alive). One send at a time: the next waits until the last is through and carries only
 * the newest state, so "editing" never overtakes the "open" sent before it and is then lost until
 * the next repeat.
 */
export class Announcer {
  readonly #send: (open: OpenRecord) => void | Promise<unknown>;
  readonly #everyMs: number;
  #open: OpenRecord;
  #timer: NodeJS.Timeout | undefined;
  #sending = false;
  #again = false;

  constructor(send: (open: OpenRecord) => void | Promise<unknown>, everyMs = REANNOUNCE_MS) {
    this.#send = send;
    this.#everyMs = everyMs;
  }

  get open(): OpenRecord {
    return this.#open;
  }

  announce(open: OpenRecord): void {
    this.#open = open ? { entity: open.entity, id: String(open.id), editing: open.editing } : undefined;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#flush();
    if (this.#open) this.#timer = setInterval(() => this.#flush(), this.#everyMs).unref();
  }

  /** Again now (a stream that came back: the backend may have let it expire). */
  repeat(): void {
    if (this.#open) this.#flush();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    if (this.#sending) {
      this.#again = true;
      return;
    }
    this.#sending = true;
    let sent: void | Promise<unknown>;
    try {
      sent = this.#send(this.#open);
    } catch {
      sent = undefined;
    }
    const done = () => {
      this.#sending = false;
      if (!this.#again) return;
      this.#again = false;
      this.#flush();
    };
    if (sent instanceof Promise) sent.then(done, done);
    else done();
  }
}
