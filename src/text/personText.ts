// The one door for text shown to the person: notifications, questions, their details and
// the Board's status line. Plain functions, so they can be checked without VS Code.
//
// Such text carries data (records, the agent's words, contacts, error messages), and a
// VS Code notification is not plain text: it turns `[label](command:…)`, `[label](https://…)`
// and `[label](file:…)` into links (a command link runs the command) and cuts the message
// after 1,000 UTF-16 units. So every such text goes through `personText`: blanks collapse
// to one space, words that mix Latin letters with look-alikes from another script are shown
// escaped, invisible and format characters are shown as `⟨U+200B⟩`, link syntax is broken
// up, and the whole text is fitted into the budget with an explicit "more" marker instead
// of being cut by VS Code. The confirmation questions (confirmText.ts) build on the same
// pieces and pass the door too.

/** VS Code cuts a notification message after this many UTF-16 units. */
export const NOTIFICATION_LIMIT = 1000;
/** What a question or notification may use: the limit minus room for VS Code's own "...". */
export const QUESTION_BUDGET = NOTIFICATION_LIMIT - 10;

/**
 * Characters a person cannot see or that reorder what they see: controls,
 * format characters (bidi overrides and isolates, zero-width characters, soft
 * hyphen, tags), private use, unassigned, line/paragraph separators, and
 * blank-looking letters and marks (Hangul fillers, Braille blank, CGJ,
 * Khmer and Mongolian invisibles, variation selectors).
 */
// eslint-disable-next-line no-misleading-character-class -- the class lists single invisible characters on purpose
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;

/** `text` with every invisible character replaced by `replace(char)`. */
export function mapInvisible(text: string, replace: (char: string) => string): string {
  let out = '';
  for (const char of text) out += INVISIBLE.test(char) ? replace(char) : char;
  return out;
}

/** `U+202E` for a character. */
function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The marker that shows an invisible character, e.g. `⟨U+202E⟩`. */
function codePointMarker(char: string): string {
  return `⟨${codePoint(char)}⟩`;
}

/**
 * The characters of `text` a person cannot see or that reorder text, as
 * `U+202E` (distinct, in order). Whitespace other than the plain space counts:
 * it looks blank. Empty when there are none.
 */
export function invisibleCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) {
    if (INVISIBLE.test(char) || /[^\S ]/u.test(char)) found.add(codePoint(char));
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
 * applied to whole texts too, so a link cannot be assembled from two values.
 */
export function neutraliseLinks(text: string): string {
  return text.replace(/\]\(/g, '] (');
}

/** The UTF-16 length VS Code counts. */
export function units(text: string): number {
  return text.length;
}

/** At most `max` UTF-16 units of `text`, never splitting a surrogate pair. */
export function headUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** The English "more" marker; front ends pass their language's (`… ({0} more characters)`). */
export const moreCharacters = (count: number): string => `… (${count} more characters)`;

/** `text` cut to `max` units with an explicit marker saying how much is not shown (the marker comes on top). */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = headUnits(text, max);
  return `${head}${moreCharacters([...text.slice(head.length)].length)}`;
}

/**
 * `text` within `budget` units, the marker included: as it is when it fits, else its head
 * and a marker saying how many characters are not shown. Never a silent cut.
 */
export function fitText(text: string, budget: number, more: (count: number) => string = moreCharacters): string {
  if (units(text) <= budget) return text;
  let head = '';
  let marker = more(0);
  // The marker's length depends on the count, which depends on the marker's length: settle it.
  for (let round = 0; round < 4; round++) {
    head = headUnits(text, budget - units(marker));
    const next = more([...text.slice(head.length)].length);
    if (next === marker) break;
    marker = next;
  }
  // A translated marker starting with "(" must not make a link with a "]" at the cut.
  const fitted = neutraliseLinks(`${head}${marker}`);
  // A marker longer than the budget (a broken translation) still never exceeds it.
  return units(fitted) <= budget ? fitted : headUnits(fitted, budget);
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
export function mixesLookAlikes(text: string): boolean {
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

// ---- the door ----------------------------------------------------------------

declare const personTextBrand: unique symbol;
/** Text that went through the door: safe to show in a notification, question or status line. */
export type PersonText = string & { readonly [personTextBrand]: true };

export interface PersonTextOptions {
  /** At most this many UTF-16 units, the marker included (default: the notification budget). */
  readonly budget?: number;
  /** The "more" marker in the front end's language. */
  readonly more?: (count: number) => string;
}

/**
 * Any text for the person, made safe to show: blanks collapsed, words mixing Latin letters
 * with look-alikes escaped (`"\u0430cme.com"`), invisible characters marked, links broken up,
 * fitted into the budget with an explicit marker. Idempotent: a text that passed the door
 * passes it again unchanged.
 */
export function personText(text: string, options: PersonTextOptions = {}): PersonText {
  const words = text.replace(/\s+/gu, ' ').split(' ').map((word) => (mixesLookAlikes(word) ? escapedText(word) : word)).join(' ');
  const shown = neutraliseLinks(mapInvisible(words, codePointMarker));
  return fitText(shown, options.budget ?? QUESTION_BUDGET, options.more) as PersonText;
}

/** Whether `text` is as the door lets it out (no link syntax, nothing invisible, within the budget). */
export function isPersonText(text: string, budget = QUESTION_BUDGET): boolean {
  return !text.includes('](') && !INVISIBLE.test(text) && !/[^\S ]/u.test(text) && units(text) <= budget;
}
