// What the Board needs of a field type: how it inputs, parses, checks and formats a value, and how
// the quick filter matches it (the `kind` of each row in fieldTypes.ts), with the number and date
// formats the rows share. Browser-safe: no Node or VS Code imports.
import type { WidgetDef } from './schema.ts';
import { containsPattern } from './display.ts';

/** The control a value is edited with; a text input's HTML type and hints are the kind's `editor`. */
export type InputKind = 'text' | 'textarea' | 'checkbox' | 'select';

/** How a text input edits a type: its HTML input type, keyboard hint, bounds and the zone it is read in. */
export interface TextEditor {
  /** HTML input type (`number`, `date`, `datetime-local`, `time`); absent: text. */
  readonly type?: string;
  readonly inputMode?: 'decimal' | 'numeric';
  /** The field's min and max apply to the input (a number input). */
  readonly bounds?: boolean;
  /** The input edits UTC, which its label says. */
  readonly utc?: boolean;
  /** HTML `step` (a time input with seconds). */
  readonly step?: string;
}


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
  /** A text input's type and hints (absent: a plain text field). */
  readonly editor?: TextEditor;
  /** A grid column of this type may be narrow (numbers, yes/no, dates, times). */
  readonly narrow?: boolean;
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

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function numberFormat(locale: string, fractionDigits: number): Intl.NumberFormat {
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
export function widgetNumber(value: number | string, fractionDigits: number, c: FormatContext): string | undefined {
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

export function dateFormat(locale: string, withTime: boolean): Intl.DateTimeFormat {
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

export function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

export function plainText(value: unknown): string {
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? String(value.length) : JSON.stringify(value);
  return String(value);
}

/** A text shown as it is and matched by substring. */
export function textKind(input: InputKind = 'text'): FieldKind {
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
