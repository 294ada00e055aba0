// The texts of the save and send questions, built from what would be written
// or sent. Plain functions so they can be checked without VS Code.
//
// Everything shown here comes from data (records, the agent, contacts), and a
// VS Code notification is not plain text: it turns `[label](command:…)`,
// `[label](https://…)` and `[label](file:…)` into links (a command link runs
// the command) and cuts the message after 1,000 UTF-16 units. The sanitiser is
// personText.ts's, the same every notification and status line goes through:
// invisible and format characters are shown as `⟨U+200B⟩`, blanks collapse to
// one space, link syntax is broken up, and each question is fitted into the
// budget with explicit "more" markers instead of being cut by VS Code. Here,
// per value: look-alike values escaped, long values shortened around the change.

import { fieldKind } from '../ast/fieldKinds.ts';
import {
  NOTIFICATION_LIMIT, QUESTION_BUDGET, displayText, escapedText, headUnits, invisibleCharacters, mixesLookAlikes,
  moreCharacters, neutraliseLinks, shorten, skeleton, units,
} from '../text/personText.ts';

// The sanitiser lives in src/text/personText.ts (the one door for text shown to the person); these
// names stay importable from here for the questions' callers.
export { NOTIFICATION_LIMIT, QUESTION_BUDGET, displayText, escapedText, invisibleCharacters, neutraliseLinks, shorten, skeleton, units };

/** Longest value shown in the save question (UTF-16 units, without markers). */
export const MAX_VALUE = 80;
const MAX_LABEL = 40;
const MAX_NAME = 60;
const MAX_SUBJECT = 120;
const MAX_PREVIEW = 200;
const PREVIEW_LINES = 3;
/** Characters of common context shown before the first difference of a long value. */
const DIFF_CONTEXT = 20;
/** How much of a value is shown escaped (each character may take up to ten units). */
const MAX_ESCAPED = 40;

// ---- the save question -----------------------------------------------------

/** One change as the question shows it; `fromText`/`toText` name a related record. */
export interface ChangeLine {
  readonly label: string;
  readonly from: unknown;
  readonly to: unknown;
  readonly fromText?: string;
  readonly toText?: string;
}

/** The raw text of a value: strings as they are, nothing as empty, a related record by name and id. */
function rawValue(value: unknown, name?: string): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const id = record.id;
    const named = name ?? firstText(record);
    if (id === undefined) return JSON.stringify(value);
    return named ? `${named} (#${String(id)})` : `#${String(id)}`;
  }
  if (name) return `${name} (#${String(value)})`;
  return String(value);
}

/** A related record's readable name, when the object carries one. */
function firstText(record: Record<string, unknown>): string | undefined {
  for (const key of ['name', 'label', 'title', 'lastname', 'email']) {
    if (typeof record[key] === 'string' && record[key]) return record[key];
  }
  return undefined;
}

/** A value in a question: shown, marked, shortened with a marker; nothing as a dash. */
export function questionValue(value: unknown, name?: string): string {
  const raw = rawValue(value, name);
  if (raw === undefined) return '—';
  if (mixesLookAlikes(raw)) return escapedText(headUnits(raw, MAX_ESCAPED)) + moreMarker(raw, headUnits(raw, MAX_ESCAPED));
  return shorten(displayText(raw), MAX_VALUE);
}

function moreMarker(raw: string, shown: string): string {
  return shown.length < raw.length ? moreCharacters([...raw.slice(shown.length)].length) : '';
}

/**
 * `Last name: Müller → Schmidt`. Two values that would look the same are shown
 * escaped; long values that only differ late are shown from shortly before
 * their first difference, so the change is never cut off.
 */
export function describeChange(label: string, from: unknown, to: unknown, names: { fromText?: string; toText?: string } = {}): string {
  const title = shorten(displayText(label), MAX_LABEL);
  const a = rawValue(from, names.fromText);
  const b = rawValue(to, names.toText);
  if (a === undefined || b === undefined || a === b) return `${title}: ${questionValue(from, names.fromText)} → ${questionValue(to, names.toText)}`;
  // Escaped when the two would look alike, or when either mixes in look-alike letters.
  const escape = skeleton(a) === skeleton(b) || displayText(a) === displayText(b) || mixesLookAlikes(a) || mixesLookAlikes(b);
  const window = escape ? MAX_ESCAPED : MAX_VALUE;
  const start = firstDifference(a, b);
  const skip = start > window - DIFF_CONTEXT ? start - DIFF_CONTEXT : 0;
  const show = (raw: string) => {
    const tail = raw.slice(skip);
    const head = headUnits(tail, window);
    const before = skip > 0 ? `(${[...raw.slice(0, skip)].length} characters) …` : '';
    return `${before}${escape ? escapedText(head) : displayText(head)}${moreMarker(tail, head)}`;
  };
  return `${title}: ${show(a)} → ${show(b)}`;
}

/** Index (UTF-16, on a code point boundary) of the first character where `a` and `b` differ. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  const code = a.charCodeAt(i - 1);
  return i > 0 && code >= 0xd800 && code <= 0xdbff ? i - 1 : i;
}

export interface SaveQuestionParts {
  /** The localised question with the change list in place of `{changes}`. */
  readonly compose: (changes: string) => string;
  /** The localised "+N more changes" note. */
  readonly more: (count: number) => string;
  /** Said after the changes, within the budget (othersEditingNote: who else is editing the record). */
  readonly note?: string;
}

/** Names shown in the "also editing" note, and the longest name. */
const MAX_OTHERS = 3;

/**
 * "Anna is editing this record too." Names come from other people's tokens: data, so each passes
 * the sanitiser and is shortened; more than three become "Anna, Ben, Cleo +2".
 */
export function othersEditingNote(names: readonly string[], words: { one: (name: string) => string; many: (names: string) => string }): string | undefined {
  const shown = [...new Set(names)].map((name) => shorten(displayText(name), MAX_LABEL));
  if (!shown.length) return undefined;
  const rest = shown.length - MAX_OTHERS;
  const list = shown.slice(0, MAX_OTHERS).join(', ') + (rest > 0 ? ` +${rest}` : '');
  return neutraliseLinks(shown.length === 1 ? words.one(list) : words.many(list));
}

/**
 * The whole save question within the notification budget: every change in
 * full, or as many as fit plus "+N more" (the Board shows all). Never a cut change.
 */
export function saveQuestion(changes: readonly ChangeLine[], parts: SaveQuestionParts, budget = QUESTION_BUDGET): string {
  const lines = changes.map((c) => describeChange(c.label, c.from, c.to, { fromText: c.fromText, toText: c.toText }));
  const note = parts.note ? ` ${neutraliseLinks(parts.note)}` : '';
  for (let shown = lines.length; shown >= 0; shown -= 1) {
    const rest = lines.length - shown;
    const list = [...lines.slice(0, shown), ...(rest > 0 ? [parts.more(rest)] : [])].join('; ');
    const message = neutraliseLinks(parts.compose(list)) + note;
    if (units(message) <= budget) return message;
  }
  // Not even the note fits: the template itself is too long; say so rather than hide changes.
  return headUnits(neutraliseLinks(parts.compose(parts.more(lines.length))) + note, budget);
}

// ---- the send question -----------------------------------------------------

/** The draft as the send question needs it. */
export interface DraftText {
  readonly to: { readonly name?: string; readonly email: string };
  readonly subject: string;
  readonly body: string;
}

/**
 * The recipient with the address first, as the envelope has it, then the
 * display name in quotes: `alice@bank.example ("Alice")`. A name cannot push
 * the address out of view or pretend to be another address.
 */
export function recipientText(to: DraftText['to']): string {
  const name = to.name ? shorten(displayText(to.name), MAX_NAME) : '';
  return name ? `${to.email} ("${name}")` : to.email;
}

export function mailQuestion(draft: DraftText): { recipient: string; subject: string; preview: string } {
  const nonEmpty = draft.body.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const lines = nonEmpty.slice(0, PREVIEW_LINES);
  const more = nonEmpty.length > PREVIEW_LINES ? ' …' : '';
  return {
    recipient: recipientText(draft.to),
    subject: shorten(displayText(draft.subject), MAX_SUBJECT),
    preview: shorten(displayText(lines.join(' / ')), MAX_PREVIEW) + more,
  };
}

/** The whole send question, fitted into the notification budget. */
export function sendQuestion(draft: DraftText, compose: (recipient: string, subject: string, preview: string) => string, budget = QUESTION_BUDGET): string {
  const { recipient, subject, preview } = mailQuestion(draft);
  const message = neutraliseLinks(compose(recipient, subject, preview));
  // The address always fits: names, subject and preview are capped well below the budget.
  return units(message) <= budget ? message : headUnits(message, budget);
}

// ---- the question for many records at once ----------------------------------

export interface BatchQuestionParts {
  /** The localised question: count of records, of which entity, and the body in place of `{2}`. */
  readonly compose: (records: string, body: string) => string;
  /** A number as the locale writes it. */
  readonly count: (n: number) => string;
  /** `Price: +0.05 … +12.50, total +1,234.56`. */
  readonly numeric: (label: string, min: string, max: string, total: string) => string;
  /** `3× active`. */
  readonly times: (count: string, value: string) => string;
  /** `+2 more values`. */
  readonly moreValues: (count: number) => string;
  /** `+1,997 more (the Board shows all)`. */
  readonly more: (count: string) => string;
  /** Said after the changes, within the budget (an undo's records left out). */
  readonly note?: string;
}

/**
 * The question for a reviewed batch within the notification budget: the count, every field's summary
 * (numbers: smallest and largest change and the total; other fields: the new values with their counts),
 * then as many of the first records as fit, and "+N more". Values pass the same sanitiser as a single save.
 */
export function batchQuestion(batch: BatchQuestionInput, parts: BatchQuestionParts, budget = QUESTION_BUDGET): string {
  const fields = batch.fields.map((f) => {
    if (f.numeric) return parts.numeric(shorten(displayText(f.label), MAX_LABEL), f.numeric.min, f.numeric.max, f.numeric.total);
    const values = (f.values ?? []).map((v) => parts.times(parts.count(v.count), questionValue(v.value)));
    return `${shorten(displayText(f.label), MAX_LABEL)}: ${[...values, ...(f.moreValues ? [parts.moreValues(f.moreValues)] : [])].join(', ')}`;
  });
  const rows = batch.first.map((row) => `#${shorten(displayText(row.id), 40)}: ${row.changes.map((c) => describeChange(c.label, c.from, c.to)).join(', ')}`);
  const note = parts.note ? ` ${neutraliseLinks(parts.note)}` : '';
  for (let shown = rows.length; shown >= 0; shown -= 1) {
    const rest = batch.records - shown;
    const body = [...fields, ...rows.slice(0, shown), ...(rest > 0 ? [parts.more(parts.count(rest))] : [])].join('; ');
    const message = neutraliseLinks(parts.compose(parts.count(batch.records), body)) + note;
    if (units(message) <= budget) return message;
  }
  return headUnits(neutraliseLinks(parts.compose(parts.count(batch.records), fields.join('; '))) + note, budget);
}

/**
 * A signed change of the batch question (`+1234.56`, `-5`) in the locale's number format, as the Board
 * formats decimals: grouped, every digit kept (`+1,234.56`, German `+1.234,56`).
 */
export function signedNumber(text: string, locale: string): string {
  return `${text.startsWith('+') ? '+' : ''}${fieldKind('decimal').format(text, { locale, none: '—', yes: '', no: '' })}`;
}

/** The batch as the question needs it (BatchSummary of src/core/domain.ts). */
export interface BatchQuestionInput {
  readonly records: number;
  readonly fields: ReadonlyArray<{ readonly label: string; readonly numeric?: { readonly min: string; readonly max: string; readonly total: string }; readonly values?: ReadonlyArray<{ readonly value: unknown; readonly count: number }>; readonly moreValues?: number }>;
  readonly first: ReadonlyArray<{ readonly id: string; readonly changes: ReadonlyArray<{ readonly label: string; readonly from: unknown; readonly to: unknown }> }>;
}
