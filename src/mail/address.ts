// Strict mail addresses: `Name <local@domain>` or a bare `local@domain`.
// International domains are converted to punycode so the address shown to the
// person is exactly the one used in the SMTP envelope and the header.
import { domainToASCII } from 'node:url';
import { invisibleCharacters } from '../text/personText.ts';

export interface MailAddress {
  readonly name?: string;
  readonly email: string;
}

/** RFC 5322 dot-atom local part, ASCII only (no SMTPUTF8). */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Any C0 control character or DEL. */
const hasControl = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** Longest display name accepted (UTF-16 units): a name must not push the address out of view. */
export const MAX_DISPLAY_NAME = 100;

/**
 * Why `name` cannot be a display name, or undefined. Too long, or with
 * invisible, direction-changing or blank-looking characters, a name could
 * make a question show another recipient than the one the mail goes to.
 */
export function displayNameProblem(name: string, what = 'display name'): string | undefined {
  if (name.length > MAX_DISPLAY_NAME) {
    return `The ${what} has ${name.length} characters; at most ${MAX_DISPLAY_NAME} are allowed. Send the bare address or a shorter name.`;
  }
  // A name that looks like a MIME encoded word could be decoded by the recipient's mail program into another address.
  if (/=\?[^?]*\?[bqBQ]\?[^?]*\?=/.test(name)) {
    return `The ${what} looks like an encoded header word (=?charset?q?…?=), which mail programs may show as something else. Send the name as plain text.`;
  }
  const hidden = invisibleCharacters(name);
  if (hidden.length > 0) {
    return `The ${what} contains invisible, direction-changing or blank-looking characters (${hidden.join(', ')}). Send the bare address or the name without them.`;
  }
  return undefined;
}

/** The address, or the reason it is not one. */
export function parseAddress(text: string): MailAddress | string {
  const input = text.trim();
  if (hasControl(input)) return `"${printable(input)}" contains a line break or control character`;
  const named = /^(.*?)\s*<([^<>]*)>$/.exec(input);
  if (named) {
    const name = unquote(named[1].trim());
    if (/[<>]/.test(name)) return `"${input}" has a malformed display name`;
    const problem = displayNameProblem(name);
    if (problem) return problem;
    const email = parseBareAddress(named[2].trim());
    if (typeof email !== 'object') return email;
    return name ? { name, email: email.email } : email;
  }
  return parseBareAddress(input);
}

/** `Name <email>` or just the email, as shown and as written into the header. */
export function formatAddress(address: MailAddress): string {
  return address.name ? `${address.name} <${address.email}>` : address.email;
}

/** The normalised bare address (domain in lower-case punycode), or the reason. */
function parseBareAddress(text: string): MailAddress | string {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return `"${text}" is not an email address (expected local@domain)`;
  const local = text.slice(0, at);
  const domain = toAsciiDomain(text.slice(at + 1));
  if (!LOCAL_PART.test(local) || local.length > 64) return `"${text}" has an invalid local part "${local}"`;
  if (!domain) return `"${text}" has an invalid domain`;
  return { email: `${local}@${domain}` };
}

function toAsciiDomain(domain: string): string | undefined {
  if (domain.endsWith('.')) return undefined;
  const ascii = domainToASCII(domain);
  if (!ascii || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return undefined;
  return ascii;
}

function unquote(name: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(name);
  return quoted ? quoted[1].replace(/\\(.)/g, '$1') : name;
}

function printable(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
