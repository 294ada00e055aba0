// The browser Board's key handshake as the page speaks it (webview/browser.ts), for tests that
// play the page over plain HTTP: check the server's proof, send the page's, get a session.
// With the key (from the link), or resuming with the key of one start, K_start.
import { createHmac, randomBytes } from 'node:crypto';
import {
  pageProofInput, resumePageProofInput, resumeServerProofInput, serverProofInput, startKeyInput,
} from '../../src/standalone/boardHandshake.ts';

export const hmac = (key: string | Buffer, input: string): string => createHmac('sha256', key).update(input, 'utf8').digest('base64url');

/** K_start, as the page derives it after a key handshake: HMAC(key, start label + start id), 32 bytes. */
export const startKey = (key: string, startId: string): Buffer => createHmac('sha256', key).update(startKeyInput(startId), 'utf8').digest();

export interface Handshake {
  readonly pageNonce: string;
  readonly serverNonce: string;
  readonly serverProof: string;
  readonly startId: string;
  readonly host: string;
  /** Asked to resume with K_start (the request named the start). */
  readonly resume: boolean;
}

/** Steps 1–2 as sent, without checking the proof: the response and the nonce the page sent. */
export async function ask(base: string, startId?: string): Promise<{ response: Response; pageNonce: string }> {
  const pageNonce = randomBytes(32).toString('base64url');
  const body = startId === undefined ? { pageNonce } : { pageNonce, startId };
  const response = await fetch(new URL('/board/challenge', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { response, pageNonce };
}

/**
 * Steps 1–2: asks for a challenge; throws when the server's proof is not right for `key`.
 * With `startId`: resumes, `key` is then K_start (see startKey).
 */
export async function challenge(base: string, key: string | Buffer, startId?: string): Promise<Handshake> {
  const host = new URL(base).host;
  const { response, pageNonce } = await ask(base, startId);
  if (response.status !== 200) throw new Error(`challenge: HTTP ${response.status}`);
  const reply = await response.json() as { serverNonce: string; serverProof: string; startId: string };
  const resume = startId !== undefined;
  if (resume && reply.startId !== startId) throw new Error('the server named another start');
  const expected = resume
    ? hmac(key, resumeServerProofInput(host, reply.startId, pageNonce, reply.serverNonce))
    : hmac(key, serverProofInput(host, reply.startId, pageNonce, reply.serverNonce));
  if (expected !== reply.serverProof) throw new Error('the server did not prove it knows the key');
  return { pageNonce, serverNonce: reply.serverNonce, serverProof: reply.serverProof, startId: reply.startId, host, resume };
}

/**
 * Step 3–4: the page's proof for a challenge; resolves with the response. `label` signs with
 * the other kind of proof than the challenge asked for (a test of the labels).
 */
export async function answer(
  base: string, key: string | Buffer, challenged: Handshake, host = challenged.host, label: 'key' | 'resume' = challenged.resume ? 'resume' : 'key',
): Promise<Response> {
  const input = label === 'resume'
    ? resumePageProofInput(host, challenged.startId, challenged.pageNonce, challenged.serverNonce)
    : pageProofInput(host, challenged.pageNonce, challenged.serverNonce);
  const pageProof = hmac(key, input);
  return fetch(new URL('/board/session', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ serverNonce: challenged.serverNonce, pageProof }) });
}

/** The whole handshake: a session credential for the Board's data requests (with `startId`: resumed with K_start). */
export async function boardSession(base: string, key: string | Buffer, startId?: string): Promise<string> {
  const response = await answer(base, key, await challenge(base, key, startId));
  if (response.status !== 200) throw new Error(`session: HTTP ${response.status}`);
  return ((await response.json()) as { session: string }).session;
}
