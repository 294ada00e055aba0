// The texts of the save and send questions, built from what would be written
// or sent. Plain functions so they can be checked without VS Code.
//
// Everything shown here comes from data (records, the agent, contacts), and a
// VS Code notification is not plain text: it turns `[label](command:…)`,
// `[label](https://…)` and `[label](file:…)` into links (a command link runs
// the command) and cuts the message after 1,000 UTF-16 units. So one sanitiser
// serves both questions: invisible and format characters are shown as
// `⟨U+200B⟩`, blanks collapse to one space, link syntax is broken up, and the
// whole question is fitted into the budget with explicit "more" markers
// instead of being cut by VS Code.

/** VS Code cuts a notification message after this many UTF-16 units. */
export const NOTIFICATION_LIMIT = 1000;
/** What a question may use: the limit minus room for VS Code's own "...". */
export const QUESTION_BUDGET = NOTIFICATION_LIMIT - 10;
/** Longest value shown in the save question (UTF-16 units, without markers). */
export const MAX_VALUE = 80;
const MAX_LABEL = 40;
const MAX_NAME = 60;
const MAX_SUBJECT = 120;
const MAX_PREVIEW = 200;
const PREVIEW_LINES = 3;
/** Characters of common context shown before the first difference of a long value. */
const DIFF_CONTEXT = 20;

/**
 * Characters a person cannot see or that reorder what they see: controls,
 * format characters (bidi overrides and isolates, zero-width characters, soft
 * hyphen, tags), private use, unassigned, line/paragraph separators, and
 * blank-looking letters and marks (Hangul fillers, Braille blank, CGJ,
 * Khmer and Mongolian invisibles, variation selectors).
 */
// eslint-disable-next-line no-misleading-character-class -- the class lists single invisible characters on purpose
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
/** `text` with every invisible character replaced by `replace(char)`. */
function mapInvisible(text: string, replace: (char: string) => string): string {
  let out = '';
  for (const char of text) out += INVISIBLE.test(char) ? replace(char) : char;
  return out;
}
/** How much of a value is shown escaped (each character may take up to ten units). */
const MAX_ESCAPED = 40;

/** The marker that shows an invisible character, e.g. `⟨U+202E⟩`. */
function codePointMarker(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * The characters of `text` a person cannot see or that reorder text, as
 * `U+202E` (distinct, in order). Whitespace other than the plain space counts:
 * it looks blank. Empty when there are none.
 */
export function invisibleCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) {
    if (INVISIBLE.test(char) || /[^\S ]/u.test(char)) found.add(`U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  }
  return [...found];
}

/**
 * Text as it may appear in a question: invisible characters marked, every run
 * of blanks one space, link syntax broken up. Not shortened.
 */
export function displayText(text: string): string {
  return neutraliseLinks(mapInvisible(text.replace(/\s+/gu, ' '), codePointMarker));
}

/**
 * Breaks up the only markup a notification renders: `[label](target)`. A space
 * between `]` and `(` keeps the text readable and makes it plain text; it is
 * applied to whole questions too, so a link cannot be assembled from two values.
 */
export function neutraliseLinks(text: string): string {
  return text.replace(/\]\(/g, '] (');
}

/** The UTF-16 length VS Code counts. */
export function units(text: string): number {
  return text.length;
}

/** At most `max` UTF-16 units of `text`, never splitting a surrogate pair. */
function headUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** `text` cut to `max` units with an explicit marker saying how much is not shown. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = headUnits(text, max);
  return `${head}… (${[...text.slice(head.length)].length} more characters)`;
}

// ---- look-alikes -----------------------------------------------------------

/** Cyrillic and Greek letters that look like Latin ones in common fonts. */
const CONFUSABLES: ReadonlyMap<string, string> = new Map(Object.entries({
  // Cyrillic
  'а': 'a', 'в': 'B', 'е': 'e', 'ё': 'ë', 'і': 'i', 'ї': 'ï', 'ј': 'j', 'к': 'k', 'м': 'M', 'н': 'H', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 'T',
  'у': 'y', 'х': 'x', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ɡ': 'g',
  'А': 'A', 'В': 'B', 'Е': 'E', 'Ё': 'Ë', 'І': 'I', 'Ї': 'Ï', 'Ј': 'J', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
  'У': 'Y', 'Х': 'X', 'Ѕ': 'S', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W', 'Һ': 'h', 'Ӏ': 'I',
  // Greek
  'α': 'a', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'ι': 'i', 'κ': 'k', 'χ': 'x',
  'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
  // Latin letters (Turkish ı and the like) are not listed: mixing them with ASCII is ordinary writing.
}));

/** What `text` looks like: compatibility forms folded, look-alikes mapped, blanks collapsed. */
export function skeleton(text: string): string {
  return mapInvisible([...text.normalize('NFKC')].map((c) => CONFUSABLES.get(c) ?? c).join(''), () => '')
    .replace(/\s+/gu, ' ').trim().normalize('NFC');
}

/** Latin letters mixed with look-alikes from another script, e.g. `аcme.com` with a Cyrillic а. */
function mixesLookAlikes(text: string): boolean {
  return /[A-Za-z]/.test(text) && [...text].some((c) => CONFUSABLES.has(c));
}

/** The value with everything outside printable ASCII escaped, in quotes: `"\u0430cme.com"`. */
export function escapedText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else out += code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return neutraliseLinks(`"${out}"`);
}

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
  return shown.length < raw.length ? `… (${[...raw.slice(shown.length)].length} more characters)` : '';
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
}

/**
 * The whole save question within the notification budget: every change in
 * full, or as many as fit plus "+N more" (the Board shows all). Never a cut change.
 */
export function saveQuestion(changes: readonly ChangeLine[], parts: SaveQuestionParts, budget = QUESTION_BUDGET): string {
  const lines = changes.map((c) => describeChange(c.label, c.from, c.to, { fromText: c.fromText, toText: c.toText }));
  for (let shown = lines.length; shown >= 0; shown -= 1) {
    const rest = lines.length - shown;
    const list = [...lines.slice(0, shown), ...(rest > 0 ? [parts.more(rest)] : [])].join('; ');
    const message = neutraliseLinks(parts.compose(list));
    if (units(message) <= budget) return message;
  }
  // Not even the note fits: the template itself is too long; say so rather than hide changes.
  return headUnits(neutraliseLinks(parts.compose(parts.more(lines.length))), budget);
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
