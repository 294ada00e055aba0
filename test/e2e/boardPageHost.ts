// A page-local stand-in for the extension host's side of the Board protocol, for
// the grid's browser tests and bench:board. It speaks the same messages through the
// same MessageEndpoint as src/host/boardPanel.ts and serves row windows from
// generated people (any row computed from its index, so a million rows cost no
// memory). Bundled into the test page before the real Board bundle, it provides
// acquireVsCodeApi() the way VS Code does.
import * as protocol from '../../src/board/protocol.ts';
import type { ListQuery } from '../../src/core/domain.ts';
import type { Column, GridRow, ListBlock, WebviewTexts } from '../../src/board/viewTypes.ts';

export interface PageConfig {
  readonly locale: string;
  readonly context: string;
  readonly texts: WebviewTexts;
  readonly columns: readonly Column[];
  readonly label: string;
}

export interface PageHost {
  /** Shows a list of `total` people; resolves with ms from sending it to its first rows painted. */
  showList(total: number, options?: { navigable?: boolean }): Promise<number>;
  /** The rows requests the webview sent, in order. */
  readonly requests: protocol.RowsParams[];
  /** Keys of the rows the webview opened. */
  readonly opened: string[];
  /** Ref cells the webview opened. */
  readonly openedRefs: Array<{ key: string; field: string }>;
  readonly exports: ListQuery[];
  /** Resolves after the frame that follows now has been rendered. */
  afterPaint(): Promise<number>;
  /** Person `index + 1` as a grid row (for payloads built in the page). */
  person(index: number): GridRow;
}

declare global {
  interface Window {
    xosHost: PageHost;
    acquireVsCodeApi(): { postMessage(message: unknown): void; setState(state: unknown): void };
  }
}

const FIRST = ['Max', 'Anna', 'Jörg', 'Émilie', 'Li', 'Fatma', 'Olaf', 'Zoë', 'Ben', 'Greta'];
const LAST = ['Mustermann', 'Müller', 'Schmidt', 'Özdemir', 'Nguyen', 'Weber', 'Brandt', 'Kowalski', 'Rossi', 'Lindqvist', 'Berg'];
const CITIES = ['Berlin', 'Köln', 'München', 'Hamburg', 'Leipzig', 'Bremen', 'Dresden'];

/** Person number `index + 1`, as the backend would send it (raw typed values). */
export function personAt(index: number): GridRow {
  const id = index + 1;
  const first = FIRST[index % FIRST.length];
  const last = LAST[Math.floor(index / FIRST.length) % LAST.length];
  const cents = (index * 7919) % 100_000_000;
  return {
    key: String(id),
    values: [String(id), first, last, `${first}.${last}.${id}@example.org`.toLowerCase(), CITIES[index % CITIES.length], 18 + (index % 70), `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`],
  };
}

/** Row `index + 1` of any other context: values made up from the column types. */
function rowOf(index: number): GridRow {
  const id = index + 1;
  const related = (index % 50) + 1;
  return {
    key: String(id),
    values: config.columns.map((c) => {
      switch (c.type) {
        case 'id': return String(id);
        case 'int': return index % 100;
        case 'decimal': return `${index * 10}.00`;
        case 'enum': return Object.keys(c.enumLabels ?? {})[index % Math.max(1, Object.keys(c.enumLabels ?? {}).length)] ?? null;
        case 'date': return '2026-12-03';
        case 'ref': return { id: String(related), name: `${c.label} ${related}` };
        default: return `${c.label} ${id}`;
      }
    }),
  };
}

const config = JSON.parse(document.getElementById('xos-page-config')!.textContent!) as PageConfig;
const channel = new MessageChannel();
// Webview -> host: asynchronous and structured-cloned, as postMessage in VS Code.
channel.port2.onmessage = (event) => endpoint.receive(event.data);
window.acquireVsCodeApi = () => ({ postMessage: (message) => channel.port1.postMessage(message), setState: () => undefined });
const endpoint = new protocol.MessageEndpoint((message) => window.postMessage(message, '*'));

let listId = 0;
let total = 0;
let navigable = true;
const requests: protocol.RowsParams[] = [];
const opened: string[] = [];
const openedRefs: Array<{ key: string; field: string }> = [];
const rowAt = (index: number) => (config.context === 'person_list' ? personAt(index) : rowOf(index));
const exports: ListQuery[] = [];
/** Row order of a sorted or filtered query (indices), built once per query. */
let ordered: { key: string; indices: Int32Array } | undefined;

function indicesFor(query: ListQuery): Int32Array | undefined {
  if (!query.sort && !query.filter) return undefined;
  const key = JSON.stringify(query);
  if (ordered?.key === key) return ordered.indices;
  const needle = query.filter?.trim().toLocaleLowerCase() ?? '';
  const column = query.sort ? config.columns.findIndex((c) => c.field === query.sort!.field) : -1;
  let indices: number[] = [];
  for (let i = 0; i < total; i++) {
    if (!needle || rowAt(i).values.some((v) => String(v).toLocaleLowerCase().includes(needle))) indices.push(i);
  }
  if (column >= 0) {
    const numeric = config.columns[column].numeric;
    const sign = query.sort!.direction === 'desc' ? -1 : 1;
    const value = (i: number) => rowAt(i).values[column];
    indices = indices.sort((a, b) => sign * (numeric ? Number(value(a)) - Number(value(b)) : String(value(a)).localeCompare(String(value(b)))) || a - b);
  }
  ordered = { key, indices: Int32Array.from(indices) };
  return ordered.indices;
}

endpoint.onNotification(protocol.ready, () => {
  endpoint.notify(protocol.locale, { locale: config.locale, texts: config.texts, contexts: [] });
  endpoint.notify(protocol.list, { list: null });
  endpoint.notify(protocol.detail, { detail: null });
  endpoint.notify(protocol.mail, { mail: null });
  endpoint.notify(protocol.status, { status: null });
});
endpoint.onRequest(protocol.rows, (params) => {
  requests.push(params);
  if (params.listId !== listId) throw new Error('the list changed');
  const indices = indicesFor(params.query);
  const count = indices ? indices.length : total;
  const rows: GridRow[] = [];
  for (let i = params.offset; i < Math.min(count, params.offset + params.limit); i++) rows.push(rowAt(indices ? indices[i] : i));
  return { listId, offset: params.offset, rows, total: count };
});
endpoint.onNotification(protocol.openRow, ({ key }) => opened.push(key));
endpoint.onNotification(protocol.openRef, ({ key, field }) => openedRefs.push({ key, field }));
endpoint.onNotification(protocol.exportCsv, ({ query }) => exports.push(query));

function afterPaint(): Promise<number> {
  // A message posted from a frame callback is handled once that frame has been rendered.
  return new Promise((resolve) => requestAnimationFrame(() => {
    const after = new MessageChannel();
    after.port1.onmessage = () => resolve(performance.now());
    after.port2.postMessage(null);
  }));
}

function firstRowShown(): boolean {
  const grid = document.querySelector('xos-board')?.shadowRoot?.querySelector('xos-list-grid')?.shadowRoot;
  return grid?.querySelector('[role="row"][aria-rowindex="2"]:not(.placeholder)') != null;
}

window.xosHost = {
  requests,
  opened,
  openedRefs,
  exports,
  afterPaint,
  person: personAt,
  async showList(count, options = {}) {
    total = count;
    navigable = options.navigable ?? true;
    listId++;
    ordered = undefined;
    const first: GridRow[] = [];
    for (let i = 0; i < Math.min(200, count); i++) first.push(rowAt(i));
    const list: ListBlock = { listId, context: config.context, label: config.label, columns: config.columns, total: count, rows: first, navigable, query: {}, canCreate: false };
    const start = performance.now();
    endpoint.notify(protocol.list, { list });
    for (;;) {
      const painted = await afterPaint();
      if (firstRowShown() || count === 0) return painted - start;
    }
  },
};
