// The shown list: its rows in windows, a new record from it, the choices of a ref picker
// (src/board/listPart.ts).
import type { ListQuery, RefChoice } from '../../core/domain.ts';
import type { GridRow } from '../viewTypes.ts';
import { isCount, isListQuery, isObject, isText, MAX_ROWS_PER_REQUEST, notification, request } from './messages.ts';

export interface RowsParams {
  /** Which list (a new list gets a new id; answers for an old one are dropped). */
  readonly listId: number;
  readonly offset: number;
  readonly limit: number;
  /** The person's sort and filter; the host applies them where the rows live. */
  readonly query: ListQuery;
}

export interface RowsResult {
  readonly listId: number;
  readonly offset: number;
  readonly rows: readonly GridRow[];
  /** Rows matching the query (sort and filter included). */
  readonly total: number;
}

/** A window of the shown list. */
export const rows = request<RowsParams, RowsResult>('board/rows',
  (v): v is RowsParams => isObject(v) && isCount(v.listId) && isCount(v.offset) && isCount(v.limit) && v.limit <= MAX_ROWS_PER_REQUEST && isListQuery(v.query));

/** The person asked for an empty form to create a record of the shown list's entity. */
export const newRecord = notification<{ readonly listId: number }>('board/newRecord',
  (v): v is { listId: number } => isObject(v) && isCount(v.listId));

/** The ref picker asks for records of the related entity whose name contains `search`. */
export const refChoices = request<{ readonly field: string; readonly search: string }, readonly RefChoice[]>('board/refChoices',
  (v): v is { field: string; search: string } => isObject(v) && isText(v.field, 200) && isText(v.search, 200));
