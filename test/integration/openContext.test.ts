// The person opens a context without the agent (Board start page, palette, XOS view):
// the app's lists in AST order with labels in the locale, shown through the agent's
// xos_query path on the real embedded backend.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { openableContexts, openContext } from '../../src/core/openContext.ts';
import type { CoreDeps } from '../../src/core/useCases.ts';
import { embeddedClient } from '../../src/graphql/client.ts';

const neverAsked: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };

describe('opening a context without the agent', () => {
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState };

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 30 });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: neverAsked, locale: 'en' };
  });
  after(() => backend.close());

  test('the openable contexts are the lists, in AST order, labelled in the locale', () => {
    assert.deepEqual(openableContexts(demoApp(), 'en').map((c) => [c.name, c.label]), [
      ['person_list', 'People'], ['company_list', 'Companies'], ['deal_list', 'Deals'],
    ]);
    assert.deepEqual(openableContexts(demoApp(), 'de').map((c) => c.label), ['Personen', 'Firmen', 'Geschäfte']);
  });

  test('a list opens with every record, its fields and the count, as a window source', async () => {
    const outcome = await openContext(deps, 'company_list');
    assert.equal(outcome.ok, true, outcome.text);
    const list = deps.board.list()!;
    assert.equal(list.context, 'company_list');
    const stored = (await deps.client.run('{ company_list_count }')).data!.company_list_count as number;
    assert.equal(list.source.total, stored);
    const fields = demoApp().contexts.company_list.list_fields;
    const first = list.source.first.records[0];
    for (const field of fields) assert.ok(field in first, `${field} missing from the shown record`);
  });

  test('a detail context, an unknown name and a prototype key are refused and the Board keeps what it shows', async () => {
    await openContext(deps, 'person_list');
    for (const name of ['person_detail', 'nope', '__proto__', 'constructor']) {
      const outcome = await openContext(deps, name);
      assert.equal(outcome.ok, false, name);
      assert.match(outcome.text, name === 'person_detail' ? /shows one record: open it from a list/ : /has no context/);
    }
    assert.equal(deps.board.list()!.context, 'person_list');
  });
});
