// The XOS backend as the tools see it (XosClient): the embedded backend in this
// process, or a remote XOS server over HTTP (POST /graphql, GET /xos/ast, GET /healthz).
import { ClientError, GraphQLClient } from 'graphql-request';
import { astFromObject } from '../ast/load.ts';
import type { Ast } from '../ast/schema.ts';
import type { Backend } from '../backend/backend.ts';
import type { DsnStatus, GraphQLErrorShape, GraphQLResult, XosClient } from '../mcp/ports.ts';

/** The backend started inside this process. */
export function embeddedClient(backend: Backend): XosClient {
  const { api } = backend;
  return {
    run: async (query, variables) => {
      const result = await api.run({ query, variables });
      // graphql-js builds null-prototype objects; the tools and the Board want plain JSON values.
      return JSON.parse(JSON.stringify(result)) as GraphQLResult;
    },
    ast: () => api.ast,
    async status(): Promise<DsnStatus> {
      const base = { kind: api.storage.kind, description: api.storage.description };
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

/** Thrown when the remote server cannot give its AST; the message says what to check. */
export class RemoteClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteClientError';
  }
}

/** Connects to a remote XOS server: reads and validates its AST once, then serves queries. */
export async function connectRemoteClient(options: RemoteClientOptions): Promise<XosClient> {
  const base = options.endpoint.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const ast = await fetchAst(doFetch, base, headers, timeoutMs);
  const graphql = new GraphQLClient(`${base}/graphql`, { headers, fetch: doFetch, errorPolicy: 'all' });

  return {
    async run(query, variables) {
      try {
        const response = await graphql.rawRequest<Record<string, unknown> | null>({ query, variables, signal: AbortSignal.timeout(timeoutMs) });
        return { data: response.data, ...(response.errors?.length ? { errors: response.errors as unknown as GraphQLErrorShape[] } : {}) };
      } catch (error) {
        if (error instanceof ClientError && error.response.errors?.length) {
          return { data: (error.response.data as Record<string, unknown> | undefined) ?? null, errors: error.response.errors as unknown as GraphQLErrorShape[] };
        }
        throw new RemoteClientError(`the XOS server at ${base} did not answer the GraphQL request: ${describeFailure(error)}`);
      }
    },
    ast: () => ast,
    async status(): Promise<DsnStatus> {
      const started = performance.now();
      try {
        const response = await doFetch(`${base}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
        const body = await response.json() as { ok?: boolean; dsn?: { kind?: string; ok?: boolean; latency_ms?: number } };
        return {
          kind: body.dsn?.kind ?? 'remote',
          description: base,
          ok: response.ok && body.ok === true && body.dsn?.ok !== false,
          latency_ms: body.dsn?.latency_ms ?? Math.round(performance.now() - started),
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
    throw new RemoteClientError(`the XOS server at ${base} is not reachable: ${describeFailure(error)}`);
  }
  if (response.status === 401) throw new RemoteClientError(`the XOS server at ${base} refused the bearer token (401); set the right token.`);
  if (!response.ok) throw new RemoteClientError(`GET ${base}/xos/ast answered ${response.status}.`);
  return astFromObject(await response.json(), `${base}/xos/ast`);
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'the request timed out';
  return error instanceof Error ? error.message : String(error);
}
