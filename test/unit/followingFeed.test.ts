// The extension's change feed follows its backend across restarts: the Board's listener stays
// subscribed, hears only the backend in use, and the open record is announced on the new one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FollowingFeed } from '../../src/graphql/followingFeed.ts';
import type { ChangeFeed, ChangeFeedEvent } from '../../src/graphql/types.ts';

type Open = Parameters<ChangeFeed['announce']>[0];

/** A backend's feed as the Board sees it: what it was told, and a way to emit. */
function backendFeed(): ChangeFeed & { emit(event: ChangeFeedEvent): void; listeners: number; announced: Open[] } {
  const listeners = new Set<(event: ChangeFeedEvent) => void>();
  const feed = {
    announced: [] as Open[],
    get listeners() {
      return listeners.size;
    },
    emit: (event: ChangeFeedEvent) => listeners.forEach((listener) => listener(event)),
    subscribe: (listener: (event: ChangeFeedEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    announce: (open: Open) => feed.announced.push(open),
  };
  return feed;
}

const change = (id: string): ChangeFeedEvent => ({ kind: 'changes', changes: [{ entity: 'person', id, action: 'update', version: 2 }] });

test('a listener subscribed before any backend hears the first backend, then only the next one after a restart, told to read everything again', () => {
  const following = new FollowingFeed();
  const heard: ChangeFeedEvent[] = [];
  const stop = following.subscribe((event) => heard.push(event));
  following.announce({ entity: 'person', id: '2', editing: true });

  const first = backendFeed();
  following.follow(first);
  assert.equal(first.listeners, 1);
  assert.deepEqual(first.announced, [{ entity: 'person', id: '2', editing: true }], 'the open record is announced on the backend it follows');
  first.emit(change('1'));

  const second = backendFeed();
  following.follow(second);
  assert.equal(first.listeners, 0, 'the old backend is no longer listened to');
  assert.deepEqual(first.announced.at(-1), undefined, 'the old backend hears the record closed');
  assert.deepEqual(second.announced, [{ entity: 'person', id: '2', editing: true }]);
  first.emit(change('lost'));
  second.emit(change('3'));
  assert.deepEqual(heard, [change('1'), { kind: 'reset', reason: 'unknown' }, change('3')]);

  following.announce(undefined);
  assert.deepEqual(second.announced.at(-1), undefined);
  stop();
  assert.equal(second.listeners, 0, 'without listeners the backend\'s feed is left alone');
  following.follow(undefined);
  second.emit(change('4'));
  assert.equal(heard.length, 3);
});
