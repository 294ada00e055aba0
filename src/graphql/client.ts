// The XOS backend as the tools see it (XosClient): the embedded backend in this
// process, or a remote XOS server over HTTP (POST /graphql, GET /xos/ast, GET /healthz).
import { ClientError, GraphQLClient } from 'graphql-request';
import { astFromObject } from '../ast/load.ts';
import type { Ast } from '../ast/schema.ts';
import type { Backend } from '../backend/backend.ts';
import type { Person } from '../backend/people/person.ts';
import { BackendUnavailableError } from './unavailable.ts';
import { redactDsn } from '../backend/dsn.ts';
import { isLoopbackHost } from '../net/loopbackHost.ts';
import { AUDIT_HEADER } from '../backend/storage/audit.ts';
import type { DsnStatus, GraphQLErrorShape, GraphQLResult, XosClient } from './types.ts';
import { remoteFeed } from './remoteFeed.ts';
import { embeddedFeed } from './embeddedFeed.ts';

/** The backend started inside this process; `person`: who uses it, named with every request (the audit trail) and whose role applies. */
export function embeddedClient(backend: Backend, person?: Person): XosClient {
  const { api } = backend;
  const feed = embeddedFeed(api.storage);
  return {
    ...(feed ? { feed } : {}),
    run: async (query, variables, audit, signal) => {
      // On this thread a query, once started, runs to its end; only one not yet started is left out.
      signal?.throwIfAborted();
      const result = await api.run({ query, variables, ...(audit ? { extensions: { xos: audit } } : {}), ...(person ? { person } : {}) });
      signal?.throwIfAborted();
      // graphql-js builds null-prototype objects; the tools and the Board want plain JSON values.
      return JSON.parse(JSON.stringify(result)) as GraphQLResult;
    },
    ast: () => api.astFor(person),
    async status(): Promise<DsnStatus> {
      // The agent sees this: never user info, whatever the storage put in its description.
      const base = { kind: api.storage.kind, description: redactDsn(api.storage.description), audit: backend.migration.audit };
      try {
        const latency = await api.storage.ping();
        return { ...base, ok: true, latency_ms: Math.round(latency * 100) / 100 };
      } catch {
        return { ...base, ok: false, latency_ms: null };
      }
    },
  };
}

export interface RemoteClientOptions {
  /** Base URL of the XOS server, e.g. `http://127.0.0.1:4000`. */
  readonly endpoint: string;
  /** Bearer token, when the server was started with one. */
  readonly token?: string;
  /** Per request (default 15 s). */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

export const DEFAULT_REMOTE_TIMEOUT_MS = 15_000;

/**
 * Why `endpoint` cannot be used, or undefined. The token and all data go
 * there, so: http(s) only, no user info in the URL, and plain http only to
 * this machine.
 */
export function endpointProblem(endpoint: string): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    return `xos.endpoint is not a URL; use https://<host> for an XOS server, or http://127.0.0.1:<port> for one on this machine.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `xos.endpoint must start with https:// (or http:// for this machine), not ${url.protocol}//.`;
  if (url.username || url.password) {
    return `xos.endpoint must not contain a user or password (${url.protocol}//…@${url.host}); remove them and set the token with the command "XOS: Set Server Token".`;
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `xos.endpoint ${url.origin} uses plain http to another machine, so the token and all data would cross the network unencrypted. `
      + `Use https://${url.host}, or plain http only for 127.0.0.1 or localhost.`;
  }
  return undefined;
}

/**
 * The SecretStorage key of the bearer token for `endpoint`: bound to its
 * origin (scheme, host, port), so a different endpoint (say from a
 * workspace's settings) gets no token.
 */
export function endpointSecretKey(endpoint: string): string | undefined {
  try {
    return `xos.endpoint.token:${new URL(endpoint.trim()).origin}`;
  } catch {
    return undefined;
  }
}

/** Thrown when the remote server cannot give its AST; the message says what to check. */
export class RemoteClientError extends BackendUnavailableError {
  constructor(message: string, httpStatus?: number) {
    super(message, httpStatus);
    this.name = 'RemoteClientError';
  }
}

/** Connects to a remote XOS server: reads and validates its AST once, then serves queries. */
export async function connectRemoteClient(options: RemoteClientOptions): Promise<XosClient> {
  const problem = endpointProblem(options.endpoint);
  if (problem) throw new RemoteClientError(problem);
  const base = options.endpoint.trim().replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  const plainFetch = options.fetch ?? fetch;
  // A redirect could lead the token elsewhere: the endpoint answers itself or not at all.
  const doFetch: typeof fetch = (input, init) => plainFetch(input, { ...init, redirect: 'error' });
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const ast = await fetchAst(doFetch, base, headers, timeoutMs);
  const graphql = new GraphQLClient(`${base}/graphql`, { headers, fetch: doFetch, errorPolicy: 'all' });

  return {
    feed: remoteFeed({ base, headers, fetch: doFetch }),
    async run(query, variables, audit, signal) {
      // graphql-request sends no request extensions: the audit meta travels in a header instead.
      const requestHeaders = audit ? { [AUDIT_HEADER]: encodeURIComponent(JSON.stringify(audit)) } : undefined;
      const once = async () => {
        const timeout = AbortSignal.timeout(timeoutMs);
        const response = await graphql.rawRequest<Record<string, unknown> | null>({ query, variables, requestHeaders, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
        return {
          data: response.data, ...(response.errors?.length ? { errors: response.errors as unknown as GraphQLErrorShape[] } : {}),
          ...(response.extensions ? { extensions: response.extensions as Record<string, unknown> } : {}),
        };
      };
      try {
        try {
          return await once();
        } catch (error) {
          // A kept-alive connection the server closed meanwhile fails before anything was sent:
          // a read may ask once more; a write never does (it might have arrived).
          if (!isConnectionDrop(error) || /^\s*mutation\b/.test(query)) throw error;
          return await once();
        }
      } catch (error) {
        // Not a failure of the server: the caller let go of the answer.
        if (signal?.aborted) throw signal.reason;
        if (error instanceof ClientError && error.response.errors?.length) {
          return { data: (error.response.data as Record<string, unknown> | undefined) ?? null, errors: error.response.errors as unknown as GraphQLErrorShape[] };
        }
        throw new RemoteClientError(`the XOS server at ${base} ${describeFailure(error)}`, error instanceof ClientError ? error.response.status : undefined);
      }
    },
    ast: () => ast,
    async status(): Promise<DsnStatus> {
      const started = performance.now();
      try {
        const response = await doFetch(`${base}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
        const body = await response.json() as { ok?: boolean; dsn?: { kind?: string; ok?: boolean; latency_ms?: number }; audit?: { kept?: unknown; reason?: unknown } };
        const audit = typeof body.audit?.kept === 'boolean'
          ? { kept: body.audit.kept, ...(typeof body.audit.reason === 'string' ? { reason: body.audit.reason } : {}) }
          : undefined;
        return {
          kind: body.dsn?.kind ?? 'remote',
          description: base,
          ok: response.ok && body.ok === true && body.dsn?.ok !== false,
          latency_ms: body.dsn?.latency_ms ?? Math.round(performance.now() - started),
          ...(audit ? { audit } : {}),
        };
      } catch {
        return { kind: 'remote', description: base, ok: false, latency_ms: null };
      }
    },
  };
}

async function fetchAst(doFetch: typeof fetch, base: string, headers: Record<string, string>, timeoutMs: number): Promise<Ast> {
  let response: Response;
  try {
    response = await doFetch(`${base}/xos/ast`, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new RemoteClientError(`the XOS server at ${base} ${describeFailure(error)}`);
  }
  if (response.status === 401) throw new RemoteClientError(`the XOS server at ${base} refused the bearer token (HTTP 401); set the right one with "XOS: Set Server Token".`);
  if (!response.ok) throw new RemoteClientError(`the XOS server at ${base} answered HTTP ${response.status} to GET /xos/ast`);
  return astFromObject(await response.json(), `${base}/xos/ast`);
}

/** What went wrong, as the end of "the XOS server at <url> …": short, without request dumps. */
function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'did not answer in time';
  if (error instanceof ClientError) {
    const { status, headers } = error.response as { status: number; headers?: Headers | Record<string, string> };
    const retryAfter = headers instanceof Headers ? headers.get('retry-after') : headers?.['retry-after'];
    if (status === 401) return 'refused the bearer token (HTTP 401); set the right one with "XOS: Set Server Token"';
    if (status === 429) return `is busy (HTTP 429 Too Many Requests${retryAfter ? `, retry after ${retryAfter} s` : ''})`;
    return `answered HTTP ${status}${status >= 500 ? ' (a server error)' : ''}`;
  }
  if (error instanceof SyntaxError || (error instanceof Error && /JSON/.test(error.message))) return 'answered with broken JSON';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return 'cannot be found (its name does not resolve)';
  if (cause?.code === 'ECONNREFUSED') return 'is not reachable (connection refused)';
  if (isConnectionDrop(error)) return 'closed the connection without an answer';
  return `is not reachable (${error instanceof Error ? error.message : String(error)})`;
}

/** The connection broke before an answer came (reset, closed by the other side). */
function isConnectionDrop(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'].includes(cause?.code ?? '') || /other side closed|socket hang up/i.test(cause?.message ?? '');
}
