// The people of a team on one database: `xos_users` beside XOS's own tables (over the person's own
// PostgreSQL tables, `xos.users` in XOS's own schema, like the audit trail). Every xos-server
// instance reads the same table, so the instances hold no state of their own. The table is made
// only when an administrator first adds someone: an app that never has users never gets it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Model } from '../model.ts';
import type { SqlParam } from '../storage/sql.ts';
import type { PeopleSql } from './peopleSql.ts';
import type { Person } from './person.ts';

/** The table's name beside XOS's own tables; entity names starting with `xos_` are reserved. */
export const USERS_TABLE = 'xos_users';

/** Where the users' table is, as SQL names it, and the schema XOS creates for it first. */
export interface UsersPlace {
  readonly table: string;
  readonly schema?: string;
  /** The name the catalog knows it by (for "is it there yet"). */
  readonly regclass: string;
}

export const OWN_USERS: UsersPlace = { table: `"${USERS_TABLE}"`, regclass: USERS_TABLE };
export const SCHEMA_USERS: UsersPlace = { table: '"xos"."users"', schema: 'xos', regclass: 'xos.users' };

/** Beside XOS's own tables; over the person's own PostgreSQL tables, in XOS's own schema (SQLite has one schema). */
export function usersPlace(model: Model, kind: 'sqlite' | 'postgres'): UsersPlace {
  return model.owned || kind === 'sqlite' ? OWN_USERS : SCHEMA_USERS;
}


const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Why `name` cannot be a user's name, or undefined. */
export function nameProblem(name: string): string | undefined {
  if (NAME.test(name)) return undefined;
  return `"${name}" is not a valid user name: use 1 to 64 letters (A-Z, a-z), digits, ".", "_" or "-", like anna or j.smith`;
}

export const TOKEN_PREFIX = 'xos_';
const TOKEN_BYTES = 32;
/** `xos_` and 43 base64url characters (32 bytes). */
export const TOKEN_FORMAT = /^xos_[A-Za-z0-9_-]{43}$/;

/** A new person token: 32 random bytes, base64url, after `xos_` (so it is recognisable in a leaked file). */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * The stored form of a token: SHA-256, hex. A slow password hash (scrypt, argon2) protects
 * guessable secrets; a token of 32 random bytes (256 bits) cannot be guessed from its hash, so a
 * fast hash is as safe and lets every request be checked without burning the server's CPU.
 */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * What an OpenID Connect user keeps in the token column: they have no XOS token. A marker, not
 * NULL, because tables made before OIDC declare the column NOT NULL; it can never equal a
 * token's hash (64 hex digits), so no token opens such a user.
 */
const OIDC_MARKER = 'oidc:';
/**
 * An OpenID Connect user once their first token came: the provider's `sub` for that account, in
 * the same column. The column is unique, so one account of the provider is one person at most, and
 * a person is bound to one account: another account whose token carries their name is refused.
 */
const OIDC_SUBJECT = 'oidc-sub:';

/** How a user proves who they are: their own XOS token, or their identity provider's (OpenID Connect). */
export type SignIn = 'token' | 'oidc';

/** Where a name stands for OpenID Connect sign-in (src/backend/people/oidc.ts). */
export type OidcStanding =
  | { readonly state: 'absent' }
  | { readonly state: 'token' }
  | { readonly state: 'revoked'; readonly at: string }
  | { readonly state: 'active'; readonly person: Person; readonly subject?: string };

/** How binding a person to an account of the identity provider went. */
export type OidcBinding = 'bound' | 'other-account' | 'account-taken';

export interface UserRow {
  readonly name: string;
  readonly role: string | null;
  readonly signIn: SignIn;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** A mistake in an administrator's request (duplicate or unknown name, bad role): said as it is. */
export class UsersError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsersError';
  }
}

/** The users' statements over one store. */
export class Users {
  readonly #sql: PeopleSql;
  readonly #place: UsersPlace;

  constructor(sql: PeopleSql, place: UsersPlace) {
    this.#sql = sql;
    this.#place = place;
  }

  #p(index: number): string {
    return this.#sql.dialect.placeholder(index);
  }

  #run(text: string, params: readonly SqlParam[] = []): Promise<Record<string, unknown>[]> {
    return this.#sql.all({ text, params });
  }

  /** Whether the table is there (it is made by the first `add`). */
  async exists(): Promise<boolean> {
    if (this.#sql.kind === 'postgres') {
      const [row] = await this.#run(`SELECT to_regclass(${this.#p(1)}) IS NOT NULL AS "present"`, [this.#place.regclass]);
      return row.present === true;
    }
    const rows = await this.#run(`SELECT 1 AS "present" FROM sqlite_schema WHERE type = 'table' AND name = ${this.#p(1)}`, [this.#place.regclass]);
    return rows.length > 0;
  }

  async #create(): Promise<void> {
    if (this.#place.schema !== undefined) await this.#run(`CREATE SCHEMA IF NOT EXISTS "${this.#place.schema}"`);
    await this.#run(`CREATE TABLE IF NOT EXISTS ${this.#place.table} ("name" TEXT PRIMARY KEY, "role" TEXT, "token_hash" TEXT NOT NULL UNIQUE, `
      + '"created_at" TEXT NOT NULL, "revoked_at" TEXT)');
  }

  /**
   * Adds a person and returns their token: the only time it exists in the clear. With `oidc`, the
   * person signs in through the team's identity provider instead: no token is made (undefined).
   */
  async add(name: string, role: string | undefined, { oidc = false }: { readonly oidc?: boolean } = {}): Promise<string | undefined> {
    const problem = nameProblem(name);
    if (problem) throw new UsersError(problem);
    await this.#create();
    const existing = await this.#find(name);
    if (existing) {
      throw new UsersError(existing.revokedAt
        ? `the user ${name} exists (revoked ${existing.revokedAt}); a name is never given to someone else: pick another name`
        : `the user ${name} exists already; see them with "xos-server users list", or pick another name`);
    }
    const token = oidc ? undefined : newToken();
    try {
      await this.#run(`INSERT INTO ${this.#place.table} ("name", "role", "token_hash", "created_at") VALUES (${this.#p(1)}, ${this.#p(2)}, ${this.#p(3)}, ${this.#p(4)})`,
        [name, role ?? null, token === undefined ? OIDC_MARKER + name : tokenHash(token), new Date().toISOString()]);
    } catch (error) {
      // Another administrator added the same name a moment ago.
      if ((error as { code?: string }).code === 'unique') throw new UsersError(`the user ${name} exists already; pick another name`);
      throw error;
    }
    return token;
  }

  /** Everyone, revoked people too, by name; never a token or a hash. */
  async list(): Promise<UserRow[]> {
    if (!(await this.exists())) return [];
    const rows = await this.#run(`SELECT ${USER_COLUMNS} FROM ${this.#place.table} ORDER BY "name"`);
    return rows.map(decodeUser);
  }

  /** Revokes a person's token: every instance refuses it within its cache's lifetime. */
  async revoke(name: string): Promise<UserRow> {
    const user = await this.#known(name);
    if (user.revokedAt) throw new UsersError(`the user ${name} was revoked already (${user.revokedAt})`);
    const at = new Date().toISOString();
    await this.#run(`UPDATE ${this.#place.table} SET "revoked_at" = ${this.#p(1)} WHERE "name" = ${this.#p(2)} AND "revoked_at" IS NULL`, [at, name]);
    return { ...user, revokedAt: at };
  }

  /** Gives a person another role (null: none). */
  async setRole(name: string, role: string | null): Promise<UserRow> {
    const user = await this.#known(name);
    await this.#run(`UPDATE ${this.#place.table} SET "role" = ${this.#p(1)} WHERE "name" = ${this.#p(2)}`, [role, name]);
    return { ...user, role };
  }

  /** The person a token belongs to, unless it is unknown or revoked. */
  async personOf(token: string): Promise<Person | undefined> {
    if (!TOKEN_FORMAT.test(token) || !(await this.exists())) return undefined;
    const hash = tokenHash(token);
    const [row] = await this.#run(`SELECT "name", "role", "token_hash" FROM ${this.#place.table} WHERE "token_hash" = ${this.#p(1)} AND "revoked_at" IS NULL`, [hash]);
    // The index found it; the comparison that decides is the constant-time one.
    if (!row || !sameHex(String(row.token_hash), hash)) return undefined;
    return { name: String(row.name), ...(row.role === null || row.role === undefined ? {} : { role: String(row.role) }) };
  }

  /**
   * Whether `name` may sign in with OpenID Connect: added with --oidc and not revoked. Asked by
   * name only, never by a token's hash: the two ways in never meet.
   */
  async oidcStanding(name: string): Promise<OidcStanding> {
    if (nameProblem(name) || !(await this.exists())) return { state: 'absent' };
    const user = await this.#find(name);
    if (!user) return { state: 'absent' };
    if (user.revokedAt) return { state: 'revoked', at: user.revokedAt };
    if (user.signIn !== 'oidc') return { state: 'token' };
    const [row] = await this.#run(`SELECT "token_hash" FROM ${this.#place.table} WHERE "name" = ${this.#p(1)}`, [name]);
    const proof = String(row?.token_hash ?? '');
    return {
      state: 'active',
      person: { name: user.name, ...(user.role === null ? {} : { role: user.role }) },
      ...(proof.startsWith(OIDC_SUBJECT) ? { subject: proof.slice(OIDC_SUBJECT.length) } : {}),
    };
  }

  /**
   * Binds an OpenID Connect user to the account (`sub`) of their first token, or says why not:
   * bound to another account already, or that account is another person's. A compare-and-set, so
   * of two first tokens at once exactly one account wins.
   */
  async bindOidcSubject(name: string, subject: string): Promise<OidcBinding> {
    try {
      await this.#run(`UPDATE ${this.#place.table} SET "token_hash" = ${this.#p(1)} WHERE "name" = ${this.#p(2)} AND "token_hash" = ${this.#p(3)}`,
        [OIDC_SUBJECT + subject, name, OIDC_MARKER + name]);
    } catch (error) {
      if ((error as { code?: string }).code === 'unique') return 'account-taken';
      throw error;
    }
    const [row] = await this.#run(`SELECT "token_hash" FROM ${this.#place.table} WHERE "name" = ${this.#p(1)}`, [name]);
    return row?.token_hash === OIDC_SUBJECT + subject ? 'bound' : 'other-account';
  }

  async #find(name: string): Promise<UserRow | undefined> {
    const [row] = await this.#run(`SELECT ${USER_COLUMNS} FROM ${this.#place.table} WHERE "name" = ${this.#p(1)}`, [name]);
    return row ? decodeUser(row) : undefined;
  }

  async #known(name: string): Promise<UserRow> {
    const problem = nameProblem(name);
    if (problem) throw new UsersError(problem);
    const user = (await this.exists()) ? await this.#find(name) : undefined;
    if (!user) throw new UsersError(`there is no user ${name}; see who there is with "xos-server users list", or add them with "xos-server users add ${name}"`);
    return user;
  }
}

/** A user's columns as `decodeUser` reads them: how they sign in, but never the hash itself. */
const USER_COLUMNS = `"name", "role", "created_at", "revoked_at", CASE WHEN "token_hash" LIKE '${OIDC_MARKER}%' OR "token_hash" LIKE '${OIDC_SUBJECT}%' THEN 'oidc' ELSE 'token' END AS "sign_in"`;

function decodeUser(row: Record<string, unknown>): UserRow {
  return {
    name: String(row.name),
    role: row.role === null || row.role === undefined ? null : String(row.role),
    signIn: row.sign_in === 'oidc' ? 'oidc' : 'token',
    createdAt: String(row.created_at),
    revokedAt: row.revoked_at === null || row.revoked_at === undefined ? null : String(row.revoked_at),
  };
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
