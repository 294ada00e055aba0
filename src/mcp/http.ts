// The loopback MCP endpoint: a gate (loopback Host, no Origin, bearer token,
// JSON body within a limit) in front of Streamable HTTP, serving both protocol
// revisions. 2025-era requests get one MCP server per session; a session is kept
// only once its initialize succeeded, and only so many are open at a time.
// 2026-07-28 requests (they carry the per-request `_meta` envelope) get a fresh
// server per request and no session. No CORS headers are ever sent.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, type McpServer } from '@modelcontextprotocol/server';
import { bearerCheck, HttpRefusal, listenOnLoopback, readJsonBody } from '../net/loopback.ts';
import type { XosDeps } from './ports.ts';
import { XOS_TOOL_NAMES } from './registry.ts';
import { WorkflowHandles } from './handles.ts';
import { createXosMcpServer, requesterCredential, xosServerFactory } from './server.ts';
import { McpSession } from './session.ts';

export interface McpHttpOptions {
  readonly token: string;
  /** 0 (default): any free port. */
  readonly port?: number;
  /** Sessions (2025-era) without a request for this long are closed (default 30 minutes). */
  readonly idleMs?: number;
  /** Largest accepted request body in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** Most sessions (2025-era) open at once (default 256); 2026-07-28 requests open none. */
  readonly maxSessions?: number;
  /**
   * At the cap, the least recently used session is closed to make room if it has been quiet
   * this long (default 0: always; its client gets 404 and starts a new session, as MCP clients
   * do); if it has not, the initialize gets 503.
   */
  readonly evictIdleMs?: number;
  /** The clock for idleness (default `Date.now`; tests turn their own). */
  readonly now?: () => number;
}

export interface McpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  readonly port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

const MCP_PATH = '/mcp';
const DEFAULT_IDLE_MS = 30 * 60 * 1000;
const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 256;
// Abandoned sessions (a client that never says goodbye) must not lock others out.
const DEFAULT_EVICT_IDLE_MS = 0;

interface OpenSession {
  readonly server: McpServer;
  readonly transport: NodeStreamableHTTPServerTransport;
  lastSeen: number;
}

/** Fixed dependencies, or a function read at every tool call (settings may change). */
export type DepsSource = XosDeps | (() => XosDeps);

export async function startMcpHttpServer(deps: DepsSource, options: McpHttpOptions): Promise<McpHttpServer> {
  if (!options.token) throw new Error('the MCP endpoint needs a token');
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const evictIdleMs = options.evictIdleMs ?? DEFAULT_EVICT_IDLE_MS;
  const now = options.now ?? Date.now;
  const tokenMatches = bearerCheck(options.token);
  const sessions = new Map<string, OpenSession>();
  const sessionDeps = (): XosDeps => ({ ...(typeof deps === 'function' ? deps() : deps), sessionCount: () => sessions.size });
  let port = 0;
  // 2026-07-28: a server per request, no session (the schema rule through this endpoint's workflow
  // handles); 2025-era requests are routed to the sessions below.
  const modernHandler = createMcpHandler(xosServerFactory(sessionDeps, { handles: new WorkflowHandles(), via: 'http', credential: requesterCredential({ token: options.token }) }), { legacy: 'reject' });
  const modern = toNodeHandler(modernHandler);
  /** Initialize requests being handled: they count against the cap until they are sessions or gone. */
  let initializing = 0;

  const closeSession = async (id: string) => {
    const open = sessions.get(id);
    if (!open) return;
    sessions.delete(id);
    await open.server.close();
  };

  const gate = (req: IncomingMessage) => {
    const host = req.headers.host;
    // Exact names only: a DNS-rebinding page sends its own name (e.g. 127.0.0.1.evil.example).
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}` && host !== `[::1]:${port}`) {
      throw new HttpRefusal(403, 'Forbidden: this endpoint only answers requests for its loopback address.');
    }
    if (req.headers.origin !== undefined) throw new HttpRefusal(403, 'Forbidden: requests from web pages (with an Origin) are not accepted.');
    const auth = req.headers.authorization ?? '';
    if (!tokenMatches(auth)) throw new HttpRefusal(401, 'Unauthorized: send Authorization: Bearer <token>.');
    // Only JSON: a form or text/plain body is what a page could send without asking first.
    if (req.method === 'POST' && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      throw new HttpRefusal(415, 'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.');
    }
  };

  /** Room for one more session, or a 503 that says what to do. */
  const admit = () => {
    if (sessions.size + initializing < maxSessions) return;
    let idlest: [string, OpenSession] | undefined;
    for (const entry of sessions) if (!idlest || entry[1].lastSeen < idlest[1].lastSeen) idlest = entry;
    if (idlest && now() - idlest[1].lastSeen >= evictIdleMs) {
      void closeSession(idlest[0]);
      return;
    }
    const wait = Math.max(1, Math.ceil(evictIdleMs / 1000));
    throw new HttpRefusal(503, `Service Unavailable: ${maxSessions} MCP sessions are open, the most this server keeps. `
      + `End one (DELETE /mcp with its Mcp-Session-Id) or wait ${wait} s until an idle one can be closed, then initialize again.`, { 'retry-after': String(wait) });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    gate(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== MCP_PATH) throw new HttpRefusal(404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    const body = req.method === 'POST' ? await readJsonBody(req, maxBody) : undefined;
    // The era is the request's: a 2026-07-28 request (always a POST) names its revision in its
    // `_meta` envelope; GET and DELETE are 2025-era session operations.
    if (req.method === 'POST' && !(await isLegacyRequest(await toWebRequest(req, body), body))) {
      await modern(req, res, body);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];

    if (typeof sessionId === 'string') {
      const open = sessions.get(sessionId);
      if (!open) throw new HttpRefusal(404, 'Unknown or expired MCP session: initialize a new one.');
      open.lastSeen = now();
      await open.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitialize(body)) throw new HttpRefusal(400, 'Bad request: start with an initialize request, then send its Mcp-Session-Id.');

    admit();
    const id = randomUUID();
    let accepted = false;
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // Called once the transport accepted the initialize (headers, JSON-RPC, a single initialize).
      onsessioninitialized: () => {
        accepted = true;
        sessions.set(id, { server, transport, lastSeen: now() });
      },
      onsessionclosed: (closed) => void closeSession(closed),
    });
    const server = createXosMcpServer(sessionDeps, new McpSession(id, XOS_TOOL_NAMES));
    transport.onclose = () => { sessions.delete(id); };
    initializing += 1;
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      initializing -= 1;
      // A refused initialize leaves nothing behind.
      if (!accepted || res.statusCode >= 400) {
        sessions.delete(id);
        await server.close();
      }
    }
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof HttpRefusal ? error.status : 500;
      const message = error instanceof HttpRefusal ? error.message : 'Internal error.';
      if (!(error instanceof HttpRefusal)) console.error(error);
      if (!res.headersSent) {
        const extra = error instanceof HttpRefusal ? error.headers : {};
        res.writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}), ...extra });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
      } else {
        res.end();
      }
      // Unread bodies of refused requests would keep the socket busy.
      if (!req.complete) req.resume();
    });
  });

  port = await listenOnLoopback(http, options.port ?? 0);

  const sweep = setInterval(() => {
    const cutoff = now() - idleMs;
    for (const [id, open] of sessions) if (open.lastSeen <= cutoff) void closeSession(id);
  }, Math.max(10, Math.min(idleMs, 60_000)));
  sweep.unref();

  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await modernHandler.close();
      await Promise.all([...sessions.keys()].map(closeSession));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}
