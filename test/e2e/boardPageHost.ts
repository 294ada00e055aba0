// A page-local stand-in for the extension host's side of the Board protocol, for
// the grid's browser tests and bench:board. It speaks the same messages through the
// same MessageEndpoint as src/host/boardPanel.ts and serves row windows from
// generated people (any row computed from its index, so a million rows cost no
// memory). Bundled into the test page before the real Board bundle, it provides
// acquireVsCodeApi() the way VS Code does. It also plays a review of many proposed changes
// to the people (city, age, net worth), with the host's filters, counts and checks.
import * as protocol from '../../src/board/protocol.ts';
import type { ListQuery } from '../../src/core/domain.ts';
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import type { Column, GridRow, ListBlock, ReviewBlock, ReviewCell, ReviewColumn, ReviewCounts, ReviewFilter, ReviewRow, WebviewTexts } from '../../src/board/viewTypes.ts';

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
  /**
   * Shows a review of proposed changes to the first `total` people (every 1000th row invalid, every
   * `conflictEvery`th changed meanwhile); resolves with ms from sending it to its first rows painted.
   */
  showReview(total: number, options?: { conflictEvery?: number }): Promise<number>;
  /** Drops the review; resolves with ms from sending that to the list's first rows painted (its grid made anew), or 0 without a list. */
  closeReview(): Promise<number>;
  /** What the webview asked and sent about the review, in order. */
  readonly reviewRequests: protocol.ReviewRowsParams[];
  readonly reviewActions: Array<{ action: string; key?: string; field?: string }>;
  readonly reviewEdits: Array<{ key: string; field: string; value: unknown }>;
  readonly saves: number;
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
endpoint.onNotification(protocol.save, () => void saves++);
endpoint.onNotification(protocol.openRef, ({ key, field }) => openedRefs.push({ key, field }));
endpoint.onNotification(protocol.exportCsv, ({ query }) => exports.push(query));

// ---- the review: person i's city moves on, every odd person ages a year, every third is worth 10 % more ----

const AGE_MAX = 150;
let saves = 0;
const reviewRequests: protocol.ReviewRowsParams[] = [];
const reviewActions: Array<{ action: string; key?: string; field?: string }> = [];
const reviewEdits: Array<{ key: string; field: string; value: unknown }> = [];
let review: {
  block: ReviewBlock; total: number; conflictEvery: number; accepted: Map<number, boolean[]>; edited: Map<number, unknown[]>; filters: Map<ReviewFilter, Int32Array>;
  /** Rows as built, until the person changes them (the host keeps its rows too). */
  rows: Array<ReviewRow | undefined>;
} | undefined;
let reviewId = 0;

function reviewColumns(): { columns: Column[]; changed: ReviewColumn[] } {
  const column = (field: string) => config.columns.find((c) => c.field === field)!;
  const changedColumn = (field: string, extra: Partial<ReviewColumn> = {}): ReviewColumn => {
    const c = column(field);
    return { ...c, input: fieldKind(c.type).input, required: false, ...extra };
  };
  return {
    columns: [column('id'), column('firstname'), column('lastname')],
    changed: [changedColumn('city'), changedColumn('age', { min: 0, max: AGE_MAX }), changedColumn('net_worth', { required: true })],
  };
}

/** The proposal for person `index + 1` (null: the field stays), before the person's own edits. */
function proposed(index: number): unknown[] {
  const person = personAt(index).values;
  const age = person[5] as number;
  return [
    CITIES[(index + 1) % CITIES.length],
    index % 1000 === 999 ? AGE_MAX + 50 : index % 2 === 1 ? age + 1 : null,
    index % 3 === 0 ? (Number(person[6]) * 1.1).toFixed(2) : null,
  ];
}

function reviewRowAt(index: number): ReviewRow {
  const state = review!;
  return state.rows[index] ??= buildReviewRow(index);
}

function buildReviewRow(index: number): ReviewRow {
  const state = review!;
  const person = personAt(index).values;
  const from = [person[4], person[5], person[6]];
  const to = proposed(index);
  const edited = state.edited.get(index);
  const accepted = state.accepted.get(index);
  let rowProblem: string | undefined;
  const cells = to.map((value, c): ReviewCell | null => {
    if (value === null) return null;
    const mine = edited?.[c];
    const shown = mine === undefined ? value : mine;
    const problem = c === 1 && Number(shown) > AGE_MAX ? config.texts.reviewMax.replace('{0}', String(AGE_MAX)) : undefined;
    if (problem) rowProblem = problem;
    return { from: from[c], to: shown, accepted: accepted?.[c] ?? true, ...(mine === undefined ? {} : { edited: true }), ...(problem ? { problem } : {}) };
  });
  const conflict = state.conflictEvery > 0 && index % state.conflictEvery === state.conflictEvery - 1;
  return { key: String(index + 1), values: person.slice(0, 3), cells, ...(rowProblem ? { problem: rowProblem } : {}), ...(conflict ? { conflict: true } : {}) };
}

function inFilter(row: ReviewRow, filter: ReviewFilter): boolean {
  switch (filter) {
    case 'changed': return row.problem === undefined && !row.conflict;
    case 'invalid': return row.problem !== undefined;
    case 'conflicts': return row.conflict === true;
    default: return true;
  }
}

function filterIndices(filter: ReviewFilter): Int32Array {
  const state = review!;
  let indices = state.filters.get(filter);
  if (!indices) {
    const picked: number[] = [];
    for (let i = 0; i < state.total; i++) if (inFilter(reviewRowAt(i), filter)) picked.push(i);
    indices = Int32Array.from(picked);
    state.filters.set(filter, indices);
  }
  return indices;
}

function reviewCounts(): ReviewCounts {
  const state = review!;
  const counts = { rows: state.total, accepted: 0, rejected: 0, invalid: 0, conflicts: 0, unchanged: 0, cells: 0 };
  for (let i = 0; i < state.total; i++) {
    const row = reviewRowAt(i);
    const accepted = row.cells.filter((c) => c?.accepted).length;
    if (row.problem !== undefined) counts.invalid++;
    else if (row.conflict) counts.conflicts++;
    else if (accepted === 0) counts.rejected++;
    else {
      counts.accepted++;
      counts.cells += accepted;
    }
  }
  return counts;
}

/** A new revision of the review (rows may have entered or left a filter): the block again, with its filter's first rows. */
function sendReview(revision: number, filter: ReviewFilter): void {
  const state = review!;
  state.filters.clear();
  const indices = filterIndices(filter);
  const rows: ReviewRow[] = [];
  for (let i = 0; i < Math.min(200, indices.length); i++) rows.push(reviewRowAt(indices[i]));
  const counts = reviewCounts();
  state.block = { ...state.block, revision, filter, total: indices.length, rows, counts, canSave: counts.accepted > 0 && counts.conflicts === 0 };
  endpoint.notify(protocol.review, { review: state.block });
}

function sendReviewState(indices: readonly number[]): void {
  const state = review!;
  const counts = reviewCounts();
  const canSave = counts.accepted > 0 && counts.conflicts === 0;
  state.block = { ...state.block, counts, canSave };
  endpoint.notify(protocol.reviewState, { reviewId: state.block.reviewId, revision: state.block.revision, counts, canSave, rows: indices.map(reviewRowAt) });
}

endpoint.onRequest(protocol.reviewRows, (params) => {
  reviewRequests.push(params);
  const state = review;
  if (!state || params.reviewId !== state.block.reviewId) throw new Error('no such review');
  state.block = { ...state.block, filter: params.filter };
  const indices = filterIndices(params.filter);
  const rows: ReviewRow[] = [];
  for (let i = params.offset; i < Math.min(indices.length, params.offset + params.limit); i++) rows.push(reviewRowAt(indices[i]));
  return { reviewId: state.block.reviewId, revision: state.block.revision, filter: params.filter, offset: params.offset, rows, total: indices.length };
});

endpoint.onNotification(protocol.reviewAction, ({ reviewId: id, action, key, field }) => {
  reviewActions.push({ action, ...(key === undefined ? {} : { key }), ...(field === undefined ? {} : { field }) });
  const state = review;
  if (!state || id !== state.block.reviewId) return;
  if (action === 'discard') {
    review = undefined;
    endpoint.notify(protocol.review, { review: null });
    return;
  }
  const value = action === 'accept';
  const changed = state.block.changed.map((c) => c.field);
  const set = (index: number, column?: number) => {
    const cells = state.accepted.get(index) ?? [true, true, true];
    if (column === undefined) cells.fill(value);
    else cells[column] = value;
    state.accepted.set(index, cells);
    state.rows[index] = undefined;
  };
  if (key === undefined) {
    for (let i = 0; i < state.total; i++) set(i);
    sendReview(state.block.revision + 1, state.block.filter);
    return;
  }
  const index = Number(key) - 1;
  set(index, field === undefined ? undefined : changed.indexOf(field));
  sendReviewState([index]);
});

endpoint.onNotification(protocol.reviewEdit, ({ reviewId: id, key, field, value }) => {
  reviewEdits.push({ key, field, value });
  const state = review;
  if (!state || id !== state.block.reviewId) return;
  const index = Number(key) - 1;
  const column = state.block.changed.findIndex((c) => c.field === field);
  const before = reviewRowAt(index);
  const edits = state.edited.get(index) ?? [];
  edits[column] = value;
  state.edited.set(index, edits);
  const cells = state.accepted.get(index) ?? [true, true, true];
  cells[column] = true;
  state.accepted.set(index, cells);
  state.rows[index] = undefined;
  const after = reviewRowAt(index);
  // A row that became valid or invalid moves between filters: a new revision.
  if ((before.problem === undefined) !== (after.problem === undefined)) sendReview(state.block.revision + 1, state.block.filter);
  else sendReviewState([index]);
});

function afterPaint(): Promise<number> {
  // A message posted from a frame callback is handled once that frame has been rendered.
  return new Promise((resolve) => requestAnimationFrame(() => {
    const after = new MessageChannel();
    after.port1.onmessage = () => resolve(performance.now());
    after.port2.postMessage(null);
  }));
}

function firstReviewRowShown(): boolean {
  const grid = document.querySelector('xos-board')?.shadowRoot?.querySelector('xos-review-grid')?.shadowRoot;
  return grid?.querySelector('[role="row"][aria-rowindex="2"]:not(.placeholder)') != null;
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
  reviewRequests,
  reviewActions,
  reviewEdits,
  get saves() {
    return saves;
  },
  async showReview(count, options = {}) {
    reviewId++;
    const { columns, changed } = reviewColumns();
    const empty: ReviewCounts = { rows: 0, accepted: 0, rejected: 0, invalid: 0, conflicts: 0, unchanged: 0, cells: 0 };
    review = {
      total: count, conflictEvery: options.conflictEvery ?? 0, accepted: new Map(), edited: new Map(), filters: new Map(), rows: new Array(count),
      block: { reviewId, revision: 1, context: config.context, label: config.label, columns, changed, counts: empty, filter: 'changed', total: 0, rows: [], canSave: false },
    };
    // The block as the host builds it (its first rows, its counts), then the clock starts: from the page's receipt to its first rows painted.
    const state = review;
    const indices = filterIndices('changed');
    const rows: ReviewRow[] = [];
    for (let i = 0; i < Math.min(200, indices.length); i++) rows.push(reviewRowAt(indices[i]));
    const counts = reviewCounts();
    state.block = { ...state.block, total: indices.length, rows, counts, canSave: counts.accepted > 0 && counts.conflicts === 0 };
    // The extension host builds the block in its own process: its work here is done before the clock starts.
    await afterPaint();
    await afterPaint();
    const start = performance.now();
    endpoint.notify(protocol.review, { review: state.block });
    for (;;) {
      const painted = await afterPaint();
      if (firstReviewRowShown() || indices.length === 0) return painted - start;
    }
  },
  async closeReview() {
    review = undefined;
    const start = performance.now();
    endpoint.notify(protocol.review, { review: null });
    if (total === 0) return 0;
    for (;;) {
      const painted = await afterPaint();
      if (firstRowShown()) return painted - start;
    }
  },
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
