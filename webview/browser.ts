// The browser Board's transport (xos-mcp serves the Board on loopback): the only module of
// the page that touches the network. It gives the Board bundle the same acquireVsCodeApi()
// a VS Code webview has, carried over HTTP: the host's messages arrive on one streamed
// response (a JSON line each), the page's go out as POSTs, both with the Board's key in an
// Authorization header. The key comes in the address's fragment (never sent to a server),
// leaves the address bar at once and is kept in this browser for this address (like a login),
// so the plain address (the agent's "open the Board", the chat card's Open in Board) works too.

import { readJsonLines } from '../src/board/jsonLines.ts';

interface Hello { readonly xos: 'hello'; readonly page: string }

const KEY_STORAGE = 'xos.board.key';

/** The transport's own lines, before the Board has its texts: in the page's language (xos-mcp sets it). */
const NOTICES = {
  en: {
    noKey: 'This Board link has no key. Open the link xos-mcp printed when it started (it ends in #token=…).',
    badKey: 'This Board link has no valid key. Open the link xos-mcp printed when it started (it ends in #token=…).',
    replaced: 'The XOS Board is open in another tab or window; this one no longer updates. Reload it to use it here.',
    lost: 'The connection to xos-mcp is lost; reconnecting…',
  },
  de: {
    noKey: 'Dieser Board-Link enthält keinen Schlüssel. Öffnen Sie den Link, den xos-mcp beim Start ausgegeben hat (er endet auf #token=…).',
    badKey: 'Dieser Board-Link enthält keinen gültigen Schlüssel. Öffnen Sie den Link, den xos-mcp beim Start ausgegeben hat (er endet auf #token=…).',
    replaced: 'Das XOS-Board ist in einem anderen Tab oder Fenster geöffnet; dieses wird nicht mehr aktualisiert. Laden Sie es neu, um es hier zu verwenden.',
    lost: 'Die Verbindung zu xos-mcp ist unterbrochen; neuer Versuch…',
  },
} as const;
const notices = document.documentElement.lang.toLowerCase().startsWith('de') ? NOTICES.de : NOTICES.en;

function boardKey(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const fromLink = fragment.get('token');
  if (fromLink) {
    localStorage.setItem(KEY_STORAGE, fromLink);
    history.replaceState(null, '', location.pathname);
    return fromLink;
  }
  return localStorage.getItem(KEY_STORAGE) ?? undefined;
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

const key = boardKey();
let page: string | undefined;
const outbox: unknown[] = [];
let sending = Promise.resolve();

function post(message: unknown): void {
  if (!page) {
    outbox.push(message);
    return;
  }
  const target = page;
  // In order, one after the other: the host sees the person's actions as they happened.
  sending = sending.then(async () => {
    try {
      await fetch('/board/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-xos-page': target },
        body: JSON.stringify(message),
      });
    } catch {
      // The stream notices the server is gone and says so.
    }
  });
}

async function listen(): Promise<void> {
  let delay = 500;
  let first = true;
  for (;;) {
    let replaced = false;
    try {
      const response = await fetch('/board/events', { headers: { authorization: `Bearer ${key}` }, cache: 'no-store' });
      if (response.status === 401) {
        notice(notices.badKey);
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
          replaced = true;
        } else {
          window.dispatchEvent(new MessageEvent('message', { data: message }));
        }
      });
    } catch {
      // Reconnects below.
    }
    page = undefined;
    if (replaced) {
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

if (key) void listen();
else notice(notices.noKey);
