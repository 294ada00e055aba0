// The one request module (src/graphql/requests.ts): every document the front ends send parses,
// validates against the schema the backend generates from the demo AST, and carries its values
// in variables only. And no other file of src/ (outside the backend's own server code) writes a
// GraphQL operation, so the backend's naming contract has one home on the client side.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, validate, type OperationDefinitionNode } from 'graphql';
import ts from 'typescript';
import { demoApp } from '../../src/backend/demo.ts';
import { buildModel } from '../../src/backend/model.ts';
import { buildXosSchema } from '../../src/backend/graphql/schema.ts';
import { checkContextQuery, checkedSelection, type CheckedQuery } from '../../src/graphql/queryRules.ts';
import {
  buildAuditMailMutation, buildAuditQuery, buildCheckedQuery, buildContactSearchQuery, buildDeleteMutation, buildDetailQuery,
  buildInsertMutation, buildListWindowQuery, buildRefChoicesQuery, buildRefNameQuery, buildUpdateMutation, type BuiltRequest,
} from '../../src/graphql/requests.ts';

const ast = demoApp();
const schema = buildXosSchema(ast, buildModel(ast));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Every string and number inside the variables (keys excluded). */
function leaves(value: unknown): Array<string | number> {
  if (typeof value === 'string' || typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [];
}

/** Parses, validates against the generated schema, and finds none of the variables' values in the text. */
function assertSound(request: BuiltRequest, operation: 'query' | 'mutation', values: ReadonlyArray<string | number> = []): void {
  const document = parse(request.query);
  assert.equal(document.definitions.length, 1);
  assert.equal((document.definitions[0] as OperationDefinitionNode).operation, operation);
  assert.deepEqual(validate(schema, document).map((e) => e.message), [], request.query);
  for (const value of [...leaves(request.variables), ...values]) {
    if (typeof value === 'number' && Math.abs(value) < 100) continue;
    if (typeof value === 'string' && value.length < 3) continue;
    assert.ok(!request.query.includes(String(value)), `${JSON.stringify(value)} is in the text: ${request.query}`);
  }
}

function checked(context: string, query: string): CheckedQuery {
  const check = checkContextQuery(ast, context, query);
  assert.ok(check.ok, check.ok ? '' : JSON.stringify(check.refusal));
  return check.query;
}

test('a detail read: the context by id, its list_fields, refs and inverse lists with id and name, and version', () => {
  const person = buildDetailQuery(ast, 'person_detail', '918273');
  assertSound(person, 'query');
  assert.equal(person.root, 'person_detail');
  assert.deepEqual(person.variables, { id: '918273' });
  assert.match(person.query, /^query XosRead\(\$id: ID!\) \{ person_detail\(id: \$id\) \{ id .* company \{ id name \} version \} \}$/);
  const company = buildDetailQuery(ast, 'company_detail', '918273');
  assertSound(company, 'query');
  assert.match(company.query, / employees \{ id .*\} version \} \}$/);
});

test('an update: values (a ref as its <ref>_id column) in $set, the version and id as variables', () => {
  const request = buildUpdateMutation(ast, 'person_detail', '918273', 46372, { lastname: "Robert'); DROP TABLE person;--", company: '55501', age: 4711 });
  assertSound(request, 'mutation');
  assert.equal(request.root, 'update_person');
  assert.deepEqual(request.variables, { id: '918273', version: 46372, set: { lastname: "Robert'); DROP TABLE person;--", company_id: '55501', age: 4711 } });
  assert.match(request.query, /^mutation XosSave\(\$id: ID!, \$version: Int!, \$set: person_set_input!\) \{ update_person\(id: \$id, version: \$version, set: \$set\) \{/);
});

test('an insert and a delete', () => {
  const insert = buildInsertMutation(ast, 'person_detail', { firstname: 'Zzsentinel', company: '55501' });
  assertSound(insert, 'mutation');
  assert.equal(insert.root, 'insert_person');
  assert.deepEqual(insert.variables, { object: { firstname: 'Zzsentinel', company_id: '55501' } });
  const remove = buildDeleteMutation(ast, 'company_detail', '918273', 46372);
  assertSound(remove, 'mutation');
  assert.equal(remove.root, 'delete_company');
  assert.deepEqual(remove.variables, { id: '918273', version: 46372 });
  assert.equal(remove.query, 'mutation XosDelete($id: ID!, $version: Int!) { delete_company(id: $id, version: $version) }');
});

test("a ref's name through its detail context", () => {
  const request = buildRefNameQuery(ast, 'company_detail', ['name'], '918273');
  assertSound(request, 'query');
  assert.equal(request.query, 'query XosRefName($id: ID!) { company_detail(id: $id) { name } }');
  assert.deepEqual(request.variables, { id: '918273' });
  assert.throws(() => buildRefNameQuery(ast, 'company_list', ['name'], '1'), /not a detail context/);
  assert.throws(() => buildRefNameQuery(ast, 'company_detail', ['name } hack { id'], '1'), /not a field of company/);
});

test('a list window: rows by where/order_by/limit/offset, the count once', () => {
  const selection = checkedSelection(checked('person_list', '{ person_list { id firstname lastname email city age net_worth } }'));
  const where = { _and: [{ city: { _eq: 'Zzberlin' } }, { _or: [{ lastname: { _ilike: '%zzmüller%' } }] }] };
  const orderBy = [{ company_id: 'desc' }, { id: 'asc' }];
  const first = buildListWindowQuery(ast, 'person_list', { selection, where, orderBy, limit: 4711, offset: 815, count: true });
  assertSound(first, 'query');
  assert.deepEqual(first.variables, { where, order_by: orderBy, limit: 4711, offset: 815 });
  assert.equal(first.root, 'person_list');
  assert.equal(first.countRoot, 'person_list_count');
  assert.match(first.query, / person_list_count\(where: \$where\) \}$/);
  const later = buildListWindowQuery(ast, 'person_list', { selection, where: undefined, orderBy, limit: 4711, offset: 815, count: false });
  assertSound(later, 'query');
  assert.doesNotMatch(later.query, /_count/);
  assert.throws(() => buildListWindowQuery(ast, 'person_detail', { selection, where, orderBy, limit: 1, offset: 0, count: true }), /not a list context/);
});

test('ref choices: the search text as an escaped _ilike pattern in a variable', () => {
  const request = buildRefChoicesQuery(ast, 'company_list', ['name'], 'Zz 100%_\\ "} hack', 20);
  assertSound(request, 'query', ['Zz 100%_\\ "} hack']);
  assert.deepEqual(request.variables, { where: { name: { _ilike: '%Zz 100\\%\\_\\\\ "} hack%' } }, orderBy: [{ name: 'asc' }] });
  assert.equal(request.query, 'query XosRefChoices($where: company_bool_exp, $orderBy: [company_order_by!]) '
    + '{ company_list(where: $where, order_by: $orderBy, limit: 20) { id name } }');
  const all = buildRefChoicesQuery(ast, 'company_list', ['name'], '', 20);
  assertSound(all, 'query');
  assert.deepEqual(all.variables.where, {});
  const byId = buildRefChoicesQuery(ast, 'company_list', ['id'], 'zzsearch', 20);
  assertSound(byId, 'query', ['zzsearch']);
  assert.deepEqual(byId.variables, { where: {}, orderBy: [{ id: 'asc' }] });
  assert.throws(() => buildRefChoicesQuery(ast, 'company_list', ['name'], '', 1.5), /not a count/);
});

test('the audit trail: xos_audit by entity and id, and a sent mail in xos_audit_mail', () => {
  // Not `person`: that is also the name of the entry's field, so it is in the text on purpose.
  const record = buildAuditQuery({ entity: 'company', id: '918273' }, 4711);
  assertSound(record, 'query');
  assert.equal(record.root, 'xos_audit');
  assert.deepEqual(record.variables, { entity: 'company', id: '918273', batch: null, limit: 4711, offset: 0 });
  const all = buildAuditQuery({}, 100);
  assertSound(all, 'query');
  assert.deepEqual(all.variables, { entity: null, id: null, batch: null, limit: 100, offset: 0 });
  const batch = buildAuditQuery({ batch: 'b-1' }, 500, 1000, true);
  assertSound(batch, 'query');
  assert.match(batch.query, /xos_audit_count\(entity: \$entity, id: \$id, batch: \$batch\)/);
  assert.deepEqual(batch.variables, { entity: null, id: null, batch: 'b-1', limit: 500, offset: 1000 });
  const mail = buildAuditMailMutation({ to: 'Zz Name <zz@example.org>', subject: 'Zzsubject } mutation', messageId: '<zz-1@example.org>' });
  assertSound(mail, 'mutation');
  assert.equal(mail.root, 'xos_audit_mail');
  assert.deepEqual(mail.variables, { to: 'Zz Name <zz@example.org>', subject: 'Zzsubject } mutation', messageId: '<zz-1@example.org>' });
});

test('the XOS records contact search: each word in its own variable', () => {
  const request = buildContactSearchQuery(ast, 'person_list', {
    searchFields: ['firstname', 'lastname', 'email'], fields: ['firstname', 'lastname', 'email', 'phone'], words: ['zzmax', "o'; drop_%"], limit: 50,
  });
  assertSound(request, 'query', ['zzmax', "o'; drop_%"]);
  assert.deepEqual(request.variables, { w0: '%zzmax%', w1: "%o'; drop\\_\\%%" });
  assert.equal(request.root, 'person_list');
  assert.match(request.query, /^query XosContacts\(\$w0: String!, \$w1: String!\) \{ person_list\(where: \{ _and: \[\{ _or: \[\{ firstname: \{ _ilike: \$w0 \} \}, /);
  const none = buildContactSearchQuery(ast, 'person_list', { searchFields: ['email'], fields: ['email'], words: [], limit: 50 });
  assertSound(none, 'query');
  assert.equal(none.query, 'query XosContacts { person_list(where: { _and: [] }, limit: 50) { email } }');
  assert.throws(() => buildContactSearchQuery(ast, 'person_list', { searchFields: ['nope'], fields: ['email'], words: ['x'], limit: 50 }), /not a field of person/);
});

test("the agent's checked xos_query rebuilt: list arguments and a detail's id in variables", () => {
  const list = buildCheckedQuery(checked('person_list',
    '{ person_list(where: { city: { _eq: "Zzhamburg" } }, order_by: [{ age: desc }], limit: 5, offset: 10) { id firstname lastname email city age net_worth } }'));
  assertSound(list, 'query');
  assert.deepEqual(list.variables, { where: { city: { _eq: 'Zzhamburg' } }, order_by: [{ age: 'desc' }] });
  const detail = buildCheckedQuery(checked('person_detail',
    '{ person_detail(id: "918273") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }'));
  assertSound(detail, 'query');
  assert.deepEqual(detail.variables, { id: '918273' });
});

test('names that are not the AST\'s never reach a document', () => {
  assert.throws(() => buildDetailQuery(ast, 'person_detail(id: 1) { id } x', '1'), /not a context of the app/);
  assert.throws(() => buildDetailQuery(ast, 'constructor', '1'), /not a context of the app/);
  assert.throws(() => buildUpdateMutation(ast, 'nope', '1', 1, {}), /not a context of the app/);
  assert.throws(() => buildCheckedQuery({ context: 'person_list { id } x', entity: 'person', kind: 'list', args: {}, selections: [] }), /not a GraphQL name/);
});

// ---------------------------------------------------------------------------------------------
// No GraphQL operation outside the request module.

/** What an operation literal looks like: an operation keyword before variables or a selection, the API's generated names. */
const OPERATION_PATTERNS: readonly RegExp[] = [
  /\b(?:query|mutation|subscription)(?:\s+[_A-Za-z]\w*)?\s*(?:\(\s*\$|\{)/,
  /\b(?:query|mutation|subscription)\s+[A-Z]\w*\$\{/,
  /\bxos_audit/,
  /_bool_exp|_order_by\b|_set_input|_insert_input/,
  /\b(?:update|insert|delete)_\$\{/,
  /_count\s*\(/,
  /\$[_A-Za-z]\w*\s*:\s*\[?[_A-Za-z]+!?\]?!?\s*[,)=]/,
  /\{\s*\$\{[^}]+\}\s*[({]/,
];

/** Where operation literals may stand, and why. */
const ALLOWED: ReadonlyArray<[RegExp, string]> = [
  [/^src\/graphql\/requests\.ts$/, 'the request module itself'],
  [/^src\/backend\//, "the backend's own server code: it generates the schema the names come from"],
  [/^src\/ast\/validate\.ts$/, "reserves the generated type names (<entity>_bool_exp, …) so no AST name collides with them; floor 0 cannot import the module"],
];

/** [line, text] of every string or template literal in `code` that looks like a GraphQL operation. */
function operationLiterals(code: string, file = 'x.ts'): Array<[number, string]> {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const found: Array<[number, string]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = node.getText(source);
      if (OPERATION_PATTERNS.some((pattern) => pattern.test(text))) found.push([source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, text]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

test('the operation check finds the documents the use cases used to write themselves', () => {
  const old = [
    'run(`query XosRefName($id: ID!) { ${context}(id: $id) { ${field} } }`, { id });',
    "run('mutation XosAuditMail($to: String!) { xos_audit_mail(to: $to) { id } }', { to });",
    'run(`mutation XosDelete($id: ID!, $version: Int!) { delete_${entity}(id: $id, version: $version) }`, vars);',
    'const count = ` ${context.name}_count(where: $where)`;',
    'const text = `{ ${context}(where: { _and: [${conditions.join(", ")}] }, limit: 50) { ${selection} } }`;',
    "run('{ xos_audit_count }');",
    'run(`query { person_list { id } }`);',
    'const query = `query XosQuery${declared ? `(${declared})` : ""} x`;',
  ];
  for (const line of old) assert.equal(operationLiterals(line).length, 1, line);
  // Words about queries are not operations.
  assert.deepEqual(operationLiterals("const m = `Send exactly one query operation (got ${n}), for example: ${example}`; const q = 'The query was refused: {0}';"), []);
});

test('no file of src/ but the request module (and the backend) writes a GraphQL operation', () => {
  const problems: string[] = [];
  for (const file of sourceFiles(join(repoRoot, 'src'))) {
    const path = relative(repoRoot, file).split('\\').join('/');
    if (ALLOWED.some(([pattern]) => pattern.test(path))) continue;
    for (const [line, text] of operationLiterals(readFileSync(file, 'utf8'), file)) problems.push(`${path}:${line}: ${text.slice(0, 120)}`);
  }
  assert.deepEqual(problems, [], 'build GraphQL documents in src/graphql/requests.ts');
});
