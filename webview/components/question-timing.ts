// When the act button of a question on the page (Save, Delete, Send, Discard) may act:
// not in the first ACT_INERT_MS after the question appeared or changed. A click or Enter
// aimed at what was there a moment before (the person's own question, answered with a
// double click; a dialog that just replaced another) then does nothing. Pure, so the rule
// is tested without a browser (test/unit/questionTiming.test.ts).

/** How long the act button stays inert after its question appeared or changed. */
export const ACT_INERT_MS = 700;

/** What makes a question "changed" for the person: anything they see of it. */
export function questionKey(question: { readonly id: number; readonly message: string; readonly buttons: readonly string[]; readonly waiting?: number }): string {
  return JSON.stringify([question.id, question.message, question.buttons, question.waiting ?? 0]);
}

export class ActGuard {
  private key: string | undefined;
  private since = 0;
  private readonly now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /** The question shown now (its key); true when it is new or changed, which makes the act button inert again. */
  show(key: string | undefined): boolean {
    if (key === this.key) return false;
    this.key = key;
    this.since = this.now();
    return key !== undefined;
  }

  /** Whether the act button does nothing now. */
  inert(): boolean {
    return this.key === undefined || this.now() - this.since < ACT_INERT_MS;
  }

  /** Milliseconds until the act button acts (0 when it does). */
  remaining(): number {
    return this.key === undefined ? 0 : Math.max(0, ACT_INERT_MS - (this.now() - this.since));
  }
}
