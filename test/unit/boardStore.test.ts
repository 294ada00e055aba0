// The Board's state in the webview (webview/state.ts), driven in Node through a fake host
// that speaks the Board protocol (src/board/protocol.ts): what the store sends and asks is
// recorded (and checked by the protocol's guards, as the real host does), and the test sends
// the host's notifications and answers the store's requests itself, in any order. And the
// StoreController (webview/storeController.ts) on fake elements: it takes the store from a
// provider above (@lit/context, as <xos-board> provides it) and updates its element on the
// topics it reads, only while connected.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContextProvider } from '@lit/context';
import type { ReactiveController } from 'lit';
import * as protocol from '../../src/board/protocol.ts';
import { webviewTexts } from '../../src/board/view.ts';
import type { DetailBlock, FormField, GridRow, ListBlock } from '../../src/board/viewTypes.ts';
import { BoardStore, CHUNK_ROWS, type BoardPage, type Topic } from '../../webview/state.ts';
import { StoreController, boardStoreContext, type StoreHost } from '../../webview/storeController.ts';
import { FakeBoardHost, settle, type Asked } from '../support/fakeBoardHost.ts';

/** The host's side of the Board protocol, played by the test, with the list's rows. */
class FakeHost extends FakeBoardHost {
  /** The store's rows requests not answered yet, in the order asked. */
  openRows(): Asked<protocol.RowsParams>[] {
    return this.open(protocol.rows);
  }

  /** Answers a rows request with rows numbered from its offset. */
  answerRows(asked: Asked<protocol.RowsParams>, total: number, listId = asked.params.listId): void {
    const count = Math.max(0, Math.min(asked.params.limit, total - asked.params.offset));
    const result: protocol.RowsResult = { listId, offset: asked.params.offset, rows: rowsFrom(asked.params.offset, count), total };
    asked.resolve(result);
  }
}

/** The page's language, as main.ts gives it from <html lang>. */
function fakePage(lang = ''): BoardPage & { readonly set: string[] } {
  const set: string[] = [];
  return { lang, set, setLang: (locale) => void set.push(locale) };
}

const TOPICS: readonly Topic[] = ['locale', 'list', 'rows', 'detail', 'mail', 'status', 'history', 'connection', 'problems', 'question'];

/** Every topic the store emits, in order. */
function topicsOf(store: BoardStore): Topic[] {
  const seen: Topic[] = [];
  for (const topic of TOPICS) store.subscribe([topic], () => seen.push(topic));
  return seen;
}

function setup(lang = 'en') {
  const host = new FakeHost();
  const page = fakePage(lang);
  const store = new BoardStore(host, page);
  return { host, page, store, seen: topicsOf(store) };
}

function rowsFrom(offset: number, count: number): GridRow[] {
  return Array.from({ length: count }, (_, i) => ({ key: String(offset + i + 1), values: [offset + i + 1, `Person ${offset + i + 1}`] }));
}

function listBlock(listId: number, overrides: Partial<ListBlock> = {}): ListBlock {
  return {
    listId, context: 'person_list', label: 'People', total: 1000, rows: rowsFrom(0, CHUNK_ROWS), navigable: true, query: {}, canCreate: true,
    columns: [
      { field: 'id', label: 'ID', type: 'id', numeric: true, sortable: true },
      { field: 'lastname', label: 'Last name', type: 'text', numeric: false, sortable: true },
    ],
    ...overrides,
  };
}

function field(name: string, value: string, extra: Partial<FormField> = {}): FormField {
  return { field: name, label: name, type: 'text', input: 'text', editable: true, required: false, value, display: value, ...extra };
}

function detailBlock(key: string, fields: readonly FormField[]): DetailBlock {
  return {
    context: 'person_detail', key, label: 'Person', summary: key, fields, canSave: true, dirty: fields.some((f) => f.edited),
    proposals: 0, conflicts: 0, isNew: false, canDelete: true, sections: [{ fields: fields.map((f) => f.field) }],
  };
}

function question(id: number, kind: protocol.Question['kind'] = 'save'): protocol.Question {
  return { id, kind, message: `Question ${id}?`, buttons: ['Save', 'Cancel'] };
}

describe('BoardStore', () => {
  test('starts in the page\'s language, says ready, and takes the host\'s locale, texts and contexts', () => {
    assert.equal(new BoardStore(new FakeHost(), fakePage('')).locale, 'en', 'a page without a language starts in English');
    const { host, page, store, seen } = setup('de');
    assert.equal(store.locale, 'de');
    assert.equal(store.texts, undefined);
    store.start();
    assert.deepEqual(host.sent, [{ method: 'board/ready', params: {} }]);

    const texts = webviewTexts('de');
    const contexts = [{ name: 'person_list', label: 'Personen', entityLabel: 'Person' }];
    host.send(protocol.locale, { locale: 'en', texts, contexts, locales: ['de', 'en'] });
    assert.deepEqual(seen, ['locale'], 'only the locale topic');
    assert.equal(store.locale, 'en');
    assert.equal(store.texts, texts);
    assert.deepEqual(store.contexts, contexts);
    assert.deepEqual(store.locales, ['de', 'en']);
    assert.deepEqual(page.set, ['en'], 'the page takes the Board\'s language');

    // Without contexts and locales (an older host): empty lists, not undefined.
    host.send(protocol.locale, { locale: 'de', texts, contexts: undefined as never });
    assert.deepEqual([store.contexts, store.locales], [[], []]);
    // Choosing the language the Board already has sends nothing.
    store.setLocale('de');
    store.setLocale('en');
    assert.deepEqual(host.sent.slice(1), [{ method: 'board/setLocale', params: { locale: 'en' } }]);
  });

  test('a list resets the rows, keeps its first rows, and asks for the rest in chunks, at most 4 at once', async () => {
    const { host, store, seen } = setup();
    host.send(protocol.list, { list: listBlock(1) });
    assert.deepEqual(seen, ['list', 'rows']);
    assert.equal(store.total, 1000);
    assert.equal(store.row(0)?.key, '1');
    assert.equal(store.row(CHUNK_ROWS - 1)?.key, String(CHUNK_ROWS));
    assert.equal(store.row(CHUNK_ROWS), undefined);
    assert.equal(host.asked.length, 0, 'the list came with its first rows');

    // The grid shows rows 0..999: the missing chunks are asked for, only 4 at a time.
    store.ensureRows(0, 999);
    const first = host.openRows();
    assert.deepEqual(first.map((a) => a.params), [1, 2, 3, 4].map((chunk) => ({ listId: 1, offset: chunk * CHUNK_ROWS, limit: CHUNK_ROWS, query: {} })));
    assert.ok(first.every((a) => a.timeoutMs > 0));
    store.ensureRows(0, 999);
    assert.equal(host.openRows().length, 4, 'a chunk asked for is not asked again, and no fifth goes out');

    seen.length = 0;
    host.answerRows(first[0], 1000);
    await settle();
    assert.deepEqual(seen, ['rows']);
    assert.equal(store.row(CHUNK_ROWS)?.key, String(CHUNK_ROWS + 1));
    assert.equal(store.row(2 * CHUNK_ROWS - 1)?.key, String(2 * CHUNK_ROWS));
    // One answered: one more may go out, the next missing chunk.
    store.ensureRows(0, 999);
    assert.deepEqual(host.openRows().map((a) => a.params.offset), [200, 300, 400, 500]);

    // A failed window says why; the chunk can be asked for again.
    seen.length = 0;
    host.openRows()[0].reject(new Error('database gone'));
    await settle();
    assert.deepEqual(seen, ['rows']);
    assert.equal(store.rowsError, 'database gone');
    store.ensureRows(200, 299);
    assert.deepEqual(host.openRows().map((a) => a.params.offset), [300, 400, 500, 200]);
  });

  test('the row cache is bounded: a chunk long scrolled past is asked for again', async () => {
    const { host, store } = setup();
    host.send(protocol.list, { list: listBlock(1, { total: 100_000 }) });
    for (let chunk = 1; chunk <= 60; chunk++) {
      store.ensureRows(chunk * CHUNK_ROWS, chunk * CHUNK_ROWS + CHUNK_ROWS - 1);
      const [asked] = host.openRows();
      assert.equal(asked.params.offset, chunk * CHUNK_ROWS);
      host.answerRows(asked, 100_000);
      await settle();
    }
    assert.equal(store.row(60 * CHUNK_ROWS)?.key, String(60 * CHUNK_ROWS + 1));
    assert.equal(store.row(0), undefined, 'the first chunk, least recently seen, left the cache');
    assert.equal(store.row(CHUNK_ROWS)?.key, String(CHUNK_ROWS + 1));
    store.ensureRows(0, CHUNK_ROWS - 1);
    assert.deepEqual(host.openRows().map((a) => a.params.offset), [0]);
  });

  test('answers for an older list or query are dropped', async () => {
    const { host, store, seen } = setup();
    host.send(protocol.list, { list: listBlock(1) });
    store.ensureRows(0, 499);
    const older = host.openRows();
    assert.equal(older.length, 4);

    // A new list with the person's filter: no rows of its own, the total is not known yet.
    host.send(protocol.list, { list: listBlock(2, { query: { filter: 'Mei' }, total: 500 }) });
    assert.equal(store.total, undefined);
    assert.equal(store.row(0), undefined);
    assert.deepEqual(store.query, { filter: 'Mei' });
    store.ensureRows(0, 499);
    const current = host.openRows().slice(older.length);
    assert.deepEqual(current.map((a) => [a.params.offset, a.params.query]), [[0, { filter: 'Mei' }]], 'with the total unknown, only the first chunk');

    seen.length = 0;
    for (const asked of older.slice(0, -1)) host.answerRows(asked, 1000);
    older.at(-1)!.reject(new Error('late failure'));
    await settle();
    assert.deepEqual(seen, [], 'nothing changed');
    assert.equal(store.row(CHUNK_ROWS), undefined);
    assert.equal(store.total, undefined);
    assert.equal(store.rowsError, undefined);

    host.answerRows(current[0], 3);
    await settle();
    assert.deepEqual(seen, ['rows']);
    assert.equal(store.total, 3);
    assert.equal(store.row(2)?.key, '3');

    // A sort by the person: the rows start over with the new query; the old query's answer is dropped.
    store.ensureRows(0, 2);
    seen.length = 0;
    store.sortBy('lastname');
    assert.deepEqual(seen, ['list', 'rows']);
    assert.deepEqual(store.query, { filter: 'Mei', sort: { field: 'lastname', direction: 'asc' } });
    assert.equal(store.row(0), undefined);
    const sorted = host.openRows();
    assert.deepEqual(sorted.map((a) => a.params.query), [{ filter: 'Mei', sort: { field: 'lastname', direction: 'asc' } }]);
    // An answer naming another list is dropped as well.
    host.answerRows(sorted[0], 3, 1);
    await settle();
    assert.equal(store.row(0), undefined);
    store.sortBy('lastname');
    assert.deepEqual(store.query.sort, { field: 'lastname', direction: 'desc' });
    store.sortBy('lastname');
    assert.deepEqual(store.query, { filter: 'Mei' }, 'the third click gives the agent\'s order back');
  });

  test('the person\'s edits are sent as typed, kept for the host\'s formData, and dropped when the host no longer counts them', async () => {
    const { host, store, seen } = setup();
    host.send(protocol.detail, { detail: detailBlock('person_detail:1', [field('city', 'Bonn'), field('lastname', 'Meier')]) });
    assert.deepEqual(seen, ['problems', 'detail']);

    store.edit('city', 'Kiel', 'Kiel');
    store.edit('lastname', null);
    assert.deepEqual(host.sent, [
      { method: 'board/edit', params: { field: 'city', value: 'Kiel' } },
      { method: 'board/edit', params: { field: 'lastname', value: null } },
    ]);
    assert.deepEqual(await host.ask(protocol.formData, {}), { city: 'Kiel', lastname: null });
    assert.equal(store.inputValue('city', 'Bonn'), 'Kiel', 'the input keeps what was typed');
    assert.equal(store.inputValue('lastname', 'Meier'), 'Meier', 'nothing typed: what the host sent');

    // The host's form state for this record: problems, edited fields, unsaved.
    seen.length = 0;
    host.send(protocol.formState, { key: 'person_detail:1', problems: { city: 'Too short' }, edited: ['city', 'lastname'], dirty: true });
    assert.deepEqual(seen, ['problems']);
    assert.deepEqual(store.problems, { city: 'Too short' });
    assert.deepEqual([...store.edited], ['city', 'lastname']);
    assert.equal(store.dirty, true);
    // ... but not the state of another record.
    host.send(protocol.formState, { key: 'person_detail:2', problems: {}, edited: [], dirty: false });
    assert.deepEqual(store.problems, { city: 'Too short' });

    // The same record again: city still the person's edit, lastname reverted by the host.
    host.send(protocol.detail, { detail: detailBlock('person_detail:1', [field('city', 'Kiel', { edited: true }), field('lastname', 'Meier')]) });
    assert.deepEqual(await host.ask(protocol.formData, {}), { city: 'Kiel' });
    assert.equal(store.inputValue('lastname', 'Meier'), 'Meier');
    assert.deepEqual([...store.edited], ['city']);
    assert.equal(store.dirty, true);

    // Another record: nothing of the first is carried over.
    host.send(protocol.detail, { detail: detailBlock('person_detail:2', [field('city', 'Bonn')]) });
    assert.deepEqual(await host.ask(protocol.formData, {}), {});
    assert.equal(store.inputValue('city', 'Bonn'), 'Bonn');
    assert.deepEqual(store.problems, {});
  });

  test('a second question while one is open waits behind it, and shows when the first is answered', async () => {
    const { host, store, seen } = setup();
    // Read afresh each time (an assertion would narrow a property read once).
    const shown = () => store.questions.current;
    const first = host.ask(protocol.ask, question(1));
    await settle();
    assert.equal(shown()?.id, 1);
    assert.deepEqual(seen, ['question']);

    const second = host.ask(protocol.ask, question(2, 'send'));
    await settle();
    assert.equal(shown()?.id, 1, 'the open question stays');
    assert.equal(shown()?.waiting, 1);
    // The host's own queue behind it: its count plus the page's own.
    host.send(protocol.questionWaiting, { id: 1, waiting: 2 });
    assert.equal(shown()?.waiting, 3);
    host.send(protocol.questionWaiting, { id: 2, waiting: 5 });
    assert.equal(shown()?.waiting, 3, 'a count for a question not shown changes nothing');

    store.questions.answer('Save');
    assert.deepEqual(await first, { choice: 'Save' });
    assert.equal(shown()?.id, 2, 'then the waiting question shows');
    assert.equal(shown()?.kind, 'send');
    store.questions.answer('Send everything');
    assert.deepEqual(await second, { choice: null }, 'a title that is not one of its buttons declines');
    assert.equal(shown(), null);

    // Withdrawn by the host: a waiting one leaves the queue, the open one closes.
    const third = host.ask(protocol.ask, question(3));
    const fourth = host.ask(protocol.ask, question(4));
    await settle();
    assert.equal(shown()?.waiting, 1);
    host.send(protocol.withdrawQuestion, { id: 4 });
    assert.deepEqual(await fourth, { choice: null });
    assert.equal(shown()?.id, 3);
    assert.equal(shown()?.waiting, 0);
    host.send(protocol.withdrawQuestion, { id: 3 });
    assert.deepEqual(await third, { choice: null });
    assert.equal(shown(), null);
  });

  test('over the real MessageEndpoint (what main.ts gives it): ready goes out, the host\'s list comes in', async () => {
    const wire: protocol.WireMessage[] = [];
    const hostSide: protocol.MessageEndpoint = new protocol.MessageEndpoint((m) => queueMicrotask(() => webviewSide.receive(structuredClone(m))));
    const webviewSide: protocol.MessageEndpoint = new protocol.MessageEndpoint((m) => {
      wire.push(m);
      queueMicrotask(() => hostSide.receive(structuredClone(m)));
    });
    hostSide.onNotification(protocol.ready, () => hostSide.notify(protocol.list, { list: listBlock(7) }));
    const store = new BoardStore(webviewSide, fakePage('en'));
    const seen = topicsOf(store);
    store.start();
    await settle();
    assert.deepEqual(wire, [{ method: 'board/ready', params: {} }]);
    assert.deepEqual(seen, ['list', 'rows']);
    assert.equal(store.list?.listId, 7);
  });
});

/** An element as far as a controller sees it; `parent` passes bubbling events up, as the page's tree does. */
class FakeElement extends EventTarget {
  readonly localName: string;
  readonly parent: FakeElement | undefined;
  readonly controllers: ReactiveController[] = [];
  updates = 0;

  constructor(localName: string, parent?: FakeElement) {
    super();
    this.localName = localName;
    this.parent = parent;
  }

  addController(controller: ReactiveController): void {
    this.controllers.push(controller);
  }

  removeController(controller: ReactiveController): void {
    this.controllers.splice(this.controllers.indexOf(controller), 1);
  }

  requestUpdate(): void {
    this.updates++;
  }

  get updateComplete(): Promise<boolean> {
    return Promise.resolve(true);
  }

  connect(): void {
    for (const controller of this.controllers) controller.hostConnected?.();
  }

  disconnect(): void {
    for (const controller of this.controllers) controller.hostDisconnected?.();
  }

  override dispatchEvent(event: Event): boolean {
    const result = super.dispatchEvent(event);
    if (event.bubbles && !event.cancelBubble && this.parent) return this.parent.dispatchEvent(event);
    return result;
  }

  get asHost(): StoreHost {
    return this as unknown as StoreHost;
  }
}

const TEXTS = webviewTexts('en');
const sendLocale = (host: FakeHost) => host.send(protocol.locale, { locale: 'en', texts: TEXTS, contexts: [] });
const sendStatus = (host: FakeHost) => host.send(protocol.status, { status: { kind: 'info', text: 'Saved.' } });

describe('StoreController', () => {
  test('takes the store from the provider above, and updates its element on its topics only while connected', () => {
    const host = new FakeHost();
    const store = new BoardStore(host, fakePage());
    const root = new FakeElement('xos-board');
    new ContextProvider(root.asHost, { context: boardStoreContext, initialValue: store });
    const part = new FakeElement('xos-record-history', root);
    let changes = 0;
    const board = new StoreController(part.asHost, ['locale', 'detail'], () => changes++);
    assert.throws(() => board.store, /<xos-record-history> has no Board store/);

    part.connect();
    assert.equal(board.store, store);
    const connected = part.updates;
    sendLocale(host);
    assert.equal(part.updates, connected + 1);
    assert.equal(changes, 1, 'the callback runs on a change too');
    sendStatus(host);
    assert.equal(part.updates, connected + 1, 'a topic it does not read');
    assert.equal(changes, 1);

    part.disconnect();
    sendLocale(host);
    assert.equal(part.updates, connected + 1, 'disconnected: no updates');
    assert.equal(changes, 1);

    part.connect();
    const reconnected = part.updates;
    sendLocale(host);
    assert.equal(part.updates, reconnected + 1, 'connected again: subscribed once, not twice');
    assert.equal(changes, 2);
  });

  test('follows the provider to another store, and lets go of the provider when disconnected', () => {
    const firstHost = new FakeHost();
    const secondHost = new FakeHost();
    const first = new BoardStore(firstHost, fakePage());
    const second = new BoardStore(secondHost, fakePage());
    const root = new FakeElement('xos-board');
    const provider = new ContextProvider(root.asHost, { context: boardStoreContext, initialValue: first });
    const part = new FakeElement('xos-list-grid', root);
    const board = new StoreController(part.asHost, ['locale']);
    part.connect();

    provider.setValue(second);
    assert.equal(board.store, second);
    const before = part.updates;
    sendLocale(firstHost);
    assert.equal(part.updates, before, 'the old store no longer updates it');
    sendLocale(secondHost);
    assert.equal(part.updates, before + 1);

    part.disconnect();
    provider.setValue(first);
    assert.equal(board.store, second, 'a disconnected part is not told');
  });

  test('on the root, which provides the store, it takes the store it is given', () => {
    const host = new FakeHost();
    const store = new BoardStore(host, fakePage());
    const root = new FakeElement('xos-board');
    const provider = new ContextProvider(root.asHost, { context: boardStoreContext });
    const board = new StoreController(root.asHost, ['locale']);
    root.connect();
    assert.throws(() => board.store, /no Board store/, 'a provider does not answer its own element');

    provider.setValue(store);
    board.setStore(store);
    const given = root.updates;
    sendLocale(host);
    assert.equal(root.updates, given + 1);
    board.setStore(undefined);
    sendLocale(host);
    assert.equal(root.updates, given + 2, 'only the update of letting go');
    assert.throws(() => board.store, /no Board store/);
  });
});

describe('edits in the list grid', () => {
  const editable = { lastname: { field: 'lastname', label: 'Last name', type: 'text', numeric: false, sortable: true, input: 'text', required: true } } as const;

  test('an edit of an editable cell goes to the host and shows at once; the host\'s answer replaces it; a new list drops them', () => {
    const { host, store } = setup();
    const changes: number[] = [];
    store.subscribe(['gridEdits'], () => changes.push(store.gridEdits?.cells.length ?? -1));
    host.send(protocol.list, { list: listBlock(1, { editors: editable }) });
    store.editGridCell('2', 'id', 99);
    store.editGridCell('2', 'lastname', 'Neu');
    assert.deepEqual(host.sent.filter((m) => m.method === 'board/gridEdit').map((m) => m.params), [{ listId: 1, key: '2', field: 'lastname', value: 'Neu' }], 'only an editable column is sent');
    assert.deepEqual(store.gridEdit('2', 'lastname'), { value: 'Neu' });
    host.send(protocol.gridEdits, { gridEdits: { listId: 1, cells: [{ key: '2', field: 'lastname', value: '', problem: 'Required.' }], canSave: false } });
    assert.deepEqual(store.gridEdit('2', 'lastname'), { key: '2', field: 'lastname', value: '', problem: 'Required.' });
    // The host's edits of another list are not this list's.
    host.send(protocol.gridEdits, { gridEdits: { listId: 7, cells: [{ key: '3', field: 'lastname', value: 'X' }], canSave: true } });
    assert.equal(store.gridEdits, null);
    host.send(protocol.gridEdits, { gridEdits: { listId: 1, cells: [{ key: '2', field: 'lastname', value: 'Neu' }], canSave: true } });
    store.gridEditsAction('save');
    assert.deepEqual(host.sent.filter((m) => m.method === 'board/gridEditsAction').map((m) => m.params), [{ listId: 1, action: 'save' }]);
    host.send(protocol.list, { list: listBlock(2, { editors: editable }) });
    assert.equal(store.gridEdits, null);
    assert.equal(store.gridEdit('2', 'lastname'), undefined);
    assert.ok(changes.length >= 4);
  });
});
