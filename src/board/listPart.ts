// The list part of the Board: the rows the page asks for window by window as the person
// scrolls, sorts and filters (a read of a sort or filter the person left is called off); the
// choices of a ref field; a new record from the list; the warning when a sort reads the whole
// table.
import { isDeepStrictEqual } from 'node:util';
import { appModel } from '../ast/appModel.ts';
import { listWindow } from '../core/show.ts';
import { newRecord } from '../core/records.ts';
import { refChoices } from '../core/refChoices.ts';
import { costlySort } from '../core/sortHint.ts';
import type { ListQuery } from '../core/domain.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import * as protocol from './protocol/list.ts';
import type { MessageEndpoint } from './protocol/messages.ts';
import { translator } from './texts.ts';
import { gridRows } from './view.ts';

/** Told each window served, so live updates can refresh what the page holds (liveBoard.ts). */
export type WindowServed = (listId: number, offset: number, limit: number, query: ListQuery, rows: unknown) => void;

export class ListPart implements BoardPart {
  private readonly host: BoardHost;
  private readonly served: WindowServed;
  /** The list windows being read for the page, each with its way to call it off. */
  private readonly windowReads = new Set<AbortController>();

  constructor(host: BoardHost, served: WindowServed) {
    this.host = host;
    this.served = served;
  }

  register(endpoint: MessageEndpoint): void {
    const { host } = this;
    endpoint.onRequest(protocol.rows, (params) => this.rows(params));
    endpoint.onRequest(protocol.refChoices, ({ field, search }) => refChoices(host.deps(), field, search));
    endpoint.onNotification(protocol.newRecord, ({ listId }) => {
      const list = host.state.list();
      if (listId !== host.listId() || !list) return;
      const outcome = newRecord(host.deps(), list.context);
      if (!outcome.ok) host.setStatus({ kind: 'error', text: host.said(outcome) });
    });
  }

  private async rows({ listId, offset, limit, query }: protocol.RowsParams): Promise<protocol.RowsResult> {
    const { host } = this;
    const { state } = host;
    const list = state.list();
    if (listId !== host.listId() || !list) throw new Error('the list changed');
    const earlierSort = state.listQuery().sort?.field;
    const changed = !isDeepStrictEqual(state.listQuery(), query);
    state.setListQuery(query);
    // Kept on disk at once, so a reload brings the list back sorted and filtered as the person left it.
    if (changed) host.history.listQueryChanged();
    if (changed && query.sort && query.sort.field !== earlierSort) void this.warnCostlySort(list.context, query.sort.field, listId);
    // Windows of the sort or filter the person just left are not wanted any more (the page drops
    // their answers): those not yet read are not read, so the new one does not wait behind them.
    if (changed) {
      for (const earlier of this.windowReads) earlier.abort(new Error('the sort or filter changed'));
      this.windowReads.clear();
    }
    const read = new AbortController();
    this.windowReads.add(read);
    try {
      const window = await listWindow(host.board, offset, limit, query, read.signal);
      const context = appModel(host.ast(), host.locale()).context(list.context);
      if (!window || !context || listId !== host.listId()) throw new Error('the list changed');
      const rows = gridRows(context.fields, window.records);
      this.served(listId, offset, limit, query, rows);
      return { listId, offset: window.offset, rows, total: window.total };
    } finally {
      this.windowReads.delete(read);
    }
  }

  /** A sort no index serves on a large table: the person is told what it costs and which index would help. */
  private async warnCostlySort(context: string, field: string, listId: number): Promise<void> {
    const { host } = this;
    const costly = await costlySort(host.deps(), context, field);
    if (!costly || listId !== host.listId()) return;
    const locale = host.locale();
    const label = appModel(host.ast(), locale).context(context)?.fields.find((f) => f.field === field)?.label ?? field;
    const text = translator(locale)('Sorting by {0} reads all {1} rows for every window (no index serves it), so it may take seconds. An index would help: {2}',
      label, new Intl.NumberFormat(locale).format(costly.rows), costly.index);
    host.ui.log.warn(`sorting ${context} by ${field}: no index serves it on ${costly.rows} rows; ${costly.index}`);
    host.setStatus({ kind: 'info', text });
  }
}
