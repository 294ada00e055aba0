// Makes sure the PostgreSQL server binaries (Debian package "postgresql") are present
// for the integration tests, installing them when running as root.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withProgress } from './progress.mjs';
import { aptInstall } from './apt.mjs';

const debianRoot = '/usr/lib/postgresql';

/** The newest /usr/lib/postgresql/<version>/bin that holds initdb, or undefined. */
export function findPostgresBinDir() {
  if (!existsSync(debianRoot)) return undefined;
  const versions = readdirSync(debianRoot)
    .filter((version) => existsSync(join(debianRoot, version, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions.length ? join(debianRoot, versions[0], 'bin') : undefined;
}

/** Returns the bin directory, installing the package first if needed; throws with what to do otherwise. */
export async function ensurePostgres() {
  const found = findPostgresBinDir();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`PostgreSQL is not installed (no initdb under ${debianRoot}/*/bin); install it with: sudo apt-get install -y postgresql`);
  }
  console.log('PostgreSQL not found; installing the Debian package "postgresql" (about a minute) …');
  await withProgress('installing PostgreSQL', () => aptInstall(['postgresql']));
  const installed = findPostgresBinDir();
  if (!installed) throw new Error(`apt-get installed postgresql but no initdb appeared under ${debianRoot}/*/bin`);
  return installed;
}
