// A small fetch over node:http/https for the contact providers. Node's
// built-in fetch trips over servers that close the connection right after a
// large response (Radicale's WSGI server does); this one buffers the whole
// response and also counts requests and bytes, which the sync reports.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface FetchCounter {
  requests: number;
  bytesReceived: number;
}

export type Fetch = typeof globalThis.fetch;

export function createFetch(counter?: FetchCounter, options: { timeoutMs?: number } = {}): Fetch {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = new Headers(init.headers);
    const body = await bodyBuffer(init.body);
    if (body) headers.set('content-length', String(body.length));
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
    if (!send) throw new TypeError(`Unsupported URL scheme ${url.protocol}`);
    const response = await new Promise<{ res: IncomingMessage; data: Buffer }>((resolve, reject) => {
      const req = send(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers), signal: init.signal ?? undefined, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ res, data: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`No answer from ${url.host} within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
    if (counter) {
      counter.requests += 1;
      counter.bytesReceived += response.data.length;
    }
    const status = response.res.statusCode ?? 500;
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.res.headers)) {
      if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const nullBody = status === 204 || status === 304 || (status >= 100 && status < 200);
    const result = new Response(nullBody ? null : new Uint8Array(response.data), { status, statusText: response.res.statusMessage, headers: responseHeaders });
    Object.defineProperty(result, 'url', { value: url.href });
    return result;
  }) as Fetch;
}

async function bodyBuffer(body: RequestInit['body']): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return Buffer.from(body as ArrayBuffer);
  return Buffer.from(await new Response(body).arrayBuffer());
}
