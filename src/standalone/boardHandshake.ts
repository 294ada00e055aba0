// The browser Board's key handshake, shared by the page (webview/browser.ts, WebCrypto) and
// xos-mcp (src/standalone/boardServer.ts, node:crypto). No crypto and no Node or DOM imports
// here: only what both sides must spell the same way.
//
// The page never sends the key, nor anything a listener on the port could replay:
//   1. page → POST /board/challenge  { pageNonce }                      (random, 32 bytes)
//   2. server → { serverNonce, serverProof = HMAC(key, serverProofInput) }
//      The page checks serverProof before it sends anything derived from the key. A server
//      that cannot prove it knows the key (another program on the port while xos-mcp is down,
//      or an xos-mcp started with another key) is never asked again: the page stops and says so.
//   3. page → POST /board/session  { serverNonce, pageProof = HMAC(key, pageProofInput) }
//   4. server → { session }: a random credential, known only to this server start, that opens
//      one events stream (within SESSION_OPEN_MS) and carries that page's messages until the
//      stream ends.
// Both proofs name the exact address (`127.0.0.1:<port>`), so a relay from one port to
// another fails, and both nonces, so an answer from one handshake is worthless in the next.
// A server nonce is answered once, and only within CHALLENGE_MS.
//
// A reload within one start (resume): every start of xos-mcp has a random start id, named in
// the server's challenge reply and covered by its proof. After a key handshake the page derives
// the start's key K_start = HMAC(key, startKeyInput(startId)), keeps it as a non-extractable
// WebCrypto key in IndexedDB with the start id, and drops the key. A load without the link runs
// the same handshake with K_start instead of the key (step 1 names the start id; the proofs
// carry their own labels, so a proof of one kind never fits the other). Another start (a new
// start id) cannot prove K_start: the page deletes it and asks for the link. K_start opens
// nothing once its start ended, and while the start runs xos-mcp holds the port, so no other
// program serves a page on this origin that could use it.

/** The only address the handshake accepts: `localhost` may resolve to ::1, which another user could bind. */
export const HANDSHAKE_HOSTNAME = '127.0.0.1';
/** How long a server nonce can be answered. */
export const CHALLENGE_MS = 30_000;
/** How long a fresh session credential waits for its events stream. */
export const SESSION_OPEN_MS = 30_000;
/** Random bytes per nonce and per session credential. */
export const NONCE_BYTES = 32;

/** Random bytes of a start id. */
export const START_ID_BYTES = 16;

export interface ChallengeRequest {
  readonly pageNonce: string;
  /** Set to resume with the key of this start (K_start); absent for the key itself. */
  readonly startId?: string;
}
export interface ChallengeReply { readonly serverNonce: string; readonly serverProof: string; readonly startId: string }
export interface SessionRequest { readonly serverNonce: string; readonly pageProof: string }
export interface SessionReply { readonly session: string }

/** With the key: what the server signs (its address, its start, both nonces), labelled so a page proof never fits. */
export function serverProofInput(host: string, startId: string, pageNonce: string, serverNonce: string): string {
  return `xos-board/1 server\n${host}\n${startId}\n${pageNonce}\n${serverNonce}`;
}

/** With the key: what the page signs, after it checked the server's proof. */
export function pageProofInput(host: string, pageNonce: string, serverNonce: string): string {
  return `xos-board/1 page\n${host}\n${serverNonce}\n${pageNonce}`;
}

/** What the key signs to make the key of one start, K_start (its 32 bytes are an HMAC-SHA256 key). */
export function startKeyInput(startId: string): string {
  return `xos-board/1 start\n${startId}`;
}

/** With K_start: what the server signs. */
export function resumeServerProofInput(host: string, startId: string, pageNonce: string, serverNonce: string): string {
  return `xos-board/1 resume server\n${host}\n${startId}\n${pageNonce}\n${serverNonce}`;
}

/** With K_start: what the page signs, after it checked the server's proof. */
export function resumePageProofInput(host: string, startId: string, pageNonce: string, serverNonce: string): string {
  return `xos-board/1 resume page\n${host}\n${startId}\n${serverNonce}\n${pageNonce}`;
}

/** A nonce or proof as sent: base64url without padding, of sane length. */
export function isToken(value: unknown, maxLength = 128): value is string {
  return typeof value === 'string' && value.length >= 16 && value.length <= maxLength && /^[A-Za-z0-9_-]+$/.test(value);
}
