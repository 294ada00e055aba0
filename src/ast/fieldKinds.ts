// The field-kind registry: per AST field type, how the Board inputs, parses,
// checks and formats a value, and how the quick filter matches it. The host's
// view model, the use cases and the webview all read this one table, so a type
// behaves the same in the form, the grid, the CSV and the backend filter.
// Browser-safe: no Node or VS Code imports.
import type { FieldType, WidgetDef } from './schema.ts';
import { refId } from './lookup.ts';
import { containsPattern, joinedName, nameMatch } from './display.ts';

export type InputKind = 'text' | 'textarea' | 'number' | 'date' | 'datetime' | 'checkbox' | 'select';

/** A field type as the Board knows it; `list` is an inverse relation (shown as its count). */
export type BoardFieldType = FieldType | 'list' | 'unknown';

/** What formatting needs besides the value: the locale, the Board's words and the field's enum labels. */
export interface FormatContext {
  readonly locale: string;
  readonly none: string;
  readonly yes: string;
  readonly no: string;
  /** enum value -> label in the locale */
  readonly enumLabels?: Readonly<Record<string, string>>;
  /** The context's layout may show a number as money or as a percentage. */
  readonly widget?: WidgetDef;
  /** The fields that name a ref's related record (display.ts); without them its first loaded value. */
  readonly refFields?: readonly string[];
}

export interface FieldKind {
  readonly input: InputKind;
  /** Numbers align right and sort numerically. */
  readonly numeric: boolean;
  /** What an input holds -> the value the field takes. Values that do not fit stay as typed, so saving can name the problem. */
  parse(raw: string | boolean): unknown;
  /** Whether a value fits the type (for aria-invalid while typing; the backend decides on save). */
  valid(value: unknown): boolean;
  /** The value as a person reads it, in the locale. */
  format(value: unknown, context: FormatContext): string;
  /** The value an input shows: a string, or a boolean for checkboxes. */
  inputValue(value: unknown): string | boolean;
  /** The value in a CSV file: raw and locale-independent (ISO dates, `.` decimals). */
  csv(value: unknown, context?: Pick<FormatContext, 'refFields'>): string;
  /**
   * The GraphQL `where` fragment the quick filter uses for this field, or undefined when the
   * text cannot match it (e.g. letters in a number column).
   */
  quickFilter(field: string, text: string, hints?: FilterHints): Record<string, unknown> | undefined;
}

/** What the quick filter needs to know about a field besides its type. */
export interface FilterHints {
  /** The fields a ref's related records are named by (its entity's display template's). */
  readonly refFields?: readonly string[];
  /** enum value -> label: the filter matches values and labels, then asks for those values. */
  readonly enumLabels?: Readonly<Record<string, string>>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${locale}|${fractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits, useGrouping: true });
    numberFormats.set(key, format);
  }
  return format;
}

const widgetFormats = new Map<string, Intl.NumberFormat>();

/** A number as money (`EUR`) or a percentage (35 -> "35 %"), in the locale; undefined for other widgets. */
function widgetNumber(value: number | string, fractionDigits: number, c: FormatContext): string | undefined {
  const widget = c.widget;
  if (widget?.kind !== 'money' && widget?.kind !== 'percent') return undefined;
  const key = `${c.locale}|${widget.kind}|${widget.kind === 'money' ? widget.currency : ''}|${fractionDigits}`;
  let format = widgetFormats.get(key);
  if (!format) {
    format = widget.kind === 'money'
      ? new Intl.NumberFormat(c.locale, { style: 'currency', currency: widget.currency, minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits })
      : new Intl.NumberFormat(c.locale, { style: 'percent', minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
    widgetFormats.set(key, format);
  }
  // A percentage is stored as the number shown before the sign (35 means 35 %).
  return format.format(widget.kind === 'percent' ? Number(value) / 100 : value as unknown as number);
}

function dateFormat(locale: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${withTime}`;
  let format = dateFormats.get(key);
  if (!format) {
    // Dates are calendar days (no zone); date-times are instants shown in the person's zone.
    format = withTime
      ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
      : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    dateFormats.set(key, format);
  }
  return format;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

function plainText(value: unknown): string {
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? String(value.length) : JSON.stringify(value);
  return String(value);
}

function text(input: InputKind = 'text'): FieldKind {
  return {
    input,
    numeric: false,
    parse: (raw) => String(raw),
    valid: (value) => isEmpty(value) || typeof value === 'string',
    format: (value, c) => (isEmpty(value) ? c.none : plainText(value)),
    inputValue: (value) => (isEmpty(value) ? '' : plainText(value)),
    csv: (value) => (isEmpty(value) ? '' : plainText(value)),
    quickFilter: (field, q) => ({ [field]: { _ilike: containsPattern(q) } }),
  };
}

const int: FieldKind = {
  input: 'number',
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
};

const decimal: FieldKind = {
  input: 'number',
  numeric: true,
  // Decimals keep their exact digits as a string.
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
};

const date: FieldKind = {
  input: 'date',
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

// A date-time input edits UTC to the minute ("2024-05-01T10:00"); the value is ISO 8601 UTC. Host and
// webview may run in different time zones (a remote extension host), so neither converts to local time.
const LOCAL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

const datetime: FieldKind = {
  ...date,
  input: 'datetime',
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
};

const bool: FieldKind = {
  input: 'checkbox',
  numeric: false,
  parse: (raw) => raw === true,
  valid: (value) => isEmpty(value) || typeof value === 'boolean',
  format: (value, c) => (isEmpty(value) ? c.none : value === true ? c.yes : value === false ? c.no : String(value)),
  inputValue: (value) => value === true,
  csv: (value) => (value === true ? 'true' : value === false ? 'false' : ''),
  quickFilter: () => undefined,
};

const enumKind: FieldKind = {
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
};

/** A loaded related record's name: its display fields' values joined (display.ts), else its first loaded value. */
function refName(related: Record<string, unknown>, fields: readonly string[] | undefined): string | undefined {
  if (fields?.length) return joinedName(fields.map((field) => (Object.hasOwn(related, field) ? related[field] : undefined)));
  const first = Object.entries(related).find(([key]) => key !== 'id')?.[1];
  return first === undefined || first === null ? undefined : String(first);
}

const ref: FieldKind = {
  ...text(),
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
};

const id: FieldKind = {
  ...text(),
  quickFilter: (field, q) => (/^\d+$/.test(q.trim()) ? { [field]: { _eq: q.trim() } } : undefined),
};

const list: FieldKind = { ...text(), format: (value, c) => (Array.isArray(value) ? String(value.length) : isEmpty(value) ? c.none : plainText(value)), quickFilter: () => undefined };

const KINDS: Readonly<Record<BoardFieldType, FieldKind>> = {
  id,
  string: text(),
  text: text('textarea'),
  email: text(),
  phone: text(),
  url: text(),
  int,
  decimal,
  bool,
  date,
  datetime,
  enum: enumKind,
  ref,
  list,
  unknown: text(),
};

export function fieldKind(type: BoardFieldType): FieldKind {
  return Object.hasOwn(KINDS, type) ? KINDS[type] : KINDS.unknown;
}
