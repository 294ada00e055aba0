// A throwaway PostgreSQL cluster for integration tests: its own data directory,
// port and socket, tuned for speed over durability, removed again on stop().
import { execFile, execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, rmSync } from 'node:fs';
import { appendFile, chown, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { tempDir } from './tmp.ts';

const run = promisify(execFile);

const INSTALL_HINT = 'install the Debian package "postgresql" (apt-get install -y postgresql)';
const SUPERUSER = 'xos';
const TEST_DATABASE = 'xos_test';
/** Generous: initdb and start-up on a loaded 2-core machine running other test files. */
const READY_DEADLINE_MS = 120_000;
const READY_POLL_MS = 100;

export interface PostgresServer {
  /** DSN of the database `xos_test`. */
  readonly dsn: string;
  /** Creates (or recreates) an empty database and returns its DSN. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = findBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = await tempDir('xos-pg');
  const dataDir = join(dir.path, 'data');
  const logFile = join(dir.path, 'postgres.log');
  // PostgreSQL refuses to run as root: hand the directory to the Debian package's user.
  if (asRoot) {
    const { uid, gid } = postgresUser();
    await chown(dir.path, uid, gid);
  }
  const command = (tool: string, args: string[]) => {
    const file = join(bin, tool);
    return asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
  };
  const commandSync = (tool: string, args: string[]) => {
    const file = join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'ignore' });
    else execFileSync(file, args, { stdio: 'ignore' });
  };

  let running = false;
  let server: ChildProcess | undefined;
  const stopNow = () => {
    if (!running) return;
    running = false;
    try {
      commandSync('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate']);
    } catch {
      server?.kill('SIGQUIT');
    }
  };
  // A test run that ends without calling stop() must not leave a server behind.
  const onSignal = (signal: NodeJS.Signals) => {
    stopAndRemove();
    process.kill(process.pid, signal);
  };
  const stopAndRemove = () => {
    stopNow();
    rmSync(dir.path, { recursive: true, force: true });
  };
  process.once('exit', stopAndRemove);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const forget = () => {
    process.off('exit', stopAndRemove);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };

  try {
    await run('cp', ['-a', await clusterTemplate(bin, command, asRoot), dataDir]);
    await appendFile(join(dataDir, 'postgresql.conf'), [
      '',
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir.path}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'));
    // A free port can be taken by another test process before the server binds it: then another one.
    let serverDsn = '';
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      await appendFile(join(dataDir, 'postgresql.conf'), `port = ${port}\n`);
      // The server runs as our child (not daemonised by pg_ctl) so its exit is reaped here.
      server = startServer(bin, dataDir, logFile, asRoot);
      // Never keep the test process alive for it; the exit hook above stops it.
      server.unref();
      running = true;
      serverDsn = `postgres://${SUPERUSER}@127.0.0.1:${port}`;
      try {
        await waitUntilReady(`${serverDsn}/postgres`, logFile, server);
        break;
      } catch (error) {
        const portTaken = server.exitCode !== null && /could not bind|Address already in use/.test(String(error));
        if (!portTaken || attempt === 3) throw error;
        running = false;
      }
    }
    const dsn = await createDatabase(serverDsn, TEST_DATABASE);
    let stopped = false;
    return {
      dsn,
      createDatabase: (name) => createDatabase(serverDsn, name),
      async stop() {
        if (stopped) return;
        stopped = true;
        forget();
        if (running) {
          running = false;
          const exited = exitOf(server!);
          await command('pg_ctl', ['-D', dataDir, 'stop', '-m', 'fast']);
          await exited;
        }
        await dir.remove();
      },
    };
  } catch (error) {
    stopNow();
    forget();
    await dir.remove();
    throw error;
  }
}

const INITDB_ARGS = ['-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'];

/**
 * A fresh cluster's data directory, made by initdb once per machine (and PostgreSQL, and initdb's
 * arguments): each server starts from a copy of it. initdb costs about a CPU second, the copy a
 * tenth of that, and the integration tests start some forty servers side by side.
 */
async function clusterTemplate(bin: string, command: (tool: string, args: string[]) => Promise<unknown>, asRoot: boolean): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify([bin, INITDB_ARGS])).digest('hex').slice(0, 12);
  const root = join(tmpdir(), `xos-pg-template-${process.getuid?.() ?? 'user'}-${key}`);
  const template = join(root, 'data');
  // It appears whole or not at all (renamed into place below).
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  await mkdir(root, { recursive: true });
  const scratch = await mkdtemp(join(root, 'initdb-'));
  try {
    if (asRoot) {
      const { uid, gid } = postgresUser();
      await chown(root, uid, gid);
      await chown(scratch, uid, gid);
    }
    await command('initdb', ['-D', join(scratch, 'data'), ...INITDB_ARGS]);
    try {
      await rename(join(scratch, 'data'), template);
    } catch (error) {
      // Another test file made it meanwhile: theirs serves as well.
      if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return template;
}

/** Creates (or recreates) an empty database on the server and returns its DSN. */
export async function createDatabase(serverDsn: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`database name "${name}" must be lower-case letters, digits and _`);
  const base = serverDsn.replace(/\/[^/@]*$/, '');
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return `${base}/${name}`;
}

/** The folders PostgreSQL's programs may be in: pg_config's, then Debian's, newest first. */
function binDirs(): string[] {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // no pg_config on PATH
  }
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  return candidates;
}

/** A PostgreSQL client program (psql, pg_dump) by its full path, or its bare name for PATH. */
export function postgresTool(name: string): string {
  const dir = binDirs().find((candidate) => existsSync(join(candidate, name)));
  return dir ? join(dir, name) : name;
}

function findBinDir(): string {
  const found = binDirs().find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error(`PostgreSQL server binaries (initdb, pg_ctl) not found; ${INSTALL_HINT}`);
  return found;
}

function postgresUser(): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`running as root needs the system user "postgres"; ${INSTALL_HINT}`);
  }
}

function startServer(bin: string, dataDir: string, logFile: string, asRoot: boolean): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    const file = join(bin, 'postgres');
    const [cmd, args] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, '-D', dataDir]] : [file, ['-D', dataDir]];
    return spawn(cmd as string, args as string[], { stdio: ['ignore', log, log] });
  } finally {
    closeSync(log);
  }
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(dsn: string, logFile: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  let lastError: unknown;
  while (Date.now() < deadline && server.exitCode === null && server.signalCode === null) {
    const client = new pg.Client({ connectionString: dsn });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      lastError = error;
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  const log = await readFile(logFile, 'utf8').catch(() => '');
  const why = server.exitCode !== null ? `exited with code ${server.exitCode}` : `did not accept connections within ${READY_DEADLINE_MS} ms`;
  throw new Error(`PostgreSQL ${why}: ${String(lastError)}\n${log.slice(-2000)}`);
}
