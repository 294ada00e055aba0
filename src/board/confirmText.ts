// The texts of the save and send questions, built from what would be written
// or sent. Plain functions so they can be checked without VS Code.
import type { MailDraft } from '../mcp/ports.ts';

const MAX_VALUE = 80;
const PREVIEW_LINES = 3;
const MAX_PREVIEW = 200;

function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** A value in a question: strings as they are, nothing as a dash, refs by id. */
export function questionValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') {
    const id = (value as { id?: unknown }).id;
    return id === undefined ? shorten(JSON.stringify(value), MAX_VALUE) : `#${String(id)}`;
  }
  return shorten(String(value).replace(/\s+/g, ' '), MAX_VALUE);
}

/** `Last name: Müller → Schmidt` */
export function describeChange(label: string, from: unknown, to: unknown): string {
  return `${label}: ${questionValue(from)} → ${questionValue(to)}`;
}

export function mailQuestion(draft: MailDraft): { recipient: string; subject: string; preview: string } {
  const recipient = draft.to.name ? `${draft.to.name} <${draft.to.email}>` : draft.to.email;
  const lines = draft.body.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).slice(0, PREVIEW_LINES);
  const more = draft.body.split(/\r?\n/).filter((line) => line.trim()).length > PREVIEW_LINES ? ' …' : '';
  return { recipient, subject: shorten(draft.subject, MAX_VALUE), preview: shorten(lines.join(' / ') + more, MAX_PREVIEW) };
}
