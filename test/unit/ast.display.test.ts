// What names a record (src/ast/display.ts): the entity's template, else one field by type; the
// same name wherever a related record is shown (ref cells, CSV, ref choices, the agent's card).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayFields, displayName, displayTemplateFields, joinedName } from '../../src/ast/display.ts';
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import { listFieldSelections } from '../../src/ast/view.ts';
import { validateAst } from '../../src/ast/validate.ts';
import { buildRefChoicesQuery } from '../../src/graphql/requests.ts';
import type { Ast } from '../../src/ast/schema.ts';

function app(display?: string): Ast {
  const result = validateAst({
    xos: '1', app: 'shop', locales: ['en'],
    entities: {
      customer: {
        ...(display === undefined ? {} : { display }),
        fields: { id: { type: 'id' }, first_name: { type: 'text', required: true }, last_name: { type: 'text' }, city: { type: 'text' } },
      },
      invoice: { fields: { id: { type: 'id' }, customer: { type: 'ref', entity: 'customer' }, total: { type: 'decimal' } } },
      tag: { fields: { id: { type: 'id' }, weight: { type: 'int' } } },
    },
    contexts: {
      customer_list: { kind: 'list', entity: 'customer', list_fields: ['id', 'first_name', 'last_name'] },
      invoice_list: { kind: 'list', entity: 'invoice', list_fields: ['id', 'customer', 'total'] },
    },
  });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  return result.ast;
}

test('a template is fields in braces, one space apart', () => {
  assert.deepEqual(displayTemplateFields('{first_name} {last_name}'), ['first_name', 'last_name']);
  assert.deepEqual(displayTemplateFields('{name}'), ['name']);
  for (const wrong of ['', 'name', '{first_name}  {last_name}', '{first_name}, {last_name}', ' {name}', '{na me}', '{1st}']) {
    assert.equal(displayTemplateFields(wrong), undefined, wrong);
  }
});

test('the template names a record; without one the first required text field does, else the id', () => {
  assert.deepEqual(displayFields(app('{first_name} {last_name}'), 'customer'), ['first_name', 'last_name']);
  assert.deepEqual(displayFields(app(), 'customer'), ['first_name']);
  assert.deepEqual(displayFields(app(), 'tag'), []);
  const ast = app('{first_name} {last_name}');
  assert.equal(displayName(ast, 'customer', { id: 3, first_name: 'François', last_name: 'Tremblay' }), 'François Tremblay');
  assert.equal(displayName(ast, 'customer', { id: 3, first_name: 'François', last_name: null }), 'François');
  assert.equal(displayName(ast, 'customer', { id: 3, first_name: ' ', last_name: '' }), undefined);
  assert.equal(displayName(ast, 'customer', { id: 3 }), undefined);
  assert.equal(joinedName(['Jane', { id: 1 }, 7]), 'Jane 7');
});

test('a related record is loaded with its name fields and shown by them, in the grid and in CSV', () => {
  const ast = app('{first_name} {last_name}');
  assert.deepEqual(listFieldSelections(ast, 'invoice_list'), ['id', 'customer { id first_name last_name }', 'total']);
  const ref = fieldKind('ref');
  const c = { locale: 'en', none: '—', yes: 'Yes', no: 'No', refFields: ['first_name', 'last_name'] };
  // The agent's query may load more of it: the name is still just the display fields.
  const loaded = { id: 3, city: 'Montréal', first_name: 'François', last_name: 'Tremblay' };
  assert.equal(ref.format(loaded, c), 'François Tremblay');
  assert.equal(ref.csv(loaded, c), 'François Tremblay');
  assert.equal(ref.format({ id: 3, first_name: null, last_name: null }, c), '#3');
  // Without the fields at hand, the first loaded value, as before templates.
  assert.equal(ref.format({ id: 3, last_name: 'Tremblay' }, { ...c, refFields: undefined }), 'Tremblay');
});

test('choosing a related record searches every part of its name', () => {
  const request = buildRefChoicesQuery(app('{first_name} {last_name}'), 'customer_list', ['first_name', 'last_name'], 'Tremb', 20);
  assert.match(request.query, /\{ customer_list\(where: \$where, order_by: \$orderBy, limit: 20\) \{ id first_name last_name \} \}$/);
  assert.deepEqual(request.variables, {
    where: { _or: [{ first_name: { _ilike: '%Tremb%' } }, { last_name: { _ilike: '%Tremb%' } }] },
    orderBy: [{ first_name: 'asc' }, { last_name: 'asc' }],
  });
});
