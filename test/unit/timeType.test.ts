// The `time` field type's row (src/ast/fieldTypes.ts) as the parts read it: the value rule, the
// Board's input, parse, format and quick filter, its problem in both languages, and the table
// itself (every type has a row whose parts agree).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coerceFieldValue, FieldValueError } from '../../src/ast/values.ts';
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import { fieldTypeRows } from '../../src/ast/fieldTypes.ts';
import { FIELD_TYPES } from '../../src/ast/schema.ts';
import { boardTexts } from '../../src/board/texts.ts';

const time = { type: 'time' } as const;
const c = (locale: string) => ({ locale, none: '—', yes: 'yes', no: 'no' });

test('a time of day is stored as HH:MM:SS, a fraction without trailing zeros; anything else is refused with code "time"', () => {
  assert.equal(coerceFieldValue('shift', 'starts', time, '14:30'), '14:30:00');
  assert.equal(coerceFieldValue('shift', 'starts', time, '00:00:59'), '00:00:59');
  assert.equal(coerceFieldValue('shift', 'starts', time, '23:59:59.500000'), '23:59:59.5');
  assert.equal(coerceFieldValue('shift', 'starts', time, '07:05:00.000'), '07:05:00');
  assert.equal(coerceFieldValue('shift', 'starts', time, ''), null);
  assert.throws(() => coerceFieldValue('shift', 'starts', { ...time, required: true }, ''), (e: FieldValueError) => e.problem.code === 'required');
  for (const wrong of ['24:00', '7:30', '12:60', '12:00:60', '12:00:00.1234567', '1430', 'noon', 1430, true]) {
    assert.throws(() => coerceFieldValue('shift', 'starts', time, wrong), (e: FieldValueError) => e.problem.code === 'time' && /must be a time of day HH:MM or HH:MM:SS/.test(e.message), String(wrong));
  }
});

test('the Board edits a time in a time input and shows it in the locale', () => {
  const kind = fieldKind('time');
  assert.deepEqual([kind.input, kind.editor, kind.narrow, kind.numeric], ['text', { type: 'time' }, true, false]);
  assert.equal(kind.parse('14:30'), '14:30:00');
  assert.equal(kind.parse(''), null);
  assert.equal(kind.parse('half past two'), 'half past two', 'kept as typed, so saving can name the problem');
  assert.deepEqual(['14:30:00', '14:30:15', null].map((v) => kind.inputValue(v)), ['14:30', '14:30:15', '']);
  assert.equal(kind.valid('14:30:00'), true);
  assert.equal(kind.valid('25:00'), false);
  assert.equal(kind.format('14:30:00', c('de')), '14:30');
  assert.equal(kind.format('14:30:00', c('en')), '2:30 PM');
  assert.equal(kind.format('14:30:15', c('de')), '14:30:15');
  assert.equal(kind.format(null, c('de')), '—');
  assert.equal(kind.csv('14:30:00'), '14:30:00');
  assert.deepEqual(kind.quickFilter('starts', '9:05'), { starts: { _eq: '09:05:00' } });
  assert.deepEqual(kind.quickFilter('starts', '14:30'), { starts: { _eq: '14:30:00' } });
  assert.equal(kind.quickFilter('starts', 'Kiel'), undefined);
});

test('its problem in the Board\'s words, in English and German, on the form and in the grid', () => {
  assert.equal(boardTexts('en').problem({ code: 'time' }), 'Enter a time of day like 14:30.');
  assert.equal(boardTexts('de').problem({ code: 'time' }), 'Geben Sie eine Uhrzeit wie 14:30 ein.');
  assert.equal(boardTexts('de').typeProblems.time, 'Geben Sie eine Uhrzeit wie 14:30 ein.');
});

test('every field type has one row, with a storage column in both databases', () => {
  assert.deepEqual(fieldTypeRows().map(([type]) => type).sort(), [...FIELD_TYPES].sort());
  for (const [type, row] of fieldTypeRows()) {
    assert.ok(row.storage.sqlite && row.storage.postgres, type);
    // A type with XOS's own scalar travels as a string.
    if (typeof row.graphql === 'object') assert.equal(row.storage.canonical, 'string', type);
    if (row.problem) assert.ok(boardTexts('de').typeProblems[type], type);
  }
});
