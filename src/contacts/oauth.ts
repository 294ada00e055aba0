// OAuth 2.0 for installed apps: authorization code with PKCE (S256) and a
// loopback redirect on 127.0.0.1, then the token exchange and refreshes.
// Opening the browser is injected, so is the HTTP client; refresh tokens and
// codes never appear in a message.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetch, type Fetch } from './httpFetch.ts';
import type { OAuthTokens } from './tokens.ts';

export interface OAuthClient {
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly clientId: string;
  /** Google's installed-app clients have one; it is not a secret there. */
  readonly clientSecret?: string;
  readonly scopes: readonly string[];
  /** Provider-specific parameters, e.g. Google's access_type=offline. */
  readonly authorizationParams?: Readonly<Record<string, string>>;
}

export interface SignInOptions {
  /** Opens the URL in the person's browser; false means it could not. */
  readonly openExternal: (url: string) => Promise<boolean>;
  readonly fetch?: Fetch;
  /** How long to wait for the redirect (default five minutes). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export class OAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthError';
  }
}

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

/** RFC 7636: a 43-character verifier and its S256 challenge. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

const CLOSE_TAB_PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>XOS</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

export interface LoopbackRedirect {
  readonly redirectUri: string;
  /** The authorization code, once the browser comes back with the expected state. */
  readonly code: Promise<string>;
  close(): void;
}

/**
 * Listens once on http://127.0.0.1:<free port>/callback. The first callback
 * settles it (code, refusal or wrong state) and closes the listener; so does the timeout.
 */
export async function listenForRedirect(state: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<LoopbackRedirect> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A caller that gives up early must not leave an unhandled rejection behind.
  code.catch(() => undefined);
  let done = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback' || done) {
      res.writeHead(404, { 'content-type': 'text/plain', connection: 'close' }).end('Not found');
      return;
    }
    const answer = (status: number, title: string, text: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close', 'cache-control': 'no-store' }).end(CLOSE_TAB_PAGE(title, text));
    const error = url.searchParams.get('error');
    if (url.searchParams.get('state') !== state) {
      answer(400, 'Sign-in failed', 'The answer did not belong to this sign-in. Start it again in VS Code.');
      finish(new OAuthError('the sign-in answer carried the wrong state; start the sign-in again'));
    } else if (error) {
      const description = url.searchParams.get('error_description');
      answer(400, 'Sign-in refused', 'You can close this tab and return to VS Code.');
      finish(new OAuthError(`sign-in was refused: ${error}${description ? ` (${description})` : ''}`));
    } else if (!url.searchParams.get('code')) {
      answer(400, 'Sign-in failed', 'The answer carried no authorization code. Start it again in VS Code.');
      finish(new OAuthError('the sign-in answer carried no authorization code'));
    } else {
      answer(200, 'Signed in', 'You can close this tab and return to VS Code.');
      finish(undefined, url.searchParams.get('code')!);
    }
  });
  const timer = setTimeout(() => finish(new OAuthError(`no sign-in within ${timeoutMs / 1000} s`)), timeoutMs);
  const onAbort = () => finish(new OAuthError('sign-in cancelled'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  function finish(error: Error | undefined, value?: string): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    server.close();
    // Let the answer page go out before the connection is dropped.
    setImmediate(() => server.closeAllConnections());
    if (error) settle.reject(error);
    else settle.resolve(value!);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, code, close: () => finish(new OAuthError('sign-in cancelled')) };
}

/** The whole sign-in: browser, redirect, code exchange. */
export async function signIn(client: OAuthClient, options: SignInOptions): Promise<OAuthTokens> {
  const pkce = createPkce();
  const state = randomBytes(16).toString('base64url');
  const redirect = await listenForRedirect(state, { timeoutMs: options.timeoutMs, signal: options.signal });
  try {
    const url = authorizationUrl(client, { redirectUri: redirect.redirectUri, state, challenge: pkce.challenge });
    if (!(await options.openExternal(url))) throw new OAuthError('the browser could not be opened for the sign-in');
    const code = await redirect.code;
    return await exchangeCode(client, { code, verifier: pkce.verifier, redirectUri: redirect.redirectUri }, options);
  } finally {
    redirect.close();
  }
}

export function authorizationUrl(client: OAuthClient, request: { redirectUri: string; state: string; challenge: string }): string {
  const url = new URL(client.authorizationEndpoint);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: request.redirectUri,
    scope: client.scopes.join(' '),
    state: request.state,
    code_challenge: request.challenge,
    code_challenge_method: 'S256',
    ...client.authorizationParams,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

export function exchangeCode(client: OAuthClient, grant: { code: string; verifier: string; redirectUri: string }, options: { fetch?: Fetch; signal?: AbortSignal } = {}): Promise<OAuthTokens> {
  return tokenRequest(client, { grant_type: 'authorization_code', code: grant.code, code_verifier: grant.verifier, redirect_uri: grant.redirectUri }, options);
}

export function refreshTokens(client: OAuthClient, refreshToken: string, options: { fetch?: Fetch; signal?: AbortSignal } = {}): Promise<OAuthTokens> {
  return tokenRequest(client, { grant_type: 'refresh_token', refresh_token: refreshToken, scope: client.scopes.join(' ') }, options);
}

interface TokenResponse {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
  error_description?: unknown;
}

async function tokenRequest(client: OAuthClient, fields: Record<string, string>, options: { fetch?: Fetch; signal?: AbortSignal }): Promise<OAuthTokens> {
  const fetch = options.fetch ?? createFetch();
  const body = new URLSearchParams({ client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}), ...fields });
  const res = await fetch(client.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: body.toString(),
    signal: options.signal,
  });
  const text = await res.text();
  let parsed: TokenResponse = {};
  try {
    parsed = JSON.parse(text) as TokenResponse;
  } catch {
    // Reported below with the status.
  }
  if (!res.ok || typeof parsed.access_token !== 'string') {
    const reason = typeof parsed.error === 'string'
      ? `${parsed.error}${typeof parsed.error_description === 'string' ? ` (${parsed.error_description})` : ''}`
      : `HTTP ${res.status}`;
    throw new OAuthError(`the token endpoint refused the ${fields.grant_type === 'refresh_token' ? 'refresh' : 'sign-in'}: ${reason}`);
  }
  return {
    accessToken: parsed.access_token,
    ...(typeof parsed.refresh_token === 'string' ? { refreshToken: parsed.refresh_token } : {}),
    ...(typeof parsed.expires_in === 'number' ? { expiresAt: Date.now() + parsed.expires_in * 1000 } : {}),
  };
}
