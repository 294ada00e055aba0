// Microsoft contacts against a local server that speaks Microsoft Graph's JSON:
// /me/contacts filtered with startswith() (quotes escaped), /me/people with
// $search, @odata.nextLink paging, an error body, and a 401 answered with one refresh.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { contactFilter, MicrosoftContactsProvider, searchTerm } from '../../src/contacts/microsoft.ts';
import { refreshTokens, type OAuthClient } from '../../src/contacts/oauth.ts';
import { memoryTokenStore, StoredTokens } from '../../src/contacts/tokens.ts';

interface Seen { path: string; raw: string; params: Record<string, string>; authorization?: string }

async function startGraph(): Promise<{ url: string; seen: Seen[]; refreshes: URLSearchParams[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const refreshes: URLSearchParams[] = [];
  let origin = '';
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, origin);
    const reply = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/common/oauth2/v2.0/token') {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        refreshes.push(form);
        if (form.get('refresh_token') === 'ms-refresh') reply(200, { token_type: 'Bearer', scope: 'Contacts.Read People.Read', expires_in: 4000, access_token: 'graph-fresh', refresh_token: 'ms-refresh-2' });
        else reply(400, { error: 'invalid_grant', error_description: 'AADSTS70000: The provided value for the refresh token is not valid.' });
      });
      return;
    }
    seen.push({ path: url.pathname, raw: url.search, params: Object.fromEntries(url.searchParams), authorization: req.headers.authorization });
    if (req.headers.authorization !== 'Bearer graph-fresh') {
      return reply(401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } });
    }
    const filter = url.searchParams.get('$filter') ?? '';
    const search = url.searchParams.get('$search') ?? '';
    if (url.pathname === '/v1.0/me/contacts') {
      if (filter.includes("'boom'")) return reply(503, { error: { code: 'ServiceNotAvailable', message: 'The service is temporarily unavailable.' } });
      if (filter.includes("'away'")) return reply(200, { value: [], '@odata.nextLink': 'https://elsewhere.example/v1.0/me/contacts?$skiptoken=x' });
      if (url.searchParams.get('$skiptoken') === 'page-2') {
        return reply(200, { value: [{ displayName: "Siobhan O'Brien", emailAddresses: [{ name: 'Siobhan', address: 'siobhan@obrien.example' }], businessPhones: [], homePhones: ['+353 1 555 0101'], mobilePhone: null, companyName: null }] });
      }
      if (filter.includes("'o''brien'")) {
        return reply(200, {
          '@odata.context': `${origin}/v1.0/$metadata#users('me')/contacts`,
          value: [{ displayName: "Sean O'Brien", givenName: 'Sean', surname: "O'Brien", emailAddresses: [{ name: 'Sean', address: 'sean@obrien.example' }], businessPhones: ['+353 1 555 0100'], homePhones: [], mobilePhone: '+353 87 555 0100', companyName: 'Éire Trading' }],
          '@odata.nextLink': `${origin}/v1.0/me/contacts?$skiptoken=page-2`,
        });
      }
      return reply(200, { value: [] });
    }
    if (url.pathname === '/v1.0/me/people') {
      if (search === '"o\'brien"') {
        return reply(200, { value: [
          { displayName: "Sean O'Brien", scoredEmailAddresses: [{ address: 'SEAN@obrien.example', relevanceScore: 8 }], phones: [{ type: 'business', number: '+353 1 555 0100' }], companyName: 'Éire Trading' },
          { displayName: 'Niamh Brien', scoredEmailAddresses: [{ address: 'niamh@contoso.example', relevanceScore: 3 }], phones: [], companyName: 'Contoso' },
        ] });
      }
      return reply(200, { value: [] });
    }
    reply(404, { error: { code: 'ResourceNotFound', message: 'Resource not found for the segment.' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin, seen, refreshes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('queries are escaped the way OData wants them', () => {
  assert.equal(contactFilter("o'brien"), "startswith(displayName,'o''brien') or startswith(givenName,'o''brien') or startswith(surname,'o''brien')");
  assert.equal(contactFilter('Max@X.example'), "startswith(displayName,'Max@X.example') or startswith(givenName,'Max@X.example') or startswith(surname,'Max@X.example') or emailAddresses/any(a:a/address eq 'max@x.example')");
  assert.equal(searchTerm('say "hi" \\o/'), '"say \\"hi\\" \\\\o/"');
});

describe('Microsoft Graph', () => {
  let graph: Awaited<ReturnType<typeof startGraph>>;
  let client: OAuthClient;
  before(async () => {
    graph = await startGraph();
    client = { authorizationEndpoint: `${graph.url}/common/oauth2/v2.0/authorize`, tokenEndpoint: `${graph.url}/common/oauth2/v2.0/token`, clientId: 'xos-test', scopes: ['Contacts.Read', 'People.Read', 'offline_access'] };
  });
  after(() => graph.close());

  const signedIn = async (accessToken: string, store = memoryTokenStore()) => {
    const tokens = new StoredTokens({ store, key: 'xos.microsoft.tokens', service: 'Microsoft', refresh: (refreshToken) => refreshTokens(client, refreshToken) });
    await tokens.save({ accessToken, refreshToken: 'ms-refresh' });
    return tokens;
  };

  test('contacts and people, paged and refreshed once after a 401, merged with their source', async () => {
    graph.seen.length = 0;
    graph.refreshes.length = 0;
    const store = memoryTokenStore();
    const provider = new MicrosoftContactsProvider({ tokens: await signedIn('graph-stale', store), baseUrl: graph.url, pageSize: 10 });
    const found = await new ContactDirectory([provider]).searchAll("o'brien");
    assert.deepEqual(found, {
      failures: [],
      contacts: [
        { name: "Sean O'Brien", email: 'sean@obrien.example', phone: '+353875550100', emails: ['sean@obrien.example'], phones: ['+353875550100', '+35315550100'], organization: 'Éire Trading', sources: ['microsoft'] },
        { name: "Siobhan O'Brien", email: 'siobhan@obrien.example', phone: '+35315550101', emails: ['siobhan@obrien.example'], phones: ['+35315550101'], sources: ['microsoft'] },
        { name: 'Niamh Brien', email: 'niamh@contoso.example', emails: ['niamh@contoso.example'], phones: [], organization: 'Contoso', sources: ['microsoft'] },
      ],
    });
    assert.equal(graph.refreshes.length, 1);
    assert.equal(graph.refreshes[0].get('scope'), 'Contacts.Read People.Read offline_access');
    // Renewal replaced the refresh token as Microsoft rotates it.
    assert.equal(JSON.parse(store.values.get('xos.microsoft.tokens')!).refreshToken, 'ms-refresh-2');
    const contacts = graph.seen.filter((s) => s.path === '/v1.0/me/contacts');
    assert.deepEqual(contacts.map((s) => [s.authorization, s.params.$skiptoken ?? s.params.$filter]), [
      ['Bearer graph-stale', "startswith(displayName,'o''brien') or startswith(givenName,'o''brien') or startswith(surname,'o''brien')"],
      ['Bearer graph-fresh', "startswith(displayName,'o''brien') or startswith(givenName,'o''brien') or startswith(surname,'o''brien')"],
      ['Bearer graph-fresh', 'page-2'],
    ]);
    assert.equal(contacts[0].params.$top, '10');
    assert.ok(!contacts[0].raw.includes('+'), `spaces are %20 in ${contacts[0].raw}`);
    const people = graph.seen.filter((s) => s.path === '/v1.0/me/people').at(-1)!;
    assert.deepEqual(people.params, { $search: '"o\'brien"', $select: 'displayName,scoredEmailAddresses,phones,companyName', $top: '10' });
  });

  test('an error body is reported with code and message next to the other results', async () => {
    const provider = new MicrosoftContactsProvider({ tokens: await signedIn('graph-fresh'), baseUrl: graph.url });
    const records = { source: 'carddav:erika@dav.example', search: async () => [{ name: 'Boom Box', emails: ['boom@box.example'], phones: [] }] };
    assert.deepEqual(await new ContactDirectory([records, provider]).searchAll('boom'), {
      contacts: [{ name: 'Boom Box', email: 'boom@box.example', emails: ['boom@box.example'], phones: [], sources: ['carddav:erika@dav.example'] }],
      failures: [{ source: 'microsoft', message: 'Microsoft Graph /v1.0/me/contacts: 503 ServiceNotAvailable: The service is temporarily unavailable.' }],
    });
  });

  test('the token never follows a next link to another host', async () => {
    const provider = new MicrosoftContactsProvider({ tokens: await signedIn('graph-fresh'), baseUrl: graph.url });
    await assert.rejects(provider.search('away'), { message: 'Microsoft Graph linked to another host: elsewhere.example' });
  });

  test('a refused refresh is reported with Microsoft\'s reason', async () => {
    const tokens = new StoredTokens({ store: memoryTokenStore(), key: 'k', service: 'Microsoft', refresh: (refreshToken) => refreshTokens(client, refreshToken) });
    await tokens.save({ accessToken: 'graph-stale', refreshToken: 'bad-refresh' });
    const provider = new MicrosoftContactsProvider({ tokens, baseUrl: graph.url });
    await assert.rejects(provider.search('anyone'), { message: 'the token endpoint refused the refresh: invalid_grant (AADSTS70000: The provided value for the refresh token is not valid.)' });
  });
});
