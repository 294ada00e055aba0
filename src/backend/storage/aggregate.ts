// Exact decimal arithmetic for aggregates (sums, averages) on digit strings, with BigInt: what a
// database hands back as a sum is turned into XOS's canonical decimal text here, the same on both
// stores, and averages are divided here so they keep the field's scale plus two on both.
import type { AggregateFn } from './rows.ts';

/** A decimal in digits: `units / 10^scale`. */
interface Scaled {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

/** A decimal's digits (`"-12.50"`, `12`, `1e-7` as a number) as units and scale; undefined when it is no number. */
export function scaledOf(value: unknown): Scaled | undefined {
  if (typeof value === 'bigint') return { units: value, scale: 0 };
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // A float (a REAL column) by its shortest exact-enough digits, without an exponent.
    text = Number.isInteger(value) ? BigInt(value).toString() : value.toFixed(Math.min(20, Math.max(0, decimalsOf(value))));
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2] || '0'}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function decimalsOf(value: number): number {
  const [mantissa, exponent = '0'] = value.toExponential().split('e');
  const digits = mantissa.replace(/^-?\d\.?/, '').length;
  return Math.max(0, digits - Number(exponent));
}

function rescaled(value: Scaled, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** The decimal text of units at a scale: 12345, 2 -> "123.45". */
export function decimalText(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** A running exact sum of decimals (SQLite's `xos_decimal_sum`, and the merge of partial sums). */
export class DecimalSum {
  #units = 0n;
  #scale = 0;
  #any = false;

  add(value: unknown): void {
    if (value === null || value === undefined) return;
    const scaled = scaledOf(value);
    if (!scaled) throw new Error(`not a decimal: ${JSON.stringify(String(value))}`);
    this.#any = true;
    if (scaled.scale > this.#scale) {
      this.#units *= 10n ** BigInt(scaled.scale - this.#scale);
      this.#scale = scaled.scale;
    }
    this.#units += rescaled(scaled, this.#scale);
  }

  /** The sum as decimal text; null when nothing was added (SQL's SUM of no values). */
  get text(): string | null {
    return this.#any ? decimalText(this.#units, this.#scale) : null;
  }
}

/**
 * An exact sum as the database returned it, in canonical decimal text: `scale` set when the sum
 * is of values scaled to integers (SQLite's sums of decimals with a scale), the digits as they are
 * otherwise (a sum of ints, PostgreSQL's numeric).
 */
export function sumText(raw: unknown, scale?: number): string | null {
  if (raw === null || raw === undefined) return null;
  const scaled = scaledOf(raw);
  if (!scaled) throw new Error(`a sum that is no number: ${JSON.stringify(String(raw))}`);
  if (scale === undefined) return decimalText(scaled.units, scaled.scale);
  return decimalText(rescaled(scaled, 0), scale);
}

/** sum / count rounded half away from zero to `scale` digits; null without values. */
export function averageText(sum: string | null, count: number, scale: number): string | null {
  if (sum === null || count === 0) return null;
  const scaled = scaledOf(sum)!;
  // units/10^s / count at scale t: units * 10^t / (count * 10^s), rounded.
  const numerator = scaled.units * 10n ** BigInt(scale) * 2n;
  const denominator = BigInt(count) * 10n ** BigInt(scaled.scale);
  const doubled = numerator / denominator;
  const rounded = (doubled + (doubled < 0n ? -1n : 1n)) / 2n;
  return decimalText(rounded, scale);
}

/** The functions that give a number (compared as one in `having`); a min or max compares as its column. */
export const NUMERIC_MEASURES: ReadonlySet<AggregateFn> = new Set(['count', 'count_distinct', 'sum', 'avg']);
