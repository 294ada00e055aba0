// Google contacts against a local server that speaks the People API's JSON:
// the warm-up search, both searches, paging, an error body, and a 401 that is
// answered with one refresh through the OAuth token endpoint.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { GoogleContactsProvider } from '../../src/contacts/google.ts';
import { refreshTokens, type OAuthClient } from '../../src/contacts/oauth.ts';
import { memoryTokenStore, StoredTokens } from '../../src/contacts/tokens.ts';

interface Seen { path: string; params: Record<string, string>; authorization?: string }

const CONTACTS = [
  { person: { names: [{ displayName: 'Max Mustermann' }], emailAddresses: [{ value: 'Max.Mustermann@nordlicht.example' }], phoneNumbers: [{ value: '0171 1234567', canonicalForm: '+491711234567' }], organizations: [{ name: 'Nordlicht Software' }] } },
  { person: { names: [{ givenName: 'Maxine', familyName: 'Berg' }], emailAddresses: [{ value: 'maxine@berg.example' }] } },
];
const OTHER_PAGE_1 = [{ person: { emailAddresses: [{ value: 'max.mustermann@nordlicht.example' }] } }];
const OTHER_PAGE_2 = [{ person: { names: [{ displayName: 'Max Weber' }], emailAddresses: [{ value: 'weber@mail.example' }], phoneNumbers: [{ value: '+49 30 555' }] } }];

/** The People API and Google's token endpoint on one loopback server. */
async function startGoogle(): Promise<{ url: string; seen: Seen[]; refreshes: URLSearchParams[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const refreshes: URLSearchParams[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    const reply = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
    if (url.pathname === '/token') {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        refreshes.push(form);
        if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'google-refresh') reply(200, { access_token: 'fresh-token', expires_in: 3599, token_type: 'Bearer' });
        else reply(400, { error: 'invalid_grant' });
      });
      return;
    }
    seen.push({ path: url.pathname, params: Object.fromEntries(url.searchParams), authorization: req.headers.authorization });
    if (req.headers.authorization !== 'Bearer fresh-token') {
      return reply(401, { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.', status: 'UNAUTHENTICATED' } });
    }
    const query = url.searchParams.get('query');
    if (query === 'forbidden') return reply(403, { error: { code: 403, message: 'People API has not been used in project 4711 before or it is disabled.', status: 'PERMISSION_DENIED' } });
    if (url.pathname === '/v1/people:searchContacts') {
      return reply(200, query === '' ? {} : { results: CONTACTS.filter((c) => JSON.stringify(c).toLowerCase().includes(query!.toLowerCase())) });
    }
    if (url.pathname === '/v1/otherContacts:search') {
      if (query === '') return reply(200, {});
      if (query !== 'max') return reply(200, {});
      return reply(200, url.searchParams.get('pageToken') === 'page-2' ? { results: OTHER_PAGE_2 } : { results: OTHER_PAGE_1, nextPageToken: 'page-2' });
    }
    reply(404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, refreshes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('Google People API', () => {
  let google: Awaited<ReturnType<typeof startGoogle>>;
  let client: OAuthClient;
  before(async () => {
    google = await startGoogle();
    client = { authorizationEndpoint: `${google.url}/auth`, tokenEndpoint: `${google.url}/token`, clientId: 'xos-test', clientSecret: 'installed-app-secret', scopes: ['https://www.googleapis.com/auth/contacts.readonly'] };
  });
  after(() => google.close());

  const signedIn = async (accessToken: string) => {
    const tokens = new StoredTokens({ store: memoryTokenStore(), key: 'xos.google.tokens', service: 'Google', refresh: (refreshToken) => refreshTokens(client, refreshToken) });
    await tokens.save({ accessToken, refreshToken: 'google-refresh', expiresAt: Date.now() + 3_600_000 });
    return tokens;
  };

  test('warms up once, refreshes a refused token once, follows page tokens and merges both searches', async () => {
    google.seen.length = 0;
    google.refreshes.length = 0;
    const provider = new GoogleContactsProvider({ tokens: await signedIn('stale-token'), baseUrl: google.url });
    const directory = new ContactDirectory([provider], { country: 'DE' });
    assert.deepEqual(await directory.search('max'), [
      { name: 'Max Mustermann', email: 'max.mustermann@nordlicht.example', phone: '+491711234567', emails: ['max.mustermann@nordlicht.example'], phones: ['+491711234567'], organization: 'Nordlicht Software', sources: ['google'] },
      { name: 'Maxine Berg', email: 'maxine@berg.example', emails: ['maxine@berg.example'], phones: [], sources: ['google'] },
      { name: 'Max Weber', email: 'weber@mail.example', phone: '+4930555', emails: ['weber@mail.example'], phones: ['+4930555'], sources: ['google'] },
    ]);
    // Both warm-ups were refused (stale token), then one refresh served both.
    assert.equal(google.refreshes.length, 1);
    assert.equal(google.refreshes[0].get('client_secret'), 'installed-app-secret');
    const warmUps = google.seen.filter((s) => s.params.query === '');
    assert.deepEqual(warmUps.map((s) => [s.path, s.authorization]).sort(), [
      ['/v1/otherContacts:search', 'Bearer fresh-token'], ['/v1/otherContacts:search', 'Bearer stale-token'],
      ['/v1/people:searchContacts', 'Bearer fresh-token'], ['/v1/people:searchContacts', 'Bearer stale-token'],
    ]);
    const searches = google.seen.filter((s) => s.params.query === 'max');
    assert.deepEqual(searches.map((s) => s.params), [
      { query: 'max', readMask: 'names,emailAddresses,phoneNumbers,organizations', pageSize: '30' },
      { query: 'max', readMask: 'names,emailAddresses,phoneNumbers', pageSize: '30' },
      { query: 'max', readMask: 'names,emailAddresses,phoneNumbers', pageSize: '30', pageToken: 'page-2' },
    ]);

    // The next search of the session sends no warm-up and needs no refresh.
    google.seen.length = 0;
    assert.deepEqual(await provider.search('maxine'), [{ name: 'Maxine Berg', emails: ['maxine@berg.example'], phones: [] }]);
    assert.deepEqual(google.seen.map((s) => s.params.query), ['maxine', 'maxine']);
    assert.equal(google.refreshes.length, 1);
  });

  test('an error body is reported clearly, next to the results of the other providers', async () => {
    const provider = new GoogleContactsProvider({ tokens: await signedIn('fresh-token'), baseUrl: google.url });
    await assert.rejects(provider.search('forbidden'), {
      message: 'Google /v1/people:searchContacts: 403 PERMISSION_DENIED: People API has not been used in project 4711 before or it is disabled.',
    });
    const records = { source: 'xos:person', search: async () => [{ name: 'Forbidden Fruit', emails: ['fruit@obst.example'], phones: [] }] };
    const found = await new ContactDirectory([provider, records]).searchAll('forbidden');
    assert.deepEqual(found, {
      contacts: [{ name: 'Forbidden Fruit', email: 'fruit@obst.example', emails: ['fruit@obst.example'], phones: [], sources: ['xos:person'] }],
      failures: [{ source: 'google', message: 'Google /v1/people:searchContacts: 403 PERMISSION_DENIED: People API has not been used in project 4711 before or it is disabled.' }],
    });
  });

  test('the same person from Google and another provider is one entry with both sources', async () => {
    const provider = new GoogleContactsProvider({ tokens: await signedIn('fresh-token'), baseUrl: google.url });
    const records = { source: 'xos:person', search: async () => [{ name: 'Max Mustermann', emails: ['MAX.MUSTERMANN@Nordlicht.example'], phones: ['0171 1234567'] }] };
    const found = await new ContactDirectory([records, provider], { country: 'DE' }).searchAll('mustermann');
    assert.deepEqual(found.failures, []);
    assert.deepEqual(found.contacts, [
      { name: 'Max Mustermann', email: 'max.mustermann@nordlicht.example', phone: '+491711234567', emails: ['max.mustermann@nordlicht.example'], phones: ['+491711234567'], organization: 'Nordlicht Software', sources: ['xos:person', 'google'] },
    ]);
  });

  test('a refresh token the server revoked ends in a clear failure, not a loop', async () => {
    google.refreshes.length = 0;
    const tokens = new StoredTokens({ store: memoryTokenStore(), key: 'k', service: 'Google', refresh: (refreshToken) => refreshTokens(client, refreshToken) });
    await tokens.save({ accessToken: 'stale-token', refreshToken: 'revoked' });
    const provider = new GoogleContactsProvider({ tokens, baseUrl: google.url });
    await assert.rejects(provider.search('max'), { message: 'the token endpoint refused the refresh: invalid_grant' });
    assert.equal(google.refreshes.length, 1);
  });
});
