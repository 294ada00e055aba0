// A throwaway Radicale CardDAV server for the contact tests: its own port,
// storage folder and htpasswd file, ready when it
// answers HTTP, removed again on stop(). Installs the Debian package when it
// is missing and the tests run as root.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { aptInstall } from '../../scripts/lib/apt.mjs';
import { createFetch } from '../../src/contacts/httpFetch.ts';
import { tempDir } from './tmp.ts';

// Node's fetch trips over Radicale closing the connection after large answers.
const fetch = createFetch(undefined, { timeoutMs: 300_000 });
const RADICALE = '/usr/bin/radicale';
/** The interpreter of the Debian package's /usr/bin/radicale. */
const PYTHON = '/usr/bin/python3';
/**
 * Radicale as its command starts it, without an fsync per stored card: its internal option
 * `_filesystem_fsync` (what Radicale's own tests turn off) cannot be set in a config file. A
 * throwaway server, like the tests' PostgreSQL with fsync off; 5,000 cards otherwise wait on
 * ~27,000 fsyncs, for minutes on a busy disk.
 */
const WITHOUT_FSYNC = [
  'import sys',
  'from radicale import __main__ as main, config',
  'load = config.load',
  'def load_without_fsync(*args, **kwargs):',
  '    configuration = load(*args, **kwargs)',
  '    configuration.update({"storage": {"_filesystem_fsync": "False"}}, "xos tests: no fsync", privileged=True)',
  '    return configuration',
  'config.load = load_without_fsync',
  'sys.argv = ["radicale", *sys.argv[1:]]',
  'main.run()',
].join('\n');
const READY_DEADLINE_MS = 20_000;
const READY_POLL_MS = 50;

export interface RadicaleServer {
  /** Base URL, e.g. http://127.0.0.1:5232 */
  readonly url: string;
  readonly user: string;
  readonly password: string;
  /** Basic authorization header value. */
  readonly authorization: string;
  /** Creates an address book `/<user>/<name>/` and returns its URL. */
  createAddressBook(name: string, displayName: string): Promise<string>;
  /** Replaces the whole address book with these cards in one request. */
  uploadCards(bookUrl: string, cards: readonly string[]): Promise<void>;
  /** Creates or replaces one card. */
  putCard(bookUrl: string, file: string, card: string): Promise<void>;
  stop(): Promise<void>;
}

export async function ensureRadicale(): Promise<void> {
  if (existsSync(RADICALE)) return;
  if (process.getuid?.() !== 0) throw new Error(`Radicale is not installed (${RADICALE} is missing); install it with: sudo apt-get install -y radicale`);
  await aptInstall(['radicale']);
  if (!existsSync(RADICALE)) throw new Error(`apt-get install radicale did not provide ${RADICALE}`);
}

export async function startRadicale(): Promise<RadicaleServer> {
  await ensureRadicale();
  const dir = await tempDir('xos-radicale');
  const user = 'erika';
  const password = 'radicale-pass';
  const port = await freePort();
  await writeFile(join(dir.path, 'users'), `${user}:${password}\n`);
  await writeFile(join(dir.path, 'config'), [
    '[server]', `hosts = 127.0.0.1:${port}`, 'max_content_length = 500000000',
    '[auth]', `type = htpasswd\nhtpasswd_filename = ${join(dir.path, 'users')}\nhtpasswd_encryption = plain\ndelay = 0`,
    '[rights]', 'type = owner_only',
    '[storage]', `filesystem_folder = ${join(dir.path, 'collections')}`,
    '[logging]', 'level = warning', '[web]', 'type = none', '',
  ].join('\n'));
  const child = spawn(PYTHON, ['-c', WITHOUT_FSYNC, '--config', join(dir.path, 'config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const headers = (extra: Record<string, string> = {}) => ({ authorization, ...extra });
  const stop = async () => {
    await stopChild(child);
    await dir.remove();
  };
  try {
    await waitUntilReady(url, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }

  const request = async (method: string, target: string, body: string, contentType: string) => {
    const res = await fetch(target, { method, headers: headers({ 'content-type': contentType }), body });
    if (res.status >= 300) throw new Error(`${method} ${target} failed: ${res.status} ${await res.text()} ${stderr}`);
    await res.arrayBuffer();
  };
  return {
    url, user, password, authorization,
    async createAddressBook(name, displayName) {
      const bookUrl = `${url}/${user}/${name}/`;
      await request('MKCOL', bookUrl, [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>',
        `<D:resourcetype><D:collection/><C:addressbook/></D:resourcetype><D:displayname>${displayName}</D:displayname>`,
        '</D:prop></D:set></D:mkcol>',
      ].join(''), 'application/xml');
      return bookUrl;
    },
    async uploadCards(bookUrl, cards) {
      // Radicale takes a whole collection in one PUT: far faster than one request per card.
      await request('PUT', bookUrl, cards.join(''), 'text/vcard');
    },
    async putCard(bookUrl, file, card) {
      await request('PUT', `${bookUrl}${file}`, card, 'text/vcard');
    },
    stop,
  };
}

async function waitUntilReady(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Radicale exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(`${url}/.well-known/carddav`, { redirect: 'manual' });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
  }
  throw new Error(`Radicale did not answer on ${url} within ${READY_DEADLINE_MS} ms: ${stderr()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A vCard 3.0 or 4.0 for tests. */
export function vcard(options: { uid: string; fn: string; n?: string; emails?: readonly string[]; tels?: readonly string[]; org?: string; version?: '3.0' | '4.0' }): string {
  const version = options.version ?? '3.0';
  const lines = ['BEGIN:VCARD', `VERSION:${version}`, `UID:${options.uid}`, `FN:${options.fn}`, `N:${options.n ?? ';;;;'}`];
  for (const [i, email] of (options.emails ?? []).entries()) lines.push(version === '4.0' ? `EMAIL;TYPE=work${i === 0 ? ';PREF=1' : ''}:${email}` : `EMAIL;TYPE=INTERNET${i === 0 ? ',PREF' : ''}:${email}`);
  for (const tel of options.tels ?? []) lines.push(version === '4.0' ? `TEL;VALUE=uri;TYPE=cell:tel:${tel.replace(/\s/g, '-')}` : `TEL;TYPE=CELL:${tel}`);
  if (options.org) lines.push(`ORG:${options.org}`);
  lines.push('END:VCARD', '');
  return lines.join('\r\n');
}
