// One app wiring for both front ends (src/app/xosApp.ts): what the extension host and xos-mcp
// both get from it — the controller and the tools on the same Board and the same questions, the
// saved notice with Undo, a mail setting read at every call, and the Board's unsaved work and
// history kept on disk and brought back by the next app.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { XosApp } from '../../src/app/xosApp.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { QuestionConfirmer } from '../../src/board/confirmer.ts';
import type { BoardUi } from '../../src/board/controller.ts';
import { translator } from '../../src/board/texts.ts';
import { showQuery, showRecord } from '../../src/core/show.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import * as protocol from '../../src/board/protocol.ts';
import { MessageEndpoint } from '../../src/board/protocol.ts';
import type { ListBlock } from '../../src/board/viewTypes.ts';
import { startWorkerBackend } from '../../src/graphql/workerBackend.ts';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import type { Mailer, XosClient } from '../../src/core/domain.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { tempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

let backend: Backend;
before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
});
after(() => backend?.close());

/** An app as a front end builds it, with the person's answers scripted and what they are told recorded. */
function makeApp(client: XosClient, answer: (buttons: readonly string[]) => string | undefined, options: { mailer?: () => Mailer | undefined; shown?: boolean } = {}) {
  const t = translator('en');
  const told: string[] = [];
  const asked: string[] = [];
  const ui: BoardUi = {
    t,
    tell: async (_kind, text) => {
      told.push(text);
      return undefined;
    },
    askDiscard: async () => false,
    setLocale: () => {},
    csvExport: async () => undefined,
    log: { info: () => {}, warn: () => {}, error: () => {} },
  };
  const app = new XosApp({
    client,
    locale: () => 'en',
    surface: { show: () => {}, isOpen: () => options.shown === true, isVisible: () => options.shown === true, setTitle: () => {} },
    ui: () => ui,
    confirmer: () => new QuestionConfirmer({
      ast: () => client.ast(), locale: () => 'en', t, timeoutSeconds: () => 30, gapMs: 0,
      ask: async ({ message, buttons }) => {
        asked.push(message);
        return answer(buttons);
      },
      log: { info: () => {} },
    }),
    contacts: () => undefined,
    mailer: options.mailer ?? (() => undefined),
    mailUndoSeconds: () => 7,
  });
  return { app, told, asked };
}

test('the Board and the tools share one Board and one confirmer; a stored save is announced with Undo', async () => {
  const client = embeddedClient(backend);
  const { app, told, asked } = makeApp(client, (buttons) => buttons[0]);
  try {
    const deps = app.deps();
    assert.equal(deps.board, app.controller.board, 'the tools work on the controller\'s Board');
    assert.equal(deps.confirmer, app.confirmer);
    assert.equal((await showRecord(deps, 'person_detail', '2')).ok, true);
    assert.equal(app.state.snapshot().detail?.record.id, '2', 'what a tool shows is the controller\'s state');
    app.controller.board.edit('city', 'Lübeck');
    await app.controller.records.save();
    assert.equal(asked.length, 1, 'the person was asked once');
    assert.match(asked[0], /Lübeck/);
    const stored = await backend.api.run({ query: '{ person_detail(id: "2") { city } }' });
    assert.deepEqual(stored.data, { person_detail: { city: 'Lübeck' } });
    // onSaved is bound to the controller's saved notice.
    await until('the saved notice', () => told.some((text) => /Lübeck/.test(text)));
  } finally {
    app.dispose();
  }
});

test('the mail setting and its undo window are read at every call', () => {
  let mailer: Mailer | undefined;
  const { app } = makeApp(embeddedClient(backend), () => undefined, { mailer: () => mailer });
  try {
    assert.equal(app.deps().mailer, undefined);
    mailer = { from: 'office@nordlicht.example', send: async () => ({ messageId: 'x' }) } as unknown as Mailer;
    assert.equal(app.deps().mailer, mailer);
    assert.equal(app.deps().mailWindow?.seconds, 7);
  } finally {
    app.dispose();
  }
});

test('unsaved work and where the Board was are kept on disk and come back in the next app', async () => {
  await using temp = await tempDir('xos-app');
  const dir = temp.path;
  const client = embeddedClient(backend);
  const first = makeApp(client, () => undefined).app;
  const kept = first.keepWork(dir, (text) => assert.fail(text));
  assert.equal(kept.draft, undefined);
  assert.equal(kept.restoreHistory(), false, 'nothing kept yet');
  assert.equal((await showRecord(first.deps(), 'person_detail', '3')).ok, true);
  first.controller.board.edit('lastname', 'Kept');
  // Disposing writes what is due at once (the keepers wait DRAFT_DELAY_MS otherwise).
  first.dispose();
  assert.ok(existsSync(kept.draftPath), `no draft at ${kept.draftPath}`);
  assert.match(readFileSync(kept.draftPath, 'utf8'), /Kept/);
  assert.ok(existsSync(kept.historyPath), `no history at ${kept.historyPath}`);

  const second = makeApp(client, () => undefined).app;
  try {
    const again = second.keepWork(dir, (text) => assert.fail(text));
    assert.equal(again.draft?.draft.detail?.record.id, '3');
    assert.equal(again.restoreHistory(), true);
    assert.equal(second.controller.history.view(client.ast(), 'en').crumbs.length, 1);
    second.state.restore(again.draft!.draft);
    assert.deepEqual(second.state.snapshot().edited, ['lastname']);
    assert.equal((await second.state.formData()).lastname, 'Kept');
  } finally {
    second.dispose();
  }
});

test('the page\'s windows of a sort it left are called off, and never read', async () => {
  await using dir = await tempDir('xos-app');
  const file = join(dir.path, 'xos.db');
  const worker = await startWorkerBackend({ ast: demoApp(), dsn: `sqlite:${file}`, seed: true });
  const { app } = makeApp(worker.client, () => undefined, { shown: true });
  // The Board's page, through a real endpoint pair.
  const ends: { host?: MessageEndpoint } = {};
  const page = new MessageEndpoint((message) => queueMicrotask(() => ends.host!.receive(message)));
  const host = (ends.host = new MessageEndpoint((message) => queueMicrotask(() => page.receive(message))));
  let list: ListBlock | null = null;
  page.onNotification(protocol.list, (params) => { list = params.list; });
  const disconnect = app.controller.connect(host);
  const other = new DatabaseSync(file);
  let held = false;
  try {
    page.notify(protocol.ready, {});
    assert.equal((await showQuery(app.deps(), 'person_list', exampleQuery(demoApp(), 'person_list'))).ok, true);
    await until('the list on the page', () => list !== null);
    const listId = list!.listId;
    const before = (await worker.stats()).runs;
    // The worker is held: a write waits for SQLite's lock, and every request after it waits too.
    other.exec('BEGIN IMMEDIATE');
    held = true;
    const write = worker.client.run('mutation { update_person(id: "5", version: 1, set: { city: "Husum" }) { version } }', undefined, { path: 'agent', approval: 'test' });
    const byCity = page.request(protocol.rows, { listId, offset: 100, limit: 50, query: { sort: { field: 'city', direction: 'asc' } } }, 10_000)
      .then(() => 'answered', (error: Error) => `rejected: ${error.message}`);
    const byAge = page.request(protocol.rows, { listId, offset: 0, limit: 50, query: { sort: { field: 'age', direction: 'desc' } } }, 10_000);
    assert.match(await byCity, /^rejected: .*sort or filter changed/);
    other.exec('ROLLBACK');
    held = false;
    await write;
    const rows = await byAge;
    assert.equal(rows.rows.length, 50);
    const stats = await worker.stats();
    assert.equal(stats.skipped, 1, 'the window by city was never read');
    assert.equal(stats.runs - before, 2, 'the write and the window by age were');
  } finally {
    if (held) other.exec('ROLLBACK');
    other.close();
    disconnect();
    app.dispose();
    await worker.close();
  }
});
