// Everything a change feed tells, kept in order, for tests that watch a client's feed.
import assert from 'node:assert/strict';
import type { ChangeFeed, ChangeFeedEvent, PresenceEntry, RecordChange } from '../../src/graphql/types.ts';

export interface FeedRecord {
  readonly events: ChangeFeedEvent[];
  stop(): void;
  /** Every record change told so far. */
  changes(): RecordChange[];
  /** Every presence entry told so far, of every presence event. */
  presence(): readonly PresenceEntry[];
  /** The presence as told last (each event replaces the whole list); undefined before the first. */
  lastPresence(): readonly PresenceEntry[] | undefined;
  /** Whether the feed said it is live. */
  live(): boolean;
}

export function recordFeed(feed: ChangeFeed | undefined): FeedRecord {
  assert.ok(feed, 'the client has a change feed');
  const events: ChangeFeedEvent[] = [];
  const stop = feed.subscribe((event) => events.push(event));
  return {
    events,
    stop,
    changes: () => events.flatMap((event) => (event.kind === 'changes' ? event.changes : [])),
    presence: () => events.flatMap((event) => (event.kind === 'presence' ? event.presence : [])),
    lastPresence: () => events.findLast((event) => event.kind === 'presence')?.presence,
    live: () => events.some((event) => event.kind === 'connection' && event.live),
  };
}
