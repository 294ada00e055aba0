// A real SMTP server (smtp-server) on loopback for the mail tests: STARTTLS
// with a self-signed certificate made by openssl for 127.0.0.1, optional
// authentication, every accepted message kept, and a mode that drops the
// connection right after the message was transferred.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer } from 'smtp-server';
import { tempDir } from './tmp.ts';

export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
}

/** A fresh self-signed certificate for 127.0.0.1 and localhost. */
export async function testCertificate(): Promise<TestCertificate> {
  await using dir = await tempDir('xos-smtp-cert');
  const key = join(dir.path, 'key.pem');
  const cert = join(dir.path, 'cert.pem');
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert,
  ]);
  return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
}

export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
  readonly secure: boolean;
  readonly user: string | undefined;
}

export interface TestSmtpServer {
  readonly port: number;
  /** While set, every RCPT TO is answered with this code (421, 450, 550, ...). */
  rcptCode: number | undefined;
  readonly received: ReceivedMail[];
  /** How many DATA transfers started (accepted or not). */
  readonly dataCount: () => number;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  readonly certificate: TestCertificate;
  /** With credentials, authentication is required. */
  readonly credentials?: { user: string; pass: string };
  /** Drop the connection once the message was received, before answering it. */
  readonly dropAfterData?: boolean;
  /** Refuse these recipients at RCPT TO. */
  readonly refuse?: readonly string[];
}

export async function startTestSmtpServer(options: TestSmtpOptions): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const control: { rcptCode: number | undefined } = { rcptCode: undefined };
  const sockets = new Set<Socket>();
  let transfers = 0;
  const server = new SMTPServer({
    key: options.certificate.key,
    cert: options.certificate.cert,
    secure: false,
    authOptional: !options.credentials,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    // No reverse DNS lookup of 127.0.0.1 per connection (slow where no resolver answers).
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      const ok = options.credentials && auth.username === options.credentials.user && auth.password === options.credentials.pass;
      callback(ok ? null : new Error('Invalid username or password'), ok ? { user: auth.username } : undefined);
    },
    onRcptTo(address, _session, callback) {
      if (control.rcptCode) {
        const error = new Error(control.rcptCode === 421 ? 'Service not available, closing channel' : 'Mailbox busy or unavailable') as Error & { responseCode: number };
        error.responseCode = control.rcptCode;
        return callback(error);
      }
      if (options.refuse?.includes(address.address)) {
        const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      transfers += 1;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.dropAfterData) {
          for (const socket of sockets) socket.destroy();
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => undefined);
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP test server has no port');
  return {
    port: address.port,
    get rcptCode() { return control.rcptCode; },
    set rcptCode(code: number | undefined) { control.rcptCode = code; },
    received,
    dataCount: () => transfers,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** Header value of a raw message (unfolded), or undefined. */
export function header(raw: string, name: string): string | undefined {
  const head = raw.split('\r\n\r\n')[0].replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The body of a raw 7bit message, with CRLF as LF. */
export function body(raw: string): string {
  return raw.slice(raw.indexOf('\r\n\r\n') + 4).replace(/\r\n/g, '\n');
}
