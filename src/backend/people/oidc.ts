// OpenID Connect sign-in: a bearer that is a JWT of the team's identity provider names a person
// (xos-server --oidc-issuer/--oidc-audience). The signature is checked against the keys the
// issuer publishes (its discovery document's jwks_uri); the person's role, and whether they may
// come in at all, is the team's users' table's: the administrator adds them with
// `xos-server users add <name> --oidc`, and revoking works as for a token. Person tokens
// (src/backend/people/tokens.ts) never reach this module, and JWTs never reach theirs.
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { isLoopbackHost } from '../../net/loopbackHost.ts';
import type { Person } from './person.ts';
import { shortCache } from './shortCache.ts';
import { PERSON_CACHE_MS } from './tokens.ts';
import { nameProblem, type OidcStanding, type Users } from './users.ts';

export interface OidcSettings {
  /** The identity provider's issuer URL: https, or http on this machine only. */
  readonly issuer: string;
  /** The `aud` the tokens must carry: the API's identifier or the client id, as the provider issues them. */
  readonly audience: string;
  /** The claim that holds the person's name; absent: preferred_username, else email, else sub. */
  readonly claim?: string;
}

/** Asymmetric signatures only: a shared secret (HS*) or none would let anyone who knows it mint tokens. */
export const OIDC_ALGORITHMS: readonly string[] = ['RS256', 'ES256', 'EdDSA', 'Ed25519'];
/** The clocks of the provider and of this server may differ by this much (seconds). */
export const OIDC_CLOCK_TOLERANCE_S = 30;
/** The claims tried, in order, when no --oidc-claim is given. */
export const DEFAULT_NAME_CLAIMS: readonly string[] = ['preferred_username', 'email', 'sub'];
const FETCH_TIMEOUT_MS = 5000;

/** Why `issuer` cannot be the identity provider, or undefined (https, or http for this machine only). */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `--oidc-issuer "${issuer}" is not a URL; give the identity provider's issuer, like https://login.example.com/realms/team`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `--oidc-issuer must start with https://, not ${url.protocol}//`;
  if (url.username || url.password || url.search || url.hash) return `--oidc-issuer must be the plain issuer URL, without a user, password, query or fragment (got ${url.origin}…)`;
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `--oidc-issuer ${url.origin} uses plain http to another machine, so its keys could be replaced on the way; use https://${url.host}, or http only for 127.0.0.1 or localhost`;
  }
  return undefined;
}

/** Whether a bearer is shaped like a JWT (three base64url parts; the signature may be empty, as in alg none). */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

/** The person's name in a verified token's claims, or why there is none (said with the claim). */
export function nameFromClaims(payload: JWTPayload, claim?: string): { readonly name: string; readonly claim: string } | { readonly problem: string } {
  const claims = claim === undefined ? DEFAULT_NAME_CLAIMS : [claim];
  const found = claims.find((c) => typeof payload[c] === 'string' && payload[c] !== '');
  if (found === undefined) {
    return { problem: claim === undefined
      ? `The token has none of the claims ${DEFAULT_NAME_CLAIMS.join(', ')}, so it names no person; have the identity provider include preferred_username, or start xos-server with --oidc-claim <claim>.`
      : `The token has no "${claim}" claim (a string), which names the person on this server (--oidc-claim); have the identity provider include it.` };
  }
  const name = payload[found] as string;
  // Anyone may type any address into an account; only one the provider checked names a person.
  if (found === 'email' && payload.email_verified !== true) {
    return { problem: 'The token names the person by "email", but the identity provider has not verified that address (email_verified is not true), so it names nobody; verify the address at the identity provider, or have it send preferred_username.' };
  }
  const problem = nameProblem(name);
  if (problem) {
    // The rule's words after the name; the name itself quoted as JSON, so a line break shows as \n.
    const rule = problem.slice(problem.lastIndexOf(' is not a valid user name'));
    return { problem: `The token's "${found}" claim ${JSON.stringify(shorten(name))}${rule}; have the identity provider send a valid name in it, or start xos-server with --oidc-claim naming a claim that holds one.` };
  }
  return { name, claim: found };
}

/** A token that does not let its bearer in: 401 (not proven), 403 (proven, not allowed), 503 (cannot tell now). */
export class OidcRefusal extends Error {
  readonly status: 401 | 403 | 503;
  constructor(status: 401 | 403 | 503, message: string) {
    super(message);
    this.name = 'OidcRefusal';
    this.status = status;
  }
}

/** The person a JWT proves, or an OidcRefusal. */
export type OidcLookup = (jwt: string) => Promise<Person>;

export interface OidcLookupOptions {
  readonly fetch?: typeof fetch;
  /** The verifier's clock (tests move it past a token's expiry). */
  readonly now?: () => Date;
  /** How long a name's standing in the users' table is reused (like a token's: revocation reaches every instance within it). */
  readonly ttlMs?: number;
}

/** Verifies JWTs of `settings.issuer` and finds their person among `users` (those added with --oidc). */
export function oidcPersonLookup(settings: OidcSettings, users: Pick<Users, 'oidcStanding' | 'bindOidcSubject'>, options: OidcLookupOptions = {}): OidcLookup {
  const keys = issuerKeys(settings.issuer, options.fetch ?? fetch);
  const standing = shortCache((name) => users.oidcStanding(name), { ttlMs: options.ttlMs ?? PERSON_CACHE_MS });
  return async (jwt) => {
    const { issuer, getKey } = await keys();
    const payload = await verify(jwt, issuer, settings.audience, getKey, options.now);
    const named = nameFromClaims(payload, settings.claim);
    if ('problem' in named) throw new OidcRefusal(401, named.problem);
    let answer: OidcStanding;
    try {
      answer = await standing(named.name);
    } catch {
      throw new OidcRefusal(503, 'The database that holds the team\'s users does not answer; try again in a moment.');
    }
    switch (answer.state) {
      case 'active':
        try {
          return await boundPerson(users, answer, named.name, payload.sub);
        } catch (error) {
          if (error instanceof OidcRefusal) throw error;
          throw new OidcRefusal(503, 'The database that holds the team\'s users does not answer; try again in a moment.');
        }
      case 'absent': throw new OidcRefusal(403, `${named.name} (the token's "${named.claim}") is not a user of this app: ask the administrator to add ${named.name} (xos-server users add ${named.name} --oidc).`);
      case 'token': throw new OidcRefusal(403, `The user ${named.name} signs in with their XOS token, not with OpenID Connect: send that token, or ask the administrator.`);
      case 'revoked': throw new OidcRefusal(403, `The user ${named.name} was revoked (${answer.at}); ask the administrator.`);
    }
  };
}

/**
 * The person of an active standing, once the token's account (`sub`) is theirs: bound at their first
 * token, refused for any other account that carries their name (another account of the same
 * provider, named alike), and an account that is another person's never becomes theirs.
 */
async function boundPerson(users: Pick<Users, 'bindOidcSubject'>, standing: Extract<OidcStanding, { state: 'active' }>, name: string, subject: unknown): Promise<Person> {
  if (typeof subject !== 'string' || subject === '') throw new OidcRefusal(401, 'The token has no "sub" claim, so it names no account of the identity provider; have the identity provider include it.');
  if (standing.subject === subject) return standing.person;
  const binding = standing.subject === undefined ? await users.bindOidcSubject(name, subject) : 'other-account';
  switch (binding) {
    case 'bound': return standing.person;
    case 'other-account': throw new OidcRefusal(403, `${name} signs in with another account of the identity provider than this token's (its "sub"); another account that carries the name ${name} is not ${name}. Ask the administrator.`);
    case 'account-taken': throw new OidcRefusal(403, `This account of the identity provider (its "sub") signs in as another user of this app, not as ${name}. Ask the administrator.`);
  }
}

/**
 * The issuer as its discovery document names it and its key set, fetched on the first JWT and
 * kept (jose refetches the keys for a key id it does not know, so a key rotation needs no restart).
 * A provider that does not answer is not remembered: the next request asks again.
 */
function issuerKeys(configured: string, doFetch: typeof fetch): () => Promise<{ issuer: string; getKey: JWTVerifyGetKey }> {
  let found: Promise<{ issuer: string; getKey: JWTVerifyGetKey }> | undefined;
  return () => {
    if (!found) {
      const attempt = discover(configured, doFetch);
      found = attempt;
      attempt.catch(() => { if (found === attempt) found = undefined; });
    }
    return found;
  };
}

async function discover(configured: string, doFetch: typeof fetch): Promise<{ issuer: string; getKey: JWTVerifyGetKey }> {
  const where = `${configured.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let document: { issuer?: unknown; jwks_uri?: unknown };
  try {
    const response = await doFetch(where, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    document = await response.json() as typeof document;
  } catch (error) {
    throw new OidcRefusal(503, `The identity provider's discovery document (${where}) could not be read (${(error as Error).message}); try again in a moment, or check --oidc-issuer.`);
  }
  // The issuer may differ from --oidc-issuer only by a trailing slash; tokens must name it exactly.
  const issuer = typeof document.issuer === 'string' ? document.issuer : '';
  if (issuer.replace(/\/+$/, '') !== configured.replace(/\/+$/, '')) {
    throw new OidcRefusal(503, `The discovery document at ${where} names the issuer ${JSON.stringify(shorten(issuer))}, not ${configured}; check --oidc-issuer.`);
  }
  const jwksUri = typeof document.jwks_uri === 'string' ? document.jwks_uri : '';
  if (issuerProblem(jwksUri)) throw new OidcRefusal(503, `The discovery document at ${where} has no usable jwks_uri (${JSON.stringify(shorten(jwksUri))}): it must be https, or http on this machine.`);
  return { issuer, getKey: createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: FETCH_TIMEOUT_MS }) };
}

async function verify(jwt: string, issuer: string, audience: string, getKey: JWTVerifyGetKey, now?: () => Date): Promise<JWTPayload> {
  // Read unverified only to say clearly why a token is refused; what lets it in is jwtVerify.
  let alg: unknown;
  let iss: unknown;
  try {
    alg = decodeProtectedHeader(jwt).alg;
    iss = decodeJwt(jwt).iss;
  } catch {
    throw new OidcRefusal(401, 'The bearer token is not a valid JWT; send the access token your identity provider issued.');
  }
  if (typeof alg !== 'string' || !OIDC_ALGORITHMS.includes(alg)) {
    throw new OidcRefusal(401, `The token is signed with ${JSON.stringify(shorten(String(alg)))}, which this server does not accept; it accepts ${OIDC_ALGORITHMS.join(', ')}.`);
  }
  if (iss !== issuer) throw new OidcRefusal(401, `The token was issued by ${JSON.stringify(shorten(String(iss)))}; this server accepts tokens of ${issuer} only.`);
  try {
    const { payload } = await jwtVerify(jwt, getKey, {
      issuer, audience, algorithms: [...OIDC_ALGORITHMS], clockTolerance: OIDC_CLOCK_TOLERANCE_S, ...(now ? { currentDate: now() } : {}),
    });
    return payload;
  } catch (error) {
    throw refusalOf(error, audience);
  }
}

/** jose's reasons, said for the person holding the token. */
function refusalOf(error: unknown, audience: string): OidcRefusal {
  const { code, claim } = error as { code?: string; claim?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED': return new OidcRefusal(401, 'The token has expired; get a new one from your identity provider.');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'aud') return new OidcRefusal(401, `The token is for another audience; this server accepts tokens for "${audience}" (--oidc-audience) only.`);
      if (claim === 'nbf') return new OidcRefusal(401, 'The token is not valid yet (nbf); check the clocks of this server and of the identity provider.');
      return new OidcRefusal(401, `The token's "${claim ?? 'claims'}" claim is not accepted: ${(error as Error).message}.`);
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED': return new OidcRefusal(401, 'The token\'s signature does not verify: it was changed, or not signed by the identity provider.');
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return new OidcRefusal(401, 'The token is signed with a key the identity provider does not publish.');
    case 'ERR_JOSE_ALG_NOT_ALLOWED': return new OidcRefusal(401, `The token's algorithm is not accepted; this server accepts ${OIDC_ALGORITHMS.join(', ')}.`);
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return new OidcRefusal(401, 'The bearer token is not a valid JWT; send the access token your identity provider issued.');
    default:
      // The key set could not be fetched or read: the provider's trouble, not the token's.
      return new OidcRefusal(503, 'The identity provider\'s keys could not be fetched; try again in a moment.');
  }
}

/** A value from a token, short enough for an error message (quoted with JSON.stringify where shown). */
function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
