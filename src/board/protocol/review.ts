// The review of many proposed changes: its rows in windows, accept, reject, own values
// (src/board/reviewPart.ts).
import { REVIEW_FILTERS, type ReviewBlock, type ReviewCounts, type ReviewFilter, type ReviewRow } from '../viewTypes.ts';
import { isCount, isObject, isText, MAX_ROWS_PER_REQUEST, notification, request } from './messages.ts';

/** The review of many proposed changes, or null when none is open (the list or form shows instead). */
export const review = notification<{ readonly review: ReviewBlock | null }>('board/review');

/**
 * Rows of the open review changed in place (an accept, reject or edit): the page swaps them by key and
 * takes the new counts. Rows entering or leaving a filter come as a new `review` block instead.
 */
export const reviewState = notification<{ readonly reviewId: number; readonly revision: number; readonly counts: ReviewCounts; readonly canSave: boolean; readonly rows: readonly ReviewRow[] }>('board/reviewState');

export interface ReviewRowsParams {
  readonly reviewId: number;
  /** The block's revision the page holds; an answer for another is dropped. */
  readonly revision: number;
  readonly filter: ReviewFilter;
  readonly offset: number;
  readonly limit: number;
}

export interface ReviewRowsResult {
  readonly reviewId: number;
  readonly revision: number;
  readonly filter: ReviewFilter;
  readonly offset: number;
  readonly rows: readonly ReviewRow[];
  /** Rows in the filter. */
  readonly total: number;
}

const isReviewFilter = (v: unknown): v is ReviewFilter => typeof v === 'string' && (REVIEW_FILTERS as readonly string[]).includes(v);

/** A window of the review's rows in a filter (the filter becomes the review's, so it is kept when the Board comes back). */
export const reviewRows = request<ReviewRowsParams, ReviewRowsResult>('board/reviewRows',
  (v): v is ReviewRowsParams => isObject(v) && isCount(v.reviewId) && isCount(v.revision) && isReviewFilter(v.filter)
    && isCount(v.offset) && isCount(v.limit) && v.limit <= MAX_ROWS_PER_REQUEST);

/**
 * The person accepts or rejects proposed changes: one cell (`key` and `field`), one row (`key`), or every row (neither);
 * or drops the whole review (`discard`; the list shows again).
 */
export type ReviewActionKind = 'accept' | 'reject' | 'discard';

export const reviewAction = notification<{ readonly reviewId: number; readonly action: ReviewActionKind; readonly key?: string; readonly field?: string }>('board/reviewAction',
  (v): v is { reviewId: number; action: ReviewActionKind; key?: string; field?: string } => isObject(v) && isCount(v.reviewId)
    && (v.action === 'accept' || v.action === 'reject' || v.action === 'discard')
    && (v.key === undefined || isText(v.key, 400)) && (v.field === undefined || (isText(v.field, 200) && v.key !== undefined)));

/** The person typed their own value into a proposed cell (converted to the field's value form, like a form edit). */
export const reviewEdit = notification<{ readonly reviewId: number; readonly key: string; readonly field: string; readonly value: unknown }>('board/reviewEdit',
  (v): v is { reviewId: number; key: string; field: string; value: unknown } => isObject(v) && isCount(v.reviewId) && isText(v.key, 400)
    && isText(v.field, 200) && 'value' in v);
