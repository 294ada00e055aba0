// Import circles in src/ and webview/: two modules that import each other (type-only and dynamic
// imports included) cannot be understood, tested or moved one at a time. eslint.config.js turns
// this into the rule `xos/no-import-circles`; test/unit/architecture.test.ts checks the whole graph.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { repoPath } from './layers.mjs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The .ts files of a folder of the repository, as repository paths. */
export function sourceFiles(folder) {
  const out = [];
  for (const name of readdirSync(join(repoRoot, folder))) {
    const path = `${folder}/${name}`;
    if (statSync(join(repoRoot, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** What a file imports: every specifier of its imports, re-exports and import() calls. */
export function importSpecifiers(path) {
  return ts.preProcessFile(readFileSync(join(repoRoot, path), 'utf8'), true, true).importedFiles.map((file) => file.fileName);
}

/** The graph of relative imports among `files`: file -> the files of `files` it imports. */
export function importGraph(files) {
  const known = new Set(files);
  return new Map(files.map((file) => [file, importSpecifiers(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => repoPath(resolve(dirname(join(repoRoot, file)), specifier)))
    .filter((target) => known.has(target))]));
}

/** The circles of a graph (its strongly connected components of two or more), each sorted. */
export function importCircles(graph) {
  // Tarjan's strongly connected components.
  let next = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (file) => {
    order.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), order.get(target)));
    }
    if (low.get(file) !== order.get(file)) return;
    const circle = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The repository's circles, worked out once per lint run (the rule asks for every file). */
let repoCircles;
function circleOf(path) {
  repoCircles ??= importCircles(importGraph([...sourceFiles('src'), ...sourceFiles('webview')]));
  return repoCircles.find((circle) => circle.includes(path));
}

export const noImportCirclesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'No import circles in src/ and webview/ (scripts/lib/circles.mjs).' },
    schema: [],
  },
  create(context) {
    const from = repoPath(context.filename);
    if (!from.startsWith('src/') && !from.startsWith('webview/')) return {};
    return {
      Program(node) {
        const circle = circleOf(from);
        if (circle) {
          context.report({ node, message: `${from} is in an import circle (${circle.join(', ')}): move what they share into a module of its own that imports none of them.` });
        }
      },
    };
  },
};
