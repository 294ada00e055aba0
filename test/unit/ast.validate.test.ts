import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { formatProblem, validateAst } from '../../src/ast/validate.ts';

type Json = Record<string, any>;

/** A small valid AST; each case below breaks a copy of it. */
function base(): Json {
  return {
    xos: '1',
    app: 'test',
    locales: ['en', 'fr'],
    entities: {
      company: { fields: { id: { type: 'id' }, name: { type: 'string', required: true } } },
      person: {
        label: { en: 'Person', fr: 'Personne' },
        fields: {
          id: { type: 'id' },
          name: { type: 'string', required: true, max: 80 },
          city: { type: 'string' },
          status: { type: 'enum', values: ['lead', 'customer'] },
          company: { type: 'ref', entity: 'company', inverse: 'employees' },
        },
      },
    },
    contexts: {
      person_list: {
        kind: 'list', entity: 'person', list_fields: ['id', 'name', 'city'],
        navigate: { row: { context: 'person_detail', params: { id: 'id' } } },
      },
      person_detail: {
        kind: 'detail', entity: 'person', list_fields: ['id', 'name', 'company'], editable: ['name', 'company'],
        navigate: { company: { context: 'company_detail', params: { id: 'company.id' } } },
      },
      company_detail: {
        kind: 'detail', entity: 'company', list_fields: ['id', 'name', 'employees'],
        navigate: { employees: { context: 'person_detail', params: { id: 'employees.id' } } },
      },
    },
  };
}

function problemsOf(ast: unknown): string[] {
  const result = validateAst(ast);
  assert.equal(result.ok, false, 'expected the AST to be rejected');
  return result.ok ? [] : result.problems.map(formatProblem);
}

const person = (ast: Json) => ast.entities.person.fields;

const cases: Array<{ name: string; change: (ast: Json) => void; problems: string[] }> = [
  {
    name: 'shape problems are all listed, with semantic ones alongside',
    change: (ast) => {
      ast.xos = '2';
      ast.colour = 'blue';
      delete person(ast).city.type;
      person(ast).status.type = 'enumeration';
      ast.entities.person.label = { en: 'Person', fr: 3 };
      ast.contexts.person_list.list_fields = [];
      ast.contexts.person_detail.list_fields[1] = 'nmae';
    },
    problems: [
      'xos: expected "1", got "2"',
      'entities.person.label.fr: expected a text, got 3',
      'entities.person.fields.city.type: required property "type" is missing',
      'entities.person.fields.status.type: expected one of "id", "string", "text", "int", "decimal", "bool", "date", "datetime", "time", "email", "phone", "url", "enum", "ref", got "enumeration"',
      'contexts.person_list.list_fields: must not be empty',
      'colour: unknown property "colour": remove it or check its spelling',
      'contexts.person_detail.list_fields[1]: unknown field "nmae" on person',
    ],
  },
  {
    name: 'wrong value types',
    change: (ast) => {
      ast.locales = 'en';
      person(ast).name.max = '80';
      ast.contexts.person_list.prompts = [42];
      ast.entities.company.fields = [];
    },
    problems: [
      'locales: expected a list, got "en"',
      'entities.company.fields: expected an object, got a list',
      'entities.person.fields.name.max: expected a number, got "80"',
      'contexts.person_list.prompts[0]: expected a text or a map from locale to text, got 42',
    ],
  },
  {
    name: 'names must be GraphQL names',
    change: (ast) => {
      ast.entities['my-entity'] = { fields: { id: { type: 'id' } } };
      person(ast).__secret = { type: 'string' };
      person(ast).employer = { type: 'ref', entity: 'company', inverse: 'staff members' };
      person(ast).status.values = ['lead', 'has space'];
      ast.contexts['2list'] = { kind: 'list', entity: 'person', list_fields: ['id'] };
    },
    problems: [
      'entities.person.fields.status.values[1]: invalid enum value name "has space": use letters, digits and _ only, not starting with a digit',
      'entities.person.fields.__secret: invalid field name "__secret": names starting with "__" are reserved by GraphQL',
      'entities.person.fields.employer.inverse: invalid inverse name "staff members": use letters, digits and _ only, not starting with a digit',
      'entities.my-entity: invalid entity name "my-entity": use letters, digits and _ only, not starting with a digit',
      'contexts["2list"]: invalid context name "2list": use letters, digits and _ only, not starting with a digit',
    ],
  },
  {
    name: 'every entity has exactly its id field of type id',
    change: (ast) => {
      delete ast.entities.company.fields.id;
      ast.contexts.company_detail.list_fields = ['name'];
      ast.contexts.company_detail.navigate = {};
      person(ast).id.type = 'int';
      person(ast).boss = { type: 'id' };
    },
    problems: [
      'entities.company.fields: missing field "id": add "id": { "type": "id" }',
      'entities.person.fields.id.type: the field "id" must have type "id"',
      'entities.person.fields.boss.type: only the field "id" may have type "id": use "ref" to point at another entity',
      'contexts.company_detail.list_fields: a detail context must include "id" in list_fields',
    ],
  },
  {
    name: 'reserved field names',
    change: (ast) => {
      person(ast).version = { type: 'int' };
      person(ast).company_id = { type: 'int' };
      person(ast)._and = { type: 'bool' };
    },
    problems: [
      'entities.person.fields.version: "version" is reserved for the implicit optimistic-concurrency field: rename the field',
      'entities.person.fields.company_id: "company_id" clashes with the column of the ref field "company": rename one of them',
      'entities.person.fields._and: "_and" is reserved for filter operators: rename the field',
    ],
  },
  {
    name: 'ref fields',
    change: (ast) => {
      person(ast).employer = { type: 'ref' };
      person(ast).firm = { type: 'ref', entity: 'firm' };
      person(ast).partner = { type: 'ref', entity: 'company', inverse: 'name' };
      person(ast).former = { type: 'ref', entity: 'company', inverse: 'employees' };
      person(ast).rival = { type: 'ref', entity: 'company', inverse: 'version' };
      person(ast).city.entity = 'company';
      person(ast).city.inverse = 'people';
    },
    problems: [
      'entities.person.fields.city.entity: "entity" is only allowed on ref fields',
      'entities.person.fields.city.inverse: "inverse" is only allowed on ref fields',
      'entities.person.fields.employer: a ref field needs "entity": the name of the entity it points at',
      'entities.person.fields.firm.entity: unknown entity "firm"; known: company, person',
      'entities.person.fields.partner.inverse: inverse "name" clashes with the field "name" of company: choose another name',
      'entities.person.fields.former.inverse: inverse "employees" on company is already declared by person.company: choose another name',
      'entities.person.fields.rival.inverse: inverse "version" clashes with the implicit field "version" of company: choose another name',
    ],
  },
  {
    name: 'enum fields',
    change: (ast) => {
      person(ast).kind = { type: 'enum' };
      person(ast).level = { type: 'enum', values: [] };
      person(ast).status.values = ['lead', 'customer', 'lead', 'true'];
      person(ast).status.value_labels = { lead: { en: 'Lead', fr: 'Piste' }, vip: 'VIP' };
      person(ast).city.values = ['a'];
      person(ast).city.value_labels = { a: 'A' };
    },
    problems: [
      'entities.person.fields.city.values: "values" is only allowed on enum fields',
      'entities.person.fields.city.value_labels: "value_labels" is only allowed on enum fields',
      'entities.person.fields.status.values[2]: duplicate value "lead"',
      'entities.person.fields.status.values[3]: "true" cannot be an enum value in GraphQL: rename it',
      'entities.person.fields.status.value_labels.vip: "vip" is not one of the values: use a value from "values" as the key',
      'entities.person.fields.kind: an enum field needs "values": the list of allowed values',
      'entities.person.fields.level.values: an enum field needs at least one value',
    ],
  },
  {
    name: 'enum values in the spelling of the person\'s table',
    change: (ast) => {
      ast.entities.company.table = 'Company';
      ast.entities.company.fields.rating = { type: 'enum', values: ['G', 'PG_13', 'R'], column_values: { PG_13: 'PG-13', R: 'G', NC_17: 'NC-17' } };
      ast.entities.company.fields.size = { type: 'string', column_values: { a: 'b' } };
      person(ast).status.column_values = { lead: 'Lead' };
    },
    problems: [
      'entities.company.fields.rating.column_values.NC_17: "NC_17" is not one of the values: use a value from "values" as the key',
      'entities.company.fields.rating.column_values: the values "G" and "R" would both be stored as "G": give each value its own spelling',
      'entities.company.fields.size.column_values: "column_values" is only allowed on enum fields',
      'entities.person.fields.status.column_values: "column_values" spells values as the entity\'s own table holds them: add "table" to the entity or remove "column_values"',
    ],
  },
  {
    name: 'min, max and scale',
    change: (ast) => {
      person(ast).name.min = 100;
      person(ast).age = { type: 'int', min: 0, max: 150, scale: 2 };
      person(ast).active = { type: 'bool', min: 0 };
      person(ast).birthday = { type: 'date', max: 3 };
      person(ast).net_worth = { type: 'decimal', scale: 2, min: 10, max: 10 };
    },
    problems: [
      'entities.person.fields.name.min: min (100) must not be greater than max (80)',
      'entities.person.fields.age.scale: "scale" is only allowed on decimal fields',
      'entities.person.fields.active.min: "min" is only allowed on int, decimal, string, text, email, phone and url fields',
      'entities.person.fields.birthday.max: "max" is only allowed on int, decimal, string, text, email, phone and url fields',
    ],
  },
  {
    name: 'locales are unique language tags',
    change: (ast) => {
      ast.locales = ['en', 'fr', 'en', 'EN_us', '', 'de-AT'];
      ast.entities.person.label = { en: 'Person', fr: 'Personne', 'de-AT': 'Person', EN_us: 'Person', '': '?' };
    },
    problems: [
      'locales[2]: duplicate locale "en"',
      'locales[3]: invalid locale "EN_us": use a language tag like "en", "de" or "de-AT"',
      'locales[4]: invalid locale "": use a language tag like "en", "de" or "de-AT"',
    ],
  },
  {
    name: 'every localized text covers exactly the locales',
    change: (ast) => {
      ast.label = { en: 'Test' };
      ast.prompts = ['Be brief.', { en: 'Be kind.', fr: 'Sois gentil.', de: 'Sei nett.' }];
      ast.entities.person.label = { fr: 'Personne', it: 'Persona' };
      person(ast).name.label = { en: 'Name', fr: 'Nom' };
      person(ast).name.description = { en: 'Full name' };
      person(ast).status.value_labels = { lead: { en: 'Lead' }, customer: 'Customer' };
      ast.contexts.person_list.label = { en: 'People', fr: 'Personnes', es: 'Personas' };
      ast.contexts.person_list.prompts = [{ fr: 'Court.' }];
    },
    problems: [
      'label: missing locale "fr"',
      'prompts[1].de: unknown locale "de"',
      'entities.person.label: missing locale "en"',
      'entities.person.label.it: unknown locale "it"',
      'entities.person.fields.name.description: missing locale "fr"',
      'entities.person.fields.status.value_labels.lead: missing locale "fr"',
      'contexts.person_list.label.es: unknown locale "es"',
      'contexts.person_list.prompts[0]: missing locale "en"',
    ],
  },
  {
    name: 'context entity and list_fields',
    change: (ast) => {
      ast.contexts.person_list.list_fields = ['id', 'name', 'city', 'ctiy', 'name'];
      ast.contexts.ghost_list = { kind: 'list', entity: 'ghost', list_fields: ['id', 'boo'] };
    },
    problems: [
      'contexts.person_list.list_fields[3]: unknown field "ctiy" on person',
      'contexts.person_list.list_fields[4]: duplicate field "name"',
      'contexts.ghost_list.entity: unknown entity "ghost"; known: company, person',
    ],
  },
  {
    name: 'editable fields',
    change: (ast) => {
      ast.contexts.person_detail.editable = ['name', 'id', 'name', 'town'];
      ast.contexts.company_detail.editable = ['name', 'employees'];
    },
    problems: [
      'contexts.person_detail.editable[1]: "id" cannot be editable: remove it from editable',
      'contexts.person_detail.editable[2]: duplicate field "name"',
      'contexts.person_detail.editable[3]: unknown field "town" on person',
      'contexts.company_detail.editable[1]: "employees" is an inverse list and cannot be edited: edit the ref field "company" of person instead',
    ],
  },
  {
    name: 'navigate keys, targets and params',
    change: (ast) => {
      ast.contexts.person_list.navigate.status = { context: 'city_detail' };
      ast.contexts.person_list.navigate.row.params = { id: 'identifier', other: 'city.id' };
      ast.contexts.person_detail.navigate.row = { context: 'person_list' };
      ast.contexts.person_detail.navigate.company.params = { id: 'company', name: 'company.name' };
      ast.contexts.company_detail.navigate.employees.params = { id: 'employees', city: 'employees.city' };
      ast.contexts.company_detail.navigate.website = { context: 'company_detail' };
    },
    problems: [
      'contexts.person_list.navigate.row.params.id: cannot resolve "identifier" on person: unknown field "identifier" on person',
      'contexts.person_list.navigate.row.params.other: cannot resolve "city.id" on person: "city" is not a ref or an inverse list, so nothing can follow it',
      'contexts.person_list.navigate.status: "status" is not in list_fields: a navigate key is "row" or a name from list_fields',
      'contexts.person_list.navigate.status.context: unknown context "city_detail"; known: person_list, person_detail, company_detail',
      'contexts.person_detail.navigate.company.params.id: cannot resolve "company" on person: "company" leads to company: name one of its fields, e.g. "company.id"',
      'contexts.person_detail.navigate.row: "row" is only allowed on list contexts: use a name from list_fields',
      'contexts.company_detail.navigate.employees.params.id: cannot resolve "employees" on company: "employees" leads to person: name one of its fields, e.g. "employees.id"',
      'contexts.company_detail.navigate.website: "website" is not in list_fields: a navigate key is a name from list_fields',
    ],
  },
  {
    name: 'names of the generated GraphQL API must not collide',
    change: (ast) => {
      ast.entities.Date = { fields: { id: { type: 'id' } } };
      ast.entities.person_bool = { fields: { id: { type: 'id' }, exp: { type: 'enum', values: ['x'] } } };
      ast.contexts.person_list_count = { kind: 'list', entity: 'person', list_fields: ['id'] };
      ast.contexts.insert_company = { kind: 'detail', entity: 'company', list_fields: ['id'] };
    },
    problems: [
      'entities.Date: the GraphQL type "Date" of entity "Date" clashes with the one of the XOS scalar "Date": rename one of them',
      'entities.person_bool.fields.exp: the GraphQL type "person_bool_exp" of enum field "person_bool.exp" clashes with the one of entity "person": rename one of them',
      'contexts.person_list_count: the GraphQL root field "person_list_count" of context "person_list_count" clashes with the one of context "person_list": rename one of them',
      'entities.company: the GraphQL root field "insert_company" of entity "company" clashes with the one of context "insert_company": rename one of them',
    ],
  },
  {
    name: 'the data section names entities, fields and existing ids',
    change: (ast) => {
      ast.data = {
        company: [{ id: 1, name: 'ACME' }, { id: 2, name: 'Globex', revenue: '1' }, { id: 1, name: 'Again' }],
        person: [{ id: 1, name: 'Ada', company: 2 }, { id: 2, name: 'Bob', company: 9, version: 1 }],
        pet: [{ id: 1 }],
      };
    },
    problems: [
      'data.company[2].id: duplicate id 1 in company',
      'data.company[1].revenue: unknown field "revenue" on company',
      'data.person[1].company: no company with id 9 in data',
      'data.person[1].version: unknown field "version" on person',
      'data.pet: unknown entity "pet"; known: company, person',
    ],
  },
  {
    name: 'create and delete only on detail contexts, and a creating form needs every required field',
    change: (ast) => {
      ast.contexts.person_list.create = true;
      ast.contexts.person_list.delete = true;
      ast.contexts.person_detail.create = true;
      ast.contexts.person_detail.delete = true;
      ast.contexts.person_detail.editable = ['company'];
    },
    problems: [
      'contexts.person_list.create: only a detail context can create records: move "create" to a detail context of person',
      'contexts.person_list.delete: only a detail context can delete records: move "delete" to a detail context of person',
      'contexts.person_detail.create: a new person needs its required fields name: add them to editable',
    ],
  },
  {
    name: 'a layout names only the context\'s fields, each once, sections on forms, columns on lists, widgets that fit the type',
    change: (ast) => {
      ast.contexts.person_detail.layout = {
        sections: [{ label: 'Main', fields: ['name', 'age'] }, { fields: ['name'] }],
        columns: { name: { width: 100 } },
        widgets: { name: { kind: 'money', currency: 'EUR' } },
      };
      ast.contexts.person_list.layout = { sections: [{ fields: ['id'] }], widgets: { name: { kind: 'textarea' } } };
    },
    problems: [
      'contexts.person_list.layout.sections: sections arrange a form: only a detail context has them',
      'contexts.person_detail.layout.columns: column widths are for a list: only a list context has them',
      'contexts.person_detail.layout.sections[0].fields[1]: "age" is not in this context\'s list_fields',
      'contexts.person_detail.layout.sections[1].fields[0]: "name" is already in a section',
      'contexts.person_detail.layout.widgets.name: money is for int and decimal fields; name is string',
    ],
  },
  {
    name: 'a display template names text-like fields of its entity, in braces, one space apart',
    change: (ast) => {
      ast.entities.person.display = '{name}, {city}';
      ast.entities.company.display = '{name} {company} {nmae}';
      ast.entities.company.fields.company = { type: 'ref', entity: 'company' };
    },
    problems: [
      'entities.company.display: field "company" (ref) cannot name a record: use text, enum, number or date fields',
      'entities.company.display: unknown field "nmae" in display',
      'entities.person.display: invalid display "{name}, {city}": write the fields that name a record in braces, one space between them, like "{first_name} {last_name}"',
    ],
  },
];

test('the base AST of these cases is valid', () => {
  assert.deepEqual(validateAst(base()), { ok: true, ast: base() });
});

for (const { name, change, problems } of cases) {
  test(`rejects: ${name}`, () => {
    const ast = base();
    change(ast);
    assert.deepEqual(problemsOf(ast), problems);
  });
}

test('rejects values that are not objects', () => {
  assert.deepEqual(problemsOf(null), ['expected an object, got null']);
  assert.deepEqual(problemsOf([]), ['expected an object, got a list']);
});

test('rejects an empty object with one problem per required property', () => {
  assert.deepEqual(problemsOf({}), [
    'xos: required property "xos" is missing',
    'app: required property "app" is missing',
    'locales: required property "locales" is missing',
    'entities: required property "entities" is missing',
    'contexts: required property "contexts" is missing',
  ]);
});

test('problems carry the path and the message separately', () => {
  const ast = base();
  ast.contexts.person_list.list_fields.push('ctiy');
  assert.deepEqual(validateAst(ast), {
    ok: false,
    problems: [{ path: 'contexts.person_list.list_fields[3]', message: 'unknown field "ctiy" on person' }],
  });
});

test('formatProblem appends the source position when known', () => {
  assert.equal(formatProblem({ path: 'a.b[1]', message: 'bad', line: 3, column: 7 }), 'a.b[1]: bad (line 3, column 7)');
  assert.equal(formatProblem({ path: '', message: 'bad' }), 'bad');
});

test('keys that are not plain names are quoted in paths', () => {
  const ast = base();
  ast.entities['a b'] = { fields: { id: { type: 'id' } } };
  assert.deepEqual(problemsOf(ast), ['entities["a b"]: invalid entity name "a b": use letters, digits and _ only, not starting with a digit']);
});

for (const file of ['media/demo/crm.json', 'test/fixtures/ast/library.json']) {
  test(`${file} is valid`, async () => {
    const result = validateAst(JSON.parse(await readFile(file, 'utf8')));
    assert.deepEqual(result.ok ? [] : result.problems.map(formatProblem), []);
  });
}
