// The browser Board of xos-mcp: serves the same Board bundle as the VS Code webview on
// loopback and carries the Board protocol over HTTP (a streamed response of JSON lines to
// the page, POSTs from it). The gate: the exact loopback Host (DNS rebinding), no Origin but
// the page's own (other sites), a session from the key handshake on every data request (other
// local users and programs, the agent included: its MCP token is a different one), a strict
// CSP, no framing. The page never sends the key (src/standalone/boardHandshake.ts): it first
// makes this server prove it knows the key, then proves it in turn and gets a session that only
// this server start knows. A reload or the plain address within the same start resumes with the
// start's key (K_start, derived from the key and this start's random id) instead of the key;
// another start cannot prove it and the page asks for the link. One page at a time drives the
// Board: a newer tab (resumed or not) takes over and the older one is told, except while a
// question is open there (the newer tab is told why).
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { boardHtml, contentSecurityPolicy, createNonce } from '../board/html.ts';
import { MessageEndpoint, type WireMessage } from '../board/protocol.ts';
import { HttpRefusal, listenOnLoopback, readJsonBody } from '../net/loopback.ts';
import {
  CHALLENGE_MS, HANDSHAKE_HOSTNAME, isToken, NONCE_BYTES, pageProofInput, resumePageProofInput, resumeServerProofInput,
  serverProofInput, SESSION_OPEN_MS, START_ID_BYTES, startKeyInput, type ChallengeReply, type SessionReply,
} from './boardHandshake.ts';
import { BROWSER_THEME_CSS } from './theme.ts';

export interface BoardServerOptions {
  /** The page's key; a random one when absent. */
  readonly key?: string;
  /** 0: any free port. */
  readonly port?: number;
  /** Where board.js and browser.js are (dist/webview). */
  readonly assets: string;
  readonly lang: () => string;
  readonly title: () => string;
  /** A page connected: its endpoint; returns the function to call when it goes away. */
  readonly connect: (endpoint: MessageEndpoint) => () => void;
  /** Largest accepted message from the page in bytes (default 2 MiB). */
  readonly maxBodyBytes?: number;
  /** Whether the page in charge has a question open: then no other page takes over. */
  readonly busy?: () => boolean;
}

export interface BoardServer {
  /** `http://127.0.0.1:<port>/` without the key: what may be told to anyone, the agent included. */
  readonly url: string;
  /** The link that opens the Board with its key (in the fragment): for the person only. */
  readonly link: string;
  readonly port: number;
  /** Whether a page is connected now. */
  connected(): boolean;
  close(): Promise<void>;
}

interface Page {
  readonly id: string;
  readonly session: string;
  readonly endpoint: MessageEndpoint;
  readonly res: ServerResponse;
  readonly disconnect: () => void;
}

const KEEPALIVE_MS = 15_000;
/** On every answer: no sniffing, no referrer, never cached, not readable by other sites. */
const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
} as const;
const DEFAULT_MAX_BODY = 2 * 1024 * 1024;
/** Handshake bodies are tiny; open challenges and unused sessions are bounded. */
const HANDSHAKE_MAX_BODY = 4 * 1024;
const MAX_OPEN_CHALLENGES = 64;
const MAX_OPEN_SESSIONS = 16;

function hmac(key: string | Buffer, input: string): Buffer {
  return createHmac('sha256', key).update(input, 'utf8').digest();
}

/** A proof as sent (base64url) against the expected one, in constant time. */
function proofMatches(sent: string, expected: Buffer): boolean {
  const given = Buffer.from(sent, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Sessions are looked up by their hash, so a lookup's timing tells nothing about the credential. */
function sessionId(session: string): string {
  return createHash('sha256').update(session).digest('hex');
}

/** Deletes the oldest entries of an insertion-ordered map above `max`. */
function bound<K, V>(map: Map<K, V>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) return;
    map.delete(key);
  }
}
const ASSETS: Record<string, { file: string; type: string }> = {
  '/board.js': { file: 'board.js', type: 'text/javascript; charset=utf-8' },
  '/browser.js': { file: 'browser.js', type: 'text/javascript; charset=utf-8' },
};

export async function startBoardServer(options: BoardServerOptions): Promise<BoardServer> {
  const key = options.key ?? randomBytes(24).toString('base64url');
  // This start: a page that proved the key keeps K_start for reloads; no other start can prove it.
  const startId = randomBytes(START_ID_BYTES).toString('base64url');
  const startKey = hmac(key, startKeyInput(startId));
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let port = 0;
  let current: Page | undefined;
  /** Server nonces handed out and not yet answered: the page's nonce, the address, until when, with which key. */
  const challenges = new Map<string, { pageNonce: string; host: string; until: number; resume: boolean }>();
  /** Sessions by hash: until when an unused one may open its stream, and the page it opened. */
  const sessions = new Map<string, { until: number; page?: string }>();

  const origins = () => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const gate = (req: IncomingMessage, needsKey: boolean) => {
    const host = req.headers.host;
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new HttpRefusal(403, 'Forbidden: the XOS Board only answers requests for its loopback address.');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().includes(origin)) throw new HttpRefusal(403, 'Forbidden: requests from other sites are not accepted.');
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new HttpRefusal(403, 'Forbidden: requests from other sites are not accepted.');
    if (needsKey) return sessionOf(req);
    return undefined;
  };

  /** The session an Authorization header names, or 401. */
  const sessionOf = (req: IncomingMessage): { id: string; entry: { until: number; page?: string } } => {
    const match = /^Bearer ([A-Za-z0-9_-]{16,128})$/.exec(req.headers.authorization ?? '');
    const id = match ? sessionId(match[1]) : undefined;
    const entry = id ? sessions.get(id) : undefined;
    if (!id || !entry || (entry.page === undefined && entry.until < Date.now())) {
      throw new HttpRefusal(401, 'Unauthorized: open the Board with the link xos-mcp printed (it carries the key).');
    }
    return { id, entry };
  };

  /** The handshake speaks only to the exact numeric address (see HANDSHAKE_HOSTNAME). */
  const handshakeHost = (req: IncomingMessage): string => {
    const host = `${HANDSHAKE_HOSTNAME}:${port}`;
    if (req.headers.host !== host) throw new HttpRefusal(403, `Forbidden: open the Board at http://${host}/ (the link xos-mcp printed).`);
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new HttpRefusal(415, 'Unsupported Media Type: send JSON.');
    return host;
  };

  const json = (res: ServerResponse, body: unknown, status = 200) => {
    res.writeHead(status, { ...securityHeaders, 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  /** Step 2: a fresh server nonce and the proof that this server knows the key (or, to resume, K_start). */
  const challenge = async (req: IncomingMessage, res: ServerResponse) => {
    const host = handshakeHost(req);
    const body = await readJsonBody(req, HANDSHAKE_MAX_BODY) as { pageNonce?: unknown; startId?: unknown } | null;
    const pageNonce = body?.pageNonce;
    if (!isToken(pageNonce)) throw new HttpRefusal(400, 'Bad request: pageNonce is missing.');
    const resume = body?.startId !== undefined;
    if (resume && !isToken(body.startId)) throw new HttpRefusal(400, 'Bad request: startId is not one.');
    // Another start's K_start: this server cannot prove it, and says so (the page does not rely on that).
    if (resume && body.startId !== startId) throw new HttpRefusal(410, 'Gone: this page opened the Board of an earlier start of xos-mcp; open the link xos-mcp printed.');
    const serverNonce = randomBytes(NONCE_BYTES).toString('base64url');
    const now = Date.now();
    for (const [nonce, open] of challenges) if (open.until < now) challenges.delete(nonce);
    challenges.set(serverNonce, { pageNonce, host, until: now + CHALLENGE_MS, resume });
    bound(challenges, MAX_OPEN_CHALLENGES);
    const serverProof = resume
      ? hmac(startKey, resumeServerProofInput(host, startId, pageNonce, serverNonce))
      : hmac(key, serverProofInput(host, startId, pageNonce, serverNonce));
    const reply: ChallengeReply = { serverNonce, serverProof: serverProof.toString('base64url'), startId };
    json(res, reply);
  };

  /** Step 4: the page's proof for an open server nonce (answered once, with the key it was asked for) buys a session for this server start. */
  const session = async (req: IncomingMessage, res: ServerResponse) => {
    const host = handshakeHost(req);
    const body = await readJsonBody(req, HANDSHAKE_MAX_BODY) as { serverNonce?: unknown; pageProof?: unknown } | null;
    const { serverNonce, pageProof } = body ?? {};
    const open = isToken(serverNonce) ? challenges.get(serverNonce) : undefined;
    if (open) challenges.delete(serverNonce as string);
    const refused = () => new HttpRefusal(401, 'Unauthorized: open the Board with the link xos-mcp printed (it carries the key).');
    if (!open || open.until < Date.now() || open.host !== host || !isToken(pageProof)) throw refused();
    const expected = open.resume
      ? hmac(startKey, resumePageProofInput(host, startId, open.pageNonce, serverNonce as string))
      : hmac(key, pageProofInput(host, open.pageNonce, serverNonce as string));
    if (!proofMatches(pageProof, expected)) throw refused();
    const credential = randomBytes(NONCE_BYTES).toString('base64url');
    const now = Date.now();
    for (const [id, entry] of sessions) if (entry.page === undefined && entry.until < now) sessions.delete(id);
    sessions.set(sessionId(credential), { until: now + SESSION_OPEN_MS });
    // Sessions are bounded, oldest first; the one of the page in charge is never dropped.
    for (const id of sessions.keys()) {
      if (sessions.size <= MAX_OPEN_SESSIONS) break;
      if (id !== current?.session) sessions.delete(id);
    }
    const reply: SessionReply = { session: credential };
    json(res, reply);
  };

  const page = (res: ServerResponse) => {
    const nonce = createNonce();
    const html = boardHtml({
      cspSource: "'self'", scriptUri: '/board.js', preludeUri: '/browser.js', themeUri: '/theme.css', connectSrc: "'self'",
      nonce, lang: options.lang(), title: options.title(),
    });
    res.writeHead(200, {
      ...securityHeaders,
      'content-type': 'text/html; charset=utf-8',
      // The same policy as the page's meta tag, plus what only a header can say: never inside a frame.
      'content-security-policy': `${contentSecurityPolicy("'self'", nonce, "'self'")}; frame-ancestors 'none'`,
      'x-frame-options': 'DENY',
    });
    res.end(html);
  };

  const events = (res: ServerResponse, session: { id: string; entry: { until: number; page?: string } }) => {
    // A session opens one stream; a new stream needs a new handshake.
    if (session.entry.page !== undefined) throw new HttpRefusal(401, 'Unauthorized: this session is used; the page makes a new one.');
    if (current && options.busy?.()) {
      // The page in charge keeps its open question; it hears that another tab tried.
      sessions.delete(session.id);
      if (!current.res.writableEnded) current.res.write(`${JSON.stringify({ xos: 'takeoverRefused' })}\n`);
      json(res, { xos: 'busy', message: 'The XOS Board is asking a question in another tab or window. Answer it there; then reload this tab to use the Board here.' }, 409);
      return;
    }
    const id = randomUUID();
    session.entry.page = id;
    res.writeHead(200, { ...securityHeaders, 'content-type': 'application/x-ndjson; charset=utf-8' });
    res.write(`${JSON.stringify({ xos: 'hello', page: id })}\n`);
    const endpoint = new MessageEndpoint((message: WireMessage) => {
      if (!res.writableEnded) res.write(`${JSON.stringify(message)}\n`);
    });
    const previous = current;
    current = undefined;
    if (previous) {
      previous.disconnect();
      previous.res.end(`${JSON.stringify({ xos: 'replaced' })}\n`);
    }
    const disconnect = options.connect(endpoint);
    current = { id, session: session.id, endpoint, res, disconnect };
    const keepalive = setInterval(() => res.write('\n'), KEEPALIVE_MS);
    keepalive.unref();
    const gone = () => {
      clearInterval(keepalive);
      // A replaced page's session stays known (bounded), so its late messages hear 409, not 401.
      if (current?.id === id) {
        sessions.delete(session.id);
        current = undefined;
        disconnect();
      }
    };
    res.on('close', gone);
  };

  const message = async (req: IncomingMessage, res: ServerResponse, session: { id: string; entry: { page?: string } }) => {
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new HttpRefusal(415, 'Unsupported Media Type: send JSON.');
    const target = req.headers['x-xos-page'];
    const body = await readJsonBody(req, maxBody);
    // The session names its page: a message counts only from the page in charge, over its own session.
    if (!current || current.id !== target || current.session !== session.id) throw new HttpRefusal(409, 'This Board page is no longer connected: reload it.');
    current.endpoint.receive(body);
    res.writeHead(204, securityHeaders);
    res.end();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      gate(req, false);
      page(res);
    } else if (req.method === 'GET' && path === '/theme.css') {
      gate(req, false);
      res.writeHead(200, { ...securityHeaders, 'content-type': 'text/css; charset=utf-8' });
      res.end(BROWSER_THEME_CSS);
    } else if (req.method === 'GET' && Object.hasOwn(ASSETS, path)) {
      gate(req, false);
      const asset = ASSETS[path];
      const content = await readFile(join(options.assets, asset.file)).catch(() => {
        throw new HttpRefusal(500, `The Board's ${asset.file} is missing from ${options.assets}: build XOS (npm run build).`);
      });
      res.writeHead(200, { ...securityHeaders, 'content-type': asset.type });
      res.end(content);
    } else if (req.method === 'GET' && path === '/favicon.ico') {
      gate(req, false);
      res.writeHead(204, securityHeaders);
      res.end();
    } else if (req.method === 'POST' && path === '/board/challenge') {
      gate(req, false);
      await challenge(req, res);
    } else if (req.method === 'POST' && path === '/board/session') {
      gate(req, false);
      await session(req, res);
    } else if (req.method === 'GET' && path === '/board/events') {
      events(res, gate(req, true)!);
    } else if (req.method === 'POST' && path === '/board/message') {
      await message(req, res, gate(req, true)!);
    } else {
      gate(req, false);
      throw new HttpRefusal(404, 'Not found.');
    }
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = error instanceof HttpRefusal ? error.status : 500;
      if (!(error instanceof HttpRefusal)) console.error(error);
      if (!res.headersSent) {
        res.writeHead(status, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
        res.end(error instanceof HttpRefusal ? error.message : 'Internal error.');
      } else res.end();
      if (!req.complete) req.resume();
    });
  });
  port = await listenOnLoopback(http, options.port ?? 0);
  const url = `http://127.0.0.1:${port}/`;

  return {
    url,
    link: `${url}#token=${key}`,
    port,
    connected: () => current !== undefined,
    async close() {
      const open = current;
      current = undefined;
      open?.disconnect();
      challenges.clear();
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
