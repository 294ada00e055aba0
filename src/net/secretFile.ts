// A secret (a bearer token) read from a file only its owner can read: a secret on the command
// line is visible to every user of the machine (`ps`, /proc/<pid>/cmdline). Both CLIs take their
// tokens from the environment or from such a file, never from argv.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** Reads the secret in `path` (given as `flag`); a string says what is wrong and what to do. */
export function readSecretFile(path: string, flag: string): string | { readonly problem: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY);
  } catch (error) {
    return { problem: `${flag} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: `${flag} ${path} is not a file` };
    if ((stat.mode & 0o077) !== 0) {
      return { problem: `${flag} ${path} can be read by other users (mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}): run chmod 600 ${path} and start again` };
    }
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return { problem: `${flag} ${path} belongs to another user: use a file of your own (chmod 600)` };
    const secret = readFileSync(fd, 'utf8').trim();
    if (!secret || /\s/.test(secret)) return { problem: `${flag} ${path} must hold the token alone, on one line` };
    return secret;
  } finally {
    closeSync(fd);
  }
}

/** Whether `argv` names `flag` (with or without a value): checked before parsing, so both get the same answer. */
export function namesFlag(argv: readonly string[], flag: string): boolean {
  return argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
}
