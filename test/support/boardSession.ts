// The browser Board's key handshake as the page speaks it (webview/browser.ts), for tests that
// play the page over plain HTTP: check the server's proof, send the page's, get a session.
import { createHmac, randomBytes } from 'node:crypto';
import { pageProofInput, serverProofInput } from '../../src/standalone/boardHandshake.ts';

export const hmac = (key: string, input: string): string => createHmac('sha256', key).update(input, 'utf8').digest('base64url');

export interface Handshake {
  readonly pageNonce: string;
  readonly serverNonce: string;
  readonly serverProof: string;
  readonly host: string;
}

/** Steps 1–2: asks for a challenge; throws when the server's proof is not right for `key`. */
export async function challenge(base: string, key: string): Promise<Handshake> {
  const host = new URL(base).host;
  const pageNonce = randomBytes(32).toString('base64url');
  const response = await fetch(new URL('/board/challenge', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pageNonce }) });
  if (response.status !== 200) throw new Error(`challenge: HTTP ${response.status}`);
  const { serverNonce, serverProof } = await response.json() as { serverNonce: string; serverProof: string };
  if (hmac(key, serverProofInput(host, pageNonce, serverNonce)) !== serverProof) throw new Error('the server did not prove it knows the key');
  return { pageNonce, serverNonce, serverProof, host };
}

/** Step 3–4: the page's proof for a challenge; resolves with the response. */
export async function answer(base: string, key: string, challenged: Handshake, host = challenged.host): Promise<Response> {
  const pageProof = hmac(key, pageProofInput(host, challenged.pageNonce, challenged.serverNonce));
  return fetch(new URL('/board/session', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ serverNonce: challenged.serverNonce, pageProof }) });
}

/** The whole handshake: a session credential for the Board's data requests. */
export async function boardSession(base: string, key: string): Promise<string> {
  const response = await answer(base, key, await challenge(base, key));
  if (response.status !== 200) throw new Error(`session: HTTP ${response.status}`);
  return ((await response.json()) as { session: string }).session;
}
