// Own records on the change feed of xos-server: a person whose role reads only their own deals
// hears of no other deal, on any channel of the stream — its catch-up after Last-Event-ID, its
// live changes, the presence list — while their own deals are told as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { astFromObject } from '../../src/ast/load.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { cachedPersonLookup, usersOf } from '../../src/backend/people/tokens.ts';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import type { XosClient } from '../../src/graphql/types.ts';
import { recordFeed, type FeedRecord } from '../support/feedRecorder.ts';
import { tempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

const ADMIN = 'feed-rows-admin-token-0123456789';
const ast = astFromObject({
  xos: '1',
  app: 'own deals',
  locales: ['en'],
  entities: {
    deal: { fields: { id: { type: 'id' }, title: { type: 'string', required: true }, owner: { type: 'string' } } },
  },
  contexts: {
    deal_list: { kind: 'list', entity: 'deal', list_fields: ['id', 'title', 'owner'] },
    deal_detail: { kind: 'detail', entity: 'deal', list_fields: ['id', 'title', 'owner'], editable: ['title', 'owner'], create: true, delete: true },
  },
  roles: { sales: { contexts: { '*': ['read', 'edit', 'create'] }, rows: { deal: { field: 'owner', is: '$person' } } } },
});

describe('own records on the change stream', () => {
  const dir = tempDir('xos-feed-rows');
  let backend: Backend;
  let http: RunningHttpServer;
  const clients: XosClient[] = [];
  const feeds: FeedRecord[] = [];
  let anna: string;
  let ben: string;
  before(async () => {
    backend = await startBackend({ ast, dsn: `sqlite:${join((await dir).path, 'deals.db')}` });
    const users = usersOf(backend.api.storage, backend.api.model)!;
    anna = (await users.add('anna', 'sales'))!;
    ben = (await users.add('ben', 'sales'))!;
    http = await startHttpServer(backend.api, { token: ADMIN, people: cachedPersonLookup(users) });
  });
  after(async () => {
    for (const feed of feeds) feed.stop();
    await http?.close();
    await backend?.close();
    await (await dir).remove();
  });

  const admin = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${http.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ query, variables }) });
    const body = await res.json() as { data?: any; errors?: unknown[] };
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  };
  const create = async (title: string, owner: string) => String((await admin('mutation($o: deal_insert_input!) { insert_deal(object: $o) { id } }', { o: { title, owner } })).insert_deal.id);
  const rename = async (id: string, title: string) => {
    const { version } = (await admin('query($id: ID!) { deal_detail(id: $id) { version } }', { id })).deal_detail;
    await admin('mutation($id: ID!, $v: Int!, $t: String) { update_deal(id: $id, version: $v, set: { title: $t }) { version } }', { id, v: version, t: title });
  };
  const listen = async (token: string) => {
    const client = await connectRemoteClient({ endpoint: http.url, token });
    clients.push(client);
    const feed = recordFeed(client.feed);
    feeds.push(feed);
    await until('the feed live', () => feed.live());
    return { client, feed };
  };

  test('live: each hears the changes of their own deals only, and sees presence on them only', async () => {
    const annas = await listen(anna);
    const bens = await listen(ben);
    const hers = await create('Anna 1', 'anna');
    const his = await create('Ben 1', 'ben');
    await rename(his, 'Ben 1, renamed');
    // Told in order: once Anna hears her own later change, Ben's would have come before it.
    await rename(hers, 'Anna 1, renamed');
    await until('anna hears her deal renamed', () => annas.feed.changes().filter((c) => c.id === hers).length === 2);
    await until('ben hears his deal renamed', () => bens.feed.changes().filter((c) => c.id === his).length === 2);
    assert.deepEqual(annas.feed.changes().map((c) => [c.id, c.action]), [[hers, 'create'], [hers, 'update']]);
    await rename(hers, 'Anna 1, again');
    await until('anna hears it again', () => annas.feed.changes().filter((c) => c.id === hers).length === 3);
    assert.ok(!bens.feed.changes().some((c) => c.id === hers), 'ben hears nothing of anna\'s deal');

    bens.client.feed!.announce({ entity: 'deal', id: his, editing: true });
    // The administrator (a plain token: "someone") on Anna's deal, after Ben: what Anna sees next.
    await fetch(`${http.url}/xos/presence?client=admin-board`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ entity: 'deal', id: hers, editing: false }) });
    await until('anna sees someone on her deal', () => annas.feed.lastPresence()?.some((p) => p.id === hers));
    await fetch(`${http.url}/xos/presence?client=admin-board-2`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ entity: 'deal', id: his, editing: false }) });
    await until('ben sees someone on his deal (a list that holds the one on anna\'s too)', () => bens.feed.lastPresence()?.some((p) => p.id === his));
    assert.ok(!annas.feed.presence().some((p) => p.id === his), 'anna never sees ben on his deal');
    assert.ok(!bens.feed.presence().some((p) => p.id === hers), 'ben never sees anyone on anna\'s deal');
  });

  test('catch-up: a stream coming back after Last-Event-ID 0 tells only her own deals', async () => {
    const res = await fetch(`${http.url}/xos/changes`, { headers: { authorization: `Bearer ${anna}`, 'last-event-id': '0' } });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    let text = '';
    while (!/event: ready/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const told = [...text.matchAll(/"id":"(\d+)"/g)].map((m) => m[1]);
    const titles = (await admin('{ deal_list(order_by: { id: asc }) { id owner } }')).deal_list as Array<{ id: string; owner: string }>;
    const hers = titles.filter((d) => d.owner === 'anna').map((d) => d.id);
    assert.ok(told.length > 0, text);
    assert.deepEqual([...new Set(told)].sort(), [...hers].sort(), 'her deals, and no other');
  });
});
