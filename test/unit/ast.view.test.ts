import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAstFile } from '../../src/ast/load.ts';
import { pickLocale, resolveText } from '../../src/ast/locale.ts';
import { buildSchemaView } from '../../src/ast/view.ts';
import { displayFields } from '../../src/ast/display.ts';

const crm = await loadAstFile('media/demo/crm.json');
const library = await loadAstFile('test/fixtures/ast/library.json');

test('person_list in German: fields in list_fields order, labels, prompts and the example query', () => {
  const view = buildSchemaView(crm, 'de');
  assert.equal(view.app, 'crm');
  assert.equal(view.version, '1.0.0');
  assert.equal(view.locale, 'de');
  assert.deepEqual(view.locales, ['de', 'en']);
  assert.deepEqual(view.prompts, ['Antworte in der Sprache des Benutzers.', 'Zeige Geldbeträge in EUR mit zwei Nachkommastellen.']);
  assert.deepEqual(view.contexts.person_list, {
    kind: 'list',
    entity: 'person',
    label: 'Personen',
    fields: {
      id: { type: 'id', label: 'id' },
      firstname: { type: 'string', label: 'Vorname', required: true, max: 80 },
      lastname: { type: 'string', label: 'Nachname', required: true, max: 80 },
      email: { type: 'email', label: 'E-Mail' },
      city: { type: 'string', label: 'Ort', max: 80 },
      age: { type: 'int', label: 'Alter', min: 0, max: 150 },
      net_worth: { type: 'decimal', label: 'Vermögen', scale: 2 },
    },
    list_fields: ['id', 'firstname', 'lastname', 'email', 'city', 'age', 'net_worth'],
    prompts: ['Zeige Vermögen in EUR.'],
    navigate: { row: { context: 'person_detail', params: { id: 'id' } } },
    query: '{ person_list { id firstname lastname email city age net_worth } }',
  });
  assert.deepEqual(Object.keys(view.contexts.person_list.fields), view.contexts.person_list.list_fields);
});

test('person_list in English', () => {
  const view = buildSchemaView(crm, 'en');
  const context = view.contexts.person_list;
  assert.equal(view.locale, 'en');
  assert.equal(context.label, 'People');
  assert.deepEqual(Object.values(context.fields).map((f) => f.label), ['id', 'First name', 'Last name', 'Email', 'City', 'Age', 'Net worth']);
  assert.deepEqual(view.prompts, ['Antworte in der Sprache des Benutzers.', 'Show amounts of money in EUR with two decimals.']);
  assert.deepEqual(context.prompts, ['Show net worth in EUR.']);
});

test('unsupported or missing locales fall back to the best supported one', () => {
  assert.equal(buildSchemaView(crm, 'en-GB').locale, 'en');
  assert.equal(buildSchemaView(crm, 'de-at').contexts.person_list.label, 'Personen');
  assert.equal(buildSchemaView(crm, 'ja').locale, 'de');
  assert.equal(buildSchemaView(crm).locale, 'de');
  assert.equal(buildSchemaView(library).locale, 'en');
  assert.equal(buildSchemaView(library, 'fr-CA').contexts.book_list.label, 'Livres');
});

test('detail contexts: editable, refs and inverse lists with sub-selections', () => {
  const view = buildSchemaView(crm, 'en');
  const person = view.contexts.person_detail;
  assert.equal(person.query,
    '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }');
  assert.deepEqual(person.editable, crm.contexts.person_detail.editable);
  assert.deepEqual(person.fields.company, { type: 'ref', label: 'Company', entity: 'company' });
  assert.deepEqual(person.fields.status, { type: 'enum', label: 'Status', values: ['lead', 'prospect', 'customer', 'inactive'] });
  assert.deepEqual(person.navigate, { company: { context: 'company_detail', params: { id: 'company.id' } } });
  const company = view.contexts.company_detail;
  assert.deepEqual(company.fields.employees, { type: 'list', label: 'employees', list: 'person' });
  assert.equal(company.query,
    '{ company_detail(id: "1") { id name industry website phone street zip city country employee_count revenue founded employees { id firstname lastname } } }');
  assert.equal(view.contexts.deal_list.query,
    '{ deal_list { id title amount stage probability close_date company { id name } contact { id firstname lastname } } }');
  assert.equal('editable' in view.contexts.deal_list, false);
});

test('relations list every ref with its inverse', () => {
  assert.deepEqual(buildSchemaView(crm).relations, [
    { entity: 'person', field: 'company', target: 'company', inverse: 'employees', cardinality: 'many-to-one' },
    { entity: 'deal', field: 'company', target: 'company', inverse: 'deals', cardinality: 'many-to-one' },
    { entity: 'deal', field: 'contact', target: 'person', inverse: 'deals', cardinality: 'many-to-one' },
  ]);
});

test('the view is plain JSON', () => {
  const view = buildSchemaView(library, 'fr');
  assert.deepEqual(JSON.parse(JSON.stringify(view)), view);
  assert.equal(view.contexts.author_list.fields.country.description, 'Code ISO 3166 à deux lettres');
  assert.equal(view.contexts.loan_list.query, '{ loan_list { id book { id title } member { id name } loaned_at due status fee } }');
  assert.equal(view.contexts.member_detail.query, '{ member_detail(id: "1") { id name email phone joined active loans { id } } }');
});

test('displayFields: the template\'s fields; without one the first required string, else the first string, else none (the id names it)', () => {
  assert.deepEqual(displayFields(crm, 'person'), ['firstname', 'lastname']);
  assert.deepEqual(displayFields(library, 'book'), ['title']);
  assert.deepEqual(displayFields(library, 'loan'), []);
  const ast = structuredClone(library);
  ast.entities.author.fields.name.required = false;
  assert.deepEqual(displayFields(ast, 'author'), ['name']);
  ast.entities.author.fields.country.required = true;
  assert.deepEqual(displayFields(ast, 'author'), ['country']);
});

test('resolveText: exact tag, language, first locale, any text', () => {
  const text = { de: 'Hallo', 'de-AT': 'Servus', en: 'Hello' };
  assert.equal(resolveText(text, 'de-AT', ['de', 'en']), 'Servus');
  assert.equal(resolveText(text, 'de-at', ['de', 'en']), 'Servus');
  assert.equal(resolveText(text, 'de-CH', ['de', 'en']), 'Hallo');
  assert.equal(resolveText(text, 'fr', ['en', 'de']), 'Hello');
  assert.equal(resolveText({ it: 'Ciao' }, 'fr', ['en']), 'Ciao');
  assert.equal(resolveText({ 'de-AT': 'Servus', en: 'Hello' }, 'de', ['en']), 'Servus');
  assert.equal(resolveText('Hi', 'fr', ['en']), 'Hi');
  assert.equal(resolveText(undefined, 'fr', ['en']), undefined);
  assert.equal(resolveText({}, 'fr', ['en']), undefined);
});

test('pickLocale: exact, language part, else the first', () => {
  assert.equal(pickLocale('de-AT', ['en', 'de-AT', 'de']), 'de-AT');
  assert.equal(pickLocale('de-at', ['en', 'de-AT']), 'de-AT');
  assert.equal(pickLocale('de-CH', ['en', 'de']), 'de');
  assert.equal(pickLocale('pt-BR', ['en', 'de']), 'en');
  assert.equal(pickLocale(undefined, ['fr', 'en']), 'fr');
  assert.equal(pickLocale('', ['fr', 'en']), 'fr');
});
