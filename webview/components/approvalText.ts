// The words of the pending approvals list (approval-list.ts) that depend on the clock or
// shorten the question: pure, so they are tested without a browser (test/unit/approvalText.test.ts).
import type { WebviewTexts } from '../../src/board/viewTypes.ts';

const MINUTE_MS = 60_000;
/** An accessible name carries the question's first sentence, at most this long. */
const NAME_CHARS = 160;

/** "expires in 12 min", "expires in less than a minute", "expired". */
export function expiryText(expiresAt: string, now: number, texts: Pick<WebviewTexts, 'approvalExpiresIn' | 'approvalExpiresSoon' | 'approvalExpired'>, number: Intl.NumberFormat): string {
  const left = Date.parse(expiresAt) - now;
  if (!(left > 0)) return texts.approvalExpired;
  if (left < MINUTE_MS) return texts.approvalExpiresSoon;
  return texts.approvalExpiresIn.replace('{minutes}', number.format(Math.floor(left / MINUTE_MS)));
}

/** Milliseconds until an expiry text of these approvals changes (a minute boundary passes), or undefined when none will. */
export function nextExpiryChange(expiries: readonly string[], now: number): number | undefined {
  let next: number | undefined;
  for (const expiresAt of expiries) {
    const left = Date.parse(expiresAt) - now;
    if (!(left > 0)) continue;
    const untilChange = left % MINUTE_MS || MINUTE_MS;
    next = next === undefined ? untilChange : Math.min(next, untilChange);
  }
  return next;
}

/**
 * The question as a button's accessible name carries it ("Approve: Save changes to Person 12?"):
 * its first sentence, the question itself, not the list of changes after it.
 */
export function questionName(question: string): string {
  const line = question.trim().split('\n')[0];
  const end = line.search(/[?!.](\s|$)/);
  const sentence = end >= 0 ? line.slice(0, end + 1) : line;
  return sentence.length <= NAME_CHARS ? sentence : `${sentence.slice(0, NAME_CHARS - 1).trimEnd()}…`;
}

/** When it was asked: the time today, else date and time, in the Board's locale. */
export function askedTime(requestedAt: string, now: number, locale: string): string {
  const asked = new Date(requestedAt);
  if (Number.isNaN(asked.getTime())) return requestedAt;
  const today = new Date(now).toDateString() === asked.toDateString();
  const format = today ? new Intl.DateTimeFormat(locale, { timeStyle: 'short' }) : new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
  return format.format(asked);
}
