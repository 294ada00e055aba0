// The host <-> webview protocol, the panel HTML with its CSP, and the confirmation texts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageEndpoint, edit, exportCsv, formData, openRow, rows, type WireMessage } from '../../src/board/protocol.ts';
import { boardHtml, contentSecurityPolicy, createNonce } from '../../src/board/html.ts';
import { describeChange, mailQuestion } from '../../src/board/confirmText.ts';

/** Two endpoints wired like host and webview, delivering asynchronously as postMessage does. */
function pair(): { host: MessageEndpoint; webview: MessageEndpoint; wire: WireMessage[] } {
  const wire: WireMessage[] = [];
  const host: MessageEndpoint = new MessageEndpoint((m) => { wire.push(m); queueMicrotask(() => webview.receive(structuredClone(m))); });
  const webview: MessageEndpoint = new MessageEndpoint((m) => { wire.push(m); queueMicrotask(() => host.receive(structuredClone(m))); });
  return { host, webview, wire };
}

describe('Board protocol', () => {
  test('notifications arrive with their params', async () => {
    const { host, webview, wire } = pair();
    const got: unknown[] = [];
    host.onNotification(edit, (params) => got.push(params));
    webview.notify(edit, { field: 'lastname', value: 'Schmidt' });
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(got, [{ field: 'lastname', value: 'Schmidt' }]);
    assert.deepEqual(wire, [{ method: 'board/edit', params: { field: 'lastname', value: 'Schmidt' } }]);
  });

  test('a request gets the answer with its id', async () => {
    const { host, webview, wire } = pair();
    webview.onRequest(formData, () => ({ lastname: 'Schmidt' }));
    assert.deepEqual(await host.request(formData, {}, 1000), { lastname: 'Schmidt' });
    assert.deepEqual(wire, [{ id: 1, method: 'board/formData', params: {} }, { id: 1, result: { lastname: 'Schmidt' } }]);
  });

  test('a failing handler rejects the request with its message; a missing one is named', async () => {
    const { host, webview } = pair();
    await assert.rejects(host.request(formData, {}, 1000), { message: 'no handler for board/formData' });
    webview.onRequest(formData, () => { throw new Error('form broken'); });
    await assert.rejects(host.request(formData, {}, 1000), { message: 'form broken' });
  });

  test('an unanswered request times out; cancelPending rejects open ones', async () => {
    const silent = new MessageEndpoint(() => {});
    await assert.rejects(silent.request(formData, {}, 20), { message: 'board/formData got no answer within 20 ms' });
    const open = silent.request(rows, { listId: 1, offset: 0, limit: 10, query: {} }, 10_000).catch((e: Error) => e.message);
    silent.cancelPending('the Board was closed');
    assert.equal(await open, 'the Board was closed');
  });

  test('garbage and unknown messages are ignored', () => {
    const endpoint = new MessageEndpoint(() => assert.fail('nothing to answer'));
    for (const m of [null, 42, 'x', {}, { method: 'board/unknown', params: {} }, { id: 99, result: 1 }]) endpoint.receive(m);
  });

  test('messages from the webview that do not fit their descriptor are dropped, never handled', async () => {
    const answers: WireMessage[] = [];
    const endpoint = new MessageEndpoint((m) => answers.push(m));
    const dropped: string[] = [];
    endpoint.onDropped = (method) => dropped.push(method);
    const handled: unknown[] = [];
    endpoint.onNotification(openRow, (p) => handled.push(p));
    endpoint.onNotification(edit, (p) => handled.push(p));
    endpoint.onNotification(exportCsv, (p) => handled.push(p));
    endpoint.onRequest(rows, (p) => { handled.push(p); return { listId: p.listId, offset: p.offset, rows: [], total: 0 }; });
    endpoint.receive({ method: 'board/openRow', params: { listId: 1, key: 7 } });
    endpoint.receive({ method: 'board/openRow', params: { row: 3 } });
    endpoint.receive({ method: 'board/edit', params: { value: 'no field' } });
    endpoint.receive({ method: 'board/exportCsv', params: { listId: 1, query: { sort: { field: 'age', direction: 'sideways' } } } });
    endpoint.receive({ id: 5, method: 'board/rows', params: { listId: 1, offset: -1, limit: 10, query: {} } });
    endpoint.receive({ id: 6, method: 'board/rows', params: { listId: 1, offset: 0, limit: 1_000_000, query: {} } });
    endpoint.receive({ method: 'board/nothing', params: {} });
    assert.deepEqual(handled, []);
    assert.deepEqual(dropped, ['board/openRow', 'board/openRow', 'board/edit', 'board/exportCsv', 'board/rows', 'board/rows', 'board/nothing']);
    assert.deepEqual(answers, [{ id: 5, error: 'malformed board/rows' }, { id: 6, error: 'malformed board/rows' }]);
    endpoint.receive({ method: 'board/openRow', params: { listId: 1, key: '7' } });
    endpoint.receive({ id: 7, method: 'board/rows', params: { listId: 1, offset: 100, limit: 100, query: { sort: { field: 'age', direction: 'desc' }, filter: 'Ber' } } });
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(handled, [{ listId: 1, key: '7' }, { listId: 1, offset: 100, limit: 100, query: { sort: { field: 'age', direction: 'desc' }, filter: 'Ber' } }]);
  });
});

describe('Board panel HTML', () => {
  const nonce = createNonce();
  const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
  const html = boardHtml({ cspSource, scriptUri: `${cspSource}/ext/dist/webview/board.js`, nonce, lang: 'de', title: 'XOS-Board' });

  test('a strict CSP with the nonce', () => {
    assert.equal(contentSecurityPolicy(cspSource, nonce),
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${cspSource} 'nonce-${nonce}'; img-src ${cspSource} data:; font-src ${cspSource}; connect-src 'none'; base-uri 'none'; form-action 'none'`);
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-${nonce}&#39;;`), html);
  });

  test('one nonce\'d module script, no inline script or handlers', () => {
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(scripts, [`<script type="module" nonce="${nonce}" src="${cspSource}/ext/dist/webview/board.js">`]);
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i);
    assert.match(html, /<script[^>]*><\/script>/);
    assert.match(html, /<html lang="de">/);
  });

  test('nonces are fresh and long enough; a bad one is refused', () => {
    assert.notEqual(createNonce(), createNonce());
    assert.match(createNonce(), /^[A-Za-z0-9+/]{22}==$/);
    assert.throws(() => boardHtml({ cspSource, scriptUri: 'x', nonce: 'short', lang: 'en', title: 't' }), { message: 'the nonce must be at least 16 base64 characters' });
  });
});

describe('confirmation texts', () => {
  test('a change reads old -> new', () => {
    assert.equal(describeChange('Last name', 'Müller', 'Schmidt'), 'Last name: Müller → Schmidt');
    assert.equal(describeChange('Notes', null, 'a\nb'), 'Notes: — → a b');
    assert.equal(describeChange('Company', { id: 3, name: 'Acme' }, 4), 'Company: Acme (#3) → 4');
  });

  test('a mail question names recipient, subject and the first lines', () => {
    assert.deepEqual(mailQuestion({ to: { name: 'Anna', email: 'anna@example.org' }, subject: 'Termin', body: 'Hallo Anna,\n\nwie besprochen.\nGruß\nMax' }), {
      recipient: 'anna@example.org ("Anna")', subject: 'Termin', preview: 'Hallo Anna, / wie besprochen. / Gruß …',
    });
  });
});
