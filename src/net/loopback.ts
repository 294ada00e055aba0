// What XOS's loopback HTTP listeners share (the MCP endpoint, the browser Board): a refusal
// that becomes an HTTP status with a message that says what to do, a bounded JSON body,
// a bearer token compared in constant time, and listening on 127.0.0.1.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An expected refusal: its status and message go to the client as they are. */
export class HttpRefusal extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** Checks an Authorization header against `Bearer <token>` without leaking its length or content through timing. */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(`Bearer ${token}`);
  return (authorization) => timingSafeEqual(digest(authorization ?? ''), expected);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The request's body as JSON, refused past `limit` bytes (413) or when it is not JSON (400). */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new HttpRefusal(413, `Request body too large (limit ${limit} bytes).`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpRefusal(413, `Request body too large (limit ${limit} bytes).`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpRefusal(400, 'Bad request: the body is not JSON.');
  }
}

/** Listens on 127.0.0.1 (`port` 0: any free one); resolves with the port. */
export async function listenOnLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
