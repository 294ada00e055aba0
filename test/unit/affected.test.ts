// The fast local path picks the tests a change can break: through imports, across cycles, and all
// of them when what everything depends on changed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { affectedTests, importsOf } from '../../scripts/lib/affected.mjs';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'xos-affected-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

test('a test is affected by a change to any file it reaches, and only then', (t) => {
  const root = tree({
    'src/a.ts': "import { b } from './b.ts';\nexport const a = b;",
    'src/b.ts': "import type { C } from './c.ts';\nexport const b = 1;",
    'src/c.ts': "export type C = 1; const later = await import('./d.ts');",
    'src/d.ts': "export * from './a.ts';", // a cycle back to a
    'src/lone.ts': 'export const lone = 1;',
    'scripts/lib/x.mjs': 'export const x = 1;',
    'test/unit/a.test.ts': "import { a } from '../../src/a.ts';\nimport 'node:test';\nimport fc from 'fast-check';",
    'test/unit/x.test.ts': "import { x } from '../../scripts/lib/x.mjs';",
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const tests = ['test/unit/a.test.ts', 'test/unit/x.test.ts'];
  assert.deepEqual(importsOf(root, 'test/unit/a.test.ts'), ['src/a.ts'], 'packages and node: modules are not files of the tree');
  assert.deepEqual(affectedTests(root, tests, ['src/d.ts']), ['test/unit/a.test.ts'], 'through a dynamic import and a cycle');
  assert.deepEqual(affectedTests(root, tests, ['src/c.ts']), ['test/unit/a.test.ts'], 'through a type import');
  assert.deepEqual(affectedTests(root, tests, ['scripts/lib/x.mjs']), ['test/unit/x.test.ts']);
  assert.deepEqual(affectedTests(root, tests, ['test/unit/x.test.ts']), ['test/unit/x.test.ts'], 'a changed test itself');
  assert.deepEqual(affectedTests(root, tests, ['src/lone.ts', 'README.md']), [], 'nothing reaches them');
  assert.deepEqual(affectedTests(root, tests, ['package-lock.json']), tests, 'the lockfile affects every test');
});
