// Live updates from others: who has the record open, and the shown list's rows when they
// change (src/board/liveBoard.ts).
import type { ListQuery } from '../../core/domain.ts';
import type { GridRow, PresenceView } from '../viewTypes.ts';
import { notification } from './messages.ts';

/** Who else has the shown record open (`detail`: editing or just open) and which shown list rows others are editing (`rows`: key -> names). */
export const presence = notification<PresenceView>('board/presence');

/**
 * Rows of the shown list changed (someone else wrote, or the feed came back): the windows the page
 * holds, read again with its sort and filter, and the new total. The page swaps these rows in place
 * and drops the others it cached (asked for again when scrolled to); its scroll position, active
 * row, sort and filter stay. An answer for another list or query is dropped.
 */
export const listRows = notification<{ readonly listId: number; readonly query: ListQuery; readonly total: number; readonly windows: readonly { readonly offset: number; readonly rows: readonly GridRow[] }[] }>('board/listRows');
