// Moving on the Board: a context from the start page, a row, a ref cell, a form link, Back and
// Forward (src/board/navigationPart.ts).
import { isCount, isObject, isText, notification } from './messages.ts';

/** The person opened a context from the Board's start page. */
export const openContext = notification<{ readonly context: string }>('board/openContext',
  (v): v is { context: string } => isObject(v) && isText(v.context, 200));

/** The person opened a list row (`navigate.row`), named by its key (the record id). */
export const openRow = notification<{ readonly listId: number; readonly key: string }>('board/openRow',
  (v): v is { listId: number; key: string } => isObject(v) && isCount(v.listId) && isText(v.key, 200));

/** The person opened the related record of a ref cell (the ref field of the row with this key). */
export const openRef = notification<{ readonly listId: number; readonly key: string; readonly field: string }>('board/openRef',
  (v): v is { listId: number; key: string; field: string } => isObject(v) && isCount(v.listId) && isText(v.key, 200) && isText(v.field, 200));

/** The person followed a link on the detail form: a ref (`field`), or one `item` (its key) of an inverse list. */
export const openFormLink = notification<{ readonly field: string; readonly item?: string }>('board/openFormLink',
  (v): v is { field: string; item?: string } => isObject(v) && isText(v.field, 200) && (v.item === undefined || isText(v.item, 200)));

/** The person clicked Back or Forward. */
export const navigate = notification<{ readonly direction: 'back' | 'forward' }>('board/navigate',
  (v): v is { direction: 'back' | 'forward' } => isObject(v) && (v.direction === 'back' || v.direction === 'forward'));
