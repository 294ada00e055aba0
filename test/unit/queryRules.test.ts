// The list_fields rule and the other limits on an agent's xos_query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoApp } from '../../src/backend/demo.ts';
import { checkContextQuery, withIdAndVersion } from '../../src/graphql/queryRules.ts';

const ast = demoApp();
const LIST = '{ person_list { id firstname lastname email city age net_worth } }';
const LIST_EXAMPLE = 'For example: { person_list { id firstname lastname email city age net_worth } }';

/** The refusal without its last sentence, which every refusal ends with: the call to make next. */
function refusal(context: string, query: string): string {
  const check = checkContextQuery(ast, context, query);
  assert.equal(check.ok, false);
  const { message } = check as { message: string };
  assert.ok(message.endsWith(' Then call xos_query again.'), message);
  return message.slice(0, -' Then call xos_query again.'.length);
}

test('the seed example passes as a list query', () => {
  const check = checkContextQuery(ast, 'person_list', LIST);
  assert.equal(check.ok, true);
  assert.equal(check.ok && check.kind, 'list');
});

test('a detail query with id and ref sub-selection passes', () => {
  const query = '{ person_detail(id: "3") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }';
  const check = checkContextQuery(ast, 'person_detail', query);
  assert.equal(check.ok && check.kind, 'detail');
});

test('arguments, a named query and version are allowed', () => {
  const query = 'query People { person_list(where: { city: { _eq: "Berlin" } }, limit: 5) { id firstname lastname email city age net_worth version } }';
  assert.equal(checkContextQuery(ast, 'person_list', query).ok, true);
});

test('missing and extra fields are both named', () => {
  assert.equal(
    refusal('person_list', '{ person_list { id firstname lastname email phone } }'),
    `Select exactly the list_fields of person_list (id, firstname, lastname, email, city, age, net_worth); missing: city, age, net_worth; not in list_fields: phone. ${LIST_EXAMPLE}`,
  );
});

test('only missing fields', () => {
  assert.equal(
    refusal('person_list', '{ person_list { id firstname lastname email city age } }'),
    `Select exactly the list_fields of person_list (id, firstname, lastname, email, city, age, net_worth); missing: net_worth. ${LIST_EXAMPLE}`,
  );
});

test('an unknown context lists the known ones', () => {
  assert.equal(refusal('people', LIST), 'Unknown context "people". Known contexts: person_list, person_detail, company_list, company_detail, deal_list. Call xos_schema to see their fields.');
});

test('a mutation is refused', () => {
  assert.equal(
    refusal('person_list', 'mutation { delete_person(id: "1", version: 1) }'),
    'xos_query only reads data: a mutation is not allowed. Changes go through xos_ui_change_required and xos_ui_save.',
  );
});

test('a subscription is refused', () => {
  assert.match(refusal('person_list', 'subscription { person_list { id } }'), /^xos_query only reads data: a subscription is not allowed\./);
});

test('several operations are refused', () => {
  assert.equal(
    refusal('person_list', `query A ${LIST} query B ${LIST}`),
    `Send exactly one query operation (got 2), for example: ${LIST}`,
  );
});

test('fragments are refused', () => {
  assert.equal(
    refusal('person_list', '{ person_list { ...P } } fragment P on person { id firstname lastname email city age net_worth }'),
    `Send one query operation without fragments, for example: ${LIST}`,
  );
  assert.equal(
    refusal('person_list', '{ person_list { ... on person { id } } }'),
    `Write the fields of person_list out instead of fragments: ${LIST}`,
  );
});

test('another root field, or a second one, is refused', () => {
  assert.equal(
    refusal('person_list', '{ company_list { id } }'),
    `The query must select exactly one root field, person_list (got company_list). ${LIST_EXAMPLE}`,
  );
  assert.equal(
    refusal('person_list', `{ person_list { id firstname lastname email city age net_worth } person_list_count }`),
    `The query must select exactly one root field, person_list (got person_list, person_list_count). ${LIST_EXAMPLE}`,
  );
});

test('aliases are refused', () => {
  assert.equal(refusal('person_list', '{ p: person_list { id } }'), `Do not alias person_list. ${LIST_EXAMPLE}`);
  assert.equal(
    refusal('person_list', '{ person_list { id name: firstname lastname email city age net_worth } }'),
    `Do not alias fields (name: firstname). ${LIST_EXAMPLE}`,
  );
});

test('a syntax error says so', () => {
  assert.match(refusal('person_list', '{ person_list { id '), /^The query is not valid GraphQL: Syntax Error: Expected Name, found <EOF>\. For example: /);
});

test('id and version are added to the selection when missing', () => {
  const check = checkContextQuery(ast, 'deal_list', '{ deal_list { title amount stage probability close_date company { name } contact { id } id } }');
  assert.ok(check.ok);
  assert.equal(
    withIdAndVersion(check.document),
    '{\n  deal_list {\n    title\n    amount\n    stage\n    probability\n    close_date\n    company {\n      name\n    }\n    contact {\n      id\n    }\n    id\n    version\n  }\n}',
  );
});

test('directives are refused anywhere, with what to do instead', () => {
  const expected = (name: string) => `Remove the directive @${name}: xos_query shows exactly the fields it selects, so leave a field out instead of skipping it. For example: ${LIST}`;
  assert.equal(refusal('person_list', '{ person_list { id firstname lastname email @skip(if: true) city age net_worth } }'), expected('skip'));
  assert.equal(refusal('person_list', '{ person_list @include(if: false) { id firstname lastname email city age net_worth } }'), expected('include'));
  assert.equal(refusal('person_list', 'query Q @deprecated { person_list { id firstname lastname email city age net_worth } }'), expected('deprecated'));
  const detail = '{ person_detail(id: "3") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name @skip(if: true) } } }';
  assert.match(refusal('person_detail', detail), /^Remove the directive @skip: /);
});

test('aliases inside a relation are refused, naming where', () => {
  const detail = '{ person_detail(id: "3") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name: city } } }';
  assert.match(refusal('person_detail', detail), /^Do not alias fields \(name: city in company\); select city under its own name\. For example: \{ person_detail\(id: "1"\)/);
});

test('fragments inside a relation are refused', () => {
  const detail = '{ person_detail(id: "3") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { ... on company { id name } } } }';
  assert.match(refusal('person_detail', detail), /^Write the fields of company out instead of fragments\./);
});

test('relations nest at most two levels below the context fields', () => {
  const fields = 'id firstname lastname email phone street zip city age net_worth status birthday active notes';
  const two = `{ person_detail(id: "3") { ${fields} company { id name employees { id } } } }`;
  assert.equal(checkContextQuery(ast, 'person_detail', two).ok, true);
  const deep = `{ person_detail(id: "3") { ${fields} company { id employees { id company { employees { id } } } } } }`;
  assert.match(refusal('person_detail', deep), /^Relations may nest at most 2 levels below the context's fields \(company\.employees\.company is 3 deep\)\. Select the related record's own fields, e\.g\. company \{ id name \}/);
});
