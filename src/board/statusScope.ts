// The one rule of the Board's status line: a line (an outcome, a failure, "Saving…", a notice)
// is about the view shown when it was set — this record, this list, this review, the start
// page — and leaves when the person sees another one (the record shown again after its save
// keeps it; a decision on the desk is said where the person is then).
import type { Review } from '../core/review.ts';
import type { StatusLine } from './protocol.ts';
import type { BoardState } from './state.ts';

export class StatusScope {
  private readonly state: BoardState;
  private readonly listId: () => number;
  private current: { readonly line: StatusLine; readonly about: string } | null = null;
  /** Each review the Board showed, numbered: the scope tells one from the next. */
  private readonly reviewNumbers = new WeakMap<Review, number>();
  private reviewsNumbered = 0;

  constructor(state: BoardState, listId: () => number) {
    this.state = state;
    this.listId = listId;
  }

  /** The line shown now, or null. */
  get line(): StatusLine | null {
    return this.current?.line ?? null;
  }

  /** Sets the line, about the view shown now. */
  set(line: StatusLine | null): void {
    this.current = line && { line, about: this.viewShown() };
  }

  /** The view changed: a line about another one leaves for `staying` (live updates paused, or nothing); true when it did. */
  left(staying: StatusLine | null): boolean {
    if (!this.current || this.current.about === this.viewShown()) return false;
    this.set(staying);
    return true;
  }

  /** What the Board shows: a record (or a new one's form), a list (each shown anew its own), a review, or nothing. */
  private viewShown(): string {
    const { kind, context, detail } = this.state.snapshot();
    if (kind === 'detail' && detail) return `detail:${context ?? ''}:${detail.isNew ? '(new)' : String(detail.record.id)}`;
    if (kind === 'list') return `list:${this.listId()}`;
    const review = this.state.review();
    if (kind === 'review' && review) {
      let number = this.reviewNumbers.get(review);
      if (number === undefined) this.reviewNumbers.set(review, number = ++this.reviewsNumbered);
      return `review:${number}`;
    }
    return 'start';
  }
}
