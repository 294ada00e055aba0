// A list the agent narrowed (xos_query with a `where`) says so in its title and can be widened:
// "People · City = "Berlin" · Show all". Before, it was titled like the whole list, and the
// person's own filter then said only "No records match the filter".
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { demoApp } from '../../src/backend/demo.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { BoardState } from '../../src/board/state.ts';
import { listBlock } from '../../src/board/view.ts';
import { whereText } from '../../src/board/whereText.ts';
import { translator } from '../../src/board/texts.ts';
import { MemoryListSource } from '../../src/core/listSource.ts';
import type { ListOrigin } from '../../src/core/domain.ts';

const ast = demoApp();
const people = appModel(ast, 'en').context('person_list')!;

function shownList(origin?: ListOrigin, locale = 'en') {
  const state = new BoardState();
  const source = Object.assign(new MemoryListSource(people, [{ id: '5', firstname: 'Max' }]), origin ? { origin } : {});
  state.showList({ context: 'person_list', source });
  return listBlock({ ast, locale, list: state.list(), listId: 1, listQuery: {} })!;
}

const text = (where: unknown, locale = 'en') => whereText(ast, 'person', where, locale, translator(locale));

describe('a list the agent narrowed', () => {
  test('says by what in the person\'s words; a list of all records says nothing', () => {
    assert.equal(shownList({ selection: 'id', where: { id: { _eq: '5' } } }).narrowed, 'id = "5"');
    assert.equal(shownList({ selection: 'id', where: { city: { _eq: 'Berlin' } } }).narrowed, 'City = "Berlin"');
    assert.equal(shownList({ selection: 'id', where: { city: { _eq: 'Berlin' } } }, 'de').narrowed, 'Ort = "Berlin"');
    assert.equal(shownList({ selection: 'id' }).narrowed, undefined);
    assert.equal(shownList({ selection: 'id', where: {} }).narrowed, undefined);
    assert.equal(shownList().narrowed, undefined, 'fixed rows (xos_render) have no condition');
  });

  test('operators, combinations and a ref\'s fields read as text, in English and German', () => {
    assert.equal(text({ age: { _gte: 18, _lt: 65 } }), 'Age ≥ 18 and Age < 65');
    assert.equal(text({ _or: [{ city: { _eq: 'Berlin' } }, { city: { _eq: 'Köln' } }] }), '(City = "Berlin" or City = "Köln")');
    assert.equal(text({ _or: [{ city: { _eq: 'Berlin' } }, { city: { _eq: 'Köln' } }] }, 'de'), '(Ort = "Berlin" oder Ort = "Köln")');
    assert.equal(text({ email: { _is_null: true } }), 'Email is empty');
    assert.equal(text({ email: { _is_null: false } }, 'de'), 'E-Mail ist nicht leer');
    assert.equal(text({ id: { _in: ['1', '2'] } }), 'id in ("1", "2")');
    assert.equal(text({ company: { name: { _ilike: '%gmbh%' } } }), 'Company › Name like "%gmbh%"');
    assert.equal(text({ company_id: { _eq: '3' } }), 'Company = "3"');
    assert.equal(text({ _not: { city: { _eq: 'Berlin' } } }), 'not (City = "Berlin")');
    assert.ok([...text({ city: { _in: Array.from({ length: 100 }, (_, i) => `Stadt ${i}`) } })!].length <= 120, 'a long condition is cut');
  });
});
