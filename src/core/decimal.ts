// Exact decimal arithmetic for bulk changes (`{ "_mul": 1.05 }`, `{ "_add": -10 }`) and their
// summaries: values as scaled integers (BigInt), so 19.99 * 1.05 is 20.9895, never 20.989499999.
// Rounding is half away from zero, as people round money. No MCP, no VS Code.

/** A decimal as digits and a scale: `12.34` is { units: 1234n, scale: 2 }. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;
/** Shortest round-trip digits, without an exponent. One formatter: `toLocaleString` with options builds one per call (30x the time). */
const PLAIN_DIGITS = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 20 });

/** A number or a decimal text (`"-12.50"`) as a Decimal; undefined when it is neither. */
export function toDecimal(value: unknown): Decimal | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = Math.abs(value) < 1e21 ? PLAIN_DIGITS.format(value) : '';
  } else if (typeof value === 'string') text = value.trim();
  else return undefined;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2]}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  return add(a, { units: -b.units, scale: b.scale });
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** Rounded to `scale` digits after the point, half away from zero. */
export function round(value: Decimal, scale: number): Decimal {
  if (value.scale <= scale) return { units: rescale(value, scale), scale };
  const divisor = 10n ** BigInt(value.scale - scale);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let units = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) units += 1n;
  return { units: negative ? -units : units, scale };
}

export function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = rescale(a, scale);
  const right = rescale(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `-12.50` for { units: -1250n, scale: 2 }. */
export function decimalText(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = value.scale ? digits.slice(0, -value.scale) : digits;
  const fraction = value.scale ? `.${digits.slice(-value.scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
