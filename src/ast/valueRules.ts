// The value rules of the field types: how a value is checked and converted to its canonical
// storage form (see src/backend/storage/types.ts), one function per kind of value. The field-type
// table (fieldTypes.ts) names which rule each type uses; values.ts applies them with the field's
// name for its errors. Browser-safe: no Node imports.
import type { FieldDef } from './schema.ts';

/** A value in its canonical storage form, as it crosses the storage interface. */
export type Scalar = string | number | boolean | null;

/**
 * What is wrong with a value, for texts in the person's language (the Board's form). A type's own
 * problem is coded by its row in fieldTypes.ts (`integer`, `date`, `time`, ...).
 */
export type ValueProblem =
  | { readonly code: string }
  | { readonly code: 'min' | 'max' | 'minLength' | 'maxLength'; readonly limit: string };

/** The limits a value rule reads from its field (a FieldDef is one). */
export type FieldRules = Pick<FieldDef, 'required' | 'min' | 'max' | 'scale' | 'values' | 'key'>;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Why a value is rejected; the caller adds entity and field. */
/** Why a value is rejected; values.ts adds entity and field. */
export class Rejection extends Error {
  readonly problem: ValueProblem;

  constructor(reason: string, problem: ValueProblem) {
    super(reason);
    this.problem = problem;
  }
}

export function reject(reason: string, problem: ValueProblem = { code: 'invalid' }): never {
  throw new Rejection(reason, problem);
}

/** How a rejected value is quoted in a message: short, and unambiguous about its type. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const chars = [...value];
    const shown = chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return `a Date (${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  return `a value of type ${typeof value}`;
}

export const got = (value: unknown): string => `(got ${describeValue(value)})`;

/** A uuid as a key's value is written (any case; stored lower-case). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Longest text key accepted: a key is a name, not a document. */
export const MAX_TEXT_KEY = 500;

/** A record's key as the field's `key` says: a positive integer (the default), a text or a uuid. */
export function coerceId(def: FieldRules, value: unknown): Scalar {
  if (def.key === 'text') {
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text === 'string' && text !== '' && text.length <= MAX_TEXT_KEY) return text;
    return reject(`must be a key (a text of 1 to ${MAX_TEXT_KEY} characters) ${got(value)}`);
  }
  if (def.key === 'uuid') {
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
    return reject(`must be a uuid (like 123e4567-e89b-12d3-a456-426614174000) ${got(value)}`);
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^[1-9][0-9]*$/.test(value)) {
    const n = Number(value);
    if (Number.isSafeInteger(n)) return n;
  }
  return reject(`must be a positive integer id ${got(value)}`);
}

export function coerceInt(def: FieldRules, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) reject(`must be an integer ${got(value)}`, { code: 'integer' });
  if (value < INT32_MIN || value > INT32_MAX) {
    reject(`must be between ${INT32_MIN} and ${INT32_MAX} (32-bit integer) ${got(value)}`, value < INT32_MIN ? { code: 'min', limit: String(INT32_MIN) } : { code: 'max', limit: String(INT32_MAX) });
  }
  if (def.min !== undefined && value < def.min) reject(`must be at least ${def.min} ${got(value)}`, { code: 'min', limit: String(def.min) });
  if (def.max !== undefined && value > def.max) reject(`must be at most ${def.max} ${got(value)}`, { code: 'max', limit: String(def.max) });
  return value;
}

// ---------------------------------------------------------------- decimals

interface DecimalParts {
  readonly negative: boolean;
  /** integer digits without leading zeros ("" for zero) */
  readonly whole: string;
  /** digits after the point, as written */
  readonly fraction: string;
}

const DECIMAL_PATTERN = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

function parseDecimal(text: string): DecimalParts | undefined {
  const m = DECIMAL_PATTERN.exec(text);
  if (!m) return undefined;
  const whole = m[2].replace(/^0+/, '');
  const fraction = m[3] ?? '';
  const isZero = whole === '' && /^0*$/.test(fraction);
  return { negative: m[1] === '-' && !isZero, whole, fraction };
}

/** A JS number as plain decimal digits, without exponent (1e21 -> "1000000000000000000000"). */
export function numberToDecimalString(n: number): string {
  const text = String(n);
  const m = /^(-?)([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (!m) return text;
  const digits = m[2] + (m[3] ?? '');
  const exponent = Number(m[4]);
  const pointAt = 1 + exponent;
  const plain = pointAt <= 0
    ? `0.${'0'.repeat(-pointAt)}${digits}`
    : pointAt >= digits.length
      ? digits + '0'.repeat(pointAt - digits.length)
      : `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  return m[1] + plain;
}

function compareMagnitude(a: DecimalParts, b: DecimalParts): number {
  if (a.whole.length !== b.whole.length) return a.whole.length < b.whole.length ? -1 : 1;
  if (a.whole !== b.whole) return a.whole < b.whole ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** Exact comparison of two parsed decimals: -1, 0 or 1. */
function compareDecimals(a: DecimalParts, b: DecimalParts): number {
  if (a.negative !== b.negative) {
    return a.negative ? -1 : 1;
  }
  const magnitude = compareMagnitude(a, b);
  return a.negative ? -magnitude : magnitude;
}

function formatDecimal(parts: DecimalParts, scale: number | undefined): string {
  const fraction = scale === undefined ? parts.fraction : parts.fraction.padEnd(scale, '0');
  return `${parts.negative ? '-' : ''}${parts.whole || '0'}${fraction ? `.${fraction}` : ''}`;
}

export function coerceDecimal(def: FieldRules, value: unknown): string {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) reject(`must be a finite number ${got(value)}`, { code: 'decimal' });
    text = numberToDecimalString(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return reject(`must be a decimal number as a number or a string like "-12.5" or "1234.50" ${got(value)}`, { code: 'decimal' });
  }
  let parts = parseDecimal(text);
  if (!parts) {
    reject(`must be a decimal number like -12.5 or 1234.50, without exponent, spaces or thousands separators ${got(value)}`, { code: 'decimal' });
  }
  if (def.scale !== undefined && parts.fraction.length > def.scale) {
    // trailing zeros beyond the scale carry no value ("12.500" is 12.50)
    const trimmed = parts.fraction.replace(/0+$/, '');
    if (trimmed.length > def.scale) {
      reject(`must have at most ${def.scale} digits after the decimal point ${got(value)}`, { code: 'scale' });
    }
    parts = { ...parts, fraction: trimmed };
  }
  return checkDecimalBounds(def, parts, value, def.scale);
}

function checkDecimalBounds(def: FieldRules, parts: DecimalParts, value: unknown, scale: number | undefined): string {
  if (def.min !== undefined && compareDecimals(parts, parseDecimal(numberToDecimalString(def.min))!) < 0) {
    reject(`must be at least ${numberToDecimalString(def.min)} ${got(value)}`, { code: 'min', limit: numberToDecimalString(def.min) });
  }
  if (def.max !== undefined && compareDecimals(parts, parseDecimal(numberToDecimalString(def.max))!) > 0) {
    reject(`must be at most ${numberToDecimalString(def.max)} ${got(value)}`, { code: 'max', limit: numberToDecimalString(def.max) });
  }
  return formatDecimal(parts, scale);
}

// ---------------------------------------------------------------- dates

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function coerceDate(value: unknown): string {
  const m = typeof value === 'string' ? /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value) : null;
  if (!m) return reject(`must be a date YYYY-MM-DD ${got(value)}`, { code: 'date' });
  if (!isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
    reject(`must be a real calendar date YYYY-MM-DD ${got(value)}`, { code: 'date' });
  }
  return value as string;
}

const DATETIME_PATTERN =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?(Z|[+-][0-9]{2}:?[0-9]{2})$/;

export function coerceDateTime(value: unknown): string {
  const m = typeof value === 'string' ? DATETIME_PATTERN.exec(value) : null;
  if (!m) {
    return reject(`must be an ISO 8601 date-time with a timezone, like 2024-05-01T10:00:00Z or 2024-05-01T12:00:00+02:00 ${got(value)}`, { code: 'datetime' });
  }
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const second = Number(m[6] ?? '0');
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const digits = m[8].replace(':', '');
    const sign = digits[0] === '-' ? -1 : 1;
    const offHours = Number(digits.slice(1, 3));
    const offMinutes = Number(digits.slice(3, 5));
    if (offHours > 23 || offMinutes > 59) reject(`must have a timezone offset between -23:59 and +23:59 ${got(value)}`, { code: 'datetime' });
    offsetMinutes = sign * (offHours * 60 + offMinutes);
  }
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) {
    reject(`must be a real date and time of day ${got(value)}`, { code: 'datetime' });
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, second, millis);
  return utc.toISOString();
}

// ---------------------------------------------------------------- text

export function coerceEnum(def: FieldRules, value: unknown): string {
  const values = def.values ?? [];
  if (typeof value !== 'string' || !values.includes(value)) {
    reject(`must be one of ${values.join(', ')} ${got(value)}`, { code: 'enum' });
  }
  return value;
}

// local@domain: practical RFC 5321 subset; letters may be non-ASCII (internationalised mail).
const EMAIL_LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const EMAIL_DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

export function isEmailAddress(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (local.length > 64 || !EMAIL_LOCAL.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => label.length <= 63 && EMAIL_DOMAIN_LABEL.test(label))) return false;
  // the top-level domain is never all digits (that would be an IP address)
  return !/^[0-9]+$/.test(labels[labels.length - 1]);
}

const PHONE_PATTERN = /^\+?[0-9 ()/-]{3,32}$/;

export function isPhoneNumber(text: string): boolean {
  return text.length >= 3 && text.length <= 32 && PHONE_PATTERN.test(text) && /[0-9]/.test(text);
}

export function isWebUrl(text: string): boolean {
  // The URL parser silently drops tabs and newlines and trims spaces; a stored URL must not contain them.
  if (/[\s\p{Cc}]/u.test(text)) return false;
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}


/** A text within the field's length limits; `check` is the type's own shape (an email address, a URL). */
export function coerceText(def: FieldRules, value: unknown, check?: { readonly test: (text: string) => boolean; readonly reason: string; readonly code: string }): string {
  if (typeof value !== 'string') return reject(`must be a string ${got(value)}`);
  if (value.includes('\u0000')) reject('must not contain NUL characters');
  const length = [...value].length;
  if (def.min !== undefined && length < def.min) {
    reject(`must be at least ${def.min} characters long (got ${length})`, { code: 'minLength', limit: String(def.min) });
  }
  if (def.max !== undefined && length > def.max) {
    reject(`must be at most ${def.max} characters long (got ${length})`, { code: 'maxLength', limit: String(def.max) });
  }
  if (check && !check.test(value)) reject(`${check.reason} ${got(value)}`, { code: check.code });
  return value;
}

/** true or false. */
export function coerceBool(value: unknown): boolean {
  if (typeof value !== 'boolean') reject(`must be true or false ${got(value)}`);
  return value;
}
