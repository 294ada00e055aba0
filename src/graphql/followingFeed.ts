// One change feed over backends that come and go (the extension's backend restarts when its
// settings change): the Board subscribes once, and the feed follows the backend in use — its
// listeners move to the new backend's feed, the open record is announced there again, and a
// switch tells them to read everything again (the data source may be another one).
import { FeedListeners, type OpenRecord } from './feedListeners.ts';
import type { ChangeFeed, ChangeFeedEvent } from './types.ts';

export class FollowingFeed implements ChangeFeed {
  readonly #listeners = new FeedListeners(() => this.#attach(), () => this.#detach());
  #source: ChangeFeed | undefined;
  #unsubscribe: (() => void) | undefined;
  #open: OpenRecord;

  /** The backend in use now has this feed (undefined: none, e.g. a remote backend without a stream). */
  follow(source: ChangeFeed | undefined): void {
    if (source === this.#source) return;
    const previous = this.#source;
    this.#detach();
    previous?.announce(undefined);
    this.#source = source;
    if (this.#listeners.size > 0) this.#attach();
    if (this.#open) source?.announce(this.#open);
    if (previous) this.#listeners.emit({ kind: 'reset', reason: 'unknown' });
  }

  subscribe(listener: (event: ChangeFeedEvent) => void): () => void {
    return this.#listeners.subscribe(listener);
  }

  announce(open: OpenRecord): void {
    this.#open = open;
    this.#source?.announce(open);
  }

  #attach(): void {
    if (this.#unsubscribe || !this.#source) return;
    this.#unsubscribe = this.#source.subscribe((event) => this.#listeners.emit(event));
  }

  #detach(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}
