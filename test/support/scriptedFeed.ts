// A change feed the test drives (src/graphql/types.ts ChangeFeed): the test tells the Board what
// the feed would tell — records written (by a second writer, for real), resets, the others'
// presence, the connection lost and back — and reads what the Board announced of itself.
import type { ChangeFeed, ChangeFeedEvent } from '../../src/graphql/types.ts';

type Announced = Parameters<ChangeFeed['announce']>[0];

export class ScriptedFeed implements ChangeFeed {
  private readonly listeners = new Set<(event: ChangeFeedEvent) => void>();
  /** Every announcement of the Board, in order (undefined: nothing open). */
  readonly announced: Announced[] = [];

  subscribe(listener: (event: ChangeFeedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  announce(open: Announced): void {
    this.announced.push(open === undefined ? undefined : { ...open });
  }

  /** Tells every listener, as the feed would. */
  emit(event: ChangeFeedEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  get listening(): number {
    return this.listeners.size;
  }
}
