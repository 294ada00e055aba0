// Installs Debian packages as root, one installer at a time. The test stages install what they
// need side by side (PostgreSQL for integration, Chromium for npm start, Radicale for a contacts
// test), and apt takes its locks without waiting: a second apt-get fails at once with "Could not
// get lock". XOS's installers queue on one file lock; apt-get itself waits for other programs.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './run.mjs';

/** Where XOS's installers queue (flock(1), from util-linux): the system's lock folder, else the temporary one. */
export const APT_QUEUE_LOCK = join(existsSync('/var/lock') ? '/var/lock' : tmpdir(), 'xos-apt.lock');
/** How long an installer waits for its turn, and apt for dpkg's lock: an install takes minutes. */
const WAIT_SECONDS = 900;

/** `sudo apt-get install -y …`: the line to run by hand, for a user who is not root. */
export function aptHint(packages) {
  return `sudo apt-get install -y ${packages.join(' ')}`;
}

/**
 * apt-get update, then install `packages`; throws with what failed. Only root can: others get an
 * error naming the command to run.
 * @param {readonly string[]} packages
 * @param {{ output?: number }} [options] a file descriptor that takes apt's output
 */
export async function aptInstall(packages, { output } = {}) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(`missing Debian packages; install them with: ${aptHint(packages)}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = `apt-get -o DPkg::Lock::Timeout=${WAIT_SECONDS}`;
  const script = `${apt} update && ${apt} install -y --no-install-recommends "$@"`;
  const code = await run('flock', ['--wait', String(WAIT_SECONDS), APT_QUEUE_LOCK, 'sh', '-c', script, 'apt', ...packages], { env, output });
  if (code !== 0) throw new Error(`apt-get install -y ${packages.join(' ')} failed (exit code ${code})`);
}
