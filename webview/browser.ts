// The browser Board's transport (xos-mcp serves the Board on loopback): the only module of
// the page that touches the network. It gives the Board bundle the same acquireVsCodeApi()
// a VS Code webview has, carried over HTTP: the host's messages arrive on one streamed
// response (a JSON line each), the page's go out as POSTs.
//
// The key: it comes in the address's fragment (`#token=…`, never sent to a server). Before
// anything else the page replaces its history entry with the plain address, so no entry keeps
// the key, and imports the key as a non-extractable WebCrypto HMAC key; the text is dropped.
// The page never sends the key nor a proof before the server proved it knows the key
// (src/standalone/boardHandshake.ts); a server that cannot is never asked again.
//
// A reload, or the plain address, within the same start of xos-mcp: after a key handshake the
// page keeps only the start's key (K_start = HMAC(key, start id)), a non-extractable CryptoKey,
// in IndexedDB with the start id, and resumes with it. The key itself is stored nowhere, and
// nothing goes to localStorage or sessionStorage. K_start is of no use once its start ended: a
// new start has a new id and cannot prove K_start, so the page deletes it and asks for the link.
// While the start runs, xos-mcp holds the port: no other program serves a page on this origin.
import { readJsonLines } from '../src/board/jsonLines.ts';
import {
  HANDSHAKE_HOSTNAME, isToken, NONCE_BYTES, pageProofInput, resumePageProofInput, resumeServerProofInput, serverProofInput,
  startKeyInput, type ChallengeReply, type ChallengeRequest, type SessionReply,
} from '../src/standalone/boardHandshake.ts';

interface Hello { readonly xos: 'hello'; readonly page: string }

/** The transport's own lines, before the Board has its texts: in the page's language (xos-mcp sets it). */
const NOTICES = {
  en: {
    noKey: 'This tab has no key for the XOS Board of the xos-mcp running now. Open the link xos-mcp printed when it started (it ends in #token=…); after that, a reload opens the Board again until xos-mcp stops.',
    badKey: 'This Board link has no valid key. Open the link xos-mcp printed when it started (it ends in #token=…).',
    notProven: 'The program at this address could not prove it knows this Board\'s key, so this page sent it nothing and stopped. If xos-mcp was started again, open the new link it printed; otherwise another program may be using the port.',
    wrongHost: 'Open the Board at its numeric address, as xos-mcp printed it (http://127.0.0.1:…/#token=…).',
    replaced: 'The XOS Board is open in another tab or window; this one no longer updates. Reload this tab to use it here.',
    busy: 'The XOS Board is asking a question in another tab or window. Answer it there; then reload this tab to use the Board here.',
    takeoverRefused: 'Another tab or window tried to open the XOS Board; it was refused while this question is open.',
    lost: 'The connection to xos-mcp is lost; reconnecting…',
  },
  de: {
    noKey: 'Dieser Tab hat keinen Schlüssel für das XOS-Board des jetzt laufenden xos-mcp. Öffnen Sie den Link, den xos-mcp beim Start ausgegeben hat (er endet auf #token=…); danach öffnet ein Neuladen das Board wieder, bis xos-mcp endet.',
    badKey: 'Dieser Board-Link enthält keinen gültigen Schlüssel. Öffnen Sie den Link, den xos-mcp beim Start ausgegeben hat (er endet auf #token=…).',
    notProven: 'Das Programm unter dieser Adresse konnte nicht nachweisen, dass es den Schlüssel dieses Boards kennt; diese Seite hat ihm nichts gesendet und angehalten. Wurde xos-mcp neu gestartet, öffnen Sie den neuen Link, den es ausgegeben hat; sonst belegt womöglich ein anderes Programm den Port.',
    wrongHost: 'Öffnen Sie das Board unter seiner numerischen Adresse, wie xos-mcp sie ausgegeben hat (http://127.0.0.1:…/#token=…).',
    replaced: 'Das XOS-Board ist in einem anderen Tab oder Fenster geöffnet; dieses wird nicht mehr aktualisiert. Laden Sie diesen Tab neu, um es hier zu verwenden.',
    busy: 'Das XOS-Board stellt in einem anderen Tab oder Fenster eine Frage. Beantworten Sie sie dort; laden Sie danach diesen Tab neu, um das Board hier zu verwenden.',
    takeoverRefused: 'Ein anderer Tab oder ein anderes Fenster wollte das XOS-Board öffnen; das wurde abgelehnt, solange diese Frage offen ist.',
    lost: 'Die Verbindung zu xos-mcp ist unterbrochen; neuer Versuch…',
  },
} as const;
const notices = document.documentElement.lang.toLowerCase().startsWith('de') ? NOTICES.de : NOTICES.en;

/** The key's text from the fragment; the history entry loses the fragment first. */
function takeKeyFromLink(): string | undefined {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get('token') ?? undefined;
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  // Earlier versions kept the key here; it must not stay.
  try {
    localStorage.removeItem('xos.board.key');
  } catch {
    // Storage may be off; then there is nothing to remove either.
  }
  return fromLink || undefined;
}

/** A line over the Board while it cannot work: no key, replaced by another tab, server gone. */
function notice(text: string | undefined): void {
  let element = document.getElementById('xos-connection-notice');
  if (!text) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('div');
    element.id = 'xos-connection-notice';
    element.setAttribute('role', 'alert');
    document.body.prepend(element);
  }
  element.textContent = text;
}

const encoder = new TextEncoder();
const base64url = (bytes: ArrayBuffer | Uint8Array): string =>
  btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The server could not prove it knows the key: not our server (another program, or another start's key). */
class NotProven extends Error {}

/** What the page proves: the key from the link, or (startId set) the key of that start, K_start. */
interface Credential {
  readonly key: CryptoKey;
  readonly startId?: string;
}

// K_start in IndexedDB: one record, the CryptoKey object itself (a structured clone stays non-extractable).
const DB_NAME = 'xos-board';
const DB_STORE = 'start';
const DB_RECORD = 'current';

/** The store, made if missing (at whatever version the database has: another page may have made it). */
function openStore(version?: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, version);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(DB_STORE)) request.result.createObjectStore(DB_STORE);
    };
    request.onsuccess = () => {
      const db = request.result;
      if (db.objectStoreNames.contains(DB_STORE)) {
        resolve(db);
      } else {
        db.close();
        resolve(openStore(db.version + 1));
      }
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB'));
    request.onblocked = () => reject(new Error('IndexedDB blocked'));
  });
}

/** One transaction on the store; resolves with the request's result once the transaction completed. */
async function inStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T> | undefined): Promise<T | undefined> {
  const db = await openStore();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const transaction = db.transaction(DB_STORE, mode);
      const request = run(transaction.objectStore(DB_STORE));
      transaction.oncomplete = () => resolve(request?.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB'));
    });
  } finally {
    db.close();
  }
}

/** The kept K_start, if it is one this page could have made (anything else counts as none). */
async function loadStart(): Promise<Credential | undefined> {
  const kept = await inStore<unknown>('readonly', (store) => store.get(DB_RECORD));
  const { startId, key } = (kept ?? {}) as { startId?: unknown; key?: unknown };
  if (!isToken(startId) || !(key instanceof CryptoKey) || key.extractable || key.algorithm.name !== 'HMAC') return undefined;
  return { key, startId };
}

/** Derives K_start from the key (sign, then import the bytes as a non-extractable key; the bytes are wiped) and keeps it. */
async function keepStart(key: CryptoKey, startId: string): Promise<void> {
  const bytes = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(startKeyInput(startId))));
  try {
    const startKey = await crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    await inStore('readwrite', (store) => store.put({ startId, key: startKey }, DB_RECORD));
  } finally {
    bytes.fill(0);
  }
}

/** Deletes the kept K_start of this start (another tab may have kept a newer one since: that stays). */
async function forgetStart(startId: string): Promise<void> {
  await inStore('readwrite', (store) => {
    const request = store.get(DB_RECORD);
    request.onsuccess = () => {
      if ((request.result as { startId?: unknown } | undefined)?.startId === startId) store.delete(DB_RECORD);
    };
    return undefined;
  });
}

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), cache: 'no-store' });
}

/** The handshake: the server proves it knows the key (or K_start), then this page does; a session for this server start. */
async function handshake(credential: Credential): Promise<{ session: string; startId: string }> {
  const { key } = credential;
  const host = location.host;
  const pageNonce = base64url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  const request: ChallengeRequest = credential.startId === undefined ? { pageNonce } : { pageNonce, startId: credential.startId };
  const asked = await postJson('/board/challenge', request);
  let reply: Partial<ChallengeReply>;
  try {
    reply = asked.ok ? await asked.json() as Partial<ChallengeReply> : {};
  } catch {
    reply = {};
  }
  const { serverNonce, serverProof, startId } = reply;
  // Anything but a correct proof (no answer of this shape, a wrong one, another start) means: not our server.
  if (!isToken(serverNonce) || !isToken(serverProof) || !isToken(startId)) throw new NotProven();
  if (credential.startId !== undefined && startId !== credential.startId) throw new NotProven();
  const resume = credential.startId !== undefined;
  const signed = resume ? resumeServerProofInput(host, startId, pageNonce, serverNonce) : serverProofInput(host, startId, pageNonce, serverNonce);
  const proven = await crypto.subtle.verify('HMAC', key, fromBase64url(serverProof), encoder.encode(signed));
  if (!proven) throw new NotProven();
  const mine = resume ? resumePageProofInput(host, startId, pageNonce, serverNonce) : pageProofInput(host, pageNonce, serverNonce);
  const pageProof = base64url(await crypto.subtle.sign('HMAC', key, encoder.encode(mine)));
  const answered = await postJson('/board/session', { serverNonce, pageProof });
  // A refusal after the server's proof (the nonce expired or was crowded out): tried again like a lost connection.
  if (!answered.ok) throw new Error(`HTTP ${answered.status}`);
  const { session } = await answered.json() as Partial<SessionReply>;
  if (!isToken(session)) throw new Error('no session');
  return { session, startId };
}

let session: string | undefined;
let page: string | undefined;
const outbox: unknown[] = [];
let sending = Promise.resolve();

function post(message: unknown): void {
  if (!page || !session) {
    outbox.push(message);
    return;
  }
  const target = page;
  const credential = session;
  // In order, one after the other: the host sees the person's actions as they happened.
  sending = sending.then(async () => {
    try {
      await fetch('/board/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}`, 'x-xos-page': target },
        body: JSON.stringify(message),
      });
    } catch {
      // The stream notices the server is gone and says so.
    }
  });
}

async function listen(credential: Credential): Promise<void> {
  let delay = 500;
  let first = true;
  /** The start this page last had a session with. */
  let knownStart = credential.startId;
  for (;;) {
    let ended: 'replaced' | undefined;
    try {
      const opened = await handshake(credential);
      session = opened.session;
      if (credential.startId === undefined && opened.startId !== knownStart) {
        // With the link: this start's key replaces whatever was kept (a reload then resumes).
        knownStart = opened.startId;
        await keepStart(credential.key, opened.startId).catch(() => {});
      }
      const response = await fetch('/board/events', { headers: { authorization: `Bearer ${session}` }, cache: 'no-store' });
      if (response.status === 409) {
        notice(notices.busy);
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      await readJsonLines(response.body, (message) => {
        if (message.xos === 'hello') {
          page = (message as unknown as Hello).page;
          notice(undefined);
          delay = 500;
          // After a reconnect the host needs the handshake again to send every part.
          if (!first) post({ method: 'board/ready', params: {} });
          first = false;
          for (const queued of outbox.splice(0)) post(queued);
        } else if (message.xos === 'replaced') {
          ended = 'replaced';
        } else if (message.xos === 'takeoverRefused') {
          notice(notices.takeoverRefused);
        } else {
          window.dispatchEvent(new MessageEvent('message', { data: message }));
        }
      });
    } catch (error) {
      if (error instanceof NotProven) {
        page = session = undefined;
        // The start this page knew is over (or another program answers here): its K_start goes.
        if (knownStart !== undefined) await forgetStart(knownStart).catch(() => {});
        // Resuming, this is the normal case after xos-mcp started again: the link is needed.
        notice(credential.startId === undefined ? notices.notProven : notices.noKey);
        return;
      }
      // Otherwise: gone or interrupted; tried again below.
    }
    page = session = undefined;
    if (ended === 'replaced') {
      notice(notices.replaced);
      return;
    }
    notice(notices.lost);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 5_000);
  }
}

declare global {
  interface Window {
    acquireVsCodeApi(): { postMessage(message: unknown): void; setState(state: unknown): void };
  }
}

window.acquireVsCodeApi = () => ({ postMessage: post, setState: () => {} });

/**
 * A page another program served on this origin earlier (in practice: a fixed --board-port, while
 * xos-mcp was down) may have registered a service worker; the Board registers none, so every one
 * goes. It cannot undo one that already answers this page's requests itself (see docs/security.md).
 */
async function forgetServiceWorkers(): Promise<void> {
  try {
    const registrations = await navigator.serviceWorker?.getRegistrations() ?? [];
    await Promise.all(registrations.map((registration) => registration.unregister()));
  } catch {
    // None to forget, or not allowed here.
  }
}

/** Whether the connection loop runs; it ends for good on a key the server does not prove, a takeover or a refusal. */
let running = false;

async function start(): Promise<void> {
  const text = takeKeyFromLink();
  if (running) return;
  if (location.hostname !== HANDSHAKE_HOSTNAME) {
    notice(text ? notices.wrongHost : notices.noKey);
    return;
  }
  running = true;
  try {
    await forgetServiceWorkers();
    let credential: Credential | undefined;
    if (text) {
      try {
        credential = { key: await crypto.subtle.importKey('raw', encoder.encode(text), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']) };
      } catch {
        notice(notices.badKey);
        return;
      }
    } else {
      // Without the link: this start's key, if a link opened the Board here before.
      credential = await loadStart().catch(() => undefined);
      if (!credential) {
        notice(notices.noKey);
        return;
      }
    }
    await listen(credential);
  } finally {
    running = false;
  }
}

void start();
// The link opened in a tab that already shows this address only changes the fragment: no reload.
window.addEventListener('hashchange', () => void start());
