// The review of many proposed changes in the Board's store (webview/state.ts), driven in Node
// through a fake host that speaks the Board protocol (src/board/protocol.ts): the review block
// paints its first rows at once, the rest are asked for in chunks of the shown filter and
// revision, the host's reviewState swaps rows by key, a new revision or review drops the
// cached rows, and the person's accepts, rejects, edits and discard go out as the host expects.
// And what the review grid says and checks (webview/components/reviewText.ts): its counts line,
// each cell's accessible name, a row's note and toggle, and the page's own check of a typed value.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import * as protocol from '../../src/board/protocol.ts';
import { webviewTexts } from '../../src/board/view.ts';
import type { ReviewBlock, ReviewCounts, ReviewRow } from '../../src/board/viewTypes.ts';
import { BoardStore, CHUNK_ROWS, type Topic } from '../../webview/state.ts';
import { fill, localProblem, reviewCellName, reviewCountText, reviewNote, rowChecked } from '../../webview/components/reviewText.ts';
import { FakeBoardHost, settle, type Asked } from '../support/fakeBoardHost.ts';

/** The host's side of the Board protocol, played by the test, with the review's rows. */
class FakeHost extends FakeBoardHost {
  /** The store's reviewRows requests not answered yet, in the order asked. */
  openReviewRows(): Asked<protocol.ReviewRowsParams>[] {
    return this.open(protocol.reviewRows);
  }

  /** Answers a reviewRows request with rows numbered from its offset (as the host holds them for that revision and filter). */
  answerReviewRows(asked: Asked<protocol.ReviewRowsParams>, total: number, overrides: Partial<protocol.ReviewRowsResult> = {}): void {
    const { reviewId, revision, filter, offset, limit } = asked.params;
    const count = Math.max(0, Math.min(limit, total - offset));
    const result: protocol.ReviewRowsResult = { reviewId, revision, filter, offset, rows: reviewRows(offset, count), total, ...overrides };
    asked.resolve(result);
  }
}

const TOPICS: readonly Topic[] = ['locale', 'list', 'rows', 'detail', 'mail', 'status', 'history', 'connection', 'problems', 'question', 'review', 'reviewRows'];

function setup() {
  const host = new FakeHost();
  const store = new BoardStore(host, { lang: 'en', setLang: () => undefined });
  const seen: Topic[] = [];
  for (const topic of TOPICS) store.subscribe([topic], () => seen.push(topic));
  return { host, store, seen };
}

/** Product `offset + i + 1`: its price goes from 10.00 to 10.50, its name stays. */
function reviewRow(n: number, cell: Partial<NonNullable<ReviewRow['cells'][number]>> = {}, extra: Partial<ReviewRow> = {}): ReviewRow {
  return { key: String(n), values: [String(n), `Product ${n}`], cells: [{ from: '10.00', to: '10.50', accepted: true, ...cell }, null], ...extra };
}

function reviewRows(offset: number, count: number): ReviewRow[] {
  return Array.from({ length: count }, (_, i) => reviewRow(offset + i + 1));
}

const COUNTS: ReviewCounts = { rows: 2000, accepted: 1998, rejected: 0, invalid: 2, conflicts: 0, unchanged: 0, cells: 1998 };

function reviewBlock(overrides: Partial<ReviewBlock> = {}): ReviewBlock {
  return {
    reviewId: 1, revision: 1, context: 'product_list', label: 'Products', filter: 'changed', total: 1998, canSave: true, counts: COUNTS,
    columns: [
      { field: 'id', label: 'ID', type: 'id', numeric: true, sortable: false },
      { field: 'name', label: 'Name', type: 'string', numeric: false, sortable: false },
    ],
    changed: [
      { field: 'price', label: 'Price', type: 'decimal', numeric: true, sortable: false, input: 'text', required: true, min: 0 },
      { field: 'status', label: 'Status', type: 'enum', numeric: false, sortable: false, input: 'select', required: false, options: [{ value: 'on', label: 'On sale' }] },
    ],
    rows: reviewRows(0, 2 * CHUNK_ROWS),
    ...overrides,
  };
}

describe('BoardStore: the review of many proposed changes', () => {
  test('a review block paints its first rows at once; the rest come in chunks of its filter and revision, at most 4 at once', async () => {
    const { host, store, seen } = setup();
    assert.equal(store.review === null, true, 'no review yet');
    host.send(protocol.review, { review: reviewBlock({ filter: 'all', total: 2000 }) });
    assert.deepEqual(seen, ['review', 'reviewRows']);
    assert.equal(store.review?.reviewId, 1);
    assert.equal(store.reviewFilter, 'all', 'the host\'s filter is the page\'s');
    assert.equal(store.reviewTotal, 2000);
    assert.equal(store.reviewRow(0)?.key, '1');
    assert.equal(store.reviewRow(2 * CHUNK_ROWS - 1)?.key, String(2 * CHUNK_ROWS));
    assert.equal(store.reviewRow(2 * CHUNK_ROWS), undefined);
    assert.equal(host.asked.length, 0, 'the block came with its first rows');

    store.ensureReviewRows(0, 999);
    const first = host.openReviewRows();
    assert.deepEqual(first.map((a) => a.params), [2, 3, 4, 5].map((chunk) => ({ reviewId: 1, revision: 1, filter: 'all', offset: chunk * CHUNK_ROWS, limit: CHUNK_ROWS })));
    assert.ok(first.every((a) => a.timeoutMs > 0));
    store.ensureReviewRows(0, 999);
    assert.equal(host.openReviewRows().length, 4, 'a chunk asked for is not asked again, and no fifth goes out');

    seen.length = 0;
    host.answerReviewRows(first[0], 2000);
    await settle();
    assert.deepEqual(seen, ['reviewRows'], 'rows alone: the toolbar and the Board shell stay as they are');
    assert.equal(store.reviewRow(2 * CHUNK_ROWS)?.key, String(2 * CHUNK_ROWS + 1));

    // A failed window says why; the chunk can be asked for again.
    host.openReviewRows()[0].reject(new Error('host gone'));
    await settle();
    assert.equal(store.reviewRowsError, 'host gone');
    store.ensureReviewRows(300, 399);
    assert.deepEqual(host.openReviewRows().map((a) => a.params.offset), [400, 500, 300]);

    // The list underneath is untouched: the review has its own cache.
    assert.equal(store.list, null);
    assert.equal(host.asked.filter((a) => a.method === protocol.rows.method).length, 0);
  });

  test('the review row cache is bounded: a chunk long scrolled past is asked for again', async () => {
    const { host, store } = setup();
    host.send(protocol.review, { review: reviewBlock({ total: 10_000, rows: reviewRows(0, CHUNK_ROWS) }) });
    for (let chunk = 1; chunk <= 60; chunk++) {
      store.ensureReviewRows(chunk * CHUNK_ROWS, chunk * CHUNK_ROWS + CHUNK_ROWS - 1);
      const [asked] = host.openReviewRows();
      assert.equal(asked.params.offset, chunk * CHUNK_ROWS);
      host.answerReviewRows(asked, 10_000);
      await settle();
    }
    assert.equal(store.reviewRow(60 * CHUNK_ROWS)?.key, String(60 * CHUNK_ROWS + 1));
    assert.equal(store.reviewRow(0), undefined, 'the first chunk, least recently seen, left the cache');
    store.ensureReviewRows(0, CHUNK_ROWS - 1);
    assert.deepEqual(host.openReviewRows().map((a) => a.params.offset), [0]);
  });

  test('another filter drops the cached rows and asks for its first rows; answers of the old filter are dropped', async () => {
    const { host, store, seen } = setup();
    host.send(protocol.review, { review: reviewBlock() });
    store.ensureReviewRows(0, 499);
    const older = host.openReviewRows();
    assert.equal(older.length, 3);

    seen.length = 0;
    store.setReviewFilter('invalid');
    assert.deepEqual(seen, ['review', 'reviewRows']);
    assert.equal(store.reviewFilter, 'invalid');
    assert.equal(store.reviewTotal, undefined, 'the filter\'s row count is not known yet');
    assert.equal(store.reviewRow(0), undefined);
    const asked = host.openReviewRows().slice(older.length);
    assert.deepEqual(asked.map((a) => a.params), [{ reviewId: 1, revision: 1, filter: 'invalid', offset: 0, limit: CHUNK_ROWS }]);
    store.setReviewFilter('invalid');
    assert.equal(host.openReviewRows().length, older.length + 1, 'the same filter again asks nothing');

    seen.length = 0;
    for (const old of older) host.answerReviewRows(old, 1998);
    await settle();
    assert.deepEqual(seen, [], 'rows of the old filter change nothing');
    assert.equal(store.reviewRow(CHUNK_ROWS * 2), undefined);

    host.answerReviewRows(asked[0], 2);
    await settle();
    assert.equal(store.reviewTotal, 2);
    assert.equal(store.reviewRow(1)?.key, '2');
    // An answer for another filter (a host that moved on) is dropped too.
    store.setReviewFilter('all');
    const [all] = host.openReviewRows();
    host.answerReviewRows(all, 2000, { filter: 'changed' });
    await settle();
    assert.equal(store.reviewTotal, undefined);
  });

  test('reviewState swaps rows by key where cached and takes the counts and canSave; another revision\'s state is ignored', async () => {
    const { host, store, seen } = setup();
    host.send(protocol.review, { review: reviewBlock() });
    store.ensureReviewRows(250, 250);
    const [chunk2] = host.openReviewRows();
    host.answerReviewRows(chunk2, 1998);
    await settle();

    seen.length = 0;
    const counts: ReviewCounts = { ...COUNTS, accepted: 1996, rejected: 1, cells: 1996 };
    host.send(protocol.reviewState, {
      reviewId: 1, revision: 1, counts, canSave: false,
      rows: [reviewRow(5, { accepted: false }), reviewRow(260, { to: '12.00', edited: true, problem: 'At most 11.' }, { problem: 'At most 11.' }), reviewRow(9999, { accepted: false })],
    });
    assert.deepEqual(seen, ['review', 'reviewRows']);
    assert.equal(store.reviewRow(4)?.cells[0]?.accepted, false);
    assert.equal(store.reviewRow(259)?.cells[0]?.to, '12.00');
    assert.equal(store.reviewRow(259)?.problem, 'At most 11.');
    assert.equal(store.reviewRow(3)?.cells[0]?.accepted, true, 'other rows stay');
    assert.deepEqual(store.review?.counts, counts);
    assert.equal(store.review?.canSave, false);
    assert.equal(store.reviewTotal, 1998, 'rows changed in place: the filter keeps its rows');

    // A state of an older revision or another review is late: nothing changes.
    seen.length = 0;
    host.send(protocol.reviewState, { reviewId: 1, revision: 0, counts: COUNTS, canSave: true, rows: [reviewRow(5)] });
    host.send(protocol.reviewState, { reviewId: 2, revision: 1, counts: COUNTS, canSave: true, rows: [reviewRow(5)] });
    assert.deepEqual(seen, []);
    assert.equal(store.reviewRow(4)?.cells[0]?.accepted, false);
    assert.equal(store.review?.canSave, false);
  });

  test('a new revision or another review drops the cached rows and late answers; the same revision keeps them', async () => {
    const { host, store } = setup();
    host.send(protocol.review, { review: reviewBlock() });
    store.ensureReviewRows(0, 399);
    const [chunk2, chunk3] = host.openReviewRows();
    host.answerReviewRows(chunk2, 1998);
    await settle();
    assert.equal(store.reviewRow(200)?.key, '201');

    // The same block again (the Board came back): the cache stays.
    host.send(protocol.review, { review: reviewBlock() });
    assert.equal(store.reviewRow(200)?.key, '201');

    // Accept all moved rows between filters: revision 2, with its own first rows.
    host.send(protocol.review, { review: reviewBlock({ revision: 2, total: 1500, rows: reviewRows(1000, CHUNK_ROWS) }) });
    assert.equal(store.reviewTotal, 1500);
    assert.equal(store.reviewRow(0)?.key, '1001');
    assert.equal(store.reviewRow(200), undefined, 'rows of revision 1 are gone');
    host.answerReviewRows(chunk3, 1998);
    await settle();
    assert.equal(store.reviewRow(300), undefined, 'a late answer for revision 1 is dropped');
    store.ensureReviewRows(0, 150);
    assert.deepEqual(host.openReviewRows().map((a) => [a.params.revision, a.params.offset]), [[2, 100]]);

    // A new proposal: another review id, and its filter.
    host.send(protocol.review, { review: reviewBlock({ reviewId: 2, revision: 1, filter: 'conflicts', total: 3, rows: reviewRows(0, 3) }) });
    assert.equal(store.reviewFilter, 'conflicts');
    assert.equal(store.reviewTotal, 3);
    assert.equal(store.reviewRow(2)?.key, '3');
    assert.equal(store.reviewRow(3), undefined);

    // No review: the list shows again.
    host.send(protocol.review, { review: null });
    assert.equal(store.review, null);
    assert.equal(store.reviewRow(0), undefined);
    store.ensureReviewRows(0, 99);
    assert.equal(host.openReviewRows().length, 1, 'nothing asked without a review');
  });

  test('accept, reject and discard go out for a cell, a row or every row; an edit goes out in the field\'s value form and shows at once', () => {
    const { host, store, seen } = setup();
    store.reviewAct('accept');
    store.reviewEditCell('1', 'price', '11.00');
    assert.deepEqual(host.sent, [], 'nothing without a review');

    host.send(protocol.review, { review: reviewBlock({ reviewId: 7 }) });
    store.reviewAct('reject', '3', 'price');
    store.reviewAct('accept', '3');
    store.reviewAct('accept');
    store.reviewAct('reject');
    store.reviewAct('discard', '3', 'price');
    assert.deepEqual(host.sent, [
      { method: 'board/reviewAction', params: { reviewId: 7, action: 'reject', key: '3', field: 'price' } },
      { method: 'board/reviewAction', params: { reviewId: 7, action: 'accept', key: '3' } },
      { method: 'board/reviewAction', params: { reviewId: 7, action: 'accept' } },
      { method: 'board/reviewAction', params: { reviewId: 7, action: 'reject' } },
      { method: 'board/reviewAction', params: { reviewId: 7, action: 'discard' } },
    ]);

    host.sent.length = 0;
    seen.length = 0;
    store.reviewEditCell('3', 'price', '11.25');
    assert.deepEqual(host.sent, [{ method: 'board/reviewEdit', params: { reviewId: 7, key: '3', field: 'price', value: '11.25' } }]);
    assert.deepEqual(seen, ['reviewRows']);
    assert.deepEqual(store.reviewRow(2)?.cells[0], { from: '10.00', to: '11.25', accepted: true, edited: true }, 'the typed value shows until the host answers');
    // The host's answer is the truth: its problem replaces the page's guess.
    host.send(protocol.reviewState, { reviewId: 7, revision: 1, counts: COUNTS, canSave: true, rows: [reviewRow(3, { to: '11.25', edited: true, problem: 'At most 11.' })] });
    assert.equal(store.reviewRow(2)?.cells[0]?.problem, 'At most 11.');

    // A field the review does not change is not sent.
    host.sent.length = 0;
    store.reviewEditCell('3', 'name', 'x');
    assert.deepEqual(host.sent, []);
    // Save is the form's save: the host asks the person once.
    store.save();
    assert.deepEqual(host.sent, [{ method: 'board/save', params: {} }]);
  });
});

describe('the review grid\'s words and checks', () => {
  const en = webviewTexts('en');
  const de = webviewTexts('de');
  const number = (locale: string) => new Intl.NumberFormat(locale);
  const [price, status] = reviewBlock().changed;

  test('the counts line, in the Board\'s locale; conflicts only when there are some', () => {
    assert.equal(reviewCountText(COUNTS, en, number('en')), '1,998 of 2,000 rows will change · 2 invalid · 0 unchanged');
    assert.equal(reviewCountText({ ...COUNTS, conflicts: 3, unchanged: 1200 }, de, number('de')),
      '1.998 von 2.000 Zeilen werden geändert · 2 ungültig · 3 inzwischen geändert · 1.200 unverändert');
    assert.equal(reviewCountText({ ...COUNTS, rows: 1, accepted: 1, invalid: 0 }, en, number('en')), '1 of 1 row will change · 0 invalid · 0 unchanged');
  });

  test('a cell\'s accessible name says old → new, accepted or rejected, the person\'s own value and the problem', () => {
    assert.equal(reviewCellName(price, { from: '10.00', to: '10.50', accepted: true }, '10.00', '10.50', en), 'Price: 10.00 → 10.50, accepted');
    assert.equal(reviewCellName(price, { from: '10.00', to: '-1', accepted: false, edited: true, problem: 'At least 0.' }, '10,00', '-1', de),
      'Price: 10,00 → -1, abgelehnt, Ihr Wert, At least 0.');
    // A value that looks like a placeholder or a replacement pattern is shown as it is.
    assert.equal(reviewCellName(price, { from: '{to}', to: '$&', accepted: true }, '{to}', '$&', en), 'Price: {to} → $&, accepted');
    assert.equal(fill('{a} {b} {c}', { a: '{b}', b: '$1' }), '{b} $1 {c}');
  });

  test('a row\'s toggle is checked, unchecked or mixed over its proposed cells; its note says why it is left out', () => {
    assert.equal(rowChecked(reviewRow(1)), 'true');
    assert.equal(rowChecked(reviewRow(1, { accepted: false })), 'false');
    assert.equal(rowChecked({ ...reviewRow(1), cells: [{ from: 1, to: 2, accepted: true }, { from: 'a', to: 'b', accepted: false }] }), 'mixed');
    assert.equal(reviewNote(reviewRow(1), en), '');
    assert.equal(reviewNote(reviewRow(1, {}, { problem: 'At most 11.', conflict: true }), en),
      'Not saved: At most 11. Changed by someone else meanwhile: accept or reject it again.');
  });

  test('a typed value is checked as the form converts it: required, its type, a number\'s bounds', () => {
    const typed = (column: typeof price, raw: string) => localProblem(column, fieldKind(column.type).parse(raw), en, number('en'));
    assert.equal(typed(price, ''), 'Required.');
    assert.equal(typed(price, '12,50'), 'Enter a number like 1234.50 (no thousands separators).');
    assert.equal(typed(price, '-0.01'), 'At least 0.');
    assert.equal(typed(price, '12.50'), undefined);
    assert.equal(typed(status, ''), undefined, 'an optional field may be emptied');
    const age = { ...price, field: 'age', type: 'int' as const, min: 0, max: 1500, required: false };
    assert.equal(typed(age, '1.5'), 'Enter a whole number.');
    assert.equal(localProblem(age, 2000, en, number('en')), 'At most 1,500.');
    assert.equal(localProblem(age, 2000, de, number('de')), 'Höchstens 1.500.');
    const day = { ...price, field: 'day', type: 'date' as const, input: 'text' as const };
    assert.equal(typed(day, '2026-13'), 'Enter a real date.');
  });
});
