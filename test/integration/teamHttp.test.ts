// A team on one database as a team runs it, over HTTP: two xos-server instances over one
// PostgreSQL, the demo CRM with two roles, and two people with their own tokens. Each person gets
// their role's AST and nothing beyond it (refusals write nothing), their writes name them in the
// trail; Anna's and Ben's Boards, each on the real remote client and its real change feed, see
// each other's presence, and Ben's save turns Anna's unsaved form into the conflict at once while
// his list shows the new value in place; a stream tells nobody of what their role cannot read; a
// revoked token is refused by both instances within two seconds and its open stream ends; a new
// role ends the stream too, and the one that comes back tells what the new role reads.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { astFromObject } from '../../src/ast/load.ts';
import type { Ast } from '../../src/ast/schema.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { RECHECK_MS } from '../../src/backend/changes/sse.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { cachedPersonLookup, PERSON_CACHE_MS, usersOf } from '../../src/backend/people/tokens.ts';
import type { Users } from '../../src/backend/people/users.ts';
import type { Question, RowsResult } from '../../src/board/protocol.ts';
import type { DetailBlock, GridRow, PresenceView } from '../../src/board/viewTypes.ts';
import { showRecord } from '../../src/core/show.ts';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { until } from '../support/until.ts';
import { recordFeed } from '../support/feedRecorder.ts';
import { openSavingBoard } from '../support/savingBoard.ts';

const ADMIN = 'team-admin-token-0123456789';

/** The demo CRM with two roles: sales may do everything; office keeps the people, only reads companies, sees no deals, no net worth, and may not change ages. */
const ast: Ast = astFromObject({
  ...demoApp(),
  roles: {
    sales: { contexts: { '*': ['read', 'edit', 'create', 'delete'] } },
    office: {
      contexts: { person_list: ['read'], person_detail: ['read', 'edit'], company_list: ['read'], company_detail: ['read'] },
      fields: { 'person.net_worth': [], 'person.age': ['read'] },
    },
  },
});

type Json = Record<string, any>;

interface Instance {
  readonly backend: Backend;
  readonly http: RunningHttpServer;
  close(): Promise<void>;
}

async function startInstance(dsn: string): Promise<Instance> {
  const backend = await startBackend({ ast, dsn, seed: true });
  const users = usersOf(backend.api.storage, backend.api.model)!;
  const http = await startHttpServer(backend.api, { token: ADMIN, people: cachedPersonLookup(users) });
  return { backend, http, close: async () => { await http.close(); await backend.close(); } };
}

async function get(url: string, path: string, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

async function graphql(url: string, token: string, query: string, variables: Json = {}): Promise<{ status: number; body: { data?: Json | null; errors?: Json[] } }> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: await res.json() as { data?: Json | null; errors?: Json[] } };
}

describe('a team on one PostgreSQL over HTTP: two instances, two people, two roles', () => {
  let postgres: PostgresServer;
  let a: Instance;
  let b: Instance;
  let users: Users;
  let anna: string;
  let ben: string;
  before(async () => {
    postgres = await startPostgres();
    const dsn = await postgres.createDatabase('xos_team_http');
    a = await startInstance(dsn);
    b = await startInstance(dsn);
    users = usersOf(a.backend.api.storage, a.backend.api.model)!;
    anna = (await users.add('anna', 'sales'))!;
    ben = (await users.add('ben', 'office'))!;
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await postgres?.stop();
  });

  /** Rows and trail entries, read with the administrator's token. */
  const counts = async () => {
    const { body } = await graphql(a.http.url, ADMIN, '{ person_list_count company_list_count deal_list_count xos_audit_count }');
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data!;
  };

  test('each token: who it names, the role\'s AST, refusals that name the right and write nothing, and the person in the trail', async () => {
    for (const url of [a.http.url, b.http.url]) {
      assert.deepEqual(await get(url, '/xos/me', anna), { status: 200, body: { name: 'anna', role: 'sales' } });
      assert.deepEqual(await get(url, '/xos/me', ben), { status: 200, body: { name: 'ben', role: 'office' } });
    }

    const full = await get(a.http.url, '/xos/ast', anna);
    assert.equal(full.status, 200);
    assert.ok(full.body.entities.person.fields.net_worth, 'sales sees the net worth');
    assert.equal(full.body.entities.person.fields.age.read_only, undefined);
    assert.equal(full.body.roles, undefined, 'no one is served the roles');

    const office = await get(b.http.url, '/xos/ast', ben);
    assert.equal(office.status, 200);
    const served = office.body as Ast;
    assert.equal(served.entities.person.fields.net_worth, undefined, 'the hidden field is absent');
    assert.ok(!served.contexts.person_list.list_fields.includes('net_worth'));
    assert.equal(served.entities.person.fields.age.read_only, true, 'the read-only field');
    assert.ok(!served.contexts.person_detail.editable!.includes('age'), 'age is not editable');
    assert.ok(served.contexts.person_detail.editable!.includes('city'));
    assert.match(JSON.stringify(served.contexts.person_detail.read_only_reason), /Your role \\"office\\" may not change Age/);
    assert.equal(served.entities.company.read_only, 'Your role "office" may only read Company.');
    assert.equal(served.contexts.deal_list, undefined, 'no deals');
    assert.equal(served.roles, undefined);

    const was = await counts();
    const hidden = await graphql(b.http.url, ben, '{ person_list(limit: 1) { id net_worth } }');
    assert.deepEqual(hidden.body.errors?.map((e) => [e.extensions?.code, e.message]), [['FORBIDDEN', 'Your role "office" may not see person.net_worth.']]);
    const [{ version }] = (await graphql(b.http.url, ben, '{ person_list(where: { id: { _eq: "1" } }) { version } }')).body.data!.person_list as { version: number }[];
    const refusals: Array<[string, Json, string]> = [
      ['mutation($v: Int!) { update_person(id: "1", version: $v, set: { age: 99 }) { version } }', { v: version }, 'Your role "office" may only read person.age: it needs "edit" on the field.'],
      ['mutation { insert_person(object: { firstname: "Not", lastname: "Made" }) { id } }', {}, 'Your role "office" may not create person records: it needs "create" on person_detail.'],
      ['mutation { update_company(id: "1", version: 1, set: { name: "x" }) { id } }', {}, 'Your role "office" may not change company records: it needs "edit" on company_list or company_detail.'],
    ];
    for (const [query, variables, message] of refusals) {
      const refused = await graphql(b.http.url, ben, query, variables);
      assert.equal(refused.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', query);
      assert.equal(refused.body.errors?.[0]?.message, message, query);
    }
    assert.deepEqual(await counts(), was, 'the refusals wrote nothing');

    // Within the role: written, and the trail names the person (read through the other instance).
    const annaWrite = await graphql(a.http.url, anna, 'mutation($v: Int!) { update_person(id: "1", version: $v, set: { net_worth: 123 }) { version } }', { v: version });
    assert.equal(annaWrite.body.errors, undefined, JSON.stringify(annaWrite.body.errors));
    const benWrite = await graphql(b.http.url, ben, 'mutation($v: Int!) { update_person(id: "1", version: $v, set: { city: "Ratzeburg" }) { version } }', { v: version + 1 });
    assert.equal(benWrite.body.errors, undefined, JSON.stringify(benWrite.body.errors));
    const now = await counts();
    assert.equal(now.xos_audit_count, was.xos_audit_count + 2);
    assert.equal(now.person_list_count, was.person_list_count);
    const trail = await graphql(b.http.url, ADMIN, '{ xos_audit(entity: "person", id: "1", limit: 2) { person changes { field from to } } }');
    assert.equal(trail.body.errors, undefined, JSON.stringify(trail.body.errors));
    assert.deepEqual((trail.body.data!.xos_audit as Json[]).map((e) => [e.person, e.changes.map((c: Json) => c.field)]), [['ben', ['city']], ['anna', ['net_worth']]]);
    // Ben's own view of the trail holds no value of the field he may not see.
    const benTrail = await graphql(b.http.url, ben, '{ xos_audit(entity: "person", id: "1", limit: 2) { person changes { field from to } } }');
    assert.equal(benTrail.body.errors, undefined, JSON.stringify(benTrail.body.errors));
    assert.ok(!JSON.stringify(benTrail.body.data).includes('net_worth'), JSON.stringify(benTrail.body.data));
  });

  test('the live path: Ben sees Anna on a record; Ben\'s save turns her unsaved form into the conflict and shows in his list in place', async () => {
    const annaClient = await connectRemoteClient({ endpoint: a.http.url, token: anna });
    const benClient = await connectRemoteClient({ endpoint: b.http.url, token: ben });
    // Ben has two Boards open (say VS Code and the browser): one shows the people, the other a record.
    const benFormClient = await connectRemoteClient({ endpoint: b.http.url, token: ben });
    assert.equal(benClient.ast().entities.person.fields.net_worth, undefined, 'Ben\'s client has his role\'s AST');
    const annaBoard = openSavingBoard(annaClient);
    const benList = openSavingBoard(benClient);
    const benForm = openSavingBoard(benFormClient);
    const annaHears = recordFeed(annaClient.feed);
    const benHears = recordFeed(benClient.feed);
    const benFormHears = recordFeed(benFormClient.feed);
    try {
      await until('every feed live', () => annaHears.live() && benHears.live() && benFormHears.live());
      await benList.controller.navigation.openContext('person_list');
      const listId: number = benList.sent('board/list').at(-1)!.params.list.listId;
      const window = await benList.pageAsks<RowsResult>('board/rows', { listId, offset: 0, limit: 50, query: {} });
      const target = window.rows[4].key;

      // Anna opens the record and types (unsaved).
      assert.equal((await showRecord(annaBoard.deps(), 'person_detail', target)).ok, true);
      annaBoard.controller.board.edit('city', 'Anna\'s unsaved city');
      await until('Anna\'s presence at Ben\'s', () => benHears.lastPresence()?.some((p) => p.person === 'anna' && p.entity === 'person' && p.id === target && p.editing));
      await until('the row marked on Ben\'s list', () => {
        const view: PresenceView | undefined = benList.sent('board/presence').at(-1)?.params;
        return view?.rows.some((row) => row.key === target && row.people.includes('anna'));
      });

      // Ben opens the same record on his other Board: it names Anna editing it.
      assert.equal((await showRecord(benForm.deps(), 'person_detail', target)).ok, true);
      await until('Anna named on Ben\'s form', () => {
        const view: PresenceView | undefined = benForm.sent('board/presence').at(-1)?.params;
        return view?.detail.some((p) => p.person === 'anna' && p.editing);
      });
      const listMark = benList.posted.length;
      const annaMark = annaBoard.posted.length;
      const asked = benForm.posted.length;
      benForm.controller.board.edit('city', 'Mölln');
      await benForm.controller.records.save();
      const question = benForm.sent('board/ask', asked).at(-1)!.params as Question;
      assert.match(question.message, /→ Mölln anna is editing this record too\.$/);
      assert.equal(benForm.controller.board.snapshot().detail!.record.city, 'Mölln', 'saved');
      assert.deepEqual(benForm.controller.board.snapshot().edited, []);

      // Anna's form, without her saving: the conflict, her value kept, theirs shown.
      await until('Anna\'s form in conflict', () => Object.keys(annaBoard.controller.board.snapshot().conflicts ?? {}).length > 0);
      const conflicts = annaBoard.controller.board.snapshot().conflicts!;
      assert.deepEqual(Object.keys(conflicts), ['city']);
      assert.equal(conflicts.city.theirs, 'Mölln');
      const detail = await until('the page told of the conflict', () => {
        const last = annaBoard.sent('board/detail', annaMark).at(-1)?.params.detail as DetailBlock | undefined;
        return last && last.conflicts === 1 ? last : undefined;
      });
      const city = detail.fields.find((f) => f.field === 'city')!;
      assert.deepEqual({ theirs: city.conflict?.theirs, mine: city.conflict?.mine }, { theirs: 'Mölln', mine: 'Anna\'s unsaved city' });

      // Ben's list: the row swapped in place, not the list shown anew.
      const swapped = await until('the row in place on Ben\'s list', () => benList.sent('board/listRows', listMark).find((m) =>
        m.params.listId === listId && (m.params.windows as { rows: GridRow[] }[]).some((w) => w.rows.some((r) => r.key === target && r.values.includes('Mölln')))));
      assert.equal(swapped.params.windows[0].rows[4].key, target, 'the row keeps its place');
      assert.deepEqual(benList.sent('board/list', listMark), [], 'the list is not shown anew');
    } finally {
      annaHears.stop();
      benHears.stop();
      benFormHears.stop();
      annaBoard.controller.dispose();
      benList.controller.dispose();
      benForm.controller.dispose();
    }
  });

  test('a stream tells a person no change and no presence of an entity their role cannot read', async () => {
    const annaClient = await connectRemoteClient({ endpoint: a.http.url, token: anna });
    const benClient = await connectRemoteClient({ endpoint: b.http.url, token: ben });
    const annaHears = recordFeed(annaClient.feed);
    const benHears = recordFeed(benClient.feed);
    try {
      await until('both feeds live', () => annaHears.live() && benHears.live());
      const deal = (await graphql(a.http.url, anna, '{ deal_list(limit: 1, order_by: { id: asc }) { id version } }')).body.data!.deal_list[0] as { id: string; version: number };
      const dealWrite = await graphql(a.http.url, anna, 'mutation($id: ID!, $v: Int!) { update_deal(id: $id, version: $v, set: { title: "Secret deal" }) { version } }', { id: deal.id, v: deal.version });
      assert.equal(dealWrite.body.errors, undefined, JSON.stringify(dealWrite.body.errors));
      annaClient.feed!.announce({ entity: 'deal', id: String(deal.id), editing: true });
      const person = (await graphql(a.http.url, anna, '{ person_detail(id: "2") { version } }')).body.data!.person_detail as { version: number };
      const personWrite = await graphql(a.http.url, anna, 'mutation($v: Int!) { update_person(id: "2", version: $v, set: { city: "Eutin" }) { version } }', { v: person.version });
      assert.equal(personWrite.body.errors, undefined, JSON.stringify(personWrite.body.errors));
      // Both writes are on Anna's stream; only the person's reaches Ben, after the deal's was written.
      await until('the deal change at Anna\'s', () => annaHears.changes().some((c) => c.entity === 'deal' && c.id === String(deal.id)));
      await until('the person change at Ben\'s', () => benHears.changes().some((c) => c.entity === 'person' && c.id === '2'));
      annaClient.feed!.announce({ entity: 'person', id: '2', editing: false });
      await until('Anna\'s presence on the person at Ben\'s', () => benHears.lastPresence()?.some((p) => p.person === 'anna' && p.entity === 'person' && p.id === '2'));
      assert.deepEqual(benHears.changes().filter((c) => c.entity === 'deal'), [], 'no deal change told to Ben');
      assert.deepEqual(benHears.presence().filter((p) => p.entity === 'deal'), [], 'no presence on a deal told to Ben');
    } finally {
      annaHears.stop();
      benHears.stop();
      annaClient.feed!.announce(undefined);
    }
  });

  test('a revoked token: both instances refuse it within 2 s; its open stream ends and its presence goes', async () => {
    const cleo = (await users.add('cleo', 'office'))!;
    for (const url of [a.http.url, b.http.url]) {
      assert.equal((await get(url, '/xos/me', cleo)).status, 200);
      assert.equal((await graphql(url, cleo, '{ person_list(limit: 1) { id } }')).status, 200);
    }
    // Cleo has a Board open on instance A: her stream is live and Ben sees her on a record.
    const cleoClient = await connectRemoteClient({ endpoint: a.http.url, token: cleo });
    const benClient = await connectRemoteClient({ endpoint: b.http.url, token: ben });
    const cleoHears = recordFeed(cleoClient.feed);
    const benHears = recordFeed(benClient.feed);
    try {
      await until('both feeds live', () => cleoHears.live() && benHears.live());
      cleoClient.feed!.announce({ entity: 'person', id: '3', editing: true });
      await until('Cleo\'s presence at Ben\'s', () => benHears.lastPresence()?.some((p) => p.person === 'cleo'));
      await users.revoke('cleo');
      const revoked = Date.now();
      // When each request was sent that was still let in: none later than 2 s after the revocation.
      const accepted: number[] = [];
      const refused = (url: string) => until(`${url} refusing the revoked token`, async () => {
        const sentAt = Date.now();
        const [me, read, stream] = await Promise.all([
          fetch(`${url}/xos/me`, { headers: { authorization: `Bearer ${cleo}` } }),
          fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${cleo}` }, body: JSON.stringify({ query: '{ person_list(limit: 1) { id } }' }) }),
          fetch(`${url}/xos/changes`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${cleo}` } }),
        ]);
        // A stream that was let in is a stream to close again.
        if (stream.status === 200) await stream.body?.cancel();
        const statuses = [me.status, read.status, stream.status];
        if (statuses.some((status) => status !== 401)) accepted.push(sentAt);
        return statuses.every((status) => status === 401);
      }, { timeoutMs: PERSON_CACHE_MS + 1_000, everyMs: 20 });
      const lost = () => cleoHears.events.findIndex((e) => e.kind === 'connection' && !e.live);
      const [ended] = await Promise.all([
        until('Cleo\'s open stream ended', () => lost() >= 0 && Date.now(), { timeoutMs: PERSON_CACHE_MS + RECHECK_MS + 1_000 }),
        refused(a.http.url),
        refused(b.http.url),
      ]);
      const latest = Math.max(revoked, ...accepted) - revoked;
      assert.ok(latest < 2_000, `a request sent ${latest} ms after the revocation was still let in`);
      // The open stream asks again every RECHECK_MS; the answer it gets may be PERSON_CACHE_MS old.
      assert.ok(ended - revoked <= PERSON_CACHE_MS + RECHECK_MS + 500, `the stream ended ${ended - revoked} ms after the revocation`);
      await until('Cleo\'s presence gone at Ben\'s', () => benHears.lastPresence()?.every((p) => p.person !== 'cleo'));
      assert.ok(!cleoHears.events.slice(lost()).some((e) => e.kind === 'connection' && e.live), 'the stream did not come back');
    } finally {
      cleoHears.stop();
      benHears.stop();
    }
    // The others are still let in.
    assert.equal((await get(b.http.url, '/xos/me', ben)).status, 200);
  });

  test('a person given another role: their open stream ends and comes back with the new role\'s changes', async () => {
    const dora = await users.add('dora', 'office');
    const client = await connectRemoteClient({ endpoint: b.http.url, token: dora });
    const hears = recordFeed(client.feed);
    try {
      await until('the feed live', () => hears.live());
      await users.setRole('dora', 'sales');
      await until('the stream ended and back', () => {
        const lost = hears.events.findIndex((e) => e.kind === 'connection' && !e.live);
        return lost >= 0 && hears.events.slice(lost).some((e) => e.kind === 'connection' && e.live);
      }, { timeoutMs: PERSON_CACHE_MS + RECHECK_MS + 5_000 });
      const deal = (await graphql(a.http.url, ADMIN, '{ deal_list(limit: 1, order_by: { id: desc }) { id version } }')).body.data!.deal_list[0] as { id: string; version: number };
      const written = await graphql(a.http.url, ADMIN, 'mutation($id: ID!, $v: Int!) { update_deal(id: $id, version: $v, set: { title: "Now hers to see" }) { version } }', { id: deal.id, v: deal.version });
      assert.equal(written.body.errors, undefined, JSON.stringify(written.body.errors));
      await until('the deal change, now her role reads deals', () => hears.changes().some((c) => c.entity === 'deal' && c.id === String(deal.id)));
    } finally {
      hears.stop();
    }
  });
  test('fair shares: one person\'s streams and announced records are capped, with a refusal that says what to do; the others are not', async () => {
    const backend = await startBackend({ ast, dsn: await postgres.createDatabase('xos_team_shares'), seed: true });
    const http = await startHttpServer(backend.api, { token: ADMIN, people: cachedPersonLookup(usersOf(backend.api.storage, backend.api.model)!), changes: { maxStreamsPerPerson: 2, maxPresencePerPerson: 2 } });
    const people = usersOf(backend.api.storage, backend.api.model)!;
    const erin = (await people.add('erin', 'sales'))!;
    const fred = (await people.add('fred', 'sales'))!;
    const open: AbortController[] = [];
    const stream = async (token: string, client: string) => {
      const abort = new AbortController();
      const res = await fetch(`${http.url}/xos/changes?client=${client}`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
      if (res.status === 200) open.push(abort);
      return { status: res.status, text: res.status === 200 ? '' : await res.text(), retryAfter: res.headers.get('retry-after'), abort };
    };
    const announce = async (token: string, client: string, body: object) => {
      const res = await fetch(`${http.url}/xos/presence?client=${client}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
    };
    try {
      const first = await stream(erin, 'erin-1');
      assert.equal(first.status, 200);
      assert.equal((await stream(erin, 'erin-2')).status, 200);
      const third = await stream(erin, 'erin-3');
      assert.equal(third.status, 429);
      assert.equal(third.retryAfter, '5');
      assert.match(third.text, /erin already has 2 change streams open here, the most one person may; close a window or Board that is not needed/);
      assert.equal((await stream(fred, 'fred-1')).status, 200, 'another person is let in');
      first.abort.abort();
      assert.equal(await until('a stream of erin\'s closed makes room', async () => {
        const again = await stream(erin, 'erin-3');
        return again.status === 200 ? again.status : undefined;
      }), 200);

      const record = { entity: 'person', id: '1', editing: false };
      assert.equal((await announce(erin, 'erin-2', record)).status, 204);
      assert.equal((await announce(erin, 'erin-3', { ...record, id: '2' })).status, 204);
      assert.equal((await announce(erin, 'erin-2', { ...record, editing: true })).status, 204, 'a front end already counted announces again');
      const flood = await announce(erin, 'erin-4', { ...record, id: '3' });
      assert.equal(flood.status, 429);
      assert.match(flood.text, /erin already has a record open in 2 front ends, the most one person may announce; close a record in one of them \(announce \{\}\), or wait \d+ s/);
      assert.ok(Number(flood.retryAfter) >= 1);
      assert.equal((await announce(fred, 'fred-1', record)).status, 204, 'another person announces');
      assert.equal((await announce(erin, 'erin-2', {})).status, 204);
      assert.equal((await announce(erin, 'erin-4', { ...record, id: '3' })).status, 204, 'a record closed makes room');
    } finally {
      for (const abort of open) abort.abort();
      await http.close();
      await backend.close();
    }
  });
});
