// The fast local path: which test files a change can break. A test is affected when it, or any
// file it imports (relative imports, followed through the whole tree), changed. A change to what
// every file depends on (package.json, the lockfile, tsconfig) affects every test.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/** Files whose change affects every test. */
const EVERYTHING = new Set(['package.json', 'package-lock.json', 'tsconfig.json']);

// `from '…'`, `import '…'`, `import('…')` with a relative specifier.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The repo-relative files `file` imports directly (only those that exist). */
export function importsOf(root, file) {
  let text;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    return [];
  }
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const target = relative(root, normalize(join(root, dirname(file), match[1]))).split(sep).join('/');
    if (existsSync(join(root, target))) found.push(target);
  }
  return found;
}

/** Of `tests`, those that `changed` (repo-relative POSIX paths) can affect. */
export function affectedTests(root, tests, changed) {
  if (changed.some((file) => EVERYTHING.has(file))) return [...tests];
  // Every file the tests reach, read once; then backwards from the changed files to the tests.
  const imports = new Map();
  const queue = [...tests];
  while (queue.length > 0) {
    const file = queue.pop();
    if (imports.has(file)) continue;
    const direct = importsOf(root, file);
    imports.set(file, direct);
    queue.push(...direct);
  }
  const importers = new Map();
  for (const [file, direct] of imports) {
    for (const target of direct) importers.set(target, [...(importers.get(target) ?? []), file]);
  }
  const reached = new Set();
  const work = changed.filter((file) => imports.has(file));
  while (work.length > 0) {
    const file = work.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    work.push(...(importers.get(file) ?? []));
  }
  return tests.filter((test) => reached.has(test));
}

/** The files changed against `base` (default HEAD: what is not committed yet), untracked ones included. */
export function changedFiles(root, base = 'HEAD') {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  return [...new Set([...git('diff', '--name-only', base), ...git('ls-files', '--others', '--exclude-standard')])].sort();
}
