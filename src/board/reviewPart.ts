// The review part of the Board: the changes to many records the person reviews as one (the
// agent's bulk change, an undo of a batch). The page gets the whole review when it or its
// revision is new, else only the rows changed in place; it reads the rows window by window
// and sends the person's decisions and edits of single cells.
import { reviewEditValue } from '../core/batch.ts';
import type { Review } from '../core/review.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import * as protocol from './protocol/review.ts';
import type { MessageEndpoint } from './protocol/messages.ts';
import { reviewBlock, reviewCanSave, reviewRows } from './view.ts';

export class ReviewPart implements BoardPart {
  private readonly host: BoardHost;
  /** The review the page was sent last, its id and revision. */
  private sent: { review: Review; id: number; revision: number } | undefined;
  private reviewId = 0;

  constructor(host: BoardHost) {
    this.host = host;
  }

  register(endpoint: MessageEndpoint): void {
    const { state } = this.host;
    endpoint.onRequest(protocol.reviewRows, (params) => this.rows(params));
    endpoint.onNotification(protocol.reviewAction, ({ reviewId, action, key, field }) => {
      if (reviewId !== this.sent?.id) return;
      if (action === 'discard') state.closeReview();
      else state.reviewDecide(action === 'accept', key, field);
    });
    endpoint.onNotification(protocol.reviewEdit, ({ reviewId, key, field, value }) => {
      const review = state.review();
      if (!review || reviewId !== this.sent?.id) return;
      const checked = reviewEditValue(this.host.ast(), review, field, value);
      if (checked) state.reviewEdit(key, field, checked.value, checked.problem);
    });
  }

  /** The page said ready: the review goes whole. */
  pageReady(): void {
    this.sent = undefined;
    this.send();
  }

  /** Sends what changed of the review: the whole block when the review or its revision is new, else only the rows touched. */
  send(): void {
    const { host } = this;
    if (!host.pageConnected()) return;
    const review = host.state.review();
    if (!review) {
      if (this.sent) host.notifyPage(protocol.review, { review: null });
      this.sent = undefined;
      return;
    }
    const ast = host.ast();
    const locale = host.locale();
    const sent = this.sent;
    if (sent?.review === review && sent.revision === review.revision) {
      const rows = reviewRows(ast, locale, review, review.takeTouched());
      host.notifyPage(protocol.reviewState, { reviewId: sent.id, revision: review.revision, counts: review.tally(), canSave: reviewCanSave(review, review.asking), rows });
      return;
    }
    const id = sent?.review === review ? sent.id : ++this.reviewId;
    review.takeTouched();
    this.sent = { review, id, revision: review.revision };
    host.notifyPage(protocol.review, { review: reviewBlock({ ast, locale, review, reviewId: id, asking: review.asking }) });
  }

  private rows({ reviewId, filter, offset, limit }: protocol.ReviewRowsParams): protocol.ReviewRowsResult {
    const { host } = this;
    const review = host.state.review();
    if (!review || reviewId !== this.sent?.id) throw new Error('the review changed');
    host.state.setReviewFilter(filter);
    const rows = review.inFilter(filter);
    return { reviewId, revision: review.revision, filter, offset, total: rows.length, rows: reviewRows(host.ast(), host.locale(), review, rows.slice(offset, offset + limit)) };
  }
}
