// Chooses the storage adapter from a DSN (DESIGN §4): sqlite:<path>,
// sqlite::memory: or postgres(ql)://...
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { redactDsn } from '../dsn.ts';
import { PostgresStorage } from './postgres.ts';
import { SQLITE_MEMORY, SqliteStorage } from './sqlite.ts';
import type { Storage, StorageOptions } from './types.ts';

const SQLITE_PREFIX = 'sqlite:';
const ACCEPTED_FORMS = 'sqlite:<path>, sqlite::memory:, postgres://user:password@host:port/database or postgresql://...';

function isPostgresDsn(dsn: string): boolean {
  return /^postgres(ql)?:\/\//i.test(dsn);
}

export async function openStorage(dsn: string, options: StorageOptions = {}): Promise<Storage> {
  if (dsn.startsWith(SQLITE_PREFIX)) {
    const location = dsn.slice(SQLITE_PREFIX.length);
    if (location === SQLITE_MEMORY) return new SqliteStorage(SQLITE_MEMORY, dsn, options);
    if (location.trim() === '') throw new Error(`the DSN "${dsn}" names no SQLite file; accepted forms: ${ACCEPTED_FORMS}`);
    const path = resolve(process.cwd(), location);
    if (options.mustExist && !existsSync(path)) {
      throw new Error(`the SQLite file ${path} does not exist: the app works on that database's own tables, so XOS does not create it; check the DSN (a relative path is read from ${process.cwd()})`);
    }
    mkdirSync(dirname(path), { recursive: true });
    return new SqliteStorage(path, `${SQLITE_PREFIX}${path}`, options);
  }
  if (isPostgresDsn(dsn)) return new PostgresStorage(dsn, options);
  throw new Error(`unsupported DSN "${describeDsn(dsn)}"; accepted forms: ${ACCEPTED_FORMS}`);
}

/** The DSN safe to show: passwords masked. */
export function describeDsn(dsn: string): string {
  return redactDsn(dsn);
}
