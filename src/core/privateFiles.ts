// Files and folders only their owner can read (xos-mcp's data folder, database, Board link and
// CSV exports), created that way from the start and tightened when they exist looser. Nothing
// is written through a symbolic link: a link planted where a file will be written could
// otherwise send the data to, or overwrite, any file the person can write.
import { chmodSync, closeSync, constants, existsSync, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';

const OWNER_ONLY_DIR = 0o700;
const OWNER_ONLY_FILE = 0o600;

/** Thrown for a symbolic link where XOS writes a file; its message says what to do. */
export class SymlinkRefused extends Error {
  constructor(path: string) {
    super(`${path} is a symbolic link; XOS does not write through links. Remove it (or pick another place) and try again.`);
  }
}

function ownedByMe(uid: number): boolean {
  return typeof process.getuid !== 'function' || uid === process.getuid();
}

/** Creates `path` (and missing parents) as 0700; a folder of the person's own that is looser is made 0700. */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: OWNER_ONLY_DIR });
  const stat = statSync(path);
  if (!stat.isDirectory()) throw new Error(`${path} is not a folder.`);
  if ((stat.mode & 0o077) !== 0 && ownedByMe(stat.uid)) chmodSync(path, OWNER_ONLY_DIR);
}

/**
 * Opens `path` for writing as 0600 without following a symbolic link there (`O_NOFOLLOW`), and
 * makes an existing file 0600. `truncate`: start empty; otherwise the content stays (a database).
 */
export function openPrivateFile(path: string, options: { truncate: boolean }): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (options.truncate ? constants.O_TRUNC : 0), OWNER_ONLY_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new SymlinkRefused(path);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${path} is not a regular file.`);
    if ((stat.mode & 0o077) !== 0) fchmodSync(fd, OWNER_ONLY_FILE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Makes an existing file 0600 (a database's -wal and -shm); a link or a missing file is left alone. */
export function tightenFile(path: string): void {
  if (!existsSync(path)) return;
  const stat = lstatSync(path);
  if (stat.isFile() && (stat.mode & 0o077) !== 0 && ownedByMe(stat.uid)) chmodSync(path, OWNER_ONLY_FILE);
}

/** Writes `text` to `path` as 0600, never through a link. */
export function writePrivateFile(path: string, text: string): void {
  const fd = openPrivateFile(path, { truncate: true });
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Whether anything is at `path`, a dangling link included (existsSync follows links). */
export function taken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
