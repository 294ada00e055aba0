// The Board's view model: what the webview renders from the state, the AST and the locale.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { demoApp } from '../../src/backend/demo.ts';
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { BoardState } from '../../src/board/state.ts';
import { buildBoardView, detailBlock, mailProblem, parseMailbox } from '../../src/board/view.ts';
import { MemoryListSource } from '../../src/core/listSource.ts';

const ast = demoApp();
const person = {
  id: '12', firstname: 'Anna', lastname: 'Müller', email: 'anna@example.org', phone: null, street: null, zip: null, city: 'Köln',
  age: 41, net_worth: '1200.50', status: 'customer', birthday: '1984-02-29', active: true, notes: null, company: { id: '3', name: 'Acme GmbH' },
};

function view(state: BoardState, locale: string) {
  return buildBoardView({ ast, locale, snapshot: state.snapshot(), list: state.list(), listId: 1, listQuery: state.listQuery(), form: state.formValues() });
}

const personList = appModel(ast, 'en').context('person_list')!;

describe('Board view model', () => {
  test('an empty Board has only the texts, in German for de-AT', () => {
    const shown = view(new BoardState(), 'de-AT');
    assert.equal(shown.list, undefined);
    assert.equal(shown.detail, undefined);
    assert.equal(shown.mail, undefined);
    assert.equal(shown.texts.title, 'XOS-Board');
    assert.equal(shown.texts.proposed, 'Vom Agenten vorgeschlagen');
    assert.equal(shown.texts.save, 'Speichern');
  });

  test('a list has localized columns, rows keyed by id with raw typed values, and row navigation', () => {
    const state = new BoardState();
    const record = { id: '1', firstname: 'Max', lastname: 'Mustermann', email: null, city: 'Berlin', age: 30, net_worth: '10.00' };
    state.showList({ context: 'person_list', source: new MemoryListSource(personList, [record]) });
    const en = view(state, 'en').list!;
    assert.deepEqual(en.columns.map((c) => [c.label, c.type, c.numeric, c.sortable]), [
      ['id', 'id', false, true], ['First name', 'string', false, true], ['Last name', 'string', false, true], ['Email', 'email', false, true],
      ['City', 'string', false, true], ['Age', 'int', true, true], ['Net worth', 'decimal', true, true],
    ]);
    // Raw values: the webview formats them per locale.
    assert.deepEqual(en.rows, [{ key: '1', values: ['1', 'Max', 'Mustermann', null, 'Berlin', 30, '10.00'] }]);
    assert.equal(en.label, 'People');
    assert.equal(en.total, 1);
    assert.equal(en.navigable, true);
    const de = view(state, 'de').list!;
    assert.equal(de.label, 'Personen');
    assert.equal(de.columns[1].label, 'Vorname');
    assert.equal(view(state, 'de').texts.countOne, '1 Datensatz');
  });

  test('with the person\'s sort or filter the list sends no first rows (they come through the rows request)', () => {
    const state = new BoardState();
    state.showList({ context: 'person_list', source: new MemoryListSource(personList, [{ id: '1', firstname: 'Max' }]) });
    state.setListQuery({ filter: 'max' });
    assert.deepEqual(view(state, 'en').list!.rows, []);
    assert.deepEqual(view(state, 'en').list!.query, { filter: 'max' });
  });

  test('a detail form: inputs by type, only editable fields editable, enum options and ref names', () => {
    const state = new BoardState();
    state.showDetail({ context: 'person_detail', record: person, version: 3 });
    const detail = view(state, 'en').detail!;
    assert.equal(detail.key, 'person_detail:12');
    // The version is row state: carried for History, never in the words.
    assert.equal(detail.summary, '#12');
    assert.equal(detail.version, 3);
    assert.equal(detail.canSave, true);
    const byField = Object.fromEntries(detail.fields.map((f) => [f.field, f]));
    // A text input's HTML type comes with the field's kind (decimals: a text input that asks for a decimal keyboard).
    const control = (f: (typeof detail.fields)[number]) => (f.input === 'text' ? fieldKind(f.type).editor?.type ?? fieldKind(f.type).editor?.inputMode ?? 'text' : f.input);
    assert.deepEqual(detail.fields.map((f) => [f.field, control(f), f.editable]), [
      ['id', 'text', false], ['firstname', 'text', true], ['lastname', 'text', true], ['email', 'text', true], ['phone', 'text', true],
      ['street', 'text', true], ['zip', 'text', true], ['city', 'text', true], ['age', 'number', true], ['net_worth', 'decimal', true],
      ['status', 'select', true], ['birthday', 'date', true], ['active', 'checkbox', true], ['notes', 'textarea', true], ['company', 'text', true],
    ]);
    assert.equal(byField.age.value, '41');
    // The AST's bounds reach the number input; other fields have none.
    assert.deepEqual([byField.age.min, byField.age.max, byField.net_worth.min, byField.city.max], [0, 150, undefined, undefined]);
    assert.equal(byField.active.value, true);
    assert.equal(byField.company.value, '3');
    assert.equal(byField.company.display, 'Acme GmbH');
    assert.equal(byField.status.display, 'Customer');
    assert.deepEqual(byField.status.options, [
      { value: '', label: '' }, { value: 'lead', label: 'Lead' }, { value: 'prospect', label: 'Prospect' },
      { value: 'customer', label: 'Customer' }, { value: 'inactive', label: 'Inactive' },
    ]);
    assert.equal(view(state, 'de').detail!.fields.find((f) => f.field === 'status')!.display, 'Kunde');
    assert.equal(byField.lastname.pending, undefined);
  });

  test('the agent\'s proposals are marked old -> new; the person\'s own edits are not', () => {
    const state = new BoardState();
    state.showDetail({ context: 'person_detail', record: person, version: 3 });
    state.preview({ lastname: 'Schmidt', active: false });
    state.edit('city', 'Bonn');
    const fields = Object.fromEntries(view(state, 'de').detail!.fields.map((f) => [f.field, f]));
    assert.deepEqual(fields.lastname.pending, { from: 'Müller', to: 'Schmidt' });
    assert.equal(fields.lastname.value, 'Schmidt');
    assert.deepEqual(fields.active.pending, { from: 'Ja', to: 'Nein' });
    assert.equal(fields.active.value, false);
    assert.equal(fields.city.pending, undefined);
    assert.equal(fields.city.value, 'Bonn');
  });

  test('rendered data without a version cannot be saved from the Board', () => {
    const state = new BoardState();
    state.showDetail({ context: 'person_detail', record: person });
    assert.equal(view(state, 'en').detail!.canSave, false);
    assert.equal(view(state, 'en').detail!.summary, '#12');
  });

  test('the mail draft shows the recipient with name', () => {
    const state = new BoardState();
    state.showMail({ to: { name: 'Anna Müller', email: 'anna@example.org' }, subject: 'Hallo', body: 'Zeile 1\nZeile 2' });
    assert.deepEqual(view(state, 'en').mail, { from: null, to: 'Anna Müller <anna@example.org>', subject: 'Hallo', body: 'Zeile 1\nZeile 2', sending: false });
  });

  test('the mail draft names its sender, and says in the Board\'s language when the recipient is no address', () => {
    const state = new BoardState();
    state.showMail({ to: { email: 'anna(at)example.org' }, subject: 'Hallo', body: '' });
    const shown = buildBoardView({ ast, locale: 'de', snapshot: state.snapshot(), list: undefined, listId: 1, listQuery: {}, form: {}, mailFrom: 'XOS <xos@example.org>', mailSending: true });
    assert.deepEqual(shown.mail, {
      from: 'XOS <xos@example.org>', to: 'anna(at)example.org', problem: 'Geben Sie eine Adresse wie name@example.com oder Name <name@example.com> ein.', subject: 'Hallo', body: '', sending: true,
    });
    assert.equal(mailProblem({ to: { name: 'Anna', email: 'anna@example.org' }, subject: 'Hallo', body: '' }, 'en'), undefined);
  });

  test('the view survives structured cloning (postMessage)', () => {
    const state = new BoardState();
    state.showDetail({ context: 'person_detail', record: person, version: 3 });
    const shown = view(state, 'en');
    assert.deepEqual(structuredClone(shown), shown);
  });
});

describe('Board helpers', () => {
  test('mailboxes parse with and without a name', () => {
    assert.deepEqual(parseMailbox('Anna Müller <anna@example.org>'), { name: 'Anna Müller', email: 'anna@example.org' });
    assert.deepEqual(parseMailbox('"Müller, Anna" <anna@example.org>'), { name: 'Müller, Anna', email: 'anna@example.org' });
    assert.deepEqual(parseMailbox(' anna@example.org '), { email: 'anna@example.org' });
  });

  test('the resolved model names where a list row leads; a detail context leads nowhere', () => {
    assert.deepEqual(appModel(ast, 'en').context('person_list')!.rowTarget, { context: 'person_detail', idPath: 'id' });
    assert.equal(appModel(ast, 'en').context('person_detail')!.rowTarget, undefined);
    assert.equal(appModel(ast, 'en'), appModel(ast, 'en'), 'resolved once per app and locale');
    assert.notEqual(appModel(ast, 'de'), appModel(ast, 'en'));
    // Refs lead to their record: navigate.<field> first, else a detail context of the related entity.
    const deals = appModel(ast, 'en').context('deal_list')!;
    assert.deepEqual(deals.fields.find((f) => f.field === 'contact')!.refTarget, { context: 'person_detail', idPath: 'contact.id' });
    assert.equal(deals.fields.find((f) => f.field === 'title')!.refTarget, undefined);
  });
});

test('the form says what is wrong with an edited value in the locale, by the backend\'s rules, and nothing for stored values', () => {
  const ast = demoApp();
  const board = new BoardState();
  board.showDetail({ context: 'person_detail', record: { id: 1, firstname: 'Max', lastname: 'Mustermann', email: 'max@example.com', age: 40 }, version: 1 });
  const problems = (locale: string) => Object.fromEntries(detailBlock({ ast, locale, snapshot: board.snapshot(), form: board.formValues() })!.fields.filter((f) => f.problem).map((f) => [f.field, f.problem]));
  assert.deepEqual(problems('en'), {});
  board.edit('email', 'not-an-address');
  board.edit('age', 151);
  board.edit('firstname', '');
  board.edit('lastname', 'x'.repeat(81));
  assert.deepEqual(problems('en'), {
    email: 'Enter an email address like name@example.com.',
    age: 'At most 150.',
    firstname: 'Required.',
    lastname: 'At most 80 characters.',
  });
  assert.deepEqual(problems('de').age, 'Höchstens 150.');
  board.edit('age', '4x');
  assert.equal(problems('en').age, 'Enter a whole number.');
  board.edit('age', 41);
  board.edit('email', 'max@example.org');
  assert.equal(problems('en').age, undefined);
  assert.equal(problems('en').email, undefined);
});

test('the person accepts or reverts the agent\'s proposals field by field or all at once, and Discard drops every unsaved change', () => {
  const ast = demoApp();
  const board = new BoardState();
  board.showDetail({ context: 'person_detail', record: { id: 1, firstname: 'Max', lastname: 'Mustermann', city: 'Berlin', age: 40 }, version: 1 });
  const block = () => detailBlock({ ast, locale: 'en', snapshot: board.snapshot(), form: board.formValues() })!;
  const marks = () => Object.fromEntries(block().fields.filter((f) => f.pending || f.edited).map((f) => [f.field, f.pending ? 'proposed' : 'edited']));
  assert.equal(block().dirty, false);

  board.preview({ lastname: 'Schmidt', city: 'Hamburg', age: 41 });
  board.edit('firstname', 'Moritz');
  assert.deepEqual(marks(), { firstname: 'edited', lastname: 'proposed', city: 'proposed', age: 'proposed' });
  assert.equal(block().proposals, 3);
  assert.equal(block().dirty, true);

  board.accept('lastname');
  board.revert('city');
  assert.deepEqual(marks(), { firstname: 'edited', lastname: 'edited', age: 'proposed' });
  assert.equal(board.formValues().city, 'Berlin');
  assert.equal(board.formValues().lastname, 'Schmidt');

  board.revertProposals();
  assert.deepEqual(marks(), { firstname: 'edited', lastname: 'edited' });
  assert.equal(board.formValues().age, 40);
  board.preview({ age: 42 });
  board.acceptAll();
  assert.deepEqual(marks(), { firstname: 'edited', lastname: 'edited', age: 'edited' });

  // An edit back to the stored value is no change.
  board.edit('firstname', 'Max');
  assert.equal(marks().firstname, undefined);

  board.discard();
  assert.deepEqual(marks(), {});
  assert.equal(block().dirty, false);
  assert.deepEqual(board.formValues(), { id: 1, firstname: 'Max', lastname: 'Mustermann', city: 'Berlin', age: 40 });
});

test('a context\'s own layout: the form in its sections (the rest in a last one), money and percent, column widths', () => {
  const ast = demoApp();
  const board = new BoardState();
  board.showDetail({ context: 'person_detail', record: { id: 1, firstname: 'Max', net_worth: '125000.50' }, version: 1 });
  const en = detailBlock({ ast, locale: 'en', snapshot: board.snapshot(), form: board.formValues() })!;
  assert.deepEqual(en.sections.map((s) => s.label), ['Contact', 'Address', 'Sales']);
  assert.deepEqual(en.sections.flatMap((s) => s.fields).sort(), [...ast.contexts.person_detail.list_fields].sort());
  assert.equal(en.fields.find((f) => f.field === 'net_worth')!.display, '€125,000.50');
  const de = detailBlock({ ast, locale: 'de', snapshot: board.snapshot(), form: board.formValues() })!;
  assert.deepEqual(de.sections.map((s) => s.label), ['Kontakt', 'Adresse', 'Vertrieb']);
  assert.equal(de.fields.find((f) => f.field === 'net_worth')!.display, '125.000,50\u00a0€');

  const deals = appModel(ast, 'en').context('deal_list')!;
  const probability = deals.fields.find((f) => f.field === 'probability')!;
  assert.deepEqual(probability.widget, { kind: 'percent' });
  assert.equal(fieldKind('int').format(35, { locale: 'en', none: '—', yes: 'Yes', no: 'No', widget: probability.widget }), '35%');
  assert.equal(deals.fields.find((f) => f.field === 'title')!.width, 260);
  // Without a layout: one untitled section with every field in list order.
  const company = detailBlock({ ast, locale: 'en', snapshot: { ...board.snapshot(), context: 'company_detail', detail: { context: 'company_detail', record: { id: 1 }, version: 1 } }, form: {} })!;
  assert.deepEqual(company.sections, [{ fields: ast.contexts.company_detail.list_fields }]);
});

test('fields named like Object.prototype\'s members show what the record holds, never a built-in function', () => {
  const ast = demoApp();
  const fields = ast.entities.company.fields;
  for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) fields[name] = { type: 'string' };
  const detail = ast.contexts.company_detail;
  detail.list_fields = [...detail.list_fields, 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
  const board = new BoardState();
  board.showNew('company_detail');
  const form = detailBlock({ ast, locale: 'en', snapshot: board.snapshot(), form: board.formValues() })!;
  const shown = Object.fromEntries(form.fields.filter((f) => ['constructor', 'toString', 'hasOwnProperty', 'valueOf'].includes(f.field)).map((f) => [f.field, f.value]));
  assert.deepEqual(shown, { constructor: '', toString: '', hasOwnProperty: '', valueOf: '' });
});
