// The change feed of a backend in this very process (embeddedClient): the storage's feed through
// a ChangeHub, without a thread or a stream between.
import { randomUUID } from 'node:crypto';
import { ChangeHub } from '../backend/changes/hub.ts';
import type { Storage } from '../backend/storage/types.ts';
import { Announcer, FeedListeners } from './feedListeners.ts';
import type { ChangeFeed } from './types.ts';

export function embeddedFeed(storage: Storage, person = 'someone'): ChangeFeed | undefined {
  if (!storage.watch) return undefined;
  const hub = new ChangeHub(storage);
  const client = `${process.pid}-${randomUUID()}`;
  let stop: (() => void) | undefined;
  const listeners = new FeedListeners(() => {
    stop = hub.subscribe(client, ({ cursor: _cursor, ...event }) => listeners.emit(event));
    void hub.ready().then(() => listeners.emit({ kind: 'connection', live: true, caughtUp: 0 }));
  }, () => {
    stop?.();
    stop = undefined;
  });
  const announcer = new Announcer((open) => hub.announce(client, person, open).catch(() => undefined));
  return { subscribe: (listener) => listeners.subscribe(listener), announce: (open) => announcer.announce(open) };
}
