// The exact decimal arithmetic behind aggregates (src/backend/storage/aggregate.ts): sums of
// digit strings and floats without rounding, scaled integer sums turned back into decimals, and
// averages rounded half away from zero at a given scale.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { averageText, DecimalSum, decimalText, scaledOf, sumText } from '../../src/backend/storage/aggregate.ts';

test('a decimal is read as units and scale from text, numbers and BigInts; anything else is no decimal', () => {
  assert.deepEqual(scaledOf('1234.50'), { units: 123450n, scale: 2 });
  assert.deepEqual(scaledOf('-0.05'), { units: -5n, scale: 2 });
  assert.deepEqual(scaledOf('.5'), { units: 5n, scale: 1 });
  assert.deepEqual(scaledOf(' 7 '), { units: 7n, scale: 0 });
  assert.deepEqual(scaledOf(19.99), { units: 1999n, scale: 2 });
  assert.deepEqual(scaledOf(1e-7), { units: 1n, scale: 7 });
  assert.deepEqual(scaledOf(2 ** 60), { units: 2n ** 60n, scale: 0 });
  assert.deepEqual(scaledOf(12n), { units: 12n, scale: 0 });
  for (const value of ['', '-', '1e5', 'abc', '1.2.3', Number.NaN, Infinity, null, true]) assert.equal(scaledOf(value), undefined, String(value));
});

test('decimal text puts the point at the scale, with leading zeros and the sign', () => {
  assert.equal(decimalText(12345n, 2), '123.45');
  assert.equal(decimalText(5n, 3), '0.005');
  assert.equal(decimalText(-5n, 2), '-0.05');
  assert.equal(decimalText(-12n, 0), '-12');
});

test('a running sum is exact across scales and signs; nothing added is null', () => {
  const sum = new DecimalSum();
  assert.equal(sum.text, null);
  for (const value of ['0.1', '0.2', 0.30000000000000004, null, '-1', '1', 1e-7]) {
    if (value !== null) sum.add(value);
  }
  // 0.1 + 0.2 + 0.30000000000000004 - 1 + 1 + 0.0000001, digit for digit.
  assert.equal(sum.text, '0.60000010000000004');
  const big = new DecimalSum();
  for (let i = 0; i < 3; i++) big.add('9007199254740993.01');
  assert.equal(big.text, '27021597764222979.03');
  assert.throws(() => big.add('twelve'), /not a decimal: "twelve"/);
});

test('a scaled integer sum is read back at its scale; a plain sum as its digits', () => {
  assert.equal(sumText('1999', 2), '19.99');
  assert.equal(sumText(-5, 2), '-0.05');
  assert.equal(sumText('123.40'), '123.40');
  assert.equal(sumText(42), '42');
  assert.equal(sumText(null, 2), null);
  assert.throws(() => sumText('x'), /a sum that is no number/);
});

test('an average keeps the asked scale and rounds half away from zero', () => {
  assert.equal(averageText('10', 4, 2), '2.50');
  assert.equal(averageText('1', 3, 2), '0.33');
  assert.equal(averageText('2', 3, 2), '0.67');
  assert.equal(averageText('0.05', 2, 2), '0.03');
  assert.equal(averageText('-0.05', 2, 2), '-0.03');
  assert.equal(averageText('-1', 3, 2), '-0.33');
  assert.equal(averageText('30.35', 2, 4), '15.1750');
  assert.equal(averageText(null, 0, 2), null);
  assert.equal(averageText('5', 0, 2), null);
});
