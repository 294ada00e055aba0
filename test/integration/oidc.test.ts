// OpenID Connect sign-in against a real OpenID provider (oidc-provider on loopback, see
// test/support/oidcProvider.ts): xos-server started as an administrator starts it, with
// --oidc-issuer/--oidc-audience, and its people added with `users add --oidc`. A valid token of an
// added person opens the API in their name and with their role; every other token is refused
// with a status and a message that say why. SQLite: the users' table is the same on PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SignJWT } from 'jose';
import type { Ast } from '../../src/ast/schema.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { startHttpServer } from '../../src/backend/http.ts';
import { oidcPersonLookup, type OidcLookup } from '../../src/backend/people/oidc.ts';
import { cachedPersonLookup, PERSON_CACHE_MS, usersOf, type PersonLookup } from '../../src/backend/people/tokens.ts';
import { TOKEN_FORMAT } from '../../src/backend/people/users.ts';
import { startOidcProvider, type TestOidcProvider } from '../support/oidcProvider.ts';
import { tempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';
import { XosServerCli, type StartedServer } from '../support/xosServerCli.ts';

const CLI = new URL('../../src/backend/cli.ts', import.meta.url).pathname;
const TOKEN = 'plain-api-token-0123456789';
const AUDIENCE = 'urn:xos:crm';
const dir = await tempDir('xos-oidc');
const cli = new XosServerCli(CLI, { XOS_TOKEN: '', XOS_FRONTEND_TOKEN: '' });
const astFile = join(dir.path, 'crm-roles.json');
const roles: NonNullable<Ast['roles']> = { sales: { contexts: { '*': ['read', 'edit', 'create', 'delete'] } }, office: { contexts: { '*': ['read'] } } };
await writeFile(astFile, JSON.stringify({ ...demoApp(), roles }));
const dsn = `sqlite:${join(dir.path, 'team.db')}`;
let idp: TestOidcProvider;
let otherIdp: TestOidcProvider;
let server: StartedServer;
after(async () => {
  cli.killAll();
  await idp?.close();
  await otherIdp?.close();
  await dir.remove();
});

const users = (...args: string[]) => cli.run(['users', ...args, '--dsn', dsn, '--ast', astFile]);

async function call(url: string, path: string, token: string, body?: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, body === undefined
    ? { headers: { authorization: `Bearer ${token}` } }
    : { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
const me = (url: string, token: string) => call(url, '/xos/me', token);
const graphql = (url: string, token: string, body: Record<string, unknown>) => call(url, '/graphql', token, body);

const UPDATE = 'mutation($v: Int!, $city: String) { update_person(id: "1", version: $v, set: { city: $city }) { version } }';

function personVersion(): number {
  const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true });
  try {
    return Number((db.prepare('SELECT "version" FROM "person" WHERE "id" = 1').get() as { version: number }).version);
  } finally {
    db.close();
  }
}

/** A token's parts changed by `change` (header, payload as objects; the signature kept or given). */
function reshaped(jwt: string, change: { header?: Record<string, unknown>; signature?: string }): string {
  const [header, payload, signature] = jwt.split('.');
  const newHeader = change.header ? Buffer.from(JSON.stringify(change.header)).toString('base64url') : header;
  return [newHeader, payload, change.signature ?? signature].join('.');
}

describe('OpenID Connect sign-in', () => {
  before(async () => {
    [idp, otherIdp] = await Promise.all([startOidcProvider(), startOidcProvider()]);
    // The app and its table of people: the first serve seeds, the users are added one by one.
    const seeding = await cli.start(['--dsn', dsn, '--ast', astFile, '--port', '0', '--seed']);
    assert.equal(await cli.stop(seeding.child), 0);
    for (const [name, ...extra] of [['anna', '--role', 'sales', '--oidc'], ['otto', '--role', 'office', '--oidc'], ['rita', '--role', 'sales', '--oidc'], ['tom', '--role', 'sales']]) {
      const added = await users('add', name, ...extra);
      assert.equal(added.code, 0, added.stderr);
      if (extra.includes('--oidc')) {
        assert.match(added.stdout, /sign in with OpenID Connect/);
        assert.doesNotMatch(added.stdout, /xos_[A-Za-z0-9_-]{43}/, 'no token is made for an OpenID Connect user');
      } else {
        assert.match(added.stdout.split('\n')[0], TOKEN_FORMAT);
      }
    }
    server = await cli.start(['--dsn', dsn, '--ast', astFile, '--port', '0', '--oidc-issuer', idp.issuer, '--oidc-audience', AUDIENCE], { XOS_TOKEN: TOKEN });
    assert.match(server.stdout(), new RegExp(`sign-in:\\s+OpenID Connect tokens of ${idp.issuer.replace(/\./g, '\\.')}`));
  });

  test('users list tells who signs in with OpenID Connect; no token, no hash of one is stored for them', async () => {
    const list = await users('list');
    assert.match(list.stdout, /^anna\s+sales\s+\S+\s+active \(OpenID Connect\)$/m);
    assert.match(list.stdout, /^tom\s+sales\s+\S+\s+active$/m);
    const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true });
    try {
      const rows = db.prepare('SELECT "name", "token_hash" FROM "xos_users" ORDER BY "name"').all() as Array<{ name: string; token_hash: string }>;
      assert.deepEqual(rows.map((r) => [r.name, /^[0-9a-f]{64}$/.test(r.token_hash)]), [['anna', false], ['otto', false], ['rita', false], ['tom', true]]);
    } finally {
      db.close();
    }
  });

  test("a valid token of an added person opens the API in their name, with their role", async () => {
    const anna = await idp.token(AUDIENCE, { preferred_username: 'anna' }, 'acct-anna');
    const otto = await idp.token(AUDIENCE, { preferred_username: 'otto' }, 'acct-otto');
    assert.deepEqual(await me(server.url, anna), { status: 200, body: { name: 'anna', role: 'sales' } });
    assert.deepEqual(await me(server.url, otto), { status: 200, body: { name: 'otto', role: 'office' } });

    // office reads only: its write is refused and changes nothing.
    const before = personVersion();
    const refused = await graphql(server.url, otto, { query: UPDATE, variables: { v: before, city: 'Kiel' } });
    assert.equal(refused.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(refused.body));
    assert.equal(personVersion(), before);
    const read = await graphql(server.url, otto, { query: '{ person_list(limit: 1) { id } }' });
    assert.equal(read.body.errors, undefined, JSON.stringify(read.body));

    // sales writes, and the trail names anna.
    const written = await graphql(server.url, anna, { query: UPDATE, variables: { v: before, city: 'Husum' } });
    assert.equal(written.body.errors, undefined, JSON.stringify(written.body));
    const trail = await graphql(server.url, TOKEN, { query: '{ xos_audit(entity: "person", id: "1", limit: 1) { path person } }' });
    assert.deepEqual(trail.body.data.xos_audit.map((e: { path: string; person: string }) => [e.path, e.person]), [['api', 'anna']]);
  });

  test('refused: another audience, another issuer, a changed signature, alg none or HS256, a bad name claim, a person not added, a token user', async () => {
    const anna = await idp.token(AUDIENCE, { preferred_username: 'anna' }, 'acct-anna');
    const refusals: Array<[string, string, number, RegExp]> = [
      ['another audience', await idp.token('urn:other:api', { preferred_username: 'anna' }), 401, /for another audience; this server accepts tokens for "urn:xos:crm"/],
      ['another issuer', await otherIdp.token(AUDIENCE, { preferred_username: 'anna' }), 401, new RegExp(`issued by "${otherIdp.issuer}"; this server accepts tokens of ${idp.issuer} only`)],
      ['a changed signature', reshaped(anna, { signature: `${anna.split('.')[2].slice(0, -4)}AAAA` }), 401, /signature does not verify/],
      ['alg none', reshaped(anna, { header: { alg: 'none', typ: 'at+jwt' }, signature: '' }), 401, /signed with "none", which this server does not accept/],
      ['a shared-secret signature', await new SignJWT({ preferred_username: 'anna' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(idp.issuer).setAudience(AUDIENCE).setExpirationTime('5m')
        .sign(new TextEncoder().encode('a-guessable-secret-of-32-bytes!!')), 401, /signed with "HS256", which this server does not accept/],
      ['a name that is no user name', await idp.token(AUDIENCE, { preferred_username: 'anna maria' }), 401, /token's "preferred_username" claim "anna maria" is not a valid user name/],
      ['an email for a name', await idp.token(AUDIENCE, { email: 'anna@example.org', email_verified: true }), 401, /token's "email" claim "anna@example\.org" is not a valid user name.*--oidc-claim/],
      ['a person not added', await idp.token(AUDIENCE, { preferred_username: 'zoe' }), 403, /zoe \(the token's "preferred_username"\) is not a user of this app: ask the administrator to add zoe/],
      ['a person with an XOS token', await idp.token(AUDIENCE, { preferred_username: 'tom' }), 403, /The user tom signs in with their XOS token, not with OpenID Connect/],
    ];
    for (const [what, token, status, message] of refusals) {
      for (const answer of [await me(server.url, token), await graphql(server.url, token, { query: '{ person_list(limit: 1) { id } }' })]) {
        assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
        assert.match(answer.body.errors[0].message, message, what);
      }
    }
  });

  test('a person is bound to the account of their first token: another account carrying the name is refused, an account is one person, an email names someone only once verified', async () => {
    // Anna signed in with acct-anna above; mallory's account now says it is anna.
    const mallory = await idp.token(AUDIENCE, { preferred_username: 'anna' }, 'acct-mallory');
    const borrowed = await me(server.url, mallory);
    assert.equal(borrowed.status, 403, JSON.stringify(borrowed.body));
    assert.match(borrowed.body.errors[0].message, /anna signs in with another account of the identity provider than this token's \(its "sub"\); another account that carries the name anna is not anna/);
    assert.deepEqual(await me(server.url, await idp.token(AUDIENCE, { preferred_username: 'anna' }, 'acct-anna')), { status: 200, body: { name: 'anna', role: 'sales' } }, 'her own account still is');
    // Otto's account (bound above) cannot become rita's.
    const ottoAsRita = await me(server.url, await idp.token(AUDIENCE, { preferred_username: 'rita' }, 'acct-otto'));
    assert.equal(ottoAsRita.status, 403);
    assert.match(ottoAsRita.body.errors[0].message, /This account of the identity provider \(its "sub"\) signs in as another user of this app, not as rita/);
    // By email: only a verified address names a person.
    const unverified = await me(server.url, await idp.token(AUDIENCE, { email: 'anna@example.org' }, 'acct-mallory'));
    assert.equal(unverified.status, 401);
    assert.match(unverified.body.errors[0].message, /names the person by "email", but the identity provider has not verified that address \(email_verified is not true\)/);
    const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true });
    try {
      const proofs = db.prepare('SELECT "name", "token_hash" FROM "xos_users" WHERE "name" IN (\'anna\', \'otto\') ORDER BY "name"').all() as Array<{ name: string; token_hash: string }>;
      assert.deepEqual(proofs.map((row) => [row.name, row.token_hash]), [['anna', 'oidc-sub:acct-anna'], ['otto', 'oidc-sub:acct-otto']], 'the account each is bound to, in the users table');
    } finally {
      db.close();
    }
  });

  test('a revoked person is refused within the cache\'s lifetime', async () => {
    const rita = await idp.token(AUDIENCE, { preferred_username: 'rita' }, 'acct-rita');
    assert.deepEqual(await me(server.url, rita), { status: 200, body: { name: 'rita', role: 'sales' } });
    assert.equal((await users('revoke', 'rita')).code, 0);
    const refused = await until('the revoked person refused', async () => {
      const answer = await me(server.url, rita);
      return answer.status === 403 ? answer : undefined;
    }, { timeoutMs: PERSON_CACHE_MS + 1000, everyMs: 50 });
    assert.match(refused.body.errors[0].message, /The user rita was revoked \(\S+\); ask the administrator/);
  });

  test('an expired token is refused, and its open change stream ends; a JWT never reaches the token lookup, nor a token the JWT one', async () => {
    // The same provider's token, seen by a server whose clock is an hour on: expired.
    const backend = await startBackend({ ast: { ...demoApp(), roles }, dsn });
    const team = usersOf(backend.api.storage, backend.api.model)!;
    let clock = 0;
    let tokenLookups = 0;
    let jwtLookups = 0;
    const tokens = cachedPersonLookup(team);
    const people: PersonLookup = (token) => { tokenLookups++; return tokens(token); };
    const jwts = oidcPersonLookup({ issuer: idp.issuer, audience: AUDIENCE }, team, { now: () => new Date(Date.now() + clock) });
    const oidc: OidcLookup = (jwt) => { jwtLookups++; return jwts(jwt); };
    const http = await startHttpServer(backend.api, { port: 0, token: TOKEN, people, oidc });
    try {
      const anna = await idp.token(AUDIENCE, { preferred_username: 'anna' }, 'acct-anna');
      assert.deepEqual(await me(http.url, anna), { status: 200, body: { name: 'anna', role: 'sales' } });
      clock = 3600_000;
      const expired = await me(http.url, anna);
      assert.equal(expired.status, 401);
      assert.match(expired.body.errors[0].message, /The token has expired; get a new one from your identity provider/);
      assert.equal(tokenLookups, 0);
      assert.equal(jwtLookups, 2);

      const added = await users('add', 'tina');
      const tina = added.stdout.split('\n')[0];
      assert.deepEqual(await me(http.url, tina), { status: 200, body: { name: 'tina', role: null } });
      assert.deepEqual([tokenLookups, jwtLookups], [1, 2]);

      // An open change stream ends once its JWT has expired: the stream asks again every second.
      clock = 0;
      const fresh = await idp.token(AUDIENCE, { preferred_username: 'anna' }, 'acct-anna');
      const stream = await fetch(`${http.url}/xos/changes`, { headers: { authorization: `Bearer ${fresh}` }, signal: AbortSignal.timeout(20_000) });
      assert.equal(stream.status, 200);
      const reader = stream.body!.getReader();
      assert.equal((await reader.read()).done, false, 'the stream is open');
      clock = 3600_000;
      // Reads until the server ends the stream; a stream that stays open is aborted after 20 s and fails the test.
      while (!(await reader.read()).done) { /* the events before the end */ }
      assert.equal((await call(http.url, '/xos/changes', fresh)).status, 401);
    } finally {
      await http.close();
      await backend.close();
    }
  });

  test('the flags are checked before anything is opened', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--oidc-issuer', 'http://login.example.com', '--oidc-audience', AUDIENCE], /uses plain http to another machine/],
      [['--oidc-issuer', 'ftp://login.example.com', '--oidc-audience', AUDIENCE], /must start with https:\/\//],
      [['--oidc-issuer', 'https://login.example.com'], /--oidc-issuer needs --oidc-audience/],
      [['--oidc-audience', AUDIENCE], /--oidc-audience and --oidc-claim need --oidc-issuer/],
    ];
    const answers = await Promise.all(cases.map(([args]) => cli.run(['--dsn', `sqlite:${join(dir.path, 'never.db')}`, '--port', '0', ...args])));
    answers.forEach((answer, i) => {
      assert.equal(answer.code, 2, answer.stderr);
      assert.match(answer.stderr, cases[i][1]);
    });
    const misplaced = await users('list', '--oidc');
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /--oidc is for users add/);
  });
});
