// The name a front end gives its embedded backend for the person using it (a setting, an account
// label, the OS user): shown in the History and kept in the audit trail, so it is one short line.

export const MAX_PERSON_NAME = 64;

/**
 * The name as it is kept: trimmed, inner whitespace as single spaces; undefined when nothing is
 * left, it is too long, or it holds control or invisible format characters (line breaks, bidi
 * overrides, zero-width characters: a name must read as what it is).
 */
export function cleanPersonName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(raw.replace(/\t/g, ' '))) return undefined;
  const name = raw.trim().replace(/\s+/g, ' ');
  return name !== '' && name.length <= MAX_PERSON_NAME ? name : undefined;
}
