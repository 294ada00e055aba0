// OAuth with PKCE against a local token endpoint: the loopback redirect, the
// state check, the code_verifier check, refreshes, and what is never logged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizationUrl, createPkce, listenForRedirect, refreshTokens, signIn, type OAuthClient } from '../../src/contacts/oauth.ts';
import { memoryTokenStore, NotSignedInError, StoredTokens } from '../../src/contacts/tokens.ts';

interface TokenServer {
  readonly url: string;
  readonly requests: URLSearchParams[];
  /** The challenge the next code was issued for (set by the test's "browser"). */
  challenge: string;
  close(): Promise<void>;
}

async function sha256Base64Url(text: string): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('base64url');
}

/** A token endpoint that checks the PKCE verifier and issues numbered tokens. */
async function startTokenServer(): Promise<TokenServer> {
  let issued = 0;
  const requests: URLSearchParams[] = [];
  const state: TokenServer = { url: '', requests, challenge: '', close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', async () => {
      const form = new URLSearchParams(raw);
      requests.push(form);
      const reply = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return reply(400, { error: 'invalid_request' });
      if (form.get('grant_type') === 'authorization_code') {
        if (form.get('code') !== 'the-code') return reply(400, { error: 'invalid_grant', error_description: 'Unknown code' });
        if (!state.challenge || (await sha256Base64Url(form.get('code_verifier') ?? '')) !== state.challenge) {
          return reply(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        }
        issued += 1;
        return reply(200, { access_token: `access-${issued}`, refresh_token: 'refresh-secret-1', expires_in: 3600, token_type: 'Bearer' });
      }
      if (form.get('grant_type') === 'refresh_token') {
        if (form.get('refresh_token') !== 'refresh-secret-1') return reply(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        issued += 1;
        return reply(200, { access_token: `access-${issued}`, expires_in: 3600, token_type: 'Bearer' });
      }
      return reply(400, { error: 'unsupported_grant_type' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

const clientFor = (tokenEndpoint: string): OAuthClient => ({
  authorizationEndpoint: 'https://login.example/authorize',
  tokenEndpoint,
  clientId: 'xos-test-client',
  scopes: ['Contacts.Read', 'offline_access'],
  authorizationParams: { prompt: 'consent' },
});

test('a PKCE pair is a 43-character verifier and its S256 challenge', async () => {
  const { verifier, challenge } = createPkce();
  assert.match(verifier, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(challenge, await sha256Base64Url(verifier));
  assert.notEqual(createPkce().verifier, verifier);
});

test('the authorization URL carries client, redirect, scopes, state and challenge', () => {
  const url = new URL(authorizationUrl(clientFor('http://127.0.0.1:1/token'), { redirectUri: 'http://127.0.0.1:5000/callback', state: 's1', challenge: 'c1' }));
  assert.equal(url.origin + url.pathname, 'https://login.example/authorize');
  assert.deepEqual(Object.fromEntries(url.searchParams), {
    response_type: 'code', client_id: 'xos-test-client', redirect_uri: 'http://127.0.0.1:5000/callback', scope: 'Contacts.Read offline_access',
    state: 's1', code_challenge: 'c1', code_challenge_method: 'S256', prompt: 'consent',
  });
});

describe('sign-in through the loopback redirect', () => {
  let tokens: TokenServer;
  before(async () => {
    tokens = await startTokenServer();
  });
  after(() => tokens.close());

  /** Plays the browser: the provider "signs in" and redirects with `params` (state taken from the request unless given). */
  const browser = (params: Record<string, string>, seen: { page?: string; status?: number; redirect?: string }) => async (url: string) => {
    const request = new URL(url).searchParams;
    tokens.challenge = request.get('code_challenge') ?? '';
    const redirect = new URL(request.get('redirect_uri')!);
    redirect.search = new URLSearchParams({ state: request.get('state')!, ...params }).toString();
    seen.redirect = redirect.href;
    const res = await fetch(redirect);
    seen.status = res.status;
    seen.page = await res.text();
    return true;
  };

  test('exchanges the code with the verifier, answers the browser and closes the listener', async () => {
    const seen: { page?: string; status?: number; redirect?: string } = {};
    const result = await signIn(clientFor(tokens.url), { openExternal: browser({ code: 'the-code' }, seen) });
    assert.equal(result.accessToken, 'access-1');
    assert.equal(result.refreshToken, 'refresh-secret-1');
    assert.ok(result.expiresAt! > Date.now() + 3_500_000 && result.expiresAt! <= Date.now() + 3_600_000);
    assert.equal(seen.status, 200);
    assert.match(seen.page!, /You can close this tab and return to VS Code\./);
    assert.match(seen.redirect!, /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    const exchange = tokens.requests.at(-1)!;
    assert.deepEqual([...exchange.keys()].sort(), ['client_id', 'code', 'code_verifier', 'grant_type', 'redirect_uri']);
    assert.equal(exchange.get('redirect_uri'), seen.redirect!.split('?')[0]);
    await assert.rejects(fetch(seen.redirect!), (error: Error) => /fetch failed/.test(error.message));
  });

  test('a redirect with another state is refused', async () => {
    const seen: { page?: string; status?: number } = {};
    await assert.rejects(signIn(clientFor(tokens.url), { openExternal: browser({ code: 'the-code', state: 'forged' }, seen) }), {
      name: 'OAuthError', message: 'the sign-in answer carried the wrong state; start the sign-in again',
    });
    assert.equal(seen.status, 400);
  });

  test('a refused consent is reported with the provider\'s reason', async () => {
    await assert.rejects(signIn(clientFor(tokens.url), { openExternal: browser({ error: 'access_denied', error_description: 'The user declined' }, {}) }), {
      message: 'sign-in was refused: access_denied (The user declined)',
    });
  });

  test('a wrong code_verifier is refused by the token endpoint', async () => {
    const openExternal = async (url: string) => {
      const ok = await browser({ code: 'the-code' }, {})(url);
      tokens.challenge = 'not-the-challenge';
      return ok;
    };
    // The browser answer settles before the exchange; the challenge is replaced in between.
    await assert.rejects(signIn(clientFor(tokens.url), { openExternal }), {
      message: 'the token endpoint refused the sign-in: invalid_grant (PKCE verification failed)',
    });
  });

  test('no redirect in time, or no browser, ends the sign-in', async () => {
    await assert.rejects(signIn(clientFor(tokens.url), { openExternal: async () => true, timeoutMs: 100 }), { message: 'no sign-in within 0.1 s' });
    await assert.rejects(signIn(clientFor(tokens.url), { openExternal: async () => false }), { message: 'the browser could not be opened for the sign-in' });
  });

  test('the listener ignores other paths and takes only one callback', async () => {
    const redirect = await listenForRedirect('st');
    const other = await fetch(redirect.redirectUri.replace('/callback', '/favicon.ico'));
    assert.equal(other.status, 404);
    await other.text();
    const first = await fetch(`${redirect.redirectUri}?state=st&code=c-1`);
    assert.equal(first.status, 200);
    await first.text();
    assert.equal(await redirect.code, 'c-1');
    await assert.rejects(fetch(`${redirect.redirectUri}?state=st&code=c-2`));
  });

  test('stored tokens are refreshed when expired and after a refusal, keeping the refresh token', async () => {
    const store = memoryTokenStore();
    const client = clientFor(tokens.url);
    let now = 1_000_000;
    const stored = new StoredTokens({ store, key: 'xos.test.tokens', service: 'Test', refresh: (refreshToken) => refreshTokens(client, refreshToken), now: () => now });
    await assert.rejects(stored.token(), (error: Error) => error instanceof NotSignedInError && error.message === 'not signed in to Test; run the sign-in command');
    await stored.save({ accessToken: 'old', refreshToken: 'refresh-secret-1', expiresAt: now + 30_000 });
    // Within the margin before expiry: renewed.
    const renewed = await stored.token();
    assert.match(renewed, /^access-\d+$/);
    const refresh = tokens.requests.at(-1)!;
    assert.equal(refresh.get('grant_type'), 'refresh_token');
    assert.equal(refresh.get('scope'), 'Contacts.Read offline_access');
    assert.equal(JSON.parse(store.values.get('xos.test.tokens')!).refreshToken, 'refresh-secret-1');
    now = Date.now();
    assert.equal(await stored.token(), renewed);
    // A refused token: two searches at once share one refresh.
    const before = tokens.requests.length;
    const [a, b] = await Promise.all([stored.refresh(renewed), stored.refresh(renewed)]);
    assert.equal(a, b);
    assert.notEqual(a, renewed);
    assert.equal(tokens.requests.length, before + 1);
    // A token already replaced is not refreshed again.
    assert.equal(await stored.refresh(renewed), a);
    assert.equal(tokens.requests.length, before + 1);
  });

  test('a revoked refresh token is reported without the token itself', async () => {
    const stored = new StoredTokens({ store: memoryTokenStore(), key: 'k', service: 'Test', refresh: (refreshToken) => refreshTokens(clientFor(tokens.url), refreshToken) });
    await stored.save({ accessToken: 'a', refreshToken: 'refresh-secret-revoked' });
    await assert.rejects(stored.refresh('a'), (error: Error) => {
      assert.equal(error.message, 'the token endpoint refused the refresh: invalid_grant (Token has been expired or revoked.)');
      assert.ok(!error.message.includes('refresh-secret'));
      return true;
    });
    const withoutRefresh = new StoredTokens({ store: memoryTokenStore({ k: JSON.stringify({ accessToken: 'a' }) }), key: 'k', service: 'Test', refresh: () => Promise.reject(new Error('unused')) });
    await assert.rejects(withoutRefresh.refresh('a'), { message: 'Test refused the access token and there is no refresh token; sign in again' });
  });
});
