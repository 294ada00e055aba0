// The browser Board's transport (xos-mcp serves the Board on loopback): the only module of
// the page that touches the network. It gives the Board bundle the same acquireVsCodeApi()
// a VS Code webview has, carried over HTTP: the host's messages arrive on one streamed
// response (a JSON line each), the page's go out as POSTs.
//
// The key: it comes in the address's fragment (`#token=…`, never sent to a server). Before
// anything else the page replaces its history entry with the plain address, so no entry keeps
// the key, and imports the key as a non-extractable WebCrypto HMAC key; the text is dropped.
// Nothing is written to localStorage, sessionStorage or IndexedDB: whatever serves this
// address (another program, while xos-mcp is down) could read the origin's storage with its
// own script, so anything stored that opens the Board would be reusable. A reload therefore
// needs the link again. The page never sends the key nor a proof before the server proved it
// knows the key (src/standalone/boardHandshake.ts); a server that cannot is never asked again.
import { readJsonLines } from '../src/board/jsonLines.ts';
import {
  HANDSHAKE_HOSTNAME, isToken, NONCE_BYTES, pageProofInput, serverProofInput,
  type ChallengeReply, type SessionReply,
} from '../src/standalone/boardHandshake.ts';

interface Hello { readonly xos: 'hello'; readonly page: string }

/** The transport's own lines, before the Board has its texts: in the page's language (xos-mcp sets it). */
const NOTICES = {
  en: {
    noKey: 'This Board link has no key. Open the link xos-mcp printed when it started (it ends in #token=…).',
    badKey: 'This Board link has no valid key. Open the link xos-mcp printed when it started (it ends in #token=…).',
    notProven: 'The program at this address could not prove it knows this Board\'s key, so this page sent it nothing and stopped. If xos-mcp was started again, open the new link it printed; otherwise another program may be using the port.',
    wrongHost: 'Open the Board at its numeric address, as xos-mcp printed it (http://127.0.0.1:…/#token=…).',
    replaced: 'The XOS Board is open in another tab or window; this one no longer updates. Reload it with the link xos-mcp printed to use it here.',
    busy: 'The XOS Board is asking a question in another tab or window. Answer it there; then open the link xos-mcp printed again to use the Board here.',
    takeoverRefused: 'Another tab or window tried to open the XOS Board; it was refused while this question is open.',
    lost: 'The connection to xos-mcp is lost; reconnecting…',
  },
  de: {
    noKey: 'Dieser Board-Link enthält keinen Schlüssel. Öffnen Sie den Link, den xos-mcp beim Start ausgegeben hat (er endet auf #token=…).',
    badKey: 'Dieser Board-Link enthält keinen gültigen Schlüssel. Öffnen Sie den Link, den xos-mcp beim Start ausgegeben hat (er endet auf #token=…).',
    notProven: 'Das Programm unter dieser Adresse konnte nicht nachweisen, dass es den Schlüssel dieses Boards kennt; diese Seite hat ihm nichts gesendet und angehalten. Wurde xos-mcp neu gestartet, öffnen Sie den neuen Link, den es ausgegeben hat; sonst belegt womöglich ein anderes Programm den Port.',
    wrongHost: 'Öffnen Sie das Board unter seiner numerischen Adresse, wie xos-mcp sie ausgegeben hat (http://127.0.0.1:…/#token=…).',
    replaced: 'Das XOS-Board ist in einem anderen Tab oder Fenster geöffnet; dieses wird nicht mehr aktualisiert. Öffnen Sie hier den Link von xos-mcp erneut, um es hier zu verwenden.',
    busy: 'Das XOS-Board stellt in einem anderen Tab oder Fenster eine Frage. Beantworten Sie sie dort; öffnen Sie danach den Link von xos-mcp erneut, um das Board hier zu verwenden.',
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

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), cache: 'no-store' });
}

/** The handshake: the server proves it knows the key, then this page does; a session for this server start. */
async function handshake(key: CryptoKey): Promise<string> {
  const host = location.host;
  const pageNonce = base64url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  const asked = await postJson('/board/challenge', { pageNonce });
  let reply: Partial<ChallengeReply>;
  try {
    reply = asked.ok ? await asked.json() as Partial<ChallengeReply> : {};
  } catch {
    reply = {};
  }
  const { serverNonce, serverProof } = reply;
  // Anything but a correct proof (no answer of this shape, a wrong one) means: not our server.
  if (!isToken(serverNonce) || !isToken(serverProof)) throw new NotProven();
  const proven = await crypto.subtle.verify('HMAC', key, fromBase64url(serverProof), encoder.encode(serverProofInput(host, pageNonce, serverNonce)));
  if (!proven) throw new NotProven();
  const pageProof = base64url(await crypto.subtle.sign('HMAC', key, encoder.encode(pageProofInput(host, pageNonce, serverNonce))));
  const answered = await postJson('/board/session', { serverNonce, pageProof });
  // A refusal after the server's proof (the nonce expired or was crowded out): tried again like a lost connection.
  if (!answered.ok) throw new Error(`HTTP ${answered.status}`);
  const { session } = await answered.json() as Partial<SessionReply>;
  if (!isToken(session)) throw new Error('no session');
  return session;
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

async function listen(key: CryptoKey): Promise<void> {
  let delay = 500;
  let first = true;
  for (;;) {
    let ended: 'replaced' | undefined;
    try {
      session = await handshake(key);
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
        notice(notices.notProven);
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

/** Whether the connection loop runs; it ends for good on a key the server does not prove, a takeover or a refusal. */
let running = false;

function start(): void {
  const text = takeKeyFromLink();
  if (running) return;
  if (!text) {
    notice(notices.noKey);
    return;
  }
  if (location.hostname !== HANDSHAKE_HOSTNAME) {
    notice(notices.wrongHost);
    return;
  }
  running = true;
  void crypto.subtle.importKey('raw', encoder.encode(text), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
    .then((key) => listen(key), () => notice(notices.badKey))
    .finally(() => { running = false; });
}

start();
// The link opened in a tab that already shows this address only changes the fragment: no reload.
window.addEventListener('hashchange', start);
