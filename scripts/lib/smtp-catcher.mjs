// A local SMTP server for the demo: accepts every mail on loopback (no TLS, no login: the
// extension allows security "none" only for a loopback host), delivers nothing, and writes
// each message as it arrived to `<dir>/<time>-<n>.eml`, which any mail program opens.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

const MAX_BYTES = 25 * 1024 * 1024;

/**
 * Starts the catcher on `host` (loopback only) and `port` (0: a free one). `onMail` gets
 * `{ path, from, to, subject }` for every stored message.
 * Resolves with `{ host, port, dir, count(), close() }`.
 */
export async function startSmtpCatcher({ dir, host = '127.0.0.1', port = 0, onMail = () => undefined }) {
  if (!['127.0.0.1', '::1', 'localhost'].includes(host)) throw new Error(`the SMTP catcher listens on loopback only, not ${host}`);
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_BYTES,
    rejectOversized: true,
    logger: false,
    closeTimeout: 1000,
    banner: 'XOS demo mail catcher: nothing is delivered',
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(null);
        count += 1;
        const raw = Buffer.concat(chunks);
        const path = join(dir, `${fileTime(new Date())}-${count}.eml`);
        try {
          writeFileSync(path, raw);
        } catch (error) {
          count -= 1;
          return callback(Object.assign(new Error(`could not store the mail: ${error.message}`), { responseCode: 451 }));
        }
        const mail = {
          path,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          subject: decodeWords(headerOf(raw.toString('utf8'), 'subject') ?? ''),
        };
        callback(null, `stored as ${path}`);
        onMail(mail);
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A broken client connection must not end the demo.
  server.on('error', () => undefined);
  return {
    host,
    port: server.server.address().port,
    dir,
    count: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `2025-12-02T17-40-12-345Z`: sorts by time and is a valid file name everywhere. */
export function fileTime(date) {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** The unfolded value of a header of a raw message, or undefined. */
export function headerOf(raw, name) {
  const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
  const prefix = `${name.toLowerCase()}:`;
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header value. */
export function decodeWords(value) {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (word, charset, encoding, text) => {
      const bytes = encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
      try {
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return word;
      }
    });
}
