// GET /xos/me of a remote XOS server: who its token names (a person of xos-server's users, with
// their role), so a front end can say who is signed in. The plain and the front-end token name nobody.
import type { Person } from '../backend/people/person.ts';

/** The person the token names, undefined when it names nobody or the server cannot say (an older server). */
export async function fetchMe(endpoint: string, token: string | undefined, { fetch: doFetch = fetch, timeoutMs = 15_000 } = {}): Promise<Person | undefined> {
  const base = endpoint.trim().replace(/\/+$/, '');
  try {
    const response = await doFetch(`${base}/xos/me`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return undefined;
    const body = await response.json() as { name?: unknown; role?: unknown };
    if (typeof body.name !== 'string') return undefined;
    return { name: body.name, ...(typeof body.role === 'string' ? { role: body.role } : {}) };
  } catch {
    return undefined;
  }
}
