// The list_fields rule and the other limits on an agent's xos_query: the check refuses with data
// (QueryRefusal), and the agent reads it in the words of src/mcp/wording.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoApp } from '../../src/backend/demo.ts';
import { checkContextQuery, checkedSelection, type QueryCheck, type QueryRefusal } from '../../src/graphql/queryRules.ts';
import { buildCheckedQuery } from '../../src/graphql/requests.ts';
import { queryRefusalText } from '../../src/mcp/wording.ts';
import { REFUSED } from './queryRefusals.ts';

const ast = demoApp();
const LIST = '{ person_list { id firstname lastname email city age net_worth } }';
const LIST_EXAMPLE = 'For example: { person_list { id firstname lastname email city age net_worth } }';

/** The refusal's data of a refused check. */
function refused(check: QueryCheck, query = ''): QueryRefusal {
  assert.equal(check.ok, false, query);
  return (check as { refusal: QueryRefusal }).refusal;
}

/** The agent's words for the refusal without their last sentence, which every refusal ends with: the call to make next. */
function refusal(context: string, query: string): string {
  const message = queryRefusalText(refused(checkContextQuery(ast, context, query), query));
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

test('each kind of refusal is data: the kind and its facts, no sentence', () => {
  for (const [kind, [context, query]] of Object.entries(REFUSED)) {
    const data = refused(checkContextQuery(ast, context, query), query);
    assert.equal(data.kind, kind, query);
    assert.equal(data.context, context);
    if (data.kind !== 'unknown_context') assert.match(data.example, new RegExp(`^\\{ ${context}[ (]`));
    assert.equal(typeof queryRefusalText(data), 'string');
  }
  assert.deepEqual(refused(checkContextQuery(ast, 'person_list', '{ person_list { id firstname lastname email phone } }')), {
    kind: 'list_fields', context: 'person_list', example: '{ person_list { id firstname lastname email city age net_worth } }',
    wanted: ['id', 'firstname', 'lastname', 'email', 'city', 'age', 'net_worth'], missing: ['city', 'age', 'net_worth'], extra: ['phone'],
  });
  assert.deepEqual(refused(checkContextQuery(ast, 'people', LIST)), {
    kind: 'unknown_context', context: 'people', known: ['person_list', 'person_detail', 'company_list', 'company_detail', 'deal_list'],
  });
  const parse = refused(checkContextQuery(ast, 'person_list', '{ person_list { id '));
  assert.ok(parse.kind === 'not_graphql');
  assert.equal(parse.detail, 'Syntax Error: Expected Name, found <EOF>.');
  const argument = refused(checkContextQuery(ast, 'deal_list', REFUSED.takes_no_arguments[1]));
  assert.ok(argument.kind === 'takes_no_arguments');
  const { example: _example, ...nested } = argument;
  assert.deepEqual(nested, { kind: 'takes_no_arguments', context: 'deal_list', path: ['contact', 'city'], argument: 'limit' });
  assert.deepEqual(refused(checkContextQuery(ast, 'person_list', REFUSED.root_field[1])), {
    kind: 'root_field', context: 'person_list', example: LIST, got: [{ kind: 'field', name: 'person_list' }, { kind: 'field', name: 'person_list_count' }],
  });
  // A name the agent sent is echoed cut to 64 characters, in the data too.
  const long = 'x'.repeat(100);
  const cut = refused(checkContextQuery(ast, 'person_list', `{ person_list(where: { ${long}: { _eq: 1 } }) { id firstname lastname email city age net_worth } }`));
  assert.ok(cut.kind === 'not_filterable');
  assert.equal(cut.field, `${'x'.repeat(63)}…`);
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
    checkedSelection(check.query),
    '{\n  title\n  amount\n  stage\n  probability\n  close_date\n  company {\n    name\n  }\n  contact {\n    id\n  }\n  id\n  version\n}',
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

// ---- the allow-list and the rebuilt query ----------------------------------------------

/** The demo CRM with kept fields: person.notes and person.company hidden (so company.employees too), net_worth masked. */
function guarded() {
  const guardedAst = demoApp();
  guardedAst.entities.person.fields.notes.agent = 'hidden';
  guardedAst.entities.person.fields.company.agent = 'hidden';
  guardedAst.entities.person.fields.net_worth.agent = 'masked';
  return guardedAst;
}
const GUARDED = guarded();
const PEOPLE = 'id firstname lastname email city age net_worth';
const DEALS = 'id title amount stage probability close_date company { id name } contact { id firstname }';

function guardedCheck(context: string, query: string) {
  return checkContextQuery(GUARDED, context, query);
}
function guardedRefusal(context: string, query: string): string {
  const message = queryRefusalText(refused(guardedCheck(context, query), query));
  assert.ok(message.endsWith(' Then call xos_query again.'), message);
  return message;
}

test('variables are refused, with or without a default value, and say to write values inline', () => {
  for (const query of [
    `query Q($w: person_bool_exp = { net_worth: { _gt: 125000 } }) { person_list(where: $w, limit: 1000) { ${PEOPLE} } }`,
    `query Q($w: person_bool_exp) { person_list(where: $w) { ${PEOPLE} } }`,
    `{ person_list(where: $w) { ${PEOPLE} } }`,
    `{ person_list(where: { city: { _eq: $city } }) { ${PEOPLE} } }`,
  ]) {
    assert.match(guardedRefusal('person_list', query), /^xos_query takes no variables \(\$(w|city)\): write each value inline in the query, e\.g\. person_list\(where: \{ id: \{ _eq: "1" \} \}\)\. For example: /, query);
  }
  assert.match(guardedRefusal('person_detail', 'query Q($id: ID! = "1") { person_detail(id: $id) { id } }'), /^xos_query takes no variables \(\$id\): .* e\.g\. person_detail\(id: "1"\)/);
});

test('hidden, masked and unknown names in where and order_by are refused in the same words and the same data', () => {
  const words = (name: string, args: string) => guardedRefusal('person_list', `{ person_list(${args}) { ${PEOPLE} } }`).replace(name, 'NAME');
  const data = (name: string, args: string) => {
    const found = refused(guardedCheck('person_list', `{ person_list(${args}) { ${PEOPLE} } }`));
    assert.ok(found.kind === 'not_filterable' && found.field === name, JSON.stringify(found));
    return JSON.stringify({ ...found, field: 'NAME' });
  };
  for (const shape of [(n: string) => `where: { ${n}: { _eq: 1 } }`, (n: string) => `order_by: [{ ${n}: desc }]`, (n: string) => `where: { _or: [{ id: { _eq: 1 } }, { _not: { ${n}: { _is_null: true } } }] }`]) {
    const names = ['notes', 'notez', 'company', 'company_id', 'compamy_id', 'net_worth', 'no_such_field'];
    const texts = names.map((name) => words(name, shape(name)));
    assert.equal(new Set(texts).size, 1, texts.join('\n'));
    assert.match(texts[0], /^NAME is not a field of person you can filter or sort by; use the fields xos_schema lists \(values kept from the agent cannot be used\)\. For example: /);
    const refusals = names.map((name) => data(name, shape(name)));
    assert.equal(new Set(refusals).size, 1, refusals.join('\n'));
  }
});

test('relations in where recurse into the related entity; its kept fields are refused there', () => {
  assert.equal(guardedCheck('deal_list', `{ deal_list(where: { contact: { city: { _eq: "Berlin" } }, company: { employees: { id: { _eq: 1 } } } }) { ${DEALS} } }`).ok, false);
  assert.match(guardedRefusal('deal_list', `{ deal_list(where: { contact: { notes: { _ilike: "%a%" } } }) { ${DEALS} } }`), /^notes is not a field of person you can filter/);
  assert.match(guardedRefusal('deal_list', `{ deal_list(where: { contact: { company_id: { _eq: 1 } } }) { ${DEALS} } }`), /^company_id is not a field of person you can filter/);
  assert.match(guardedRefusal('company_list', '{ company_list(where: { employees: { id: { _eq: 1 } } }) { id name industry city country employee_count revenue } }'), /^employees is not a field of company you can filter/);
  const ok = guardedCheck('deal_list', `{ deal_list(where: { _and: [{ contact: { city: { _eq: "Berlin" } } }, { company: { deals: { stage: { _in: [won, lost] } } } }], company_id: { _neq: 3 } }, order_by: [{ contact_id: asc }, { probability: desc }]) { ${DEALS} } }`);
  assert.ok(ok.ok, JSON.stringify(ok));
});

test('operators, their values and sort directions are checked', () => {
  assert.match(guardedRefusal('person_list', `{ person_list(where: { city: { _regex: "a" } }) { ${PEOPLE} } }`), /^_regex is not an operator of where; use _eq _neq _gt _gte _lt _lte _in _nin _is_null _like _ilike\./);
  assert.match(guardedRefusal('person_list', `{ person_list(where: { city: { _eq: { net_worth: 1 } } }) { ${PEOPLE} } }`), /^person\.city\._eq takes a single value/);
  assert.match(guardedRefusal('person_list', `{ person_list(where: { city: "Berlin" }) { ${PEOPLE} } }`), /^Compare person\.city with an operator/);
  assert.match(guardedRefusal('person_list', `{ person_list(where: [{ city: { _eq: "Berlin" } }]) { ${PEOPLE} } }`), /^A filter of person is an object/);
  assert.match(guardedRefusal('person_list', `{ person_list(order_by: { city: "desc" }) { ${PEOPLE} } }`), /^Sort person\.city with asc or desc/);
  assert.match(guardedRefusal('deal_list', `{ deal_list(order_by: { contact: { city: asc } }) { ${DEALS} } }`), /^order_by sorts by the fields of deal itself, not by the relation contact; sort by contact_id/);
  assert.match(guardedRefusal('person_list', `{ person_list(first: 3) { ${PEOPLE} } }`), /^person_list takes where, order_by, limit and offset, not first\./);
  assert.match(guardedRefusal('person_list', `{ person_list(limit: { a: 1 }) { ${PEOPLE} } }`), /^limit is a whole number/);
  const deep = `{ person_list(where: ${'{ _not: '.repeat(40)}{ id: { _eq: 1 } }${' }'.repeat(40)}) { ${PEOPLE} } }`;
  assert.match(guardedRefusal('person_list', deep), /^where is nested more than 32 levels deep/);
});

test('a detail takes exactly one id', () => {
  const fields = 'id firstname lastname email phone street zip city age net_worth status birthday active';
  assert.match(guardedRefusal('person_detail', `{ person_detail { ${fields} } }`), /^person_detail needs the id of one record, e\.g\. person_detail\(id: "1"\)\./);
  assert.match(guardedRefusal('person_detail', `{ person_detail(id: "1", where: { id: { _eq: 1 } }) { ${fields} } }`), /^person_detail takes only id, not where\./);
  const check = guardedCheck('person_detail', `{ person_detail(id: 7) { ${fields} } }`);
  assert.ok(check.ok);
  assert.deepEqual(check.query.args, { id: '7' });
});

test('nested selections: hidden and unknown names read the same; relations need braces, values none', () => {
  const withContact = (inner: string) => `{ deal_list { ${DEALS.replace('contact { id firstname }', `contact { id ${inner} }`)} } }`;
  const hidden = guardedRefusal('deal_list', withContact('notes')).replace('notes', 'X');
  assert.equal(guardedRefusal('deal_list', withContact('notez')).replace('notez', 'X'), hidden);
  const { field: _hiddenField, ...hiddenData } = refused(guardedCheck('deal_list', withContact('notes'))) as Extract<QueryRefusal, { kind: 'not_selectable' }>;
  const { field: _unknownField, ...unknownData } = refused(guardedCheck('deal_list', withContact('notez'))) as Extract<QueryRefusal, { kind: 'not_selectable' }>;
  assert.deepEqual(unknownData, hiddenData);
  assert.equal(hiddenData.kind, 'not_selectable');
  assert.match(hidden, /^X is not a field of person you can select; select the fields xos_schema lists\./);
  assert.equal(guardedRefusal('deal_list', withContact('company { id }')).replace('company', 'X'), guardedRefusal('deal_list', withContact('compani { id }')).replace('compani', 'X'));
  assert.match(guardedRefusal('deal_list', withContact('company_id')), /^company_id is not a field of person you can select/);
  assert.match(guardedRefusal('deal_list', withContact('deals')), /^contact\.deals is a relation: select its fields in braces/);
  assert.match(guardedRefusal('deal_list', withContact('city { id }')), /^contact\.city is a value, not a relation/);
  assert.match(guardedRefusal('deal_list', withContact('city(limit: 1)')), /^contact\.city takes no arguments \(got limit\)/);
  // A masked field may be selected in a relation (its value goes to the Board only).
  assert.ok(guardedCheck('deal_list', withContact('net_worth')).ok);
});

test('the rebuilt query: root arguments in typed variables, nested arguments as checked literals, never the agent\'s text', () => {
  const check = guardedCheck('deal_list', 'query Mine { deal_list(where: { _or: [{ stage: { _eq: won } }, { probability: { _gte: 50 } }], amount: { _is_null: false } }, order_by: { probability: desc }, limit: 5, offset: 10) '
    + `{ id title amount stage probability close_date company { id name deals(where: { stage: { _in: [won] } }, order_by: [{ id: desc }], limit: 3) { id title } } contact { id firstname } } }`);
  // deal.amount is visible in this AST (only person fields are kept).
  assert.ok(check.ok, JSON.stringify(check));
  const built = buildCheckedQuery(check.query, ['secret_board_field']);
  assert.deepEqual(built.variables, {
    where: { _or: [{ stage: { _eq: 'won' } }, { probability: { _gte: 50 } }], amount: { _is_null: false } },
    order_by: [{ probability: 'desc' }],
  });
  assert.equal(built.query.replace(/\s+/g, ' '),
    'query XosQuery($where: deal_bool_exp, $order_by: [deal_order_by!]) { deal_list(where: $where, order_by: $order_by, limit: 5, offset: 10) '
    + '{ id title amount stage probability close_date company { id name deals(where: {stage: {_in: [won]}}, order_by: [{id: desc}], limit: 3) { id title } } '
    + 'contact { id firstname } version secret_board_field } }');
  assert.doesNotMatch(built.query, /Mine/);
  const detail = guardedCheck('person_detail', '{ person_detail(id: "3") { id firstname lastname email phone street zip city age net_worth status birthday active } }');
  assert.ok(detail.ok);
  const request = buildCheckedQuery(detail.query);
  assert.deepEqual(request.variables, { id: '3' });
  assert.match(request.query, /^query XosQuery\(\$id: ID!\) \{ person_detail\(id: \$id\) \{/);
});

test('numbers keep their digits in variables: big integers and decimals go as strings', () => {
  const check = checkContextQuery(ast, 'person_list', `{ person_list(where: { net_worth: { _gt: 123456789012345678.25 }, age: { _in: [1, 99999999999999999999] } }) { ${PEOPLE} } }`);
  assert.ok(check.ok);
  assert.deepEqual(check.query.args.where, { net_worth: { _gt: '123456789012345678.25' }, age: { _in: [1, '99999999999999999999'] } });
});

test('cursors are not for agents: no _cursor, no after or before (a cursor holds the sort column\'s values)', () => {
  assert.equal(refused(checkContextQuery(ast, 'person_list', '{ person_list(after: "eyJvIjoiIn0") { id firstname lastname email city age net_worth } }')).kind, 'list_argument');
  assert.equal(refused(checkContextQuery(ast, 'person_list', '{ person_list(before: "eyJvIjoiIn0") { id firstname lastname email city age net_worth } }')).kind, 'list_argument');
  assert.match(refusal('person_list', '{ person_list { id firstname lastname email city age net_worth _cursor } }'), /_cursor/);
  assert.match(refusal('person_detail', '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name _cursor } } }'), /_cursor/);
});
