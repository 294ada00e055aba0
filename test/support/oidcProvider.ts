// A real OpenID provider on loopback for tests: panva's oidc-provider (a certified implementation),
// with confidential clients that get JWT access tokens through the client credentials grant and
// a resource indicator (RFC 8707): the token's `aud` is the resource asked for. The grant has no
// person in it, so the claim naming the person is added to the token as it is issued
// (extraTokenClaims), the way a provider maps a user's attribute into an access token. Such a
// token's `sub` is its client: each of ACCOUNTS is one, so tokens of different accounts differ
// in `sub` as two users' tokens do.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface TestOidcProvider {
  readonly issuer: string;
  /** A signed JWT access token for `resource` carrying `claims` (e.g. preferred_username), of `account` (its `sub`; default xos-team). */
  token(resource: string, claims: Record<string, unknown>, account?: Account): Promise<string>;
  close(): Promise<void>;
}

const CLIENT_ID = 'xos-team';
/** The accounts (clients) tokens may be of: their `sub`. */
export const ACCOUNTS = [CLIENT_ID, 'acct-anna', 'acct-otto', 'acct-rita', 'acct-mallory'] as const;
export type Account = typeof ACCOUNTS[number];
const CLIENT_SECRET = 'a-client-secret-for-tests-only-0123456789';

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const key = { ...(await exportJWK(privateKey)), kid: 'test-es256', alg: 'ES256', use: 'sig' };
  // Tokens are asked for one at a time, so the claims of the one being issued are these.
  let claims: Record<string, unknown> = {};
  let queue: Promise<unknown> = Promise.resolve();
  const provider = new Provider(issuer, {
    clients: ACCOUNTS.map((client_id) => ({ client_id, client_secret: CLIENT_SECRET, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], id_token_signed_response_alg: 'ES256' })),
    jwks: { keys: [key] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: 'api', audience: resource, accessTokenTTL: 300, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
    ttl: { ClientCredentials: 300 },
    extraTokenClaims: () => claims,
  });
  server.on('request', provider.callback());

  const issue = async (resource: string, given: Record<string, unknown>, account: Account): Promise<string> => {
    claims = given;
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${account}:${CLIENT_SECRET}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'api' }),
    });
    const body = await response.json() as { access_token?: string; error?: string; error_description?: string };
    if (!response.ok || !body.access_token) throw new Error(`the provider issued no token: ${JSON.stringify(body)}`);
    return body.access_token;
  };
  return {
    issuer,
    token: (resource, given, account = CLIENT_ID) => {
      const next = queue.then(() => issue(resource, given, account));
      queue = next.catch(() => undefined);
      return next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
