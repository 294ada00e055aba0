// The team's people without a database: which names are accepted, what a token looks like and how
// it is stored, how long an answer about a token is reused, and what GET /xos/me says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cachedPersonLookup, meBody, PERSON_CACHE_MS } from '../../src/backend/people/tokens.ts';
import { shortCache } from '../../src/backend/people/shortCache.ts';
import { nameProblem, newToken, TOKEN_FORMAT, tokenHash, usersPlace } from '../../src/backend/people/users.ts';
import { buildModel } from '../../src/backend/model.ts';
import type { Person } from '../../src/backend/people/person.ts';
import { cleanPersonName } from '../../src/backend/people/personName.ts';
import { parseOptions } from '../../src/standalone/options.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer } from '../../src/backend/http.ts';

test('user names: 1 to 64 letters, digits, ".", "_", "-"', () => {
  for (const name of ['anna', 'j.smith', 'A_1-b', 'x', 'a'.repeat(64)]) assert.equal(nameProblem(name), undefined, name);
  for (const name of ['', 'a'.repeat(65), 'an na', 'anna@example.org', 'zoë', 'a/b', 'x\n']) {
    assert.match(nameProblem(name) ?? '', /is not a valid user name: use 1 to 64 letters/, JSON.stringify(name));
  }
});

test('a token is xos_ and 32 random bytes in base64url; only its SHA-256 is stored', () => {
  const tokens = new Set(Array.from({ length: 50 }, newToken));
  assert.equal(tokens.size, 50);
  for (const token of tokens) {
    assert.match(token, TOKEN_FORMAT);
    assert.equal(Buffer.from(token.slice(4), 'base64url').length, 32);
    assert.equal(tokenHash(token), createHash('sha256').update(token).digest('hex'));
    assert.match(tokenHash(token), /^[0-9a-f]{64}$/);
  }
});

test('an answer about a token is reused for at most 2 s, then asked again', async () => {
  let clock = 1_000;
  const asked: string[] = [];
  let person: Person | undefined = { name: 'anna', role: 'sales' };
  const lookup = cachedPersonLookup({ personOf: async (token) => { asked.push(token); return person; } }, { now: () => clock });
  const token = newToken();
  assert.deepEqual(await lookup(token), { name: 'anna', role: 'sales' });
  person = undefined;
  clock += PERSON_CACHE_MS - 1;
  assert.deepEqual(await lookup(token), { name: 'anna', role: 'sales' }, 'still within the cache');
  clock += 1;
  assert.equal(await lookup(token), undefined, 'asked again once 2 s have passed');
  assert.equal(asked.length, 2);
});

test('a failed look-up is not kept', async () => {
  let fail = true;
  const lookup = cachedPersonLookup({ personOf: async () => { if (fail) throw new Error('database down'); return { name: 'anna' }; } });
  const token = newToken();
  await assert.rejects(lookup(token), /database down/);
  fail = false;
  assert.deepEqual(await lookup(token), { name: 'anna' });
});

test('the short cache: requests together share one look-up, answers are kept by their key, at most `size` of them', async () => {
  const asked: string[] = [];
  const cache = shortCache(async (name: string) => { asked.push(name); return name.toUpperCase(); }, { ttlMs: 60_000, size: 2, keyOf: (name) => name.toLowerCase() });
  assert.deepEqual(await Promise.all([cache('anna'), cache('anna')]), ['ANNA', 'ANNA']);
  assert.deepEqual(asked, ['anna'], 'one look-up for both');
  assert.equal(await cache('ANNA'), 'ANNA', 'the same key: the kept answer');
  await cache('ben');
  await cache('cleo'); // a third: the oldest (anna) makes room
  await cache('ben');
  await cache('anna');
  assert.deepEqual(asked, ['anna', 'ben', 'cleo', 'anna']);
});

test('GET /xos/me: the person and their role, or no name for the plain and the front-end token', () => {
  assert.deepEqual(meBody({ name: 'anna', role: 'sales' }), { name: 'anna', role: 'sales' });
  assert.deepEqual(meBody({ name: 'bob' }), { name: 'bob', role: null });
  assert.deepEqual(meBody(undefined), { name: null });
});

test('the name a front end gives the embedded backend: one short line', () => {
  assert.equal(cleanPersonName('  Anna   Schmidt '), 'Anna Schmidt');
  assert.equal(cleanPersonName('anna@example.org'), 'anna@example.org');
  for (const raw of [undefined, '', '   ', 'a'.repeat(65), 'anna\nbob', 'anna\u202e', 'an\u200bna']) assert.equal(cleanPersonName(raw), undefined, JSON.stringify(raw));
});

test('xos-mcp --person names the embedded backend\'s person; with --server the token does', () => {
  assert.equal(parseOptions(['--person', ' anna '], {})!.person, 'anna');
  assert.equal(parseOptions([], {})!.person, undefined);
  assert.throws(() => parseOptions(['--person', 'anna', '--server', 'http://127.0.0.1:4000'], {}), /--person is for the embedded backend: with --server, the token in XOS_SERVER_TOKEN names the person/);
  assert.throws(() => parseOptions(['--person', ' '], {}), /--person needs a name of 1 to 64 characters on one line/);
});

test('a users\' database that does not answer is a 503 with Retry-After, not a wrong token', async () => {
  const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:' });
  const http = await startHttpServer(backend.api, { token: 'plain-api-token-0123456789', people: async () => { throw new Error('connection refused'); } });
  try {
    const res = await fetch(`${http.url}/xos/me`, { headers: { authorization: `Bearer ${newToken()}` } });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '5');
    assert.match(((await res.json()) as { errors: Array<{ message: string }> }).errors[0].message, /users does not answer; try again/);
    const plain = await fetch(`${http.url}/xos/me`, { headers: { authorization: 'Bearer plain-api-token-0123456789' } });
    assert.deepEqual(await plain.json(), { name: null }, 'the plain token never needs the users');
  } finally {
    await http.close();
    await backend.close();
  }
});

test('the users\' table: beside XOS\'s own tables, or in XOS\'s own schema over the person\'s PostgreSQL tables', () => {
  const own = buildModel(demoApp());
  const app = demoApp();
  const theirs = buildModel({ ...app, entities: Object.fromEntries(Object.entries(app.entities).map(([name, entity]) => [name, { ...entity, table: name }])) });
  assert.equal(usersPlace(own, 'postgres').table, '"xos_users"');
  assert.equal(usersPlace(own, 'sqlite').table, '"xos_users"');
  assert.deepEqual(usersPlace(theirs, 'postgres'), { table: '"xos"."users"', schema: 'xos', regclass: 'xos.users' });
  assert.equal(usersPlace(theirs, 'sqlite').table, '"xos_users"');
});
