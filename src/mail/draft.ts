// The mail draft: built from what the agent asked for, refused when any header
// field could smuggle in another header (CR/LF), so what the person confirms is
// exactly what is sent.
import type { MailDraft } from './types.ts';
import { displayNameProblem, parseAddress, type MailAddress } from './address.ts';

const hasLineBreak = (value: string): boolean => value.includes('\r') || value.includes('\n') || value.includes('\0');

/** Why `draft` cannot be sent as is, or undefined when its headers are safe. */
export function headerProblem(draft: MailDraft, from?: MailAddress): string | undefined {
  const fields: Array<[string, string | undefined]> = [
    ['recipient name', draft.to.name],
    ['recipient address', draft.to.email],
    ['subject', draft.subject],
    ['sender name', from?.name],
    ['sender address', from?.email],
  ];
  for (const [field, value] of fields) {
    if (value !== undefined && hasLineBreak(value)) return `The ${field} contains a line break; header fields must be a single line.`;
  }
  for (const [field, value] of [['recipient name', draft.to.name], ['sender name', from?.name]] as const) {
    const problem = value ? displayNameProblem(value, field) : undefined;
    if (problem) return problem;
  }
  return undefined;
}

/** A draft with a parsed, normalised recipient, or the reason there is none. */
export function createDraft(to: MailAddress, subject: string, body: string): MailDraft | string {
  const problem = headerProblem({ to, subject, body });
  if (problem) return problem;
  const parsed = parseAddress(to.email);
  if (typeof parsed === 'string') return parsed;
  if (parsed.name) return `"${to.email}" must be a bare address`;
  // Keep the contact's display name exactly; the address itself is normalised.
  return { to: to.name ? { name: to.name, email: parsed.email } : { email: parsed.email }, subject, body };
}
