import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { AstError, astFromObject, loadAstFile, parseAst } from '../../src/ast/load.ts';

const MALFORMED = 'test/fixtures/ast/malformed';

async function parseFixture(name: string) {
  return parseAst(await readFile(`${MALFORMED}/${name}`, 'utf8'), name);
}

test('the demo AST loads from its JSON file', async () => {
  const ast = await loadAstFile('media/demo/crm.json');
  assert.equal(ast.app, 'crm');
  assert.deepEqual(Object.keys(ast.contexts), ['person_list', 'person_detail', 'company_list', 'company_detail', 'deal_list']);
  assert.deepEqual(ast, JSON.parse(await readFile('media/demo/crm.json', 'utf8')));
});

test('YAML and JSON of the same AST load to the same value', async () => {
  const json = await readFile('test/fixtures/ast/library.json', 'utf8');
  const result = parseAst(`# the library app as YAML\n${stringify(JSON.parse(json))}`, 'library.yaml');
  assert.deepEqual(result, { ok: true, ast: JSON.parse(json) });
});

test('problems get the line and column of the node at their path', async () => {
  assert.deepEqual(await parseFixture('unknown-field.json'), {
    ok: false,
    problems: [{ path: 'contexts.person_list.list_fields[1]', message: 'unknown field "ctiy" on person', line: 12, column: 29 }],
  });
});

test('YAML problems point at their lines; a map entry points at its key', async () => {
  assert.deepEqual(await parseFixture('problems.yaml'), {
    ok: false,
    problems: [
      { path: 'entities.book.label', message: 'missing locale "fr"', line: 7, column: 5 },
      { path: 'entities.book.fields.pages.min', message: 'min (10) must not be greater than max (1)', line: 16, column: 9 },
      { path: 'contexts.book_list.list_fields[2]', message: 'unknown field "titel" on book', line: 25, column: 9 },
    ],
  });
});

test('duplicate keys are problems even in JSON, and the last one is what gets checked', async () => {
  assert.deepEqual(await parseFixture('duplicate-key.json'), {
    ok: false,
    problems: [
      { path: 'entities.person.fields.name', message: 'duplicate name "name"', line: 10, column: 9 },
      { path: 'entities.person', message: 'duplicate name "person"', line: 13, column: 5 },
      { path: 'contexts.person_list.list_fields[1]', message: 'unknown field "name" on person', line: 18, column: 80 },
    ],
  });
});

test('a missing required property points at its parent', () => {
  const text = '{\n  "xos": "1",\n  "locales": ["en"],\n  "entities": {},\n  "contexts": {}\n}\n';
  assert.deepEqual(parseAst(text, 'x.json'), {
    ok: false,
    problems: [{ path: 'app', message: 'required property "app" is missing', line: 1, column: 1 }],
  });
});

test('syntax errors give line and column', async () => {
  assert.deepEqual(await parseFixture('syntax.yaml'), {
    ok: false,
    problems: [{
      path: '',
      message: 'syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
      line: 4,
      column: 1,
    }],
  });
  assert.deepEqual(await parseFixture('missing-comma.json'), {
    ok: false,
    problems: [{ path: '', message: 'syntax error: Missing , between flow map items', line: 5, column: 3 }],
  });
});

test('bare words are refused in .json files but are texts in YAML', () => {
  const text = '{"xos": "1", "app": bare, "locales": ["en"], "entities": {}, "contexts": {}}';
  assert.deepEqual(parseAst(text, 'x.json'), {
    ok: false,
    problems: [{ path: '', message: 'syntax error: Unresolved plain scalar "bare"; JSON texts need double quotes', line: 1, column: 21 }],
  });
  assert.deepEqual(parseAst(text, 'x.yaml'), { ok: true, ast: { xos: '1', app: 'bare', locales: ['en'], entities: {}, contexts: {} } });
});

test('empty sources and several YAML documents are refused', () => {
  assert.deepEqual(parseAst(' \n'), {
    ok: false,
    problems: [{ path: '', message: 'the source is empty: an XOS AST is an object with xos, app, locales, entities and contexts', line: 1, column: 1 }],
  });
  assert.deepEqual(parseAst('xos: "1"\n---\napp: two\n'), {
    ok: false,
    problems: [{ path: '', message: 'syntax error: an AST is one document; remove this "---" and what follows', line: 2, column: 1 }],
  });
});

test('loadAstFile throws an AstError listing every problem, prefixed by the file', async () => {
  const file = `${MALFORMED}/problems.yaml`;
  await assert.rejects(loadAstFile(file), (error: unknown) => {
    assert.ok(error instanceof AstError);
    assert.equal(error.source, file);
    assert.equal(error.problems.length, 3);
    assert.equal(error.message, [
      `${file}: entities.book.label: missing locale "fr" (line 7, column 5)`,
      `${file}: entities.book.fields.pages.min: min (10) must not be greater than max (1) (line 16, column 9)`,
      `${file}: contexts.book_list.list_fields[2]: unknown field "titel" on book (line 25, column 9)`,
    ].join('\n'));
    return true;
  });
});

test('astFromObject returns a valid AST and throws AstError otherwise', async () => {
  const library = JSON.parse(await readFile('test/fixtures/ast/library.json', 'utf8'));
  assert.deepEqual(astFromObject(library), library);
  assert.throws(() => astFromObject({ ...library, locales: ['en', 'fr', 'en'] }, 'GET /xos/ast'), {
    name: 'AstError',
    message: 'GET /xos/ast: locales[2]: duplicate locale "en"',
  });
  assert.throws(() => astFromObject(42), { name: 'AstError', message: '<object>: expected an object, got 42' });
});
