// Decides whether node_modules matches package.json and package-lock.json.
// Runs on any Node >= 18 with no dependencies: it is what installs them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeModulesDir, repoRoot } from './paths.mjs';

export const lockfilePath = join(repoRoot, 'package-lock.json');
const manifestPath = join(repoRoot, 'package.json');
const stampPath = join(nodeModulesDir, '.xos-deps-stamp');

/** Hash of the manifest and the lockfile (if any): what an install was made from. */
export function dependencyHash() {
  const hash = createHash('sha256');
  for (const path of [manifestPath, lockfilePath]) {
    hash.update(path === lockfilePath ? 'lock\0' : 'manifest\0');
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export function readStamp() {
  return existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : undefined;
}

export function writeStamp(hash) {
  writeFileSync(stampPath, `${hash}\n`);
}

/**
 * Packages the lockfile lists that node_modules lacks or holds in another version.
 * Lets an unstamped or restamped tree skip a full reinstall when it already matches
 * (e.g. only a non-dependency field of package.json changed).
 */
export function lockfileMismatches() {
  const lock = JSON.parse(readFileSync(lockfilePath, 'utf8'));
  const mismatches = [];
  for (const [location, entry] of Object.entries(lock.packages ?? {})) {
    if (!location.startsWith('node_modules/') || entry.link) continue;
    const installedManifest = join(repoRoot, location, 'package.json');
    if (!existsSync(installedManifest)) {
      // Optional packages for other platforms (e.g. @esbuild/darwin-arm64) are never installed here.
      if (!entry.optional && !entry.devOptional) mismatches.push(`${location} missing`);
      continue;
    }
    const installed = JSON.parse(readFileSync(installedManifest, 'utf8')).version;
    if (entry.version && installed !== entry.version) mismatches.push(`${location} ${installed} != ${entry.version}`);
  }
  return mismatches;
}
