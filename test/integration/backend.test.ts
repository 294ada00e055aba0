// The XOS GraphQL API end to end over HTTP, on a real SQLite file and on a real
// PostgreSQL: the same suite for both. Expected values come from the demo data.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { gql, gqlData } from '../support/http.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';

type Rec = Record<string, any>;
const DATA = JSON.parse(readFileSync(new URL('../../media/demo/crm.data.json', import.meta.url), 'utf8')) as Record<string, Rec[]>;
const people = DATA.person;
const companies = DATA.company;
const deals = DATA.deal;
const ids = (rows: Rec[]) => rows.map((r) => Number(r.id));
const sortedIds = (rows: Rec[]) => ids(rows).sort((a, b) => a - b);
const TOKEN = 'test-token-0123456789';

function suite(name: string, dsnFor: (label: string) => Promise<string>) {
  describe(`XOS API on ${name}`, () => {
    let backend: Backend;
    let http: RunningHttpServer;
    let url: string;
    const q = (query: string, variables?: Rec) => gqlData(url, query, variables, TOKEN);

    before(async () => {
      backend = await startBackend({ ast: demoApp(), dsn: await dsnFor('api'), seed: true });
      http = await startHttpServer(backend.api, { token: TOKEN, maxBodyBytes: 64 * 1024 });
      url = http.url;
    });
    after(async () => {
      await http?.close();
      await backend?.close();
    });

    test('seeding loaded exactly the demo data', () => {
      assert.deepEqual(backend.seeded, { company: companies.length, person: people.length, deal: deals.length });
    });

    test("the seed's example query returns every person with exactly the asked fields", async () => {
      const data = await q('{ person_list { id firstname lastname email city age net_worth } }');
      const list = data.person_list as Rec[];
      assert.equal(list.length, people.length);
      assert.deepEqual(Object.keys(list[0]), ['id', 'firstname', 'lastname', 'email', 'city', 'age', 'net_worth']);
      const first = people.find((p) => p.id === 1)!;
      assert.deepEqual(list[0], {
        id: '1', firstname: first.firstname, lastname: first.lastname, email: first.email ?? null,
        city: first.city ?? null, age: first.age ?? null, net_worth: first.net_worth ?? null,
      });
    });

    const filterCases: Array<[string, string, (p: Rec) => boolean]> = [
      ['_eq', '{ city: { _eq: "Berlin" } }', (p) => p.city === 'Berlin'],
      ['_neq', '{ city: { _neq: "Berlin" } }', (p) => p.city != null && p.city !== 'Berlin'],
      ['_lt', '{ age: { _lt: 30 } }', (p) => p.age != null && p.age < 30],
      ['_lte', '{ age: { _lte: 30 } }', (p) => p.age != null && p.age <= 30],
      ['_gt', '{ age: { _gt: 60 } }', (p) => p.age != null && p.age > 60],
      ['_gte', '{ age: { _gte: 60 } }', (p) => p.age != null && p.age >= 60],
      ['_in', '{ city: { _in: ["Hamburg", "London"] } }', (p) => ['Hamburg', 'London'].includes(p.city)],
      ['_nin', '{ status: { _nin: [lead, customer] } }', (p) => p.status != null && !['lead', 'customer'].includes(p.status)],
      ['_like', '{ lastname: { _like: "M%" } }', (p) => typeof p.lastname === 'string' && p.lastname.startsWith('M')],
      ['_ilike', '{ lastname: { _ilike: "m%" } }', (p) => typeof p.lastname === 'string' && p.lastname.toLowerCase().startsWith('m')],
      ['_is_null true', '{ notes: { _is_null: true } }', (p) => p.notes == null],
      ['_is_null false', '{ notes: { _is_null: false } }', (p) => p.notes != null],
      ['decimal _gt', '{ net_worth: { _gt: "1000000" } }', (p) => p.net_worth != null && Number(p.net_worth) > 1_000_000],
      ['date _lt', '{ birthday: { _lt: "1970-01-01" } }', (p) => p.birthday != null && p.birthday < '1970-01-01'],
      ['bool _eq', '{ active: { _eq: false } }', (p) => p.active === false],
      ['_and', '{ _and: [{ age: { _gte: 30 } }, { age: { _lt: 40 } }] }', (p) => p.age >= 30 && p.age < 40],
      ['_or', '{ _or: [{ city: { _eq: "Köln" } }, { age: { _gt: 70 } }] }', (p) => p.city === 'Köln' || (p.age != null && p.age > 70)],
      ['_not', '{ _not: { age: { _lt: 50 } } }', (p) => !(p.age != null && p.age < 50)],
      ['ref', '{ company: { country: { _eq: "GB" } } }', (p) => companies.find((c) => c.id === p.company)?.country === 'GB'],
      ['ref id', '{ company_id: { _eq: "3" } }', (p) => p.company === 3],
    ];
    for (const [label, where, expected] of filterCases) {
      test(`where ${label}`, async () => {
        const data = await q(`{ person_list(where: ${where}) { id } person_list_count(where: ${where}) }`);
        const want = sortedIds(people.filter(expected));
        assert.ok(want.length > 0, 'the demo data has matches for this case');
        assert.deepEqual(ids(data.person_list), want);
        assert.equal(data.person_list_count, want.length);
      });
    }

    test('where on an inverse list: companies with an employee over 65', async () => {
      const data = await q('{ company_list(where: { employees: { age: { _gt: 65 } } }) { id } }');
      const want = sortedIds(companies.filter((c) => people.some((p) => p.company === c.id && p.age > 65)));
      assert.ok(want.length > 0);
      assert.deepEqual(ids(data.company_list), want);
    });

    test('order_by several fields, applied in order, with limit and offset', async () => {
      const data = await q('{ person_list(order_by: [{ age: desc }, { net_worth: asc }], limit: 15, offset: 5) { id age net_worth } }');
      const want = [...people].sort((a, b) =>
        nullsFirstDesc(a.age, b.age) || nullsLastAsc(numeric(a.net_worth), numeric(b.net_worth)) || a.id - b.id);
      assert.deepEqual(ids(data.person_list), ids(want.slice(5, 20)));
    });

    test('nested refs and inverse lists are exact', async () => {
      const data = await q('{ deal_list(limit: 20) { id company { id name } contact { id lastname company { id } } } company_detail(id: "2") { id employees(order_by: [{ id: desc }]) { id } deals { id } } }');
      for (const d of data.deal_list as Rec[]) {
        const deal = deals.find((x) => x.id === Number(d.id))!;
        assert.equal(d.company?.id ?? null, deal.company == null ? null : String(deal.company));
        assert.equal(d.contact?.id ?? null, deal.contact == null ? null : String(deal.contact));
        if (d.contact) assert.equal(d.contact.company?.id, String(people.find((p) => p.id === deal.contact)!.company));
      }
      const employees = people.filter((p) => p.company === 2).map((p) => String(p.id)).reverse();
      assert.deepEqual(data.company_detail.employees.map((e: Rec) => e.id), employees);
      assert.deepEqual(data.company_detail.deals.map((e: Rec) => e.id), deals.filter((d) => d.company === 2).map((d) => String(d.id)));
    });

    test('nested relations are batched: one select per level, not per row', async () => {
      let selects = 0;
      const storage = backend.api.storage;
      const original = storage.select.bind(storage);
      (storage as { select: typeof storage.select }).select = (spec) => { selects++; return original(spec); };
      try {
        const result = await backend.api.run({ query: '{ person_list { id company { id employees { id deals { id } } } } }' });
        assert.equal(result.errors, undefined);
        assert.equal((result.data!.person_list as Rec[]).length, people.length);
        assert.equal(selects, 4);
      } finally {
        (storage as { select: typeof storage.select }).select = original;
      }
    });

    test('insert, update with the version, stale update conflicts, delete', async () => {
      const inserted = (await q('mutation($o: person_insert_input!) { insert_person(object: $o) { id version firstname net_worth birthday active company { id } } }',
        { o: { firstname: 'Erika', lastname: 'Musterfrau', net_worth: 1234.5, birthday: '1980-02-29', active: true, company_id: '1' } })).insert_person;
      assert.equal(inserted.version, 1);
      assert.equal(inserted.net_worth, '1234.50');
      assert.deepEqual(inserted.company, { id: '1' });
      const id = inserted.id;

      const updated = (await q('mutation($id: ID!) { update_person(id: $id, version: 1, set: { lastname: "Schmidt", age: 46 }) { lastname age version } }', { id })).update_person;
      assert.deepEqual(updated, { lastname: 'Schmidt', age: 46, version: 2 });

      const stale = await gql(url, 'mutation($id: ID!) { update_person(id: $id, version: 1, set: { lastname: "Meier" }) { id } }', { id }, TOKEN);
      assert.equal(stale.body.errors?.[0].extensions?.code, 'CONFLICT');
      const current = stale.body.errors?.[0].extensions?.current as Rec;
      assert.equal(current.lastname, 'Schmidt');
      assert.equal(current.version, 2);
      assert.equal((await q('query($id: ID!) { person_detail(id: $id) { lastname version } }', { id })).person_detail.lastname, 'Schmidt');

      const staleDelete = await gql(url, 'mutation($id: ID!) { delete_person(id: $id, version: 1) }', { id }, TOKEN);
      assert.equal(staleDelete.body.errors?.[0].extensions?.code, 'CONFLICT');
      assert.equal((await q('mutation($id: ID!) { delete_person(id: $id, version: 2) }', { id })).delete_person, true);
      assert.equal((await q('query($id: ID!) { person_detail(id: $id) { id } }', { id })).person_detail, null);
      const missing = await gql(url, 'mutation($id: ID!) { update_person(id: $id, version: 2, set: { age: 1 }) { id } }', { id }, TOKEN);
      assert.equal(missing.body.errors?.[0].extensions?.code, 'NOT_FOUND');
    });

    const invalidWrites: Array<[string, string, string]> = [
      ['missing required field', '{ lastname: "Ohne" }', 'firstname'],
      ['too old', '{ firstname: "A", lastname: "B", age: 200 }', 'age'],
      ['bad email', '{ firstname: "A", lastname: "B", email: "not-an-address" }', 'email'],
      ['too long', `{ firstname: "${'x'.repeat(81)}", lastname: "B" }`, 'firstname'],
      ['impossible date', '{ firstname: "A", lastname: "B", birthday: "2023-02-30" }', 'birthday'],
      ['unknown company', '{ firstname: "A", lastname: "B", company_id: "999999" }', 'company_id'],
    ];
    for (const [label, object, field] of invalidWrites) {
      test(`insert rejects ${label} as BAD_USER_INPUT naming ${field}, writing nothing`, async () => {
        const before = (await q('{ person_list_count }')).person_list_count;
        const res = await gql(url, `mutation { insert_person(object: ${object}) { id } }`, undefined, TOKEN);
        assert.equal(res.status, 200);
        assert.equal(res.body.errors?.[0].extensions?.code, 'BAD_USER_INPUT', JSON.stringify(res.body.errors));
        assert.equal(res.body.errors?.[0].extensions?.field, field);
        assert.equal((await q('{ person_list_count }')).person_list_count, before);
      });
    }

    test('an enum value outside the AST is refused', async () => {
      const res = await gql(url, 'mutation { update_person(id: "1", version: 1, set: { status: vip }) { id } }', undefined, TOKEN);
      assert.equal(res.body.errors?.[0].extensions?.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(res.body.errors![0].message, /vip/);
    });

    test('SQL injection strings in values are plain values; the tables survive', async () => {
      for (const evil of ["'; DROP TABLE person; --", "%' OR '1'='1", 'x" OR "1"="1', "Robert'); DELETE FROM person; --"]) {
        const data = await q('query($v: String!) { person_list(where: { _or: [{ lastname: { _eq: $v } }, { city: { _like: $v } }] }) { id } }', { v: evil });
        assert.deepEqual(data.person_list, []);
      }
      assert.equal((await q('{ person_list_count }')).person_list_count, people.length);
    });

    test('SQL in field names is a GraphQL validation error', async () => {
      for (const query of [
        '{ person_list(where: { firstname__DROP: { _eq: "x" } }) { id } }',
        '{ person_list(order_by: [{ id_DESC_DROP_TABLE: asc }]) { id } }',
        '{ person_list { id "; DROP TABLE person" } }',
      ]) {
        const res = await gql(url, query, undefined, TOKEN);
        assert.equal(res.status, 200);
        assert.ok(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED'].includes(res.body.errors?.[0].extensions?.code as string), JSON.stringify(res.body));
      }
      assert.equal((await q('{ person_list_count }')).person_list_count, people.length);
    });

    test('an unknown context is named in the error', async () => {
      const res = await gql(url, '{ persons_list { id } }', undefined, TOKEN);
      assert.equal(res.body.errors?.[0].extensions?.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(res.body.errors![0].message, /Cannot query field "persons_list" on type "Query"/);
    });

    test('a query nested deeper than 12 levels is refused before it runs', async () => {
      let inner = 'id';
      for (let i = 0; i < 7; i++) inner = `company { employees { ${inner} } }`;
      const res = await gql(url, `{ person_list(limit: 1) { ${inner} } }`, undefined, TOKEN);
      assert.equal(res.body.errors?.[0].extensions?.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(res.body.errors![0].message, /nested 16 levels deep; at most 12/);
      assert.equal(res.body.data, undefined);
      // 12 levels exactly are fine.
      let twelve = 'id';
      for (let i = 0; i < 5; i++) twelve = `company { employees { ${twelve} } }`;
      assert.equal((await gql(url, `{ person_list(limit: 1) { ${twelve} } }`, undefined, TOKEN)).body.errors, undefined);
    });

    test('an oversize body gets 413 and the server keeps serving', async () => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ query: `{ person_list_count } #${'x'.repeat(70 * 1024)}` }),
      });
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as Rec).errors[0].extensions.code, 'PAYLOAD_TOO_LARGE');
      assert.equal((await q('{ person_list_count }')).person_list_count, people.length);
    });

    test('a wrong or missing token gets 401; health stays open', async () => {
      assert.equal((await gql(url, '{ person_list_count }', undefined, 'wrong')).status, 401);
      assert.equal((await gql(url, '{ person_list_count }')).status, 401);
      assert.equal((await fetch(`${url}/xos/ast`)).status, 401);
      const health = await (await fetch(`${url}/healthz`)).json() as Rec;
      assert.equal(health.ok, true);
      assert.equal(health.dsn.kind, name === 'SQLite' ? 'sqlite' : 'postgres');
      assert.equal(health.dsn.ok, true);
      assert.equal(typeof health.dsn.latency_ms, 'number');
    });

    test('a foreign Host header is refused (DNS rebinding)', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${url}/healthz`, { headers: { host: 'evil.example:80' } }, (res) => { res.resume(); resolve(res.statusCode!); });
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 403);
    });

    test('Host names that only start like a loopback address are refused', async () => {
      const { request } = await import('node:http');
      for (const host of ['127.attacker.example', '127.0.0.1.nip.io']) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(`${url}/healthz`, { headers: { host: `${host}:${http.port}` } }, (res) => { res.resume(); resolve(res.statusCode!); });
          req.on('error', reject);
          req.end();
        });
        assert.equal(status, 403, host);
      }
    });

    test('a chunked body over the limit still gets its 413 answer', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, 'transfer-encoding': 'chunked' } }, (res) => { res.resume(); resolve(res.statusCode!); });
        req.on('error', reject);
        for (let i = 0; i < 80; i++) req.write('x'.repeat(1024));
        req.end();
      });
      assert.equal(status, 413);
    });

    test('a long _in list is one parameter, not one per value', async () => {
      const many = Array.from({ length: 40_000 }, (_, i) => String(i + 1));
      // In-process: the list is larger than this server's body limit.
      const result = await backend.api.run({ query: 'query($ids: [ID!]) { person_list_count(where: { id: { _in: $ids } }) }', variables: { ids: many } });
      assert.deepEqual(result, { data: { person_list_count: people.length } });
    });

    test('_ilike folds letters beyond ASCII', async () => {
      const want = people.filter((p) => /ü/i.test(p.lastname)).length;
      assert.ok(want > 0);
      assert.equal((await q('{ person_list_count(where: { lastname: { _ilike: "%Ü%" } }) }')).person_list_count, want);
      assert.equal((await q('{ person_list_count(where: { lastname: { _ilike: "%ü%" } }) }')).person_list_count, want);
    });

    test('Decimal integer literals keep every digit; DateTime needs a timezone', async () => {
      const d = (await q('mutation { update_person(id: "2", version: 1, set: { net_worth: 12345678901234567891 }) { net_worth version } }')).update_person;
      assert.equal(d.net_worth, '12345678901234567891.00');
      const res = await gql(url, 'mutation { update_person(id: "2", version: 2, set: { last_contact: "2024-05-01T10:00:00" }) { id } }', undefined, TOKEN);
      assert.equal(res.body.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
      assert.equal(res.body.errors?.[0].extensions?.field, 'last_contact');
    });

    test('absurdly nested filters and fragment chains are refused quickly', async () => {
      let where = '{ id: { _eq: "1" } }';
      for (let i = 0; i < 40; i++) where = `{ _not: ${where} }`;
      const res = await gql(url, `{ person_list_count(where: ${where}) }`, undefined, TOKEN);
      assert.equal(res.body.errors?.[0].extensions?.code, 'BAD_USER_INPUT');
      // Each fragment spreads the next twice: 2^30 paths if walked naively.
      const fragments = Array.from({ length: 30 }, (_, i) => `fragment F${i} on person { id ${i < 29 ? `...F${i + 1} ...F${i + 1}` : ''} }`).join(' ');
      const chain = await gql(url, `{ person_list(limit: 1) { ...F0 } } ${fragments}`, undefined, TOKEN);
      assert.equal(chain.status, 200);
      assert.equal(chain.body.errors, undefined, JSON.stringify(chain.body.errors));
    });

    test('GET /xos/ast serves the AST without its data section', async () => {
      const ast = await (await fetch(`${url}/xos/ast`, { headers: { authorization: `Bearer ${TOKEN}` } })).json() as Rec;
      assert.equal(ast.app, 'crm');
      assert.deepEqual(Object.keys(ast.contexts).sort(), ['company_detail', 'company_list', 'deal_list', 'person_detail', 'person_list']);
      assert.equal(ast.data, undefined);
    });

    test('malformed requests get a clear 4xx', async () => {
      const post = (body: string, type = 'application/json') => fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${TOKEN}` }, body });
      assert.equal((await post('{not json')).status, 400);
      assert.equal((await post('{"query": 5}')).status, 400);
      assert.equal((await post('{ person_list_count }', 'text/plain')).status, 415);
      assert.equal((await fetch(`${url}/graphql`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 405);
    });

    test('seed data may refer forward and in cycles; a seed is stored whole or not at all', async () => {
      const ast = demoApp();
      ast.entities.person.fields.manager = { type: 'ref', entity: 'person', inverse: 'reports' };
      ast.entities.company.fields.ceo = { type: 'ref', entity: 'person', inverse: 'leads' };
      ast.data = {
        company: [{ id: 1, name: 'Kreis AG', ceo: 2 }],
        person: [{ id: 1, firstname: 'Anna', lastname: 'Erste', manager: 2, company: 1 }, { id: 2, firstname: 'Bernd', lastname: 'Zweiter', company: 1 }],
        deal: [],
      };
      const cyclic = await startBackend({ ast, dsn: await dsnFor('cycle'), seed: true });
      try {
        assert.deepEqual(cyclic.seeded, { company: 1, person: 2, deal: 0 });
        const r = await cyclic.api.run({ query: '{ person_detail(id: "1") { manager { lastname } company { ceo { firstname } } } }' });
        assert.deepEqual(JSON.parse(JSON.stringify(r.data)), { person_detail: { manager: { lastname: 'Zweiter' }, company: { ceo: { firstname: 'Bernd' } } } });
        // A batch whose last row breaks a foreign key leaves every table as it was.
        await assert.rejects(cyclic.api.storage.insertMany([
          { table: 'company', rows: [{ id: 7, name: 'Neu GmbH' }] },
          { table: 'person', rows: [{ id: 9, firstname: 'X', lastname: 'Y', company_id: 999 }] },
        ]), { name: 'StorageError', code: 'foreign_key' });
        assert.equal(await cyclic.api.storage.count('company'), 1);
        assert.equal(await cyclic.api.storage.count('person'), 2);
      } finally {
        await cyclic.close();
      }
    });

    test('a grown AST migrates additively and keeps every row', async () => {
      const dsn = await dsnFor('migrate');
      const first = await startBackend({ ast: demoApp(), dsn, seed: true });
      await first.close();
      const grown = demoApp();
      grown.entities.person.fields.nickname = { type: 'string', max: 40, label: { de: 'Spitzname', en: 'Nickname' } };
      grown.contexts.person_detail.list_fields.push('nickname');
      const second = await startBackend({ ast: grown, dsn, seed: true });
      try {
        assert.deepEqual(second.migration, { createdTables: [], addedColumns: ['person.nickname'], createdIndexes: [], createdSearchIndexes: [], audit: { kept: true } });
        assert.deepEqual(second.seeded, { company: 0, person: 0, deal: 0 });
        const r = await second.api.run({ query: '{ person_list_count person_detail(id: "1") { nickname lastname } }' });
        assert.deepEqual(r.data, { person_list_count: people.length, person_detail: { nickname: null, lastname: people[0].lastname } });
      } finally {
        await second.close();
      }
    });
  });
}

function numeric(v: unknown): number | null { return v == null ? null : Number(v); }
function nullsLastAsc(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}
// Hasura's convention on both databases: asc puts nulls last, desc puts them first.
function nullsFirstDesc(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return b - a;
}

const sqliteDir = await tempDir('xos-api-sqlite');
suite('SQLite', async (label) => `sqlite:${join(sqliteDir.path, `${label}.db`)}`);

let pg: PostgresServer | undefined;
after(async () => { await pg?.stop(); await sqliteDir.remove(); });
suite('PostgreSQL', async (label) => {
  pg ??= await startPostgres();
  return pg.createDatabase(`api_${label}`);
});
