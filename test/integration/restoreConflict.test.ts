// Unsaved Board work restored after a reload or crash, on a record someone else saved
// meanwhile: the kept edits sit on the stored version and the fields both changed are
// conflicts, shown side by side on the form (loaded, stored now, mine).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { detailBlock } from '../../src/board/view.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { checkRestored } from '../../src/core/restore.ts';
import { showRecord } from '../../src/core/show.ts';
import type { CoreDeps } from '../../src/core/base.ts';
import { embeddedClient } from '../../src/graphql/client.ts';

const neverAsked: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };
let backend: Backend;

before(async () => {
  backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: 10 });
});
after(() => backend.close());

function deps(board: BoardState): CoreDeps {
  return { client: embeddedClient(backend), board, confirmer: neverAsked, locale: 'en' };
}

test('a restored draft on an unchanged record stays as it was', async () => {
  const first = new BoardState();
  await showRecord(deps(first), 'person_detail', '1');
  first.edit('city', 'Kiel');
  const restored = new BoardState();
  restored.restore(first.draft());
  assert.deepEqual(await checkRestored(deps(restored)), { state: 'current' });
  assert.deepEqual(restored.snapshot().conflicts, {});
  assert.equal(restored.formValues().city, 'Kiel');
});

test('a restored draft on a record saved meanwhile keeps every edit on the new version and marks the fields both changed', async () => {
  const first = new BoardState();
  await showRecord(deps(first), 'person_detail', '2');
  const loaded = first.snapshot().detail!;
  first.edit('city', 'Kiel');
  first.preview({ zip: '24103' });
  const kept = first.draft();

  await backend.api.run({ query: 'mutation { update_person(id: "2", version: 1, set: { city: "Lübeck", notes: "saved elsewhere" }) { version } }' });

  const restored = new BoardState();
  restored.restore(kept);
  assert.deepEqual(await checkRestored(deps(restored)), { state: 'changed', version: 2, conflicts: ['city'] });
  const snapshot = restored.snapshot();
  assert.equal(snapshot.detail!.version, 2);
  assert.equal(snapshot.detail!.record.notes, 'saved elsewhere');
  assert.deepEqual(snapshot.conflicts, { city: { base: loaded.record.city, theirs: 'Lübeck' } });
  assert.equal(restored.formValues().city, 'Kiel');
  assert.equal(restored.formValues().zip, '24103');

  const block = detailBlock({ ast: demoApp(), locale: 'en', snapshot, form: restored.formValues() })!;
  assert.deepEqual(block.fields.find((f) => f.field === 'city')!.conflict, { base: String(loaded.record.city), theirs: 'Lübeck', mine: 'Kiel' });
  assert.equal(block.conflicts, 1);

  restored.settle('city', 'theirs');
  assert.equal(restored.formValues().city, 'Lübeck');
  assert.equal(detailBlock({ ast: demoApp(), locale: 'en', snapshot: restored.snapshot(), form: restored.formValues() })!.conflicts, 0);
});

test('a restored draft of a record deleted meanwhile says so and keeps the form', async () => {
  const created = await backend.api.run({ query: 'mutation { insert_person(object: { firstname: "Nur", lastname: "Kurz" }) { id } }' });
  const id = String((created.data as { insert_person: { id: string } }).insert_person.id);
  const first = new BoardState();
  await showRecord(deps(first), 'person_detail', id);
  first.edit('city', 'Flensburg');
  const kept = first.draft();
  const version = first.snapshot().detail!.version!;
  const gone = await backend.api.run({ query: 'mutation($id: ID!, $v: Int!) { delete_person(id: $id, version: $v) }', variables: { id, v: version } });
  assert.equal(gone.errors, undefined, JSON.stringify(gone.errors));
  const restored = new BoardState();
  restored.restore(kept);
  assert.deepEqual(await checkRestored(deps(restored)), { state: 'deleted' });
  assert.equal(restored.formValues().city, 'Flensburg');
});
