// Creating and deleting records from the Board, where the AST's detail context allows it:
// asked first with exactly the values written, version-checked, nothing on a "no".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { astFromObject } from '../../src/ast/load.ts';
import { BoardState } from '../../src/board/state.ts';
import type { Confirmer, DeleteSummary, SaveSummary } from '../../src/core/domain.ts';
import { deleteShown, newRecord } from '../../src/core/records.ts';
import { MAX_REF_CHOICES, refChoices } from '../../src/core/refChoices.ts';
import { saveForm } from '../../src/core/save.ts';
import { showRecord } from '../../src/core/show.ts';
import type { CoreDeps } from '../../src/core/base.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import type { BoardOutcome } from '../../src/core/outcomes.ts';
import { agentText } from '../../src/mcp/wording.ts';

/** An outcome with the words the agent reads for it (src/mcp/wording.ts). */
const said = (outcome: BoardOutcome) => ({ ok: outcome.ok, text: agentText(demoApp(), outcome) });

interface Recorded extends Confirmer {
  saves: SaveSummary[];
  deletes: DeleteSummary[];
  save: 'save' | 'discard';
  remove: 'delete' | 'cancel';
}

function recorder(): Recorded {
  const r: Recorded = {
    saves: [], deletes: [], save: 'save', remove: 'delete',
    confirmSave: async (summary) => { r.saves.push(summary); return r.save; },
    confirmSend: async () => 'cancel',
    confirmDelete: async (summary) => { r.deletes.push(summary); return r.remove; },
  };
  return r;
}

describe('create and delete from the Board', () => {
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState; confirmer: Recorded };
  const count = async () => (await deps.client.run('{ person_list_count }')).data!.person_list_count as number;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 10 });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: recorder(), locale: 'en' };
  });
  after(() => backend.close());

  test('New from a list opens an empty form of the detail context that allows create; Save asks with every value, then inserts', async () => {
    const before = await count();
    assert.deepEqual(said(newRecord(deps, 'person_list')), { ok: true, text: '' });
    assert.equal(deps.board.snapshot().context, 'person_detail');
    assert.equal(deps.board.snapshot().detail!.isNew, true);
    // Required fields missing: refused before anyone is asked.
    deps.board.edit('firstname', 'Neu');
    const missing = said(await saveForm(deps, new AbortController().signal));
    assert.equal(missing.ok, false);
    assert.match(missing.text, /^Not created: person\.lastname: is required/);
    assert.equal(deps.confirmer.saves.length, 0);

    deps.board.edit('lastname', 'Anlage');
    deps.board.edit('city', 'Kiel');
    deps.confirmer.save = 'discard';
    assert.match(said(await saveForm(deps, new AbortController().signal)).text, /^Not created: the person chose Discard/);
    assert.equal(await count(), before);

    deps.confirmer.save = 'save';
    const created = said(await saveForm(deps, new AbortController().signal));
    assert.equal(created.ok, true, created.text);
    assert.match(created.text, /^Created person \d+ \(version 1\)\. Stored: firstname: "Neu"; lastname: "Anlage"; city: "Kiel"\.$/);
    const asked = deps.confirmer.saves.at(-1)!;
    assert.equal(asked.action, 'create');
    assert.deepEqual(asked.changes.map((c) => [c.field, c.from, c.to]), [['firstname', null, 'Neu'], ['lastname', null, 'Anlage'], ['city', null, 'Kiel']]);
    assert.equal(await count(), before + 1);
    const shown = deps.board.snapshot().detail!;
    assert.equal(shown.isNew, undefined);
    assert.equal(shown.version, 1);
    assert.equal(shown.record.lastname, 'Anlage');
  });

  test('Delete asks with the record\'s name, then deletes; Cancel deletes nothing; a record changed meanwhile is shown again, not deleted', async () => {
    const id = String(deps.board.snapshot().detail!.record.id);
    const before = await count();
    deps.confirmer.remove = 'cancel';
    assert.deepEqual(said(await deleteShown(deps, new AbortController().signal)), { ok: false, text: 'Not deleted: the person chose Cancel.' });
    assert.deepEqual(deps.confirmer.deletes.at(-1), { entity: 'person', id, name: 'Neu Anlage' });
    assert.equal(await count(), before);

    await deps.client.run('mutation($id: ID!) { update_person(id: $id, version: 1, set: { city: "Lübeck" }) { version } }', { id });
    deps.confirmer.remove = 'delete';
    const stale = said(await deleteShown(deps, new AbortController().signal));
    assert.equal(stale.ok, false);
    assert.match(stale.text, /was changed by someone else after it was loaded; the Board shows it as stored now/);
    assert.equal(deps.board.snapshot().detail!.record.city, 'Lübeck');
    assert.equal(await count(), before);

    assert.deepEqual(said(await deleteShown(deps, new AbortController().signal)), { ok: true, text: `Deleted person ${id}.` });
    assert.equal(await count(), before - 1);
  });

  test('where the AST allows neither, nothing is created or deleted', async () => {
    const ast = structuredClone(demoApp());
    delete ast.contexts.person_detail.create;
    delete ast.contexts.person_detail.delete;
    const plain = await startBackend({ ast: astFromObject(ast, 'plain.json'), dsn: 'sqlite::memory:', seed: 3 });
    try {
      const d: CoreDeps = { client: embeddedClient(plain), board: new BoardState(), confirmer: recorder(), locale: 'en' };
      assert.equal(said(newRecord(d, 'person_list')).ok, false);
      await showRecord(d, 'person_detail', '1');
      assert.deepEqual(said(await deleteShown(d, new AbortController().signal)), { ok: false, text: 'Records of person_detail cannot be deleted here.' });
    } finally {
      await plain.close();
    }
  });
});

describe('the ref picker', () => {
  let backend: Backend;
  let deps: CoreDeps & { board: BoardState };

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 40 });
    deps = { client: embeddedClient(backend), board: new BoardState(), confirmer: recorder(), locale: 'en' };
    await showRecord(deps, 'person_detail', '1');
  });
  after(() => backend.close());

  test('offers the related records whose name contains the text, by name, at most 20; the text is data, not query', async () => {
    const all = (await deps.client.run('{ company_list(limit: 1000) { id name } }')).data!.company_list as { id: string; name: string }[];
    const first = await refChoices(deps, 'company', '');
    assert.equal(first.length, Math.min(MAX_REF_CHOICES, all.length));
    assert.deepEqual(first.map((c) => c.label), [...first.map((c) => c.label)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const word = all[0].name.split(/\s+/)[0];
    const found = await refChoices(deps, 'company', word.toUpperCase());
    assert.ok(found.length > 0 && found.every((c) => c.label.toLowerCase().includes(word.toLowerCase())), JSON.stringify(found));
    assert.ok(found.some((c) => c.id === String(all[0].id)));
    for (const hostile of ['%', '_', '") { id } }', '\\']) assert.deepEqual(await refChoices(deps, 'company', hostile), [], hostile);
  });

  test('only an editable reference of the shown record can be searched', async () => {
    for (const field of ['firstname', 'employees', 'nope', 'id']) {
      await assert.rejects(refChoices(deps, field, ''), /is not an editable reference of the shown record/);
    }
  });
});
