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

/** The only address the handshake accepts: `localhost` may resolve to ::1, which another user could bind. */
export const HANDSHAKE_HOSTNAME = '127.0.0.1';
/** How long a server nonce can be answered. */
export const CHALLENGE_MS = 30_000;
/** How long a fresh session credential waits for its events stream. */
export const SESSION_OPEN_MS = 30_000;
/** Random bytes per nonce and per session credential. */
export const NONCE_BYTES = 32;

export interface ChallengeRequest { readonly pageNonce: string }
export interface ChallengeReply { readonly serverNonce: string; readonly serverProof: string }
export interface SessionRequest { readonly serverNonce: string; readonly pageProof: string }
export interface SessionReply { readonly session: string }

/** What the server signs: its own address and both nonces, labelled so a page proof never fits. */
export function serverProofInput(host: string, pageNonce: string, serverNonce: string): string {
  return `xos-board/1 server\n${host}\n${pageNonce}\n${serverNonce}`;
}

/** What the page signs, after it checked the server's proof. */
export function pageProofInput(host: string, pageNonce: string, serverNonce: string): string {
  return `xos-board/1 page\n${host}\n${serverNonce}\n${pageNonce}`;
}

/** A nonce or proof as sent: base64url without padding, of sane length. */
export function isToken(value: unknown, maxLength = 128): value is string {
  return typeof value === 'string' && value.length >= 16 && value.length <= maxLength && /^[A-Za-z0-9_-]+$/.test(value);
}
