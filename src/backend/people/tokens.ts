// Person tokens at the HTTP door: which person a bearer token belongs to, asked of the shared
// users' table at most once per token every two seconds. Every xos-server instance asks the same
// table, so a revocation through one instance is refused by all of them within that time.
import type { Model } from '../model.ts';
import type { Storage } from '../storage/types.ts';
import type { Person } from './person.ts';
import { tokenHash, Users, usersPlace } from './users.ts';

/** The person a bearer token belongs to, or undefined (unknown, revoked, not a person token). */
export type PersonLookup = (token: string) => Promise<Person | undefined>;

/** How long an answer (person or none) is reused: a revocation takes effect everywhere within it. */
export const PERSON_CACHE_MS = 2000;
const PERSON_CACHE_SIZE = 1000;

/** The users of the app's database, or undefined when its store keeps none. */
export function usersOf(storage: Storage, model: Model): Users | undefined {
  return storage.peopleSql ? new Users(storage.peopleSql(), usersPlace(model, storage.kind)) : undefined;
}

/** Asks `users` for a token's person, reusing each answer for at most `ttlMs`. */
export function cachedPersonLookup(users: Pick<Users, 'personOf'>, { ttlMs = PERSON_CACHE_MS, now = Date.now } = {}): PersonLookup {
  // Keyed by the token's hash: the clear token is not kept in memory longer than the request.
  const answers = new Map<string, { readonly until: number; readonly person: Promise<Person | undefined> }>();
  return (token) => {
    const key = tokenHash(token);
    const time = now();
    const cached = answers.get(key);
    if (cached && cached.until > time) return cached.person;
    if (answers.size >= PERSON_CACHE_SIZE) {
      for (const [k, v] of answers) if (v.until <= time) answers.delete(k);
      if (answers.size >= PERSON_CACHE_SIZE) answers.delete(answers.keys().next().value!);
    }
    // Requests that arrive together share one look-up; a failed one is not kept.
    const person = users.personOf(token);
    answers.set(key, { until: time + ttlMs, person });
    person.catch(() => answers.delete(key));
    return person;
  };
}

/** GET /xos/me: who the request's token names (`{ name: null }` for the plain and the front-end token). */
export function meBody(person: Person | undefined): { name: string | null; role?: string | null } {
  return person ? { name: person.name, role: person.role ?? null } : { name: null };
}
