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

/** Sends the open record now and again every REANNOUNCE_MS while one is open (the timer never keeps the process alive). */
export class Announcer {
  readonly #send: (open: OpenRecord) => void;
  readonly #everyMs: number;
  #open: OpenRecord;
  #timer: NodeJS.Timeout | undefined;

  constructor(send: (open: OpenRecord) => void, everyMs = REANNOUNCE_MS) {
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
    this.#send(this.#open);
    if (this.#open) this.#timer = setInterval(() => this.#send(this.#open), this.#everyMs).unref();
  }

  /** Again now (a stream that came back: the backend may have let it expire). */
  repeat(): void {
    if (this.#open) this.#send(this.#open);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
