// The browser Board of xos-mcp: serves the same Board bundle as the VS Code webview on
// loopback and carries the Board protocol over HTTP (a streamed response of JSON lines to
// the page, POSTs from it). The gate: the exact loopback Host (DNS rebinding), no Origin but
// the page's own (other sites), the Board's key on every data request (other local users and
// programs, the agent included: its MCP token is a different one), a strict CSP, no framing.
// One page at a time drives the Board: a newer tab takes over and the older one is told.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { boardHtml, contentSecurityPolicy, createNonce } from '../board/html.ts';
import { MessageEndpoint, type WireMessage } from '../board/protocol.ts';
import { bearerCheck, HttpRefusal, listenOnLoopback, readJsonBody } from '../net/loopback.ts';
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
const ASSETS: Record<string, { file: string; type: string }> = {
  '/board.js': { file: 'board.js', type: 'text/javascript; charset=utf-8' },
  '/browser.js': { file: 'browser.js', type: 'text/javascript; charset=utf-8' },
};

export async function startBoardServer(options: BoardServerOptions): Promise<BoardServer> {
  const key = options.key ?? randomBytes(24).toString('base64url');
  const keyMatches = bearerCheck(key);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let port = 0;
  let current: Page | undefined;

  const origins = () => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const gate = (req: IncomingMessage, needsKey: boolean) => {
    const host = req.headers.host;
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new HttpRefusal(403, 'Forbidden: the XOS Board only answers requests for its loopback address.');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().includes(origin)) throw new HttpRefusal(403, 'Forbidden: requests from other sites are not accepted.');
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new HttpRefusal(403, 'Forbidden: requests from other sites are not accepted.');
    if (needsKey && !keyMatches(req.headers.authorization)) {
      throw new HttpRefusal(401, 'Unauthorized: open the Board with the link xos-mcp printed (it carries the key).');
    }
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

  const events = (req: IncomingMessage, res: ServerResponse) => {
    const id = randomUUID();
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
    current = { id, endpoint, res, disconnect };
    const keepalive = setInterval(() => res.write('\n'), KEEPALIVE_MS);
    keepalive.unref();
    const gone = () => {
      clearInterval(keepalive);
      if (current?.id === id) {
        current = undefined;
        disconnect();
      }
    };
    res.on('close', gone);
  };

  const message = async (req: IncomingMessage, res: ServerResponse) => {
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new HttpRefusal(415, 'Unsupported Media Type: send JSON.');
    const target = req.headers['x-xos-page'];
    const body = await readJsonBody(req, maxBody);
    if (!current || current.id !== target) throw new HttpRefusal(409, 'This Board page is no longer connected: reload it.');
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
    } else if (req.method === 'GET' && path === '/board/events') {
      gate(req, true);
      events(req, res);
    } else if (req.method === 'POST' && path === '/board/message') {
      gate(req, true);
      await message(req, res);
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
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
