// Public sample databases this project did not write, built from the SQL vendored unchanged
// under test/fixtures/samples/ (see each folder's SOURCE.md): Chinook as a SQLite file and
// Pagila as a PostgreSQL database, so tests can run XOS on schemas and data shaped by others.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { postgresTool, type PostgresServer } from './postgres.ts';

const run = promisify(execFile);

/** The vendored sample databases and their goldens. */
export const SAMPLES = fileURLToPath(new URL('../fixtures/samples/', import.meta.url));

/** Chinook 1.4.5 (lerocha/chinook-database), the SQLite script. */
export const CHINOOK_SQLITE_SQL = join(SAMPLES, 'chinook', 'Chinook_Sqlite.sql');
/** Pagila 3.1.0 (devrimgunduz/pagila): schema, then data (COPY … FROM stdin, so psql loads it). */
export const PAGILA_SCHEMA_SQL = join(SAMPLES, 'pagila', 'pagila-schema.sql');
export const PAGILA_DATA_SQL = join(SAMPLES, 'pagila', 'pagila-data.sql');

/** Rows per table of the Chinook SQLite file (table names as the script spells them). */
export const CHINOOK_ROW_COUNTS = {
  Album: 347,
  Artist: 275,
  Customer: 59,
  Employee: 8,
  Genre: 25,
  Invoice: 412,
  InvoiceLine: 2240,
  MediaType: 5,
  Playlist: 18,
  PlaylistTrack: 8715,
  Track: 3503,
} as const satisfies Record<string, number>;

/**
 * Rows per table of the Pagila database (schema public). `payment` is partitioned by month;
 * its count is that of the parent, i.e. of all seven partitions together.
 */
export const PAGILA_ROW_COUNTS = {
  actor: 200,
  address: 603,
  category: 16,
  city: 600,
  country: 109,
  customer: 599,
  film: 1000,
  film_actor: 5462,
  film_category: 1000,
  inventory: 4581,
  language: 6,
  payment: 16049,
  rental: 16044,
  staff: 2,
  store: 2,
} as const satisfies Record<string, number>;

/** The role Pagila's pg_dump output hands every object to (`ALTER … OWNER TO postgres`). */
const PAGILA_OWNER = 'postgres';
const PSQL_TIMEOUT_MS = 120_000;

/**
 * Builds the Chinook database as a SQLite file at `path` (which should not exist yet) from the
 * vendored script, with node:sqlite. The script has no transaction of its own; it runs in one here.
 */
export async function createChinookSqlite(path: string): Promise<void> {
  const script = stripBom(await readFile(CHINOOK_SQLITE_SQL, 'utf8'));
  const db = new DatabaseSync(path);
  try {
    db.exec('BEGIN');
    try {
      db.exec(script);
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    db.close();
  }
}

export interface SamplePostgresOptions {
  /**
   * Pagila's one materialized view, `rental_by_category`, is created WITH NO DATA and the
   * published data script does not refresh it, so reading it fails until it is refreshed.
   * That is left as published unless this is true.
   */
  refreshMaterializedViews?: boolean;
}

/**
 * Creates (or recreates) the database `name` on `server`, loads Pagila into it with psql, and
 * returns its DSN. The vendored files run unchanged, schema then data, in one transaction that
 * stops at the first error. Pagila's dump sets the owner of every object to the role `postgres`,
 * which a cluster from startPostgres() (superuser `xos`) lacks: that role is created first, as
 * NOLOGIN, so the objects end up owned by a role other than the one XOS connects as.
 */
export async function createSamplePostgres(server: PostgresServer, name: string, options: SamplePostgresOptions = {}): Promise<string> {
  const dsn = await server.createDatabase(name);
  await withClient(dsn, (client) => client.query(`
    DO $$
    BEGIN
      IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '${PAGILA_OWNER}') THEN
        CREATE ROLE ${PAGILA_OWNER} NOLOGIN;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- created meanwhile by a load into another database of the same cluster
    END
    $$`));
  await psql(dsn, [PAGILA_SCHEMA_SQL, PAGILA_DATA_SQL]);
  if (options.refreshMaterializedViews) {
    await withClient(dsn, (client) => client.query('REFRESH MATERIALIZED VIEW public.rental_by_category'));
  }
  return dsn;
}

async function psql(dsn: string, files: string[]): Promise<void> {
  const args = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-d', dsn];
  for (const file of files) args.push('-f', file);
  // psql is a client: unlike the server binaries it runs as whoever we are, root included.
  const env: NodeJS.ProcessEnv = { ...process.env, PGCLIENTENCODING: 'UTF8' };
  delete env.PGSERVICE;
  delete env.PGOPTIONS;
  try {
    await run(postgresTool('psql'), args, { env, timeout: PSQL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`psql could not load ${files.join(', ')}: ${(stderr || message).slice(-2000)}`);
  }
}

async function withClient<T>(dsn: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}


/** psql next to the server binaries startPostgres() uses (same search), else the one on PATH. */
function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
