import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateAst } from '../../src/ast/validate.ts';
import { withRole, RoleError, entityGrants } from '../../src/backend/roles.ts';
import type { Ast } from '../../src/ast/schema.ts';
import { appModel } from '../../src/ast/appModel.ts';

type Json = Record<string, any>;

function base(): Json {
  return {
    xos: '1',
    app: 'team',
    locales: ['en', 'de'],
    entities: {
      company: { label: { en: 'companies', de: 'Firmen' }, fields: { id: { type: 'id' }, name: { type: 'string', required: true } } },
      person: {
        label: { en: 'people', de: 'Personen' },
        fields: {
          id: { type: 'id' },
          name: { type: 'string', required: true },
          email: { type: 'email', label: { en: 'Email', de: 'E-Mail' } },
          salary: { type: 'int' },
          owner: { type: 'string' },
          company: { type: 'ref', entity: 'company', inverse: 'employees' },
        },
      },
    },
    contexts: {
      person_list: { kind: 'list', entity: 'person', list_fields: ['id', 'name', 'salary'], navigate: { row: { context: 'person_detail', params: { id: 'id' } } } },
      person_detail: {
        kind: 'detail', entity: 'person', list_fields: ['id', 'name', 'email', 'salary', 'company'], editable: ['name', 'email', 'salary', 'company'],
        create: true, delete: true, layout: { sections: [{ fields: ['salary'] }, { fields: ['name', 'email'] }] },
        navigate: { company: { context: 'company_detail', params: { id: 'company.id' } } },
      },
      company_detail: { kind: 'detail', entity: 'company', list_fields: ['id', 'name', 'employees'], editable: ['name'] },
    },
    roles: {
      Sales: {
        contexts: { person_list: ['read'], person_detail: ['read', 'edit'] },
        fields: { 'person.salary': [], 'person.email': ['read'] },
        rows: { person: { field: 'owner', is: '$person' } },
      },
      Admin: { contexts: { '*': ['read', 'edit', 'create', 'delete'] } },
    },
  };
}

function problems(ast: Json): string[] {
  const result = validateAst(ast);
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}

test('a valid AST with roles passes', () => {
  assert.deepEqual(problems(base()), []);
});

test('roles naming what does not exist are reported with their path', () => {
  const ast = base();
  ast.roles.Sales.contexts.nowhere = ['read'];
  ast.roles.Sales.fields['person.nothing'] = [];
  ast.roles.Sales.fields['ghost.name'] = [];
  ast.roles.Sales.fields.email = [];
  ast.roles.Sales.rows.ghost = { field: 'x', is: '$person' };
  assert.deepEqual(problems(ast), [
    'roles.Sales.contexts.nowhere: unknown context "nowhere"; known: person_list, person_detail, company_detail (or "*" for every context not named)',
    'roles.Sales.fields["person.nothing"]: unknown field "nothing" on person',
    'roles.Sales.fields["ghost.name"]: unknown entity "ghost"; known: company, person',
    'roles.Sales.fields.email: name the field as "entity.field", like "person.email"',
    'roles.Sales.rows.ghost: unknown entity "ghost"; known: company, person',
  ]);
});

test('an own-records field is a text field that stays readable', () => {
  const ast = base();
  ast.roles.Sales.rows.person.field = 'salary';
  assert.match(problems(ast).join('\n'), /roles\.Sales\.rows\.person\.field: "salary" is int: own records are found by the person's name, so use a text field/);
  const hidden = base();
  hidden.roles.Sales.fields['person.owner'] = [];
  assert.deepEqual(problems(hidden), ['roles.Sales.rows.person.field: "person.owner" holds whose record it is and must stay readable: give it ["read"] in fields']);
  const unknown = base();
  unknown.roles.Sales.rows.person.field = 'boss';
  assert.deepEqual(problems(unknown), ['roles.Sales.rows.person.field: unknown field "boss" on person']);
});

test('an editable field must be readable', () => {
  const ast = base();
  ast.roles.Sales.fields['person.name'] = ['edit'];
  assert.deepEqual(problems(ast), ['roles.Sales.fields["person.name"]: a field that can be edited must be readable too: use ["read", "edit"]']);
});

function valid(): Ast {
  const result = validateAst(base());
  assert.ok(result.ok);
  return result.ast;
}

test('withRole: unreadable contexts go, hidden fields go everywhere, read-only fields are not editable', () => {
  const ast = withRole(valid(), 'Sales', { name: 'anna', role: 'Sales' });
  assert.deepEqual(Object.keys(ast.contexts), ['person_list', 'person_detail']);
  assert.equal(ast.roles, undefined);
  assert.equal(ast.entities.person.fields.salary, undefined);
  assert.equal(ast.entities.person.fields.email.read_only, true);
  assert.deepEqual(ast.contexts.person_list.list_fields, ['id', 'name']);
  const detail = ast.contexts.person_detail;
  assert.deepEqual(detail.list_fields, ['id', 'name', 'email', 'company']);
  assert.deepEqual(detail.editable, ['name', 'company']);
  assert.equal(detail.create, undefined);
  assert.equal(detail.delete, undefined);
  // company_detail is gone, so the navigate to it is too; the layout forgets salary.
  assert.equal(detail.navigate, undefined);
  assert.deepEqual(detail.layout, { sections: [{ fields: ['name', 'email'] }] });
  assert.deepEqual(detail.read_only_reason, { en: 'Your role "Sales" may not change Email.', de: 'Ihre Rolle „Sales“ darf E-Mail nicht ändern.' });
  // company: no context the role reads; only its id is left, so a ref still names the record.
  assert.deepEqual(Object.keys(ast.entities.company.fields), ['id']);
  assert.equal(ast.entities.company.read_only, 'Your role "Sales" may only read companies.');
});

test('withRole: a role that may only read an entity gets its reason on the entity and the context, in each locale', () => {
  const raw = base();
  raw.roles.Reader = { contexts: { person_detail: ['read'] } };
  const ast = withRole(validateAst(raw).ok ? (validateAst(raw) as { ast: Ast }).ast : assert.fail(), 'Reader', { name: 'bob', role: 'Reader' });
  assert.equal(ast.entities.person.read_only, 'Your role "Reader" may only read people.');
  assert.deepEqual(ast.contexts.person_detail.read_only_reason, { en: 'Your role "Reader" may only read people.', de: 'Ihre Rolle „Reader“ darf Personen nur lesen.' });
  assert.equal(ast.contexts.person_detail.editable, undefined);
});

test('withRole: a field hidden from the role is never named as read only; a role left with nothing to change says so', () => {
  // Only salary is kept from Editor, and hidden: the context holds nothing the role cannot change that it sees.
  const raw = base();
  raw.roles.Editor = { contexts: { person_detail: ['read', 'edit'] }, fields: { 'person.salary': [] } };
  // Every editable field hidden or read only: the role may change nothing here.
  raw.roles.Looker = { contexts: { person_detail: ['read', 'edit'] }, fields: { 'person.salary': [], 'person.email': ['read'], 'person.name': ['read'], 'person.company': [] } };
  const checked = validateAst(raw);
  assert.ok(checked.ok, JSON.stringify(checked));
  const editor = withRole(checked.ast, 'Editor', { name: 'eva', role: 'Editor' });
  assert.equal(editor.contexts.person_detail.read_only_reason, undefined, 'no "may not change ." for a field the role does not see');
  for (const locale of ['en', 'de']) assert.equal(appModel(editor, locale).context('person_detail')?.readOnly, undefined, locale);
  assert.deepEqual(editor.contexts.person_detail.editable, ['name', 'email', 'company']);
  const looker = withRole(checked.ast, 'Looker', { name: 'leo', role: 'Looker' });
  assert.equal(looker.contexts.person_detail.editable, undefined);
  assert.deepEqual(looker.contexts.person_detail.read_only_reason, { en: 'Your role "Looker" may only read people.', de: 'Ihre Rolle „Looker“ darf Personen nur lesen.' });
  // Hidden fields are never part of a reason, in any locale.
  for (const reason of Object.values(withRole(valid(), 'Sales', { name: 'anna', role: 'Sales' }).contexts.person_detail.read_only_reason as Record<string, string>)) {
    assert.doesNotMatch(reason, /salary|Gehalt/i);
    assert.doesNotMatch(reason, /change +\.|darf +nicht/, 'no empty list of fields');
  }
});

test('withRole: "*" gives every context; create needs every required field settable', () => {
  const full = withRole(valid(), 'Admin', { name: 'root', role: 'Admin' });
  assert.deepEqual(full.contexts, { ...valid().contexts });
  const raw = base();
  raw.roles.Admin.fields = { 'person.name': ['read'] };
  const ast = validateAst(raw);
  assert.ok(ast.ok);
  assert.equal(withRole(ast.ast, 'Admin', { name: 'root', role: 'Admin' }).contexts.person_detail.create, undefined);
  assert.equal(entityGrants(ast.ast, ast.ast.roles!.Admin).get('person')!.create, false);
  assert.equal(entityGrants(ast.ast, ast.ast.roles!.Admin).get('person')!.delete, true);
});

test('withRole: an unknown role or none is refused with what to do', () => {
  assert.throws(() => withRole(valid(), 'Boss', { name: 'eve', role: 'Boss' }), (e: unknown) => e instanceof RoleError && /eve's role "Boss" is not one of this app's roles \(Sales, Admin\)/.test(e.message));
});

test('the Board model shows the role\'s reason in the Board\'s language', () => {
  const ast = withRole(valid(), 'Sales', { name: 'anna', role: 'Sales' });
  assert.equal(appModel(ast, 'de').context('person_detail')?.readOnly, 'Ihre Rolle „Sales“ darf E-Mail nicht ändern.');
  assert.equal(appModel(ast, 'en').context('person_detail')?.readOnly, 'Your role "Sales" may not change Email.');
  // Without roles, the entity's own reason as before.
  assert.equal(appModel(valid(), 'en').context('person_detail')?.readOnly, undefined);
});
