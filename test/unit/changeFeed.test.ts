// The change feed's pure parts: NOTIFY payloads stay under PostgreSQL's 8,000-byte limit and lose
// nothing; the SSE reader takes events split anywhere, comments and ids; presence expires.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changesPayloads, parseChangesPayload } from '../../src/backend/changes/notifyPayload.ts';
import { PresenceBook } from '../../src/backend/changes/presenceBook.ts';
import { heardPresence, MAX_HEARD_PRESENCE_MS, presencePayload } from '../../src/backend/changes/postgresFeed.ts';
import { ChangeHub, parseOpenRecord } from '../../src/backend/changes/hub.ts';
import type { SharedPresence } from '../../src/backend/changes/types.ts';
import type { Storage } from '../../src/backend/storage/types.ts';
import { Announcer, type OpenRecord } from '../../src/graphql/feedListeners.ts';
import { parseSse } from '../../src/graphql/remoteFeed.ts';
import type { RecordChange } from '../../src/graphql/types.ts';

test('a batch\'s changes are split into payloads under 8,000 bytes, in order, each with the audit id it reaches', () => {
  const items = Array.from({ length: 2_000 }, (_, i) => ({
    change: { entity: 'person', id: String(i + 1), action: 'update', version: i + 2, path: 'board', person: `Jörg ${'ü'.repeat(i % 40)}` } satisfies RecordChange,
    auditId: 10_000 + i,
  }));
  const payloads = changesPayloads(items);
  assert.ok(payloads.length > 10, `split into ${payloads.length} payloads`);
  for (const payload of payloads) assert.ok(Buffer.byteLength(payload) < 8_000, `${Buffer.byteLength(payload)} bytes`);
  const parsed = payloads.map((payload) => parseChangesPayload(payload)!);
  assert.deepEqual(parsed.flatMap((p) => p.changes), items.map((item) => item.change));
  let seen = 0;
  for (const p of parsed) {
    seen += p.changes.length;
    assert.equal(p.cursor, 10_000 + seen - 1);
  }
  assert.deepEqual(changesPayloads([]), []);
  assert.equal(parseChangesPayload('not json'), undefined);
  assert.equal(parseChangesPayload('{"cursor":3}'), undefined);
});

test('a heard payload keeps only changes in XOS\'s own shape (any role may NOTIFY)', () => {
  const good = { entity: 'person', id: '1', action: 'update', version: 2, person: 'Anna', path: 'board' };
  const heard = parseChangesPayload(JSON.stringify({ changes: [
    good,
    { entity: 'person', id: '2', action: 'delete', version: null },
    { entity: 'person', id: 3, action: 'update', version: 1 },
    { entity: 'person', id: '4', action: 'drop', version: 1 },
    { entity: 'person', id: '5', action: 'update', version: '1' },
    { entity: 'person', id: '6', action: 'update', version: 1, path: 'root' },
    { entity: 'person', id: '7', action: 'update', version: 1, person: 'x'.repeat(65) },
    { entity: '', id: '8', action: 'update', version: 1 },
    null, 'person', [],
  ] }));
  assert.deepEqual(heard?.changes.map((c) => c.id), ['1', '2']);
  assert.deepEqual(heard?.changes[0], good);
});

test('without an audit trail a payload has no cursor', () => {
  const [payload] = changesPayloads([{ change: { entity: 'person', id: '1', action: 'delete', version: null } }]);
  assert.deepEqual(JSON.parse(payload), { changes: [{ entity: 'person', id: '1', action: 'delete', version: null }] });
});

test('the SSE reader takes events split anywhere, skips comments and keeps ids', () => {
  const stream = 'retry: 2000\n\n: heartbeat\n\nid: 41\nevent: changes\ndata: {"changes":[]}\n\nevent: presence\ndata: {"presence":[]}\n\nid: 42\nevent: ready\ndata: {"caughtUp":0}\n\n';
  for (let cut = 0; cut <= stream.length; cut++) {
    const first = parseSse(stream.slice(0, cut));
    const second = parseSse(first.rest + stream.slice(cut));
    const messages = [...first.messages, ...second.messages];
    assert.deepEqual(messages.map((m) => [m.event, m.id ?? '']), [['changes', '41'], ['presence', ''], ['ready', '42']], `cut at ${cut}`);
    assert.equal(second.rest, '');
  }
  assert.equal(parseSse(': heartbeat\n\n').comments, 1);
});

test('presence lives until it expires or is cleared, and is told only when it changes', () => {
  const book = new PresenceBook();
  const anna = { client: 'a', person: 'anna', entity: 'person', id: '1', editing: true };
  book.put('a', anna, 1_000);
  assert.deepEqual(book.changed(500), [anna]);
  assert.equal(book.changed(600), undefined, 'no change: nothing to tell');
  book.put('a', anna, 2_000);
  assert.equal(book.changed(1_500), undefined, 'renewed, still the same list');
  assert.deepEqual(book.changed(2_000), [], 'expired');
  book.put('a', anna, 5_000);
  book.changed(2_100);
  book.put('a', undefined, 0);
  assert.deepEqual(book.changed(2_200), [], 'cleared');
});

/** A send that resolves only when the test says so, recording what it was given and how many ran at once. */
function heldSends() {
  const sent: OpenRecord[] = [];
  const release: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const send = (open: OpenRecord) => {
    sent.push(open);
    most = Math.max(most, ++running);
    return new Promise<void>((resolve) => release.push(() => { running--; resolve(); }));
  };
  const next = async () => {
    release.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { send, sent, next, most: () => most };
}

test('an announcement never overtakes the one before it: one send at a time, the newest state next', async () => {
  const held = heldSends();
  const announcer = new Announcer(held.send, 60_000);
  try {
    announcer.announce({ entity: 'person', id: '5', editing: false });
    announcer.announce({ entity: 'person', id: '5', editing: true });
    announcer.announce({ entity: 'person', id: '6', editing: true });
    assert.deepEqual(held.sent, [{ entity: 'person', id: '5', editing: false }], 'the later ones wait for the first');
    await held.next();
    assert.deepEqual(held.sent.at(-1), { entity: 'person', id: '6', editing: true }, 'then only the newest');
    assert.equal(held.sent.length, 2);
    announcer.announce(undefined);
    await held.next();
    await held.next();
    assert.deepEqual(held.sent, [{ entity: 'person', id: '5', editing: false }, { entity: 'person', id: '6', editing: true }, undefined]);
    assert.equal(held.most(), 1, 'never two at once');
  } finally {
    announcer.stop();
  }
});

test('the hub hands one front end\'s announcements to the storage in the order made, even when the first is slow', async () => {
  const told: (SharedPresence | undefined)[] = [];
  let calls = 0;
  const storage = {
    kind: 'postgres',
    announce: async (_client: string, presence: SharedPresence | undefined) => {
      // The first announcement takes longest: a pool would let the second commit first.
      const wait = ++calls === 1 ? 30 : 0;
      await new Promise((resolve) => setTimeout(resolve, wait));
      told.push(presence);
    },
  } as unknown as Storage;
  const hub = new ChangeHub(storage);
  await Promise.all([
    hub.announce('a', 'anna', { entity: 'person', id: '5', editing: false }),
    hub.announce('a', 'anna', { entity: 'person', id: '5', editing: true }),
    hub.announce('a', 'anna', undefined),
  ]);
  assert.deepEqual(told.map((p) => p && p.editing), [false, true, undefined]);
});

test('presence heard on PostgreSQL (any role may NOTIFY) is taken only in XOS\'s own shape, and never for longer than XOS announces', () => {
  const entry = { client: 'c-1', person: 'anna', entity: 'person', id: '4', editing: true };
  assert.deepEqual(heardPresence(presencePayload('c-1', entry, 30_000)), { client: 'c-1', entry, ttlMs: 30_000 });
  assert.deepEqual(heardPresence(presencePayload('c-1', undefined, 30_000)), { client: 'c-1', ttlMs: 30_000 });
  for (const forged of [
    'not json', 'null', '[]', '{"ttlMs":1000}', '{"client":"c","ttlMs":"1000"}', '{"client":"c","ttlMs":-1}', '{"client":"c d","ttlMs":1000}',
    JSON.stringify({ client: 'c', ttlMs: 1000, entry: { person: 'x'.repeat(65), entity: 'person', id: '1', editing: false } }),
    JSON.stringify({ client: 'c', ttlMs: 1000, entry: { person: 'eve', entity: 'person', id: '1', editing: 'yes' } }),
    JSON.stringify({ client: 'c', ttlMs: 1000, entry: { person: 'eve', entity: 'person', id: '', editing: false } }),
  ]) assert.equal(heardPresence(forged), undefined, forged);
  // What the feed keeps of a heard announcement at most: XOS's own lifetime, twice over.
  assert.equal(MAX_HEARD_PRESENCE_MS, 60_000);
});

test('an announcement is checked: a known entity, an id, editing true or false; {} clears', () => {
  const entities = new Set(['person', 'company']);
  assert.deepEqual(parseOpenRecord({ entity: 'person', id: 7, editing: true }, entities), { entity: 'person', id: '7', editing: true });
  assert.equal(parseOpenRecord({}, entities), undefined);
  assert.match(String(parseOpenRecord({ entity: 'nope', id: '1' }, entities)), /entities \(person, company\)/);
  assert.match(String(parseOpenRecord({ entity: 'person' }, entities)), /"id"/);
  assert.match(String(parseOpenRecord({ entity: 'person', id: '1', editing: 'yes' }, entities)), /"editing"/);
  assert.match(String(parseOpenRecord([], entities)), /JSON object/);
});

test('a stream tells a live change the catch-up did not, even with a lower audit id (a later commit), and never one twice; its ids only grow', async () => {
  const { createServer } = await import('node:http');
  const { createChangeRoutes } = await import('../../src/backend/changes/sse.ts');
  type Storage = import('../../src/backend/storage/types.ts').Storage;
  type StorageFeedListener = import('../../src/backend/changes/types.ts').StorageFeedListener;
  const person = (id: string, version: number): RecordChange => ({ entity: 'person', id, action: 'update', version });
  let live: StorageFeedListener | undefined;
  let release!: () => void;
  const readDone = new Promise<void>((resolve) => { release = resolve; });
  // The database as the stream sees it: person 1 v2 (audit id 11) committed while the front end was away.
  const storage = {
    kind: 'postgres',
    watch: (listener: StorageFeedListener) => { live = listener; return () => { live = undefined; }; },
    feedReady: async () => {},
    announce: async () => {},
    changesSince: async (cursor: number | undefined) => {
      if (cursor === undefined) return { changes: [], cursor: 12 };
      await readDone;
      return { changes: [person('1', 2)], cursor: 12 };
    },
  } as unknown as Storage;
  const routes = createChangeRoutes(storage, new Set(['person']));
  const server = createServer((req, res) => { void routes.handle(req, res, '/xos/changes'); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  const controller = new AbortController();
  try {
    const response = await fetch(`http://127.0.0.1:${port}/xos/changes`, { headers: { 'last-event-id': '10' }, signal: AbortSignal.any([controller.signal, AbortSignal.timeout(10_000)]) });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const messages: Array<{ event?: string; id?: string; data: string }> = [];
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        const chunk = await reader.read();
        assert.equal(chunk.done, false, 'the stream stays open');
        text += decoder.decode(chunk.value, { stream: true });
        const parsed = parseSse(text);
        text = parsed.rest;
        messages.push(...parsed.messages);
      }
    };
    while (!live) await new Promise((resolve) => setImmediate(resolve));
    // While the catch-up reads: the NOTIFY of person 1 v2 (told by the catch-up too) and of
    // person 2 v5, a write that took audit id 9 but committed only now.
    live({ kind: 'changes', changes: [person('1', 2)], cursor: 11 });
    live({ kind: 'changes', changes: [person('2', 5)], cursor: 9 });
    release();
    await readUntil(() => messages.some((m) => m.event === 'ready') && messages.filter((m) => m.event === 'changes').length >= 2);
    const changes = messages.filter((m) => m.event === 'changes');
    assert.deepEqual(changes.map((m) => JSON.parse(m.data).changes), [[person('1', 2)], [person('2', 5)]]);
    assert.deepEqual(changes.map((m) => m.id), ['12', '12'], 'the late change does not move Last-Event-ID back');
  } finally {
    controller.abort();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
