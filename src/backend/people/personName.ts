// The name a front end gives its embedded backend for the person using it (a setting, an account
// label, the OS user): shown in the History and kept in the audit trail, so it is one short line.

export const MAX_PERSON_NAME = 64;

/** The name as it is kept: trimmed, inner whitespace as single spaces; undefined when nothing is left, it is too long or holds control characters. */
export function cleanPersonName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw.replace(/[\t ]/g, ' '))) return undefined;
  const name = raw.trim().replace(/\s+/g, ' ');
  return name !== '' && name.length <= MAX_PERSON_NAME ? name : undefined;
}
