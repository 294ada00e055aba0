// A small recursive file finder; Node 20 (a fresh clone's system Node) has no fs.glob.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { repoRoot } from './paths.mjs';

/** Files under `dir` (relative to the repo root) whose name ends with `suffix`, sorted, as repo-relative POSIX paths. */
export function findFiles(dir, suffix) {
  const start = join(repoRoot, dir);
  if (!existsSync(start)) return [];
  const found = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(suffix)) found.push(relative(repoRoot, path).split(sep).join('/'));
    }
  };
  walk(start);
  return found.sort();
}
