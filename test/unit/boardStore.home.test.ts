// The way back to the app's lists (webview/state.ts): the start page is one step away from every
// view. The breadcrumb's root (the app's name) shows it over whatever the Board holds, and Back
// from the first step leads there too; Back or Forward returns, and whatever the host shows next
// takes its place. Driven through a fake host that speaks the Board protocol.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as protocol from '../../src/board/protocol.ts';
import { webviewTexts } from '../../src/board/view.ts';
import type { DetailBlock, ListBlock } from '../../src/board/viewTypes.ts';
import { BoardStore } from '../../webview/state.ts';
import { FakeBoardHost } from '../support/fakeBoardHost.ts';

function list(listId: number): ListBlock {
  return {
    listId, context: 'customer_list', label: 'Customers', total: 1, rows: [{ key: '5', values: [5] }], navigable: true, query: {}, canCreate: true,
    columns: [{ field: 'id', label: 'ID', type: 'id', numeric: true, sortable: true }],
  };
}

function detail(key: string): DetailBlock {
  return {
    context: 'customer_detail', key, label: 'Customer', summary: key, fields: [], canSave: true, dirty: false,
    proposals: 0, conflicts: 0, isNew: false, canDelete: true, sections: [],
  };
}

function setup() {
  const host = new FakeBoardHost();
  const store = new BoardStore(host, { lang: 'en', setLang: () => {} });
  host.send(protocol.locale, { locale: 'en', texts: webviewTexts('en'), contexts: [{ name: 'album_list', label: 'Albums', entityLabel: 'Album' }], app: 'Chinook' });
  const navigations = () => host.sent.filter((s) => s.method === protocol.navigate.method).map((s) => (s.params as { direction: string }).direction);
  return { host, store, navigations };
}

describe('the start page is one step away from every view', () => {
  test('the app\'s name comes with the locale: the start page\'s heading and the breadcrumb\'s root', () => {
    const { store } = setup();
    assert.equal(store.app, 'Chinook');
  });

  test('Back from the first list shows the start page; Forward returns to the list, the host untouched', () => {
    const { host, store, navigations } = setup();
    host.send(protocol.list, { list: list(1) });
    host.send(protocol.history, { history: { canBack: false, canForward: false, crumbs: [{ label: 'Customers', current: true }] } });
    assert.equal(store.canBack, true, 'Back leads to the start page from the first step');
    store.back();
    assert.equal(store.home, 'back');
    assert.equal(store.canBack, false);
    assert.equal(store.canForward, true);
    store.forward();
    assert.equal(store.home, null);
    assert.deepEqual(navigations(), [], 'the host\'s history is not moved for the start page');
  });

  test('the breadcrumb\'s root shows the start page from a record; Back returns; opening a list leaves it', () => {
    const { host, store, navigations } = setup();
    host.send(protocol.list, { list: null });
    host.send(protocol.detail, { detail: detail('5') });
    host.send(protocol.history, { history: { canBack: true, canForward: false, crumbs: [{ label: 'Customers', current: false }, { label: 'Customer 5', current: true }] } });
    store.goHome();
    assert.equal(store.home, 'root');
    assert.equal(store.canBack, true);
    assert.equal(store.canForward, false);
    store.back();
    assert.equal(store.home, null, 'Back leaves the start page for the record');
    assert.deepEqual(navigations(), []);
    store.back();
    assert.deepEqual(navigations(), ['back'], 'then Back walks the host\'s history');

    store.goHome();
    host.send(protocol.detail, { detail: detail('5') });
    assert.equal(store.home, 'root', 'the same record sent again (a refresh) keeps the start page');
    store.openContext('album_list');
    assert.deepEqual(host.sent.at(-1), { method: protocol.openContext.method, params: { context: 'album_list' } });
    host.send(protocol.detail, { detail: null });
    host.send(protocol.list, { list: list(2) });
    assert.equal(store.home, null, 'the list opened takes the start page\'s place');
  });

  test('whatever the agent shows next takes the start page\'s place', () => {
    const { host, store } = setup();
    host.send(protocol.list, { list: list(1) });
    store.goHome();
    host.send(protocol.list, { list: list(1) });
    assert.equal(store.home, 'root', 'the same list sent again keeps it');
    host.send(protocol.list, { list: null });
    host.send(protocol.detail, { detail: detail('7') });
    assert.equal(store.home, null);
  });

  test('a Board that shows nothing has no start page to go to: it is one', () => {
    const { store } = setup();
    store.goHome();
    assert.equal(store.home, null);
    assert.equal(store.canBack, false);
  });
});
