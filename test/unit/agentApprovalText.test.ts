// What a stored approval asks, as the agent is told it (src/mcp/wording.ts pendingApprovalText):
// every kind in the agent's words, with the AST's field policy and the person's role applied —
// never the person's question, which shows the values and names the agent may not know.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoApp } from '../../src/backend/demo.ts';
import type { Ast } from '../../src/ast/schema.ts';
import type { SaveSummary } from '../../src/core/domain.ts';
import { agentText, pendingApprovalText } from '../../src/mcp/wording.ts';

function app(): Ast {
  const ast = demoApp();
  ast.entities.person.fields.notes.agent = 'hidden';
  ast.entities.person.fields.company.agent = 'hidden';
  ast.entities.person.fields.net_worth.agent = 'masked';
  return ast;
}
const ast = app();
/** The AST a role is served: the fields it may not read are gone (src/backend/roles.ts withRole). */
const roleAst: Ast = structuredClone(ast);
delete (roleAst.entities.person.fields as Record<string, unknown>).birthday;

const SECRETS = /987654|125000|secret note|Old note|Acme|Notizen|Vermögen|notes|company|birthday|1980-02-03/;

const save: SaveSummary = {
  entity: 'person', id: '12',
  changes: [
    { field: 'city', label: 'Ort', from: 'Bonn', to: 'Kiel' },
    { field: 'net_worth', label: 'Vermögen', from: '125000.00', to: '987654.32' },
    { field: 'notes', label: 'Notizen', from: 'Old note', to: 'secret note' },
    { field: 'company', label: 'Firma', from: '3', to: '4', fromText: 'Acme (#3)', toText: 'Other (#4)' },
  ],
};

test('a save: visible values quoted, masked ones as •••, hidden fields only counted', () => {
  const text = pendingApprovalText(ast, { kind: 'save', summary: save });
  assert.equal(text, 'save changes to person "12" (city: "Bonn" -> "Kiel"; net_worth: ••• -> •••; and 2 fields only the person sees).');
});

test('a new record: its values the same way', () => {
  const created: SaveSummary = { entity: 'person', id: '', action: 'create', changes: save.changes.map((c) => ({ ...c, from: null })) };
  assert.equal(pendingApprovalText(ast, { kind: 'create', summary: created }), 'create a new person (city: "Kiel"; net_worth: •••; and 2 fields only the person sees).');
});

test('a bulk change: counts and visible fields; no value, total or example of a withheld field', () => {
  const batch: SaveSummary = {
    entity: 'person', id: '', changes: [],
    batch: {
      records: 1234, cells: 3000,
      fields: [
        { field: 'status', label: 'Status', values: [{ value: 'customer', count: 1000 }, { value: 'lead', count: 234 }], moreValues: 2 },
        { field: 'age', label: 'Alter', numeric: { min: '+1', max: '+1', total: '+1234' } },
        { field: 'net_worth', label: 'Vermögen', numeric: { min: '-125000.00', max: '+987654.32', total: '+987654.32' } },
        { field: 'notes', label: 'Notizen', values: [{ value: 'secret note', count: 532 }] },
      ],
      first: [{ id: '1', changes: [{ label: 'Vermögen', from: '125000.00', to: '987654.32' }, { label: 'Notizen', from: 'Old note', to: 'secret note' }] }],
    },
  };
  const text = pendingApprovalText(ast, { kind: 'batch', summary: batch });
  assert.equal(text, 'save changes to 1,234 person records (status: 1,000× "customer", 234× "lead", +2 more values; age: change +1 to +1, total +1234; net_worth: •••; '
    + 'and 1 field only the person sees). The Board shows every row.');
  assert.doesNotMatch(text, SECRETS);
  assert.match(pendingApprovalText(ast, { kind: 'batch', summary: { ...batch, batch: { ...batch.batch!, undo: true } } }), /^undo the change to 1,234 person records/);
});

test('a delete names the record by its id, not by a field\'s value; a mail by its recipient and subject', () => {
  assert.equal(pendingApprovalText(ast, { kind: 'delete', summary: { entity: 'person', id: '12', name: 'Old note' } }), 'delete person "12".');
  assert.equal(pendingApprovalText(ast, { kind: 'send', summary: { to: { name: 'Kim', email: 'kim@example.org' }, subject: 'Your order', body: 'It ships.' } }),
    'send the mail to "kim@example.org" (subject "Your order").');
});

test('a field the person\'s role does not read is not named either', () => {
  const withBirthday: SaveSummary = { ...save, changes: [...save.changes, { field: 'birthday', label: 'Geburtstag', from: '1980-02-03', to: '1980-02-04' }] };
  assert.equal(pendingApprovalText(ast, { kind: 'save', summary: withBirthday }),
    'save changes to person "12" (city: "Bonn" -> "Kiel"; net_worth: ••• -> •••; birthday: "1980-02-03" -> "1980-02-04"; and 2 fields only the person sees).');
  const text = pendingApprovalText(roleAst, { kind: 'save', summary: withBirthday });
  assert.equal(text, 'save changes to person "12" (city: "Bonn" -> "Kiel"; net_worth: ••• -> •••; and 3 fields only the person sees).');
  assert.doesNotMatch(text, SECRETS);
});

test('a saved batch names only the fields the agent may know', () => {
  const text = agentText(ast, { kind: 'batch_saved', ok: true, entity: 'person', records: 8, cells: 16, fields: ['city', 'notes'] });
  assert.equal(text, 'Saved 8 person records in one transaction (city, and 1 field only the person sees).');
  assert.equal(agentText(ast, { kind: 'batch_saved', ok: true, entity: 'person', records: 8, cells: 8, fields: ['city'] }), 'Saved 8 person records in one transaction (8 values; city).');
});
