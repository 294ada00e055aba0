// The field types, one row each: how a value is checked and stored (its canonical form, its
// column in SQLite and PostgreSQL, what the person's databases call it), how the API types it
// (GraphQL scalar), and how the Board inputs, parses, formats and filters it. Every part of XOS
// reads a type from here, so a new type is one row (and its name in schema.ts's FIELD_TYPES).
// Browser-safe: no Node or VS Code imports.
import type { FieldType } from './schema.ts';
import { refId } from './lookup.ts';
import { joinedName, nameMatch } from './display.ts';
import { dateFormat, isEmpty, numberFormat, textKind, widgetNumber, type FieldKind } from './boardFormats.ts';
import {
  coerceBool, coerceDate, coerceDateTime, coerceDecimal, coerceEnum, coerceId, coerceInt, coerceText,
  got, isEmailAddress, isPhoneNumber, isWebUrl, reject, type FieldRules, type Scalar,
} from './valueRules.ts';

/** XOS's own GraphQL scalar for a type: its name, its description, and what a wrong value is told. */
export interface GraphqlScalar {
  readonly name: string;
  readonly description: string;
  /** "must be <hint>" */
  readonly hint: string;
}

/** How a type's values are stored: canonical in memory (src/backend/storage/types.ts), as a column in each database. */
export interface StorageCodec {
  /** typeof the canonical value: such a value read from XOS's own tables needs no decoding. */
  readonly canonical: 'string' | 'number' | 'boolean';
  /** The column type of the tables XOS creates. */
  readonly sqlite: string;
  readonly postgres: string;
  /** The canonical text form, which a value handed back in a cursor must have. */
  readonly shape?: RegExp;
  /** What `encode` expects, for its error ("a datetime"). */
  readonly expects?: string;
  /** A canonical value as both databases take it; undefined when it does not fit. Absent: a string as it is. */
  encode?(value: Scalar): string | number | boolean | undefined;
  /** A value either database returns, in canonical form. Absent: its text. */
  decode?(value: unknown, rules: FieldRules | undefined): Scalar;
}

/** The dice seeding uses (src/backend/seed). */
export interface SampleRandom {
  int(lo: number, hi: number): number;
}

export interface FieldTypeRow {
  /** Checks a given (non-empty) value and returns its canonical form; rejects (valueRules.reject) what does not fit. */
  coerce(rules: FieldRules, value: unknown): Scalar;
  /** The type's own problem code and the Board's English text for it (translated in l10n/bundle.l10n.*.json). */
  readonly problem?: { readonly code: string; readonly text: string };
  /** The Board's side: input, parse, format, CSV, quick filter. */
  readonly kind: FieldKind;
  /** Whether its values may name a record (an entity's `display` template). */
  readonly display: boolean;
  /** The GraphQL type of its values: a built-in scalar, or XOS's own. */
  readonly graphql: 'ID' | 'String' | 'Int' | 'Boolean' | GraphqlScalar;
  readonly storage: StorageCodec;
  /** The column types of the person's own databases read as this type (PostgreSQL type names, a SQLite declared-type pattern). */
  readonly columns?: { readonly postgres?: readonly string[]; readonly sqlite?: RegExp };
  /** A value for seeding when neither the field's name nor the seeder's own cases tell a better one. */
  sample?(random: SampleRandom): Scalar;
  /**
   * What totals per group take of it besides counting and grouping (src/backend/graphql/aggregates.ts):
   * `sum` (and the average), `extremes` (min and max), `buckets` (grouped by day, week, month, quarter or year).
   */
  readonly aggregate?: { readonly sum?: true; readonly extremes?: true; readonly buckets?: true };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** A date-time without a zone (SQLite's `2009-01-01 00:00:00`, PostgreSQL's timestamp): UTC. */
const ZONELESS_DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
// A date-time input edits UTC to the minute ("2024-05-01T10:00"); the value is ISO 8601 UTC. Host and
// webview may run in different time zones (a remote extension host), so neither converts to local time.
const LOCAL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

const text = (kind: FieldKind = textKind()): FieldTypeRow => ({
  coerce: (rules, value) => coerceText(rules, value),
  kind,
  display: true,
  graphql: 'String',
  storage: { canonical: 'string', sqlite: 'TEXT', postgres: 'TEXT' },
});

/** A text of a given shape (an email address, a phone number, a URL). */
function shapedText(test: (text: string) => boolean, reason: string, code: string, problem: string): FieldTypeRow {
  return { ...text(), coerce: (rules, value) => coerceText(rules, value, { test, reason, code }), problem: { code, text: problem } };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A ref's loaded related record's name: its display fields' values joined (display.ts), else its first loaded value. */
function refName(related: Record<string, unknown>, fields: readonly string[] | undefined): string | undefined {
  if (fields?.length) return joinedName(fields.map((field) => (Object.hasOwn(related, field) ? related[field] : undefined)));
  const first = Object.entries(related).find(([key]) => key !== 'id')?.[1];
  return first === undefined || first === null ? undefined : String(first);
}

const dateKind: FieldKind = {
  input: 'text',
  editor: { type: 'date' },
  narrow: true,
  numeric: false,
  parse: (raw) => (String(raw) === '' ? null : String(raw)),
  valid: (value) => isEmpty(value) || (typeof value === 'string' && DATE.test(value)),
  format(value, c) {
    if (isEmpty(value)) return c.none;
    const t = String(value);
    if (!DATE.test(t)) return t;
    const [y, m, d] = t.split('-').map(Number);
    return dateFormat(c.locale, false).format(Date.UTC(y, m - 1, d));
  },
  inputValue: (value) => (isEmpty(value) ? '' : String(value)),
  csv: (value) => (isEmpty(value) ? '' : String(value)),
  quickFilter: (field, q) => (DATE.test(q.trim()) ? { [field]: { _eq: q.trim() } } : undefined),
};

/** A time of day as written: HH:MM, with seconds and up to six digits of their fraction (PostgreSQL's `time`). */
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;
/** Its canonical form: HH:MM:SS, a fraction without trailing zeros. */
const CANONICAL_TIME = /^\d{2}:\d{2}:\d{2}(\.\d*[1-9])?$/;

/** A time of day in canonical form; undefined when the text is none. */
function canonicalTime(text: string): string | undefined {
  const m = TIME.exec(text.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? '0') > 59) return undefined;
  const fraction = (m[4] ?? '').replace(/0+$/, '');
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}${fraction ? `.${fraction}` : ''}`;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A time of day as the locale writes it ("14:30", "2:30 PM"), with seconds where it has them. */
function formatTime(canonical: string, locale: string): string {
  const [h, m, s] = canonical.split(':').map(Number);
  const key = `${locale}|${s !== 0}`;
  let format = timeFormats.get(key);
  if (!format) timeFormats.set(key, format = new Intl.DateTimeFormat(locale, { timeStyle: s !== 0 ? 'medium' : 'short', timeZone: 'UTC' }));
  return format.format(Date.UTC(1970, 0, 1, h, m, Math.floor(s)));
}

const ROWS: { readonly [T in FieldType]: FieldTypeRow } = {
  id: {
    coerce: coerceId,
    kind: { ...textKind(), quickFilter: (field, q) => (/^\d+$/.test(q.trim()) ? { [field]: { _eq: q.trim() } } : undefined) },
    display: false,
    graphql: 'ID',
    // Keys by text or uuid (the person's own tables) are handled by the storage before the row.
    storage: { canonical: 'number', sqlite: 'INTEGER PRIMARY KEY AUTOINCREMENT', postgres: 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY' },
  },
  string: text(),
  text: text(textKind('textarea')),
  email: shapedText(isEmailAddress, 'must be an email address like name@example.com', 'email', 'Enter an email address like name@example.com.'),
  phone: shapedText(isPhoneNumber, 'must be a phone number of 3 to 32 characters: digits, spaces and - / ( ), optionally a leading +', 'phone',
    'Enter a phone number: digits, spaces and - / ( ), optionally a leading +.'),
  url: shapedText(isWebUrl, 'must be an absolute http:// or https:// URL', 'url', 'Enter a web address starting with https:// or http://.'),
  int: {
    aggregate: { sum: true, extremes: true },
    coerce: coerceInt,
    problem: { code: 'integer', text: 'Enter a whole number.' },
    kind: {
      input: 'text',
      editor: { type: 'number', bounds: true },
      narrow: true,
      numeric: true,
      parse(raw) {
        const t = String(raw).trim();
        if (t === '') return null;
        const n = Number(t);
        return Number.isFinite(n) ? n : t;
      },
      valid: (value) => isEmpty(value) || Number.isInteger(value),
      format: (value, c) => (isEmpty(value) ? c.none : typeof value === 'number' ? widgetNumber(value, 0, c) ?? numberFormat(c.locale, 0).format(value) : String(value)),
      inputValue: (value) => (isEmpty(value) ? '' : String(value)),
      csv: (value) => (isEmpty(value) ? '' : String(value)),
      quickFilter: (field, q) => (INTEGER.test(q.trim()) && Math.abs(Number(q)) <= 2 ** 31 - 1 ? { [field]: { _eq: Number(q) } } : undefined),
    },
    display: true,
    graphql: 'Int',
    // Integers are handled by the storage before the row (ids, refs and versions are integers too).
    storage: { canonical: 'number', sqlite: 'INTEGER', postgres: 'INTEGER' },
  },
  decimal: {
    aggregate: { sum: true, extremes: true },
    coerce: coerceDecimal,
    problem: { code: 'decimal', text: 'Enter a number like 1234.50 (no thousands separators).' },
    kind: {
      input: 'text',
      // Decimals keep their exact digits: a text input, since a number input would round them.
      editor: { inputMode: 'decimal' },
      narrow: true,
      numeric: true,
      parse: (raw) => (String(raw).trim() === '' ? null : String(raw).trim()),
      valid: (value) => isEmpty(value) || (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL.test(value)),
      format(value, c) {
        if (isEmpty(value)) return c.none;
        const digits = String(value);
        if (!DECIMAL.test(digits)) return digits;
        const fraction = digits.includes('.') ? digits.length - digits.indexOf('.') - 1 : 0;
        // Intl formats a numeric string exactly (no float rounding of long decimals).
        return widgetNumber(digits, Math.min(fraction, 20), c) ?? numberFormat(c.locale, Math.min(fraction, 20)).format(digits as unknown as number);
      },
      inputValue: (value) => (isEmpty(value) ? '' : String(value)),
      csv: (value) => (isEmpty(value) ? '' : String(value)),
      quickFilter: (field, q) => (DECIMAL.test(q.trim()) ? { [field]: { _eq: q.trim() } } : undefined),
    },
    display: true,
    graphql: { name: 'Decimal', description: 'An exact decimal number, serialised as a string of digits ("1234.50"); accepts a number or a string.', hint: 'a number or a string of digits like "1234.50"' },
    storage: {
      canonical: 'string', sqlite: 'TEXT', postgres: 'NUMERIC', shape: /^-?\d+(\.\d+)?$/, expects: 'a decimal',
      encode: (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value : undefined),
      decode(value, rules) {
        // A number column of the person's SQLite table (REAL): shown with the field's scale, as PostgreSQL's numeric is.
        if (rules?.scale === undefined) return String(value);
        if (typeof value === 'number') return value.toFixed(rules.scale);
        // A whole number kept as an integer (NUMERIC affinity), read exactly.
        if (typeof value === 'bigint') return rules.scale > 0 ? `${value}.${'0'.repeat(rules.scale)}` : String(value);
        return String(value);
      },
    },
  },
  bool: {
    coerce: (_rules, value) => coerceBool(value),
    kind: {
      input: 'checkbox',
      narrow: true,
      numeric: false,
      parse: (raw) => raw === true,
      valid: (value) => isEmpty(value) || typeof value === 'boolean',
      format: (value, c) => (isEmpty(value) ? c.none : value === true ? c.yes : value === false ? c.no : String(value)),
      inputValue: (value) => value === true,
      csv: (value) => (value === true ? 'true' : value === false ? 'false' : ''),
      quickFilter: () => undefined,
    },
    display: false,
    graphql: 'Boolean',
    storage: {
      canonical: 'boolean', sqlite: 'INTEGER', postgres: 'BOOLEAN', expects: 'a boolean',
      encode: (value) => (typeof value === 'boolean' ? value : undefined),
      decode: (value) => value === true || value === 1 || value === 1n || value === '1' || value === 't' || value === 'true',
    },
    columns: { postgres: ['bool'], sqlite: /^bool(ean)?$/ },
  },
  date: {
    aggregate: { extremes: true, buckets: true },
    coerce: (_rules, value) => coerceDate(value),
    problem: { code: 'date', text: 'Enter a real date.' },
    kind: dateKind,
    display: true,
    graphql: { name: 'Date', description: 'A calendar date, YYYY-MM-DD.', hint: 'a calendar date YYYY-MM-DD' },
    storage: {
      canonical: 'string', sqlite: 'TEXT', postgres: 'DATE', shape: DATE,
      decode: (value) => (value instanceof Date ? `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}` : String(value)),
    },
    columns: { postgres: ['date'], sqlite: /^date$/ },
  },
  datetime: {
    aggregate: { extremes: true, buckets: true },
    coerce: (_rules, value) => coerceDateTime(value),
    problem: { code: 'datetime', text: 'Enter a real date and time.' },
    kind: {
      ...dateKind,
      editor: { type: 'datetime-local', utc: true },
      narrow: false,
      parse(raw) {
        const t = String(raw).trim();
        if (t === '') return null;
        return LOCAL_MINUTE.test(t) ? `${t}:00.000Z` : t;
      },
      inputValue(value) {
        if (isEmpty(value)) return '';
        const at = Date.parse(String(value));
        return Number.isNaN(at) ? String(value) : new Date(at).toISOString().slice(0, 16);
      },
      valid: (value) => isEmpty(value) || (typeof value === 'string' && !Number.isNaN(Date.parse(value))),
      format(value, c) {
        if (isEmpty(value)) return c.none;
        const at = Date.parse(String(value));
        return Number.isNaN(at) ? String(value) : dateFormat(c.locale, true).format(at);
      },
      quickFilter: () => undefined,
    },
    display: true,
    graphql: { name: 'DateTime', description: 'A point in time, ISO 8601 in UTC ("2026-05-01T10:00:00.000Z").', hint: 'an ISO 8601 date-time with a timezone, like "2026-05-01T10:00:00Z"' },
    storage: {
      canonical: 'string', sqlite: 'TEXT', postgres: 'TIMESTAMPTZ', expects: 'a datetime',
      encode(value) {
        if (typeof value !== 'string') return undefined;
        // Stored in one UTC form so text comparison (SQLite) orders correctly.
        const time = Date.parse(value);
        return Number.isNaN(time) ? value : new Date(time).toISOString();
      },
      decode(value) {
        const text = value instanceof Date ? '' : String(value);
        const time = value instanceof Date ? value.getTime() : Date.parse(ZONELESS_DATETIME.test(text) ? `${text.replace(' ', 'T')}Z` : text);
        return Number.isNaN(time) ? String(value) : new Date(time).toISOString();
      },
    },
    columns: { postgres: ['timestamp', 'timestamptz'], sqlite: /^(datetime|timestamp)\b/ },
  },
  time: {
    aggregate: { extremes: true },
    coerce(_rules, value) {
      const canonical = typeof value === 'string' ? canonicalTime(value) : undefined;
      return canonical ?? reject(`must be a time of day HH:MM or HH:MM:SS, like 14:30 ${got(value)}`, { code: 'time' });
    },
    problem: { code: 'time', text: 'Enter a time of day like 14:30.' },
    kind: {
      input: 'text',
      editor: { type: 'time' },
      narrow: true,
      numeric: false,
      parse: (raw) => (String(raw).trim() === '' ? null : canonicalTime(String(raw)) ?? String(raw)),
      valid: (value) => isEmpty(value) || (typeof value === 'string' && canonicalTime(value) !== undefined),
      format(value, c) {
        if (isEmpty(value)) return c.none;
        const canonical = canonicalTime(String(value));
        return canonical === undefined ? String(value) : formatTime(canonical, c.locale);
      },
      // A time input shows HH:MM, and the seconds where there are any.
      inputValue: (value) => (isEmpty(value) ? '' : String(value).replace(/^(\d{2}:\d{2}):00$/, '$1')),
      csv: (value) => (isEmpty(value) ? '' : String(value)),
      quickFilter(field, q) {
        const canonical = canonicalTime(/^\d:/.test(q.trim()) ? `0${q.trim()}` : q);
        return canonical === undefined ? undefined : { [field]: { _eq: canonical } };
      },
    },
    display: true,
    graphql: { name: 'Time', description: 'A time of day without date or zone, "14:30:00" (seconds may carry a fraction); accepts "14:30".', hint: 'a time of day like "14:30" or "14:30:15"' },
    storage: {
      canonical: 'string', sqlite: 'TEXT', postgres: 'TIME', shape: CANONICAL_TIME,
      // The person's SQLite table may keep "14:30": read in canonical form.
      decode: (value) => canonicalTime(String(value)) ?? String(value),
    },
    columns: { postgres: ['time'], sqlite: /^time$/ },
    sample: (random) => `${String(random.int(8, 17)).padStart(2, '0')}:${String(random.int(0, 3) * 15).padStart(2, '0')}:00`,
  },
  enum: {
    coerce: coerceEnum,
    problem: { code: 'enum', text: 'Choose one of the options.' },
    kind: {
      input: 'select',
      numeric: false,
      parse: (raw) => (String(raw) === '' ? null : String(raw)),
      valid: (value) => isEmpty(value) || typeof value === 'string',
      format: (value, c) => (isEmpty(value) ? c.none : typeof value === 'string' ? c.enumLabels?.[value] ?? value : String(value)),
      inputValue: (value) => (isEmpty(value) ? '' : String(value)),
      csv: (value) => (isEmpty(value) ? '' : String(value)),
      // The backend only takes known enum values: match the text against values and labels here.
      quickFilter(field, q, hints) {
        const needle = q.trim().toLocaleLowerCase();
        const values = Object.entries(hints?.enumLabels ?? {})
          .filter(([value, label]) => value.toLocaleLowerCase().includes(needle) || label.toLocaleLowerCase().includes(needle))
          .map(([value]) => value);
        return values.length ? { [field]: { _in: values } } : undefined;
      },
    },
    display: true,
    // Each enum field has its own GraphQL enum type (src/backend/graphql/schema.ts).
    graphql: 'String',
    storage: { canonical: 'string', sqlite: 'TEXT', postgres: 'TEXT' },
  },
  ref: {
    coerce: coerceId,
    kind: {
      ...textKind(),
      valid: () => true,
      format(value, c) {
        if (isEmpty(value)) return c.none;
        if (typeof value === 'object' && value !== null) {
          const related = value as Record<string, unknown>;
          return refName(related, c.refFields) ?? `#${String(related.id)}`;
        }
        return `#${String(value)}`;
      },
      inputValue: (value) => {
        const id = refId(value);
        return isEmpty(id) ? '' : String(id);
      },
      csv(value, c) {
        if (isEmpty(value)) return '';
        return typeof value === 'object' && value !== null ? refName(value as Record<string, unknown>, c?.refFields) ?? String(refId(value)) : String(value);
      },
      quickFilter: (field, q, hints) => {
        const named = nameMatch(hints?.refFields ?? [], q);
        return named ? { [field]: named } : undefined;
      },
    },
    display: false,
    graphql: 'ID',
    // The storage adds the reference to the related table.
    storage: { canonical: 'number', sqlite: 'INTEGER', postgres: 'BIGINT' },
  },
};

/** The row of a field type. */
export function fieldType(type: FieldType): FieldTypeRow {
  return ROWS[type];
}

/** Whether a name is a field type with a row. */
export function isFieldType(type: string): type is FieldType {
  return Object.hasOwn(ROWS, type);
}

/** Every field type with its row. */
export function fieldTypeRows(): ReadonlyArray<readonly [FieldType, FieldTypeRow]> {
  return Object.entries(ROWS) as Array<[FieldType, FieldTypeRow]>;
}
