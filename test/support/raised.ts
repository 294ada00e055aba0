// The value a review test's proposal gives a person's net worth (`{ _mul: 1.05 }` on a
// decimal of scale 2), worked out on the decimal's digits, so a test can say what was written.

/** 5 % more, rounded half away from zero to cents, on exact decimal digits. */
export function raised(value: string): string {
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const cents = BigInt(whole + fraction.padEnd(2, '0')) * 105n;
  const rounded = (cents + 50n) / 100n;
  const text = rounded.toString().padStart(3, '0');
  return `${negative && rounded !== 0n ? '-' : ''}${text.slice(0, -2)}.${text.slice(-2)}`;
}
