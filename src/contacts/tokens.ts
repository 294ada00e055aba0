// OAuth tokens kept in an injected store (SecretStorage in VS Code) and handed
// to the contact providers as a source of access tokens that can be renewed.
// The refresh token stays inside this module: never logged, never returned.

/** Where tokens live; the host passes VS Code's SecretStorage. */
export interface TokenStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface OAuthTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Epoch milliseconds after which the access token is not used any more. */
  readonly expiresAt?: number;
}

/** What a provider needs: a current access token, and a new one after a 401. */
export interface AccessTokenSource {
  token(signal?: AbortSignal): Promise<string>;
  /** Called once after the server refused `rejected`; returns a different token or throws. */
  refresh(rejected: string, signal?: AbortSignal): Promise<string>;
}

/** Exchanges a refresh token for new tokens (see oauth.ts). */
export type RefreshTokens = (refreshToken: string, signal?: AbortSignal) => Promise<OAuthTokens>;

/** Renew a little before the stated expiry, so a token does not expire in flight. */
const EXPIRY_MARGIN_MS = 60_000;

export class NotSignedInError extends Error {
  constructor(service: string) {
    super(`not signed in to ${service}; run the sign-in command`);
    this.name = 'NotSignedInError';
  }
}

/** Tokens stored as JSON under one key, refreshed when expired or refused. */
export class StoredTokens implements AccessTokenSource {
  private readonly store: TokenStore;
  private readonly key: string;
  private readonly service: string;
  private readonly refreshTokens: RefreshTokens;
  private readonly now: () => number;
  private refreshing: Promise<string> | undefined;

  constructor(options: { store: TokenStore; key: string; service: string; refresh: RefreshTokens; now?: () => number }) {
    this.store = options.store;
    this.key = options.key;
    this.service = options.service;
    this.refreshTokens = options.refresh;
    this.now = options.now ?? Date.now;
  }

  async token(signal?: AbortSignal): Promise<string> {
    const tokens = await this.read();
    if (!tokens) throw new NotSignedInError(this.service);
    if (tokens.expiresAt !== undefined && tokens.expiresAt - EXPIRY_MARGIN_MS <= this.now() && tokens.refreshToken) {
      return this.renew(tokens, signal);
    }
    return tokens.accessToken;
  }

  async refresh(rejected: string, signal?: AbortSignal): Promise<string> {
    const tokens = await this.read();
    if (!tokens) throw new NotSignedInError(this.service);
    // Another search may have renewed it meanwhile.
    if (tokens.accessToken !== rejected) return tokens.accessToken;
    if (!tokens.refreshToken) throw new Error(`${this.service} refused the access token and there is no refresh token; sign in again`);
    return this.renew(tokens, signal);
  }

  async save(tokens: OAuthTokens): Promise<void> {
    await this.store.set(this.key, JSON.stringify(tokens));
  }

  async clear(): Promise<void> {
    await this.store.delete(this.key);
  }

  async signedIn(): Promise<boolean> {
    return (await this.read()) !== undefined;
  }

  private renew(tokens: OAuthTokens, signal?: AbortSignal): Promise<string> {
    this.refreshing ??= (async () => {
      const fresh = await this.refreshTokens(tokens.refreshToken!, signal);
      // Servers may omit the refresh token on renewal: keep the old one then.
      await this.save({ ...fresh, refreshToken: fresh.refreshToken ?? tokens.refreshToken });
      return fresh.accessToken;
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async read(): Promise<OAuthTokens | undefined> {
    const raw = await this.store.get(this.key);
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<OAuthTokens>;
      return typeof parsed.accessToken === 'string' ? (parsed as OAuthTokens) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A store in memory, for tests and for a session without SecretStorage. */
export function memoryTokenStore(initial: Record<string, string> = {}): TokenStore & { readonly values: Map<string, string> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
    delete: async (key) => {
      values.delete(key);
    },
  };
}

/** GET with a bearer token; a 401 renews the token once and repeats the request. */
export async function getWithToken(fetch: typeof globalThis.fetch, url: string, tokens: AccessTokenSource, signal?: AbortSignal): Promise<Response> {
  const get = (token: string) => fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal });
  const token = await tokens.token(signal);
  const first = await get(token);
  if (first.status !== 401) return first;
  await first.arrayBuffer();
  return get(await tokens.refresh(token, signal));
}
