// The field-kind registry: one definition per field type of how the Board inputs,
// parses, checks, formats (per locale), exports and quick-filters a value.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldKind, type FormatContext } from '../../src/ast/fieldKinds.ts';

const en: FormatContext = { locale: 'en', none: '—', yes: 'Yes', no: 'No', enumLabels: { customer: 'Customer', lead: 'Lead' } };
const de: FormatContext = { locale: 'de', none: '—', yes: 'Ja', no: 'Nein', enumLabels: { customer: 'Kunde', lead: 'Interessent' } };

describe('field kinds', () => {
  test('integers and decimals are grouped per locale; decimals keep their exact digits', () => {
    assert.equal(fieldKind('int').format(1234567, en), '1,234,567');
    assert.equal(fieldKind('int').format(1234567, de), '1.234.567');
    assert.equal(fieldKind('decimal').format('125000.00', en), '125,000.00');
    assert.equal(fieldKind('decimal').format('125000.00', de), '125.000,00');
    // More digits than a double holds: formatted from the string, not rounded through a number.
    assert.equal(fieldKind('decimal').format('12345678901234567.89', en), '12,345,678,901,234,567.89');
    assert.equal(fieldKind('decimal').format('-0.5', de), '-0,5');
    assert.equal(fieldKind('int').numeric, true);
    assert.equal(fieldKind('string').numeric, false);
  });

  test('dates are calendar days in every zone; date-times are formatted; nothing is a dash', () => {
    assert.equal(fieldKind('date').format('1984-02-29', en), 'Feb 29, 1984');
    assert.equal(fieldKind('date').format('1984-02-29', de), '29.02.1984');
    assert.match(fieldKind('datetime').format('2026-12-03T08:00:00Z', en), /^Dec 3, 2026, \d{1,2}:\d{2}\s?[AP]M$/);
    assert.equal(fieldKind('date').format(null, de), '—');
    assert.equal(fieldKind('date').format('not a date', de), 'not a date');
  });

  test('booleans, enum labels and refs read as words', () => {
    assert.equal(fieldKind('bool').format(true, de), 'Ja');
    assert.equal(fieldKind('bool').format(false, en), 'No');
    assert.equal(fieldKind('enum').format('customer', de), 'Kunde');
    assert.equal(fieldKind('enum').format('unknown_value', de), 'unknown_value');
    assert.equal(fieldKind('ref').format({ id: '3', name: 'Acme GmbH' }, en), 'Acme GmbH');
    assert.equal(fieldKind('ref').format({ id: '3' }, en), '#3');
    assert.equal(fieldKind('ref').format('3', en), '#3');
    assert.equal(fieldKind('list').format([{ id: 1 }, { id: 2 }], en), '2');
  });

  test('what an input holds becomes the field value; values that do not fit stay as typed', () => {
    assert.equal(fieldKind('int').parse('42'), 42);
    assert.equal(fieldKind('int').parse(''), null);
    assert.equal(fieldKind('int').parse('4x'), '4x');
    assert.equal(fieldKind('int').valid('4x'), false);
    assert.equal(fieldKind('int').valid(42), true);
    assert.equal(fieldKind('decimal').parse(' 12.50 '), '12.50');
    assert.equal(fieldKind('decimal').valid('12,50'), false);
    assert.equal(fieldKind('bool').parse(true), true);
    assert.equal(fieldKind('enum').parse(''), null);
    assert.equal(fieldKind('date').parse('2024-01-31'), '2024-01-31');
    assert.equal(fieldKind('date').valid('31.01.2024'), false);
    assert.equal(fieldKind('string').parse(''), '');
    assert.deepEqual(['int', 'decimal', 'date', 'datetime', 'bool', 'enum', 'text', 'string', 'ref'].map((t) => fieldKind(t as never).input),
      ['text', 'text', 'text', 'text', 'checkbox', 'select', 'textarea', 'text', 'text']);
    // A text input's HTML type and hints: numbers with their bounds, decimals as digits, date-times in UTC.
    assert.deepEqual(['int', 'decimal', 'date', 'datetime', 'string'].map((t) => fieldKind(t as never).editor),
      [{ type: 'number', bounds: true }, { inputMode: 'decimal' }, { type: 'date' }, { type: 'datetime-local', utc: true }, undefined]);
    assert.equal(fieldKind('ref').inputValue({ id: '3', name: 'Acme' }), '3');
  });

  test('CSV values are raw and locale-independent', () => {
    assert.equal(fieldKind('decimal').csv('125000.00'), '125000.00');
    assert.equal(fieldKind('date').csv('1984-02-29'), '1984-02-29');
    assert.equal(fieldKind('bool').csv(false), 'false');
    assert.equal(fieldKind('ref').csv({ id: '3', name: 'Acme GmbH' }), 'Acme GmbH');
    assert.equal(fieldKind('int').csv(null), '');
  });

  test('the quick filter matches text by substring and numbers only when the text is one', () => {
    assert.deepEqual(fieldKind('string').quickFilter('city', 'ber'), { city: { _ilike: '%ber%' } });
    assert.deepEqual(fieldKind('email').quickFilter('email', '50%_off'), { email: { _ilike: '%50\\%\\_off%' } });
    assert.deepEqual(fieldKind('int').quickFilter('age', '41'), { age: { _eq: 41 } });
    assert.equal(fieldKind('int').quickFilter('age', 'ber'), undefined);
    assert.deepEqual(fieldKind('decimal').quickFilter('net_worth', '10.5'), { net_worth: { _eq: '10.5' } });
    assert.deepEqual(fieldKind('ref').quickFilter('company', 'acme', { refFields: ['name'] }), { company: { name: { _ilike: '%acme%' } } });
    // A related record named by several fields matches by any of them, as the ref picker's search does.
    assert.deepEqual(fieldKind('ref').quickFilter('contact', 'peac', { refFields: ['first_name', 'last_name'] }),
      { contact: { _or: [{ first_name: { _ilike: '%peac%' } }, { last_name: { _ilike: '%peac%' } }] } });
    assert.equal(fieldKind('ref').quickFilter('contact', 'peac', { refFields: ['id'] }), undefined, 'named by its id only: no text matches');
    // enum: values and labels are matched here, since the backend takes only known values.
    assert.deepEqual(fieldKind('enum').quickFilter('status', 'KUN', { enumLabels: de.enumLabels }), { status: { _in: ['customer'] } });
    assert.equal(fieldKind('enum').quickFilter('status', 'berlin', { enumLabels: de.enumLabels }), undefined);
    assert.deepEqual(fieldKind('id').quickFilter('id', '17'), { id: { _eq: '17' } });
    assert.equal(fieldKind('bool').quickFilter('active', 'ja'), undefined);
  });
});

test('a date-time input edits UTC to the minute and gives back ISO 8601 UTC the backend takes', () => {
  const kind = fieldKind('datetime');
  assert.equal(kind.inputValue('2026-12-03T08:05:59.000Z'), '2026-12-03T08:05');
  assert.equal(kind.parse('2026-12-03T08:05'), '2026-12-03T08:05:00.000Z');
  assert.equal(kind.parse(''), null);
  assert.equal(kind.inputValue(null), '');
  // Whatever does not fit stays as typed, so the form can say what is wrong.
  assert.equal(kind.parse('tomorrow'), 'tomorrow');
  assert.equal(kind.valid(kind.parse('2026-12-03T08:05')), true);
});
