// The XOS HTTP endpoint: POST /graphql, GET /xos/ast, GET /xos/me, GET /healthz (DESIGN §4).
// Checks come before any work: Host (against DNS rebinding on loopback),
// Origin (web pages are refused: no CORS, ever), the bearer token, the content
// type and the body size. Who wrote (the audit trail's path and approval) is
// taken from a request only when it carries the front-end token, which only
// XOS's own front ends hold, or a person's own token (src/backend/people/tokens.ts),
// which also names the person; any other client's writes are recorded as `api`.
import { AUDIT_HEADER } from './storage/audit.ts';
import { unprovenAuditClaim } from './graphql/audit.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { XosApi, GraphQLRequest } from './graphql/api.ts';
import type { AuditState } from './storage/types.ts';
import { createChangeRoutes, type ChangeRoutesOptions, type StillLetIn } from './changes/sse.ts';
import type { Person } from './people/person.ts';
import { meBody, type PersonLookup } from './people/tokens.ts';
import { looksLikeJwt, OidcRefusal, type OidcLookup } from './people/oidc.ts';
import { RoleError } from './roles.ts';

export const DEFAULT_MAX_BODY = 1024 * 1024;

export interface HttpOptions {
  readonly host?: string;
  readonly port?: number;
  readonly token?: string;
  /**
   * The front-end token: XOS's own front ends (the VS Code extension, xos-mcp) authenticate with it
   * instead of `token`, and only their requests' audit claims (`extensions.xos`, the `x-xos-audit`
   * header: path agent or board, the person's approval) are recorded as given. Without it, every
   * request's writes are recorded as `api`. It opens the API like `token` and must differ from it.
   */
  readonly frontendToken?: string;
  /**
   * The team's person tokens (xos-server users): a bearer token that is neither `token` nor
   * `frontendToken` is looked up here. A person's token opens the API in their name; their own
   * client's audit claims (path, approval) are recorded as given, with the proven person.
   */
  readonly people?: PersonLookup;
  /**
   * OpenID Connect sign-in (xos-server --oidc-issuer): a bearer shaped like a JWT is verified here
   * and only here (never looked up as a person token); one that does not verify is refused.
   */
  readonly oidc?: OidcLookup;
  /** Serve a non-loopback host without a token (refused otherwise). */
  readonly insecureNoToken?: boolean;
  readonly maxBodyBytes?: number;
  readonly log?: (line: string) => void;
  /** Whether the backend keeps its audit trail, for /healthz (front ends show it in the status). */
  readonly audit?: AuditState;
  /** The change feed's routes (GET /xos/changes, POST /xos/presence): stream limit, heartbeat, presence TTL. */
  readonly changes?: ChangeRoutesOptions;
}

export interface RunningHttpServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);
const IPV4_LOOPBACK = /^127(\.\d{1,3}){3}$/;

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || IPV4_LOOPBACK.test(host);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The person a JWT proves; a refusal says why, with its status (401 not proven, 403 not allowed, 503 cannot tell now). */
async function signInWithOidc(oidc: OidcLookup, jwt: string): Promise<Person> {
  try {
    return await oidc(jwt);
  } catch (error) {
    if (!(error instanceof OidcRefusal)) throw error;
    if (error.status === 401) throw new HttpError(401, 'UNAUTHENTICATED', error.message, { 'www-authenticate': 'Bearer error="invalid_token"' });
    if (error.status === 403) throw new HttpError(403, 'FORBIDDEN', error.message);
    throw new HttpError(503, 'UNAVAILABLE', error.message, { 'retry-after': '5' });
  }
}

/** The person of a token; a database that cannot say is the server's trouble, said as such (503), not a wrong token. */
async function lookUpPerson(people: PersonLookup, token: string): Promise<Person | undefined> {
  try {
    return await people(token);
  } catch {
    throw new HttpError(503, 'UNAVAILABLE', 'The database that holds the team\'s users does not answer; try again in a moment.', { 'retry-after': '5' });
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is ${declared} bytes; at most ${limit} are accepted.`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop collecting but let the rest drain, so the 413 reaches the client.
        req.removeAllListeners('data');
        req.resume();
        reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is over ${limit} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The `x-xos-audit` header (URI-encoded JSON) as `extensions.xos`, unless the body gave its own. */
function withAuditHeader(request: GraphQLRequest, header: string | string[] | undefined): GraphQLRequest {
  if (typeof header !== 'string' || request.extensions?.xos !== undefined) return request;
  let xos: unknown;
  try {
    xos = JSON.parse(decodeURIComponent(header));
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', `The ${AUDIT_HEADER} header must be URI-encoded JSON like {"path":"board","approval":"..."}.`);
  }
  return { ...request, extensions: { ...request.extensions, xos } };
}

function parseGraphQLRequest(text: string): GraphQLRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', 'The body is not valid JSON; send {"query": "...", "variables": {...}}.');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'BAD_REQUEST', 'The body must be a JSON object with "query".');
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (typeof query !== 'string') throw new HttpError(400, 'BAD_REQUEST', 'The body needs "query" as a string.');
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) throw new HttpError(400, 'BAD_REQUEST', '"variables" must be an object.');
  if (operationName != null && typeof operationName !== 'string') throw new HttpError(400, 'BAD_REQUEST', '"operationName" must be a string.');
  if (extensions != null && (typeof extensions !== 'object' || Array.isArray(extensions))) throw new HttpError(400, 'BAD_REQUEST', '"extensions" must be an object.');
  return { query, variables: variables as Record<string, unknown> | null, operationName: operationName as string | null, extensions: extensions as Record<string, unknown> | null };
}

/** The AST as clients load it: everything but the seed data; the person's role's, when a person sends it. */
function publicAst(api: XosApi, person?: Person) {
  let ast;
  try {
    ast = api.astFor(person);
  } catch (error) {
    if (error instanceof RoleError) throw new HttpError(403, 'FORBIDDEN', error.message);
    throw error;
  }
  const { data: _data, ...rest } = ast;
  return rest;
}

/** The entities a person's role shows in some context (undefined: everything, no person or no roles). */
function readableEntities(api: XosApi, person: Person | undefined): ReadonlySet<string> | undefined {
  if (!person || !api.ast.roles) return undefined;
  try {
    return new Set(Object.values(api.astFor(person).contexts).map((context) => context.entity));
  } catch {
    return new Set();
  }
}

export async function startHttpServer(api: XosApi, options: HttpOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (!options.token && !options.insecureNoToken && !isLoopbackHost(host.replace(/^\[(.*)\]$/, '$1'))) {
    throw new Error(`refusing to serve ${host} without a token: anyone on the network could read and change the data; pass a token, or insecureNoToken`);
  }
  if (options.frontendToken !== undefined && options.frontendToken === options.token) {
    throw new Error('the front-end token must differ from the token: otherwise every API client could write in the person\'s name');
  }
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const log = options.log ?? (() => {});
  let port = 0;
  const changeRoutes = createChangeRoutes(api.storage, new Set(Object.keys(api.ast.entities)), {
    log, readableEntities: (person) => readableEntities(api, person), visibleRecords: (person, entity, ids) => api.visibleIds(person, entity, ids), ...options.changes,
  });

  const checkHost = (req: IncomingMessage) => {
    if (!isLoopbackHost(host)) return;
    const header = req.headers.host ?? '';
    const name = header.replace(/:\d+$/, '');
    const headerPort = header.match(/:(\d+)$/)?.[1];
    if (!LOOPBACK_NAMES.has(name) && !IPV4_LOOPBACK.test(name)) throw new HttpError(403, 'FORBIDDEN', `Host "${header}" is not this loopback server.`);
    if (headerPort && Number(headerPort) !== port) throw new HttpError(403, 'FORBIDDEN', `Host "${header}" names another port.`);
  };

  // A browser sends Origin with cross-site requests, and `null` from sandboxed
  // frames and files; only a page of this very server could be same-origin.
  const checkOrigin = (req: IncomingMessage) => {
    const origin = req.headers.origin;
    if (origin === undefined) return;
    if (origin !== `http://${req.headers.host ?? ''}`) {
      throw new HttpError(403, 'FORBIDDEN', `Requests from web pages (Origin "${origin}") are not accepted; call the XOS API from a program, without an Origin header.`);
    }
  };

  /** Whether the request may use the API, and whether it comes from one of XOS's own front ends (the front-end token). */
  const checkToken = async (req: IncomingMessage): Promise<{ frontEnd: boolean; person?: Person; stillLetIn?: StillLetIn }> => {
    const auth = req.headers.authorization ?? '';
    const given = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    // Both compared every time, in constant time.
    const frontEnd = given !== '' && options.frontendToken !== undefined && sameSecret(given, options.frontendToken);
    const plain = given !== '' && options.token !== undefined && sameSecret(given, options.token);
    if (plain || frontEnd) return { frontEnd };
    // An open change stream asks again every few seconds: a revoked person, a new role or (OIDC) an
    // expired token ends it.
    const samePerson = (person: Person, now: Person | undefined) => now?.name === person.name && (now.role ?? null) === (person.role ?? null);
    if (given !== '' && options.oidc && looksLikeJwt(given)) {
      const oidc = options.oidc;
      const person = await signInWithOidc(oidc, given);
      return { frontEnd, person, stillLetIn: async () => samePerson(person, await oidc(given).catch(() => undefined)) };
    }
    const person = given !== '' && options.people ? await lookUpPerson(options.people, given) : undefined;
    if (person) {
      const people = options.people!;
      return { frontEnd, person, stillLetIn: async () => samePerson(person, await people(given)) };
    }
    if (!options.token) return { frontEnd };
    throw new HttpError(401, 'UNAUTHENTICATED', given ? 'The bearer token is wrong.' : 'This server needs "Authorization: Bearer <token>".', { 'www-authenticate': 'Bearer' });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    checkHost(req);
    checkOrigin(req);
    if (path === '/healthz' && req.method === 'GET') {
      const started = Date.now();
      try {
        const latency = await api.storage.ping();
        send(res, 200, { ok: true, app: api.ast.app, dsn: { kind: api.storage.kind, ok: true, latency_ms: Math.round(latency * 100) / 100 }, ...(options.audit ? { audit: options.audit } : {}) });
      } catch {
        send(res, 503, { ok: false, app: api.ast.app, dsn: { kind: api.storage.kind, ok: false, latency_ms: Date.now() - started } });
      }
      return;
    }
    const { frontEnd, person, stillLetIn } = await checkToken(req);
    if (path === '/xos/me') {
      if (req.method !== 'GET') throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'Use GET /xos/me.', { allow: 'GET' });
      send(res, 200, meBody(person));
      return;
    }
    if (path === '/xos/ast') {
      if (req.method !== 'GET') throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'Use GET /xos/ast.', { allow: 'GET' });
      send(res, 200, publicAst(api, person));
      return;
    }
    if (path === '/graphql') {
      if (req.method !== 'POST') throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'Send GraphQL as POST /graphql with a JSON body.', { allow: 'POST' });
      const type = String(req.headers['content-type'] ?? '');
      if (!/^application\/(graphql-response\+)?json\b/i.test(type)) throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request as Content-Type: application/json.');
      const claimed = withAuditHeader(parseGraphQLRequest(await readBody(req, maxBody)), req.headers[AUDIT_HEADER]);
      // A claim to be the agent or the person, and an approval, count only from a front end, or from
      // a person's own client (the person vouches for it); who the person is, only their token says.
      const request = person ? { ...claimed, person } : frontEnd ? claimed : { ...claimed, extensions: unprovenAuditClaim(claimed.extensions) ?? null };
      const started = performance.now();
      const result = await api.run(request);
      log(`graphql ${(performance.now() - started).toFixed(1)} ms${result.errors ? ` errors=${result.errors.length}` : ''}`);
      send(res, 200, result);
      return;
    }
    if (await changeRoutes.handle(req, res, path, person, stillLetIn)) return;
    throw new HttpError(404, 'NOT_FOUND', `No route ${req.method} ${path}; use POST /graphql, GET /xos/ast, GET /xos/me or GET /healthz.`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) { res.destroy(); return; }
      if (e instanceof HttpError) {
        send(res, e.status, { errors: [{ message: e.message, extensions: { code: e.code } }] }, { ...e.headers, connection: e.status === 413 ? 'close' : 'keep-alive' });
      } else {
        log(`internal error: ${(e as Error)?.stack ?? e}`);
        send(res, 500, { errors: [{ message: 'Internal server error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
      }
    });
  });
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => { server.off('error', reject); resolve(); });
  });
  port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    server,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
