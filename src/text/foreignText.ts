// Text that comes from someone else's database (comments, table and column names turned into
// labels) is data, never markup or instructions. `xos-server init` writes it into the AST only
// through `cleanForeignText`, which removes what a reader cannot see or what a renderer would
// act on, bounds the length, and says what it changed so init can report it. The agent's view
// of every label and description (`dataText`) applies the same rules again, for ASTs edited by
// hand. The pieces (which characters are invisible, where to cut) are personText.ts's.
import { INVISIBLE, neutraliseLinks } from './personText.ts';

/** Longest label a database's comment or name gives (longer comments become descriptions). */
export const FOREIGN_LABEL_MAX = 60;
/** Longest description a database's comment gives; the rest is cut, and init says so. */
export const FOREIGN_DESCRIPTION_MAX = 500;

export interface CleanedText {
  readonly text: string;
  /** What was changed, in words (`description cut to 500 characters`, `removed 2 control characters`); empty: nothing. */
  readonly changes: readonly string[];
}

export interface CleanOptions {
  /** At most this many characters (code points); longer text is cut and ends in "…". */
  readonly max: number;
  /** Keeps line breaks (a description); otherwise every run of blanks becomes one space (a label). */
  readonly lines?: boolean;
  /** How the change list names the text: `label`, `description`. */
  readonly kind: string;
}

// `[label](target)` and `![alt](target)`: the label stays, the target (`command:…`, `https://…`) goes.
const MARKDOWN_LINK = /!?\[([^\][]*)\]\([^()]*\)/g;
// `<b>`, `</a>`, `<a href="command:…">`, `<https://…>`, `<!-- … -->`: tags and autolinks go, their text stays.
const TAG = /<\/?[A-Za-z][^<>]*>|<!--[\s\S]*?-->/g;
const CONTROL = /\p{Cc}/u;

/**
 * `text` as data: invisible and control characters (bidi overrides and isolates, zero-width
 * characters) removed, link and tag markup reduced to its text, blanks collapsed (line breaks
 * kept for `lines`), at most `max` characters. Idempotent.
 */
export function cleanForeignText(text: string, options: CleanOptions): CleanedText {
  const changes: string[] = [];
  let controls = 0;
  let invisible = 0;
  let visible = '';
  const normalised = text.replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n');
  for (const char of normalised) {
    if (char === '\n' || char === '\t') visible += char;
    else if (CONTROL.test(char)) controls += 1;
    else if (INVISIBLE.test(char)) invisible += 1;
    else visible += char;
  }
  let links = 0;
  // Again until nothing is left: taking one tag out can join its neighbours into another
  // (`<` + `</a>` + `b>` leaves `<b>`). Each pass shortens the text, so this ends.
  let unmarked = visible;
  for (let before = ''; before !== unmarked;) {
    before = unmarked;
    unmarked = unmarked.replace(MARKDOWN_LINK, (_match, label: string) => {
      links += 1;
      return label;
    }).replace(TAG, () => {
      links += 1;
      return '';
    });
  }
  // What is left of a link that was split (`[x] (y)` stays readable, `](` never renders as a link).
  unmarked = neutraliseLinks(unmarked);
  const blanked = options.lines
    ? unmarked.split('\n').map((line) => line.replace(/\s+/gu, ' ').trim()).join('\n').replace(/\n{3,}/g, '\n\n').trim()
    : unmarked.replace(/\s+/gu, ' ').trim();
  let result = blanked;
  const length = [...blanked].length;
  if (length > options.max) {
    result = `${headCodePoints(blanked, options.max - 1).trimEnd()}…`;
    changes.push(`${options.kind} cut to ${options.max} characters (of ${length.toLocaleString('en-US')})`);
  }
  if (controls) changes.push(`removed ${count(controls, 'control character')}`);
  if (invisible) changes.push(`removed ${count(invisible, 'invisible or bidi character')}`);
  if (links) changes.push(`removed ${count(links, 'link or tag markup', 'link or tag markups')}`);
  return { text: result, changes };
}

/**
 * A label or description as the agent reads it (xos_schema): the same cleaning, on one line,
 * at most `max` characters; a label init wrote passes unchanged.
 */
export function dataText(text: string, max: number): string {
  return cleanForeignText(text, { max, kind: 'text' }).text;
}

/** The first `max` code points of `text` (a surrogate pair is never split). */
function headCodePoints(text: string, max: number): string {
  return [...text].slice(0, Math.max(0, max)).join('');
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
