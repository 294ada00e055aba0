// Database failures the GraphQL layer can answer meaningfully (bad input, or
// "database unavailable"), translated from SQLite and PostgreSQL errors.
// Everything else is rethrown unchanged: it is a bug, not a user mistake.

export type StorageErrorCode = 'foreign_key' | 'unique' | 'check' | 'not_null' | 'choice' | 'timeout' | 'unavailable';

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  readonly column?: string;
  /** The database's name of the rule that refused the write (a CHECK constraint): its name, or SQLite's text of it. */
  readonly constraint?: string;
  /** `choice`: the enum type whose values the written value is not one of (PostgreSQL). */
  readonly enumType?: string;

  constructor(code: StorageErrorCode, message: string, options: { column?: string; constraint?: string; enumType?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'StorageError';
    this.code = code;
    if (options.column !== undefined) this.column = options.column;
    if (options.constraint !== undefined) this.constraint = options.constraint;
    if (options.enumType !== undefined) this.enumType = options.enumType;
  }
}

interface SqliteErrorShape {
  code?: unknown;
  errcode?: unknown;
  message?: unknown;
}

// Extended result codes, https://sqlite.org/rescode.html
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CANTOPEN = 14;
const SQLITE_CONSTRAINT_CHECK = 275;
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;
const SQLITE_CONSTRAINT_NOTNULL = 1299;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** Returns the StorageError for a node:sqlite error, or the error itself. */
export function translateSqliteError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as Error & SqliteErrorShape;
  if (e.code !== 'ERR_SQLITE_ERROR' || typeof e.errcode !== 'number') return error;
  const primary = e.errcode & 0xff;
  if (e.errcode === SQLITE_CONSTRAINT_FOREIGNKEY) {
    return new StorageError('foreign_key', 'a referenced record does not exist', { cause: error });
  }
  if (e.errcode === SQLITE_CONSTRAINT_UNIQUE || e.errcode === SQLITE_CONSTRAINT_PRIMARYKEY) {
    // "UNIQUE constraint failed: person.email"
    const column = /constraint failed: [^.\s]+\.(\S+)/.exec(e.message)?.[1];
    return new StorageError('unique', 'a record with this value already exists', { column, cause: error });
  }
  if (e.errcode === SQLITE_CONSTRAINT_CHECK) {
    // "CHECK constraint failed: price >= 0" (the rule as written), or its name when it has one.
    const constraint = /^CHECK constraint failed: ([\s\S]+)$/.exec(e.message)?.[1];
    return new StorageError('check', 'the value breaks a rule of the database', { constraint, cause: error });
  }
  if (e.errcode === SQLITE_CONSTRAINT_NOTNULL) {
    // "NOT NULL constraint failed: person.email"
    const column = /constraint failed: [^.\s]+\.(\S+)/.exec(e.message)?.[1];
    return new StorageError('not_null', 'the database keeps no record without this value', { column, cause: error });
  }
  if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) {
    return new StorageError('timeout', 'the database is busy; try again', { cause: error });
  }
  if (primary === SQLITE_CANTOPEN) {
    return new StorageError('unavailable', `database unavailable: ${e.message}`, { cause: error });
  }
  return error;
}

interface PgErrorShape {
  code?: unknown;
  detail?: unknown;
  column?: unknown;
  constraint?: unknown;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE']);

/** Returns the StorageError for a pg error, or the error itself. */
export function translatePostgresError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as Error & PgErrorShape;
  const code = typeof e.code === 'string' ? e.code : '';
  // "Key (company_id)=(99) is not present in table \"company\"."
  const column = typeof e.detail === 'string' ? /^Key \(([^)]+)\)=/.exec(e.detail)?.[1] : undefined;
  if (code === '23503') return new StorageError('foreign_key', 'a referenced record does not exist', { column, cause: error });
  if (code === '23505') return new StorageError('unique', 'a record with this value already exists', { column, cause: error });
  if (code === '23514') {
    const constraint = typeof e.constraint === 'string' ? e.constraint : undefined;
    return new StorageError('check', 'the value breaks a rule of the database', { constraint, cause: error });
  }
  if (code === '23502') {
    return new StorageError('not_null', 'the database keeps no record without this value', { column: typeof e.column === 'string' ? e.column : undefined, cause: error });
  }
  // A value an enum type does not have, given as text (a field an older init made a string): 'invalid input value for enum mpaa_rating: "X"'.
  const enumType = code === '22P02' ? /^invalid input value for enum (.+): "/.exec(e.message)?.[1] : undefined;
  if (enumType !== undefined) return new StorageError('choice', 'the value is none of the choices the database allows', { enumType, cause: error });
  if (code === '57014') return new StorageError('timeout', 'the statement took too long and was cancelled', { cause: error });
  // 08xxx connection exceptions, 57P01..57P03 shutdown / cannot connect now
  if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || NETWORK_CODES.has(code)) {
    return new StorageError('unavailable', `database unavailable: ${e.message}`, { cause: error });
  }
  if (/^Connection terminated|connection timeout/i.test(e.message)) {
    return new StorageError('unavailable', `database unavailable: ${e.message}`, { cause: error });
  }
  return error;
}
