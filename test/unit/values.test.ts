import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldDef } from '../../src/ast/schema.ts';
import { checkRequired, coerceFieldValue, FieldValueError, numberToDecimalString } from '../../src/ast/values.ts';

const ok = (def: FieldDef, value: unknown): unknown => coerceFieldValue('person', 'f', def, value);

/** Asserts the exact message (and the error's parts) of a rejected value. */
function rejects(def: FieldDef, value: unknown, reason: string, field = 'f'): void {
  assert.throws(
    () => coerceFieldValue('person', field, def, value),
    (error: unknown) => {
      assert.ok(error instanceof FieldValueError);
      assert.equal(error.message, `person.${field}: ${reason}`);
      assert.equal(error.entity, 'person');
      assert.equal(error.field, field);
      assert.equal(error.reason, reason);
      return true;
    },
  );
}

describe('absent and required values', () => {
  it('turns undefined and null into null', () => {
    assert.equal(ok({ type: 'int' }, undefined), null);
    assert.equal(ok({ type: 'string' }, null), null);
  });
  it('rejects a missing required value', () => {
    rejects({ type: 'int', required: true }, undefined, 'is required');
    rejects({ type: 'date', required: true }, null, 'is required');
  });
  it('rejects an empty string for a required string', () => {
    rejects({ type: 'string', required: true }, '', 'is required');
  });
  it('keeps an empty optional string, treats an empty optional email as absent', () => {
    assert.equal(ok({ type: 'string' }, ''), '');
    assert.equal(ok({ type: 'email' }, ''), null);
    rejects({ type: 'email', required: true }, '', 'is required');
  });
  it('formats the message as entity.field: reason', () => {
    const error = new FieldValueError('person', 'age', 'must be at most 150 (got 200)');
    assert.equal(error.message, 'person.age: must be at most 150 (got 200)');
    assert.equal(error.atRecord(3).message, 'person[3].age: must be at most 150 (got 200)');
    assert.equal(error.atRecord(3).recordIndex, 3);
  });
});

describe('int', () => {
  const age: FieldDef = { type: 'int', min: 0, max: 150 };
  it('accepts integers within min and max', () => {
    assert.equal(ok(age, 0), 0);
    assert.equal(ok(age, 150), 150);
  });
  it('rejects values outside min and max', () => {
    rejects(age, 200, 'must be at most 150 (got 200)', 'age');
    rejects(age, -1, 'must be at least 0 (got -1)', 'age');
  });
  it('rejects non-integers and strings', () => {
    rejects(age, 1.5, 'must be an integer (got 1.5)');
    rejects(age, '42', 'must be an integer (got "42")');
    rejects(age, Number.NaN, 'must be an integer (got NaN)');
  });
  it('keeps to the 32-bit range', () => {
    assert.equal(ok({ type: 'int' }, 2147483647), 2147483647);
    assert.equal(ok({ type: 'int' }, -2147483648), -2147483648);
    rejects({ type: 'int' }, 2147483648, 'must be between -2147483648 and 2147483647 (32-bit integer) (got 2147483648)');
    rejects({ type: 'int' }, -2147483649, 'must be between -2147483648 and 2147483647 (32-bit integer) (got -2147483649)');
  });
});

describe('decimal', () => {
  const money: FieldDef = { type: 'decimal', scale: 2, min: 0 };
  it('normalises to exactly scale digits', () => {
    assert.equal(ok(money, '12.5'), '12.50');
    assert.equal(ok(money, 12.5), '12.50');
    assert.equal(ok(money, '1234.50'), '1234.50');
    assert.equal(ok(money, '7'), '7.00');
    assert.equal(ok(money, '0012.1'), '12.10');
    assert.equal(ok(money, '12.500'), '12.50');
  });
  it('keeps the digits as given without a scale', () => {
    assert.equal(ok({ type: 'decimal' }, '-12.5'), '-12.5');
    assert.equal(ok({ type: 'decimal' }, '1234.50'), '1234.50');
    assert.equal(ok({ type: 'decimal' }, '-0.0'), '0.0');
    assert.equal(ok({ type: 'decimal' }, '123456789012345678901234567890.123456789'), '123456789012345678901234567890.123456789');
    assert.equal(ok({ type: 'decimal' }, 1e21), '1000000000000000000000');
  });
  it('rejects more digits after the point than the scale', () => {
    rejects(money, '12.345', 'must have at most 2 digits after the decimal point (got "12.345")');
    rejects(money, 0.1 + 0.2, 'must have at most 2 digits after the decimal point (got 0.30000000000000004)');
  });
  it('rejects exponents, separators and other forms', () => {
    const reason = (got: string): string =>
      `must be a decimal number like -12.5 or 1234.50, without exponent, spaces or thousands separators (got ${got})`;
    rejects(money, '1e5', reason('"1e5"'));
    rejects(money, '1,234.50', reason('"1,234.50"'));
    rejects(money, '1.234,50', reason('"1.234,50"'));
    rejects(money, ' 12', reason('" 12"'));
    rejects(money, '.5', reason('".5"'));
    rejects(money, true, 'must be a decimal number as a number or a string like "-12.5" or "1234.50" (got true)');
    rejects(money, Number.POSITIVE_INFINITY, 'must be a finite number (got Infinity)');
  });
  it('compares bounds exactly, beyond float precision', () => {
    const bounded: FieldDef = { type: 'decimal', min: 0, max: 100 };
    assert.equal(ok(bounded, '100.000000000000000000'), '100.000000000000000000');
    rejects(bounded, '100.000000000000000001', 'must be at most 100 (got "100.000000000000000001")');
    rejects(bounded, '-0.000000000000000001', 'must be at least 0 (got "-0.000000000000000001")');
    assert.equal(ok(bounded, '-0.00'), '0.00');
    const negative: FieldDef = { type: 'decimal', min: -10.5, max: -2 };
    assert.equal(ok(negative, '-10.5'), '-10.5');
    rejects(negative, '-10.51', 'must be at least -10.5 (got "-10.51")');
    rejects(negative, '-1.99', 'must be at most -2 (got "-1.99")');
  });
  it('writes numbers without exponent', () => {
    assert.equal(numberToDecimalString(1e-7), '0.0000001');
    assert.equal(numberToDecimalString(-1.5e22), '-15000000000000000000000');
    assert.equal(numberToDecimalString(123.25), '123.25');
  });
});

describe('strings', () => {
  it('counts lengths in code points', () => {
    const name: FieldDef = { type: 'string', min: 2, max: 3 };
    assert.equal(ok(name, '😀😀😀'), '😀😀😀');
    rejects(name, '😀😀😀😀', 'must be at most 3 characters long (got 4)');
    rejects(name, 'a', 'must be at least 2 characters long (got 1)');
  });
  it('rejects non-strings and NUL characters', () => {
    rejects({ type: 'text' }, 5, 'must be a string (got 5)');
    rejects({ type: 'string' }, 'a\u0000b', 'must not contain NUL characters');
  });
});

describe('email', () => {
  const email: FieldDef = { type: 'email' };
  const reason = (got: string): string => `must be an email address like name@example.com (got ${got})`;
  it('accepts practical addresses', () => {
    assert.equal(ok(email, 'max.mustermann@nordlicht-software.de'), 'max.mustermann@nordlicht-software.de');
    assert.equal(ok(email, 'o\'brien+crm@mail.example.co.uk'), 'o\'brien+crm@mail.example.co.uk');
  });
  it('rejects malformed addresses', () => {
    rejects(email, 'max', reason('"max"'));
    rejects(email, 'max@localhost', reason('"max@localhost"'));
    rejects(email, 'max mustermann@example.com', reason('"max mustermann@example.com"'));
    rejects(email, 'max..m@example.com', reason('"max..m@example.com"'));
    rejects(email, '.max@example.com', reason('".max@example.com"'));
    rejects(email, 'max@-example.com', reason('"max@-example.com"'));
    rejects(email, 'max@example..com', reason('"max@example..com"'));
    rejects(email, 'max@1.2.3.4', reason('"max@1.2.3.4"'));
    rejects(email, 'max\n@example.com', reason('"max\\n@example.com"'));
    rejects(email, '@example.com', reason('"@example.com"'));
  });
  it('rejects addresses longer than 254 characters', () => {
    const long = `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(11)}`;
    assert.equal(long.length, 255);
    rejects(email, long, reason(`"${long.slice(0, 60)}…"`));
  });
});

describe('phone', () => {
  const phone: FieldDef = { type: 'phone' };
  const reason = (got: string): string =>
    `must be a phone number of 3 to 32 characters: digits, spaces and - / ( ), optionally a leading + (got ${got})`;
  it('accepts common formats', () => {
    assert.equal(ok(phone, '+49 30 1234567'), '+49 30 1234567');
    assert.equal(ok(phone, '(030) 123-45/67'), '(030) 123-45/67');
    assert.equal(ok(phone, '110'), '110');
  });
  it('rejects letters, a + inside, and wrong lengths', () => {
    rejects(phone, '0800-CALLME', reason('"0800-CALLME"'));
    rejects(phone, '49+30', reason('"49+30"'));
    rejects(phone, '12', reason('"12"'));
    rejects(phone, '1'.repeat(33), reason(`"${'1'.repeat(33)}"`));
    rejects(phone, '---', reason('"---"'));
  });
});

describe('url', () => {
  const url: FieldDef = { type: 'url' };
  const reason = (got: string): string => `must be an absolute http:// or https:// URL (got ${got})`;
  it('accepts http and https URLs as given', () => {
    assert.equal(ok(url, 'https://www.nordlicht-software.de'), 'https://www.nordlicht-software.de');
    assert.equal(ok(url, 'http://example.com/a?b=c#d'), 'http://example.com/a?b=c#d');
  });
  it('rejects other schemes and relative or broken URLs', () => {
    rejects(url, 'javascript:alert(1)', reason('"javascript:alert(1)"'));
    rejects(url, 'ftp://example.com', reason('"ftp://example.com"'));
    rejects(url, 'data:text/html,hi', reason('"data:text/html,hi"'));
    rejects(url, 'www.example.com', reason('"www.example.com"'));
    rejects(url, 'https://', reason('"https://"'));
    rejects(url, 'https://exa mple.com', reason('"https://exa mple.com"'));
    rejects(url, 'https://example.com/\tx', reason('"https://example.com/\\tx"'));
  });
});

describe('enum and bool', () => {
  it('accepts only listed enum values', () => {
    const status: FieldDef = { type: 'enum', values: ['lead', 'customer'] };
    assert.equal(ok(status, 'lead'), 'lead');
    rejects(status, 'Lead', 'must be one of lead, customer (got "Lead")');
    rejects(status, 1, 'must be one of lead, customer (got 1)');
  });
  it('accepts only booleans', () => {
    assert.equal(ok({ type: 'bool' }, false), false);
    rejects({ type: 'bool' }, 'true', 'must be true or false (got "true")');
    rejects({ type: 'bool' }, 1, 'must be true or false (got 1)');
  });
});

describe('date', () => {
  const date: FieldDef = { type: 'date' };
  it('accepts real calendar dates', () => {
    assert.equal(ok(date, '1990-12-31'), '1990-12-31');
    assert.equal(ok(date, '2024-02-29'), '2024-02-29');
    assert.equal(ok(date, '2000-02-29'), '2000-02-29');
  });
  it('rejects other formats', () => {
    rejects(date, '31.12.1990', 'must be a date YYYY-MM-DD (got "31.12.1990")', 'birthday');
    rejects(date, '1990-12-31T00:00:00Z', 'must be a date YYYY-MM-DD (got "1990-12-31T00:00:00Z")');
    rejects(date, '1990-1-5', 'must be a date YYYY-MM-DD (got "1990-1-5")');
  });
  it('rejects days that do not exist', () => {
    rejects(date, '2023-02-30', 'must be a real calendar date YYYY-MM-DD (got "2023-02-30")');
    rejects(date, '2023-02-29', 'must be a real calendar date YYYY-MM-DD (got "2023-02-29")');
    rejects(date, '1900-02-29', 'must be a real calendar date YYYY-MM-DD (got "1900-02-29")');
    rejects(date, '2023-13-01', 'must be a real calendar date YYYY-MM-DD (got "2023-13-01")');
    rejects(date, '2023-04-31', 'must be a real calendar date YYYY-MM-DD (got "2023-04-31")');
  });
});

describe('datetime', () => {
  const dt: FieldDef = { type: 'datetime' };
  it('normalises to UTC with milliseconds', () => {
    assert.equal(ok(dt, '2024-05-01T10:00:00Z'), '2024-05-01T10:00:00.000Z');
    assert.equal(ok(dt, '2024-05-01T12:00:00+02:00'), '2024-05-01T10:00:00.000Z');
    assert.equal(ok(dt, '2024-05-01T01:30-0230'), '2024-05-01T04:00:00.000Z');
    assert.equal(ok(dt, '2024-01-01T00:30:00.1234+01:00'), '2023-12-31T23:30:00.123Z');
    assert.equal(ok(dt, '2024-05-01T10:00:00.5Z'), '2024-05-01T10:00:00.500Z');
  });
  it('requires a timezone and a real date and time', () => {
    const reason = (got: string): string =>
      `must be an ISO 8601 date-time with a timezone, like 2024-05-01T10:00:00Z or 2024-05-01T12:00:00+02:00 (got ${got})`;
    rejects(dt, '2024-05-01T10:00:00', reason('"2024-05-01T10:00:00"'));
    rejects(dt, '2024-05-01', reason('"2024-05-01"'));
    rejects(dt, 'May 1, 2024', reason('"May 1, 2024"'));
    rejects(dt, 1714557600000, reason('1714557600000'));
    rejects(dt, '2023-02-29T10:00:00Z', 'must be a real date and time of day (got "2023-02-29T10:00:00Z")');
    rejects(dt, '2024-05-01T24:00:00Z', 'must be a real date and time of day (got "2024-05-01T24:00:00Z")');
    rejects(dt, '2024-05-01T10:00:00+25:00', 'must have a timezone offset between -23:59 and +23:59 (got "2024-05-01T10:00:00+25:00")');
  });
});

describe('id and ref', () => {
  it('accepts positive integers as numbers or numeric strings', () => {
    assert.equal(ok({ type: 'id' }, 7), 7);
    assert.equal(ok({ type: 'ref', entity: 'company' }, '12'), 12);
  });
  it('rejects everything else', () => {
    const ref: FieldDef = { type: 'ref', entity: 'company' };
    rejects(ref, 0, 'must be a positive integer id (got 0)');
    rejects(ref, -3, 'must be a positive integer id (got -3)');
    rejects(ref, 1.5, 'must be a positive integer id (got 1.5)');
    rejects(ref, '012', 'must be a positive integer id (got "012")');
    rejects(ref, 'abc', 'must be a positive integer id (got "abc")');
    rejects(ref, { id: 1 }, 'must be a positive integer id (got a value of type object)');
    rejects(ref, '99999999999999999999', 'must be a positive integer id (got "99999999999999999999")');
  });
});

describe('checkRequired', () => {
  const fields: Record<string, FieldDef> = {
    id: { type: 'id', required: true },
    firstname: { type: 'string', required: true },
    email: { type: 'email' },
    company: { type: 'ref', entity: 'company', required: true },
  };
  it('lists each required field that is missing', () => {
    const errors = checkRequired('person', fields, { email: 'a@b.de', firstname: null });
    assert.deepEqual(errors.map((e) => e.message), ['person.firstname: is required', 'person.company: is required']);
  });
  it('accepts a ref given by its column name and never asks for the id', () => {
    assert.deepEqual(checkRequired('person', fields, { firstname: 'Max', company_id: 3 }), []);
  });
});
