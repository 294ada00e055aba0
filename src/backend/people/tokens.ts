// Person tokens at the HTTP door: which person a bearer token belongs to, asked of the shared
// users' table at most once per token every two seconds. Every xos-server instance asks the same
// table, so a revocation through one instance is refused by all of them within that time.
import type { Model } from '../model.ts';
import type { Storage } from '../storage/types.ts';
import type { Person } from './person.ts';
import { shortCache } from './shortCache.ts';
import { tokenHash, Users, usersPlace } from './users.ts';

/** The person a bearer token belongs to, or undefined (unknown, revoked, not a person token). */
export type PersonLookup = (token: string) => Promise<Person | undefined>;

/** How long an answer (person or none) is reused: a revocation takes effect everywhere within it. */
export const PERSON_CACHE_MS = 2000;

/** The users of the app's database, or undefined when its store keeps none. */
export function usersOf(storage: Storage, model: Model): Users | undefined {
  return storage.peopleSql ? new Users(storage.peopleSql(), usersPlace(model, storage.kind)) : undefined;
}

/** Asks `users` for a token's person, reusing each answer for at most `ttlMs`. */
export function cachedPersonLookup(users: Pick<Users, 'personOf'>, { ttlMs = PERSON_CACHE_MS, now = Date.now } = {}): PersonLookup {
  // Kept by the token's hash: the clear token is not held in memory longer than the request.
  return shortCache((token: string) => users.personOf(token), { ttlMs, now, keyOf: tokenHash });
}

/** GET /xos/me: who the request's token names (`{ name: null }` for the plain and the front-end token). */
export function meBody(person: Person | undefined): { name: string | null; role?: string | null } {
  return person ? { name: person.name, role: person.role ?? null } : { name: null };
}

/**
 * The person a front end of the embedded backend names (xos-mcp --person, VS Code's account),
 * with their role from the users' table where the app gives access through roles: the role
 * decides what the person reads and writes there, as over HTTP. Throws, saying what to do, for a
 * name that is no user, or a revoked one.
 */
export async function withTeamRole(person: Person, roles: boolean, users: Users | undefined): Promise<Person> {
  if (!roles) return person;
  const user = users ? (await users.list()).find((row) => row.name === person.name) : undefined;
  if (!user) {
    throw new Error(`this app gives access through its roles, and ${person.name} is not one of its users: ask the administrator to add them (xos-server users add ${person.name} --role <role>), or name a user who is`);
  }
  if (user.revokedAt) throw new Error(`the user ${person.name} was revoked (${user.revokedAt}); ask the administrator`);
  return { name: person.name, ...(user.role === null ? {} : { role: user.role }) };
}
