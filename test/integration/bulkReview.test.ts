// Many records, one review, through the seed's tools on SQLite and PostgreSQL: "raise every
// person's net worth by 5 %" over 2,000 records is one xos_ui_change_required call (counts only in
// the reply), one review on the Board with per-row and per-cell control, one question naming the
// count and each field's summary, and one transaction that writes exactly the accepted cells, once.
// An outside writer changing one row of 1,000 while the person is asked makes it a conflict:
// nothing is written and that row waits for the person. Undo of the batch is one question and one
// transaction too: the rows changed since are found before it asks, left out and never overwritten.
import assert from 'node:assert/strict';
import type { Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { saveQuestionText } from '../../src/board/questionText.ts';
import { BoardState } from '../../src/board/state.ts';
import { translator } from '../../src/board/texts.ts';
import { undoBatch } from '../../src/core/batchSave.ts';
import type { Confirmer, SaveAnswer, SaveSummary, XosClient } from '../../src/core/domain.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import { onBothStores } from '../support/bothStores.ts';
import { connectInMemory } from '../support/mcpClient.ts';
import { raised } from '../support/raised.ts';
import { seedPeople } from '../support/seedPeople.ts';

const ast = demoApp();
delete ast.data;
const PEOPLE = 2000;
/** The agent-fit budget of a reply (bytes). */
const REPLY_BUDGET = 8 * 1024;

/** The person: answers each question as scripted, may act while it is open, and keeps what was asked. */
class ScriptedPerson implements Confirmer {
  readonly asked: SaveSummary[] = [];
  answers: SaveAnswer[] = [];
  whileAsked: Array<() => Promise<void>> = [];
  async confirmSave(summary: SaveSummary, signal: AbortSignal): Promise<SaveAnswer> {
    this.asked.push(structuredClone(summary));
    await this.whileAsked.shift()?.();
    return signal.aborted ? 'discard' : this.answers.shift() ?? 'timeout';
  }
  async confirmSend(): Promise<'cancel'> {
    return 'cancel';
  }
}

/** Every batch write that reaches the backend, as sent. */
function recordingClient(inner: XosClient, writes: Array<{ updates: Array<{ id: string; version: number; set: Record<string, unknown> }>; approval?: string }>): XosClient {
  return {
    ast: () => inner.ast(),
    status: () => inner.status(),
    async run(query, variables, audit, signal) {
      if (/^\s*mutation\b/.test(query)) {
        assert.match(query, /update_person_many/, 'a review writes only through the batch mutation');
        writes.push({ updates: structuredClone(variables?.updates as never), approval: audit?.approval });
      }
      return inner.run(query, variables, audit, signal);
    },
  };
}

interface Person { id: number; version: number; net_worth: string | null; city: string | null }

async function people(backend: Backend): Promise<Map<number, Person>> {
  const rows = await backend.api.storage.select({ table: 'person', columns: ['net_worth', 'city'], orderBy: [{ column: 'id', desc: false }] });
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), version: Number(r.version), net_worth: r.net_worth === null ? null : String(r.net_worth), city: r.city as string | null }]));
}

onBothStores('many records, one review', ast, 0, async (backend) => {
  await seedPeople(backend, PEOPLE);
  const person = new ScriptedPerson();
  const board = new BoardState();
  const writes: Parameters<typeof recordingClient>[1] = [];
  const client = recordingClient(embeddedClient(backend), writes);
  const deps: XosDeps = { client, board, confirmer: person, locale: 'en' };
  const { call } = await connectInMemory(deps, 'bulk');
  assert.equal((await call('xos_schema')).isError, false);

  // 1. One call proposes the change for every person; the reply counts, it lists no row.
  const before = await people(backend);
  const expected = [...before.values()].filter((p) => p.net_worth !== null && raised(p.net_worth) !== Number(p.net_worth).toFixed(2));
  const proposed = await call('xos_ui_change_required', { context: 'person_list', changes: { where: {}, set: { net_worth: { _mul: 1.05 } } } });
  assert.equal(proposed.isError, false, proposed.text);
  assert.match(proposed.text, new RegExp(`${expected.length.toLocaleString('en-US')} person records would change \\(net_worth\\)`));
  assert.ok(Buffer.byteLength(proposed.text) < REPLY_BUDGET);
  const review = board.review()!;
  assert.equal(board.snapshot().kind, 'review');
  assert.equal(review.size, expected.length);
  assert.deepEqual(review.tally().unchanged, PEOPLE - expected.length);

  // 2. The person reviews: rejects one row, types their own value into another.
  const [rejected, edited, kept] = expected;
  board.reviewDecide(false, String(rejected.id));
  board.reviewEdit(String(edited.id), 'net_worth', '123.45');
  assert.equal(review.tally().accepted, expected.length - 1);

  // 3. One question, bound to the accepted cells; the Save writes exactly them in one transaction.
  person.answers = ['save'];
  const saved = await call('xos_ui_save');
  assert.equal(saved.isError, false, saved.text);
  assert.match(saved.text, new RegExp(`^Saved ${(expected.length - 1).toLocaleString('en-US')} person records in one transaction`));
  const question = person.asked.at(-1)!;
  assert.equal(question.batch?.records, expected.length - 1);
  assert.deepEqual(question.batch?.fields.map((f) => f.field), ['net_worth']);
  assert.ok(question.batch?.fields[0].numeric, 'a number field is summed up by its change');
  assert.equal(question.batch?.first.length, 3);
  assert.equal(writes.length, 1, 'one write');
  assert.equal(writes[0].updates.length, expected.length - 1);
  assert.match(writes[0].approval ?? '', /^Save of \d+ records confirmed by the person \(net_worth\)/);
  const after = await people(backend);
  for (const p of expected) {
    const now = after.get(p.id)!;
    if (p.id === rejected.id) assert.deepEqual(now, p, 'the rejected row is untouched');
    else assert.deepEqual([now.net_worth, now.version], [p.id === edited.id ? '123.45' : raised(p.net_worth!), p.version + 1]);
  }
  assert.equal(after.get(kept.id)!.net_worth, raised(kept.net_worth!));
  assert.equal(board.snapshot().kind, 'list', 'after the save the list shows as stored now');
  // One batch in the audit trail, one entry per written record.
  const trail = await backend.api.storage.auditEntries({ entity: 'person', recordId: String(kept.id), limit: 1, offset: 0 });
  const batch = trail[0].batch!;
  assert.equal(await backend.api.storage.auditCount({ batch }), expected.length - 1);

  // 4. A change of the review while the question is open voids the answer: nothing is written.
  const again = await call('xos_ui_change_required', { context: 'person_list', changes: [{ id: String(kept.id), city: 'Lübeck' }, { id: String(edited.id), city: 'Kiel' }] });
  assert.equal(again.isError, false, again.text);
  person.answers = ['save'];
  person.whileAsked = [async () => board.reviewDecide(false, String(edited.id), 'city')];
  const voided = await call('xos_ui_save');
  assert.equal(voided.isError, true);
  assert.match(voided.text, /changed while/i);
  assert.equal(writes.length, 1);

  // 5. An outside writer changes one row of 1,000 while the person is asked: nothing is written, that row waits.
  const thousand = await call('xos_ui_change_required', { context: 'person_list', changes: { where: { id: { _lte: 1000 } }, set: { city: 'Zzbremen' } } });
  assert.equal(thousand.isError, false, thousand.text);
  const race = board.review()!;
  assert.equal(race.size, 1000);
  const target = [...after.values()].find((p) => p.id === 500)!;
  person.answers = ['save'];
  person.whileAsked = [async () => {
    const outside = await backend.api.storage.update('person', target.id, target.version, { city: 'Extern' }, { path: 'api' });
    assert.equal(outside.status, 'ok');
  }];
  const versionsBefore = await people(backend);
  const conflict = await call('xos_ui_save');
  assert.equal(conflict.isError, true);
  assert.match(conflict.text, /^Not saved: 1 of the 1,000 records changed since they were read \(person 500\); nothing was written/);
  const untouched = await people(backend);
  for (const [id, p] of untouched) if (id !== target.id) assert.equal(p.version, versionsBefore.get(id)!.version, `person ${id} was not written`);
  assert.equal(untouched.get(target.id)!.city, 'Extern');
  assert.equal(race.tally().conflicts, 1);
  assert.equal(race.row(String(target.id))!.cells.get('city')!.from, 'Extern', 'the row shows what is stored now');
  // Saving again before the person decided is refused; after they accept the row again, all 1,000 go in one write.
  assert.match((await call('xos_ui_save')).text, /wait for the person's decision/);
  board.reviewDecide(true, String(target.id));
  person.answers = ['save'];
  const second = await call('xos_ui_save');
  assert.equal(second.isError, false, second.text);
  assert.equal((await people(backend)).get(target.id)!.city, 'Zzbremen');
  assert.equal(writes.at(-1)!.updates.length, race.size);

  // 6. Undo of the first batch: the records changed since are found before the person is asked, so the one
  // question says how many are left out; one transaction undoes the rest, and nothing changed since is overwritten.
  const changedSince = after.get(expected[5].id)!;
  const current = (await people(backend)).get(changedSince.id)!;
  assert.equal((await backend.api.storage.update('person', current.id, current.version, { net_worth: '1.00' }, { path: 'api' })).status, 'ok');
  // Every row written since: the 1,000 of step 5 and this one.
  const since = expected.filter((p) => p.id !== rejected.id && (p.id <= 1000 || p.id === changedSince.id));
  const undoable = expected.filter((p) => p.id !== rejected.id && !since.includes(p));
  const asked = person.asked.length;
  person.answers = ['save'];
  const undone = await undoBatch(deps, batch, new AbortController().signal, 'board');
  assert.equal(undone.kind, 'batch_saved', JSON.stringify(undone));
  assert.equal(person.asked.length, asked + 1, 'the person is asked once');
  const undoQuestion = person.asked.at(-1)!;
  assert.equal(undoQuestion.batch?.undo, true);
  assert.equal(undoQuestion.batch?.changedSince, since.length);
  assert.equal(undoQuestion.batch?.records, undoable.length);
  const words = (locale: string) => ({ ast, locale, t: translator(locale) });
  assert.match(saveQuestionText(undoQuestion, words('en')), new RegExp(`^Undo the change to ${undoable.length.toLocaleString('en-US')} records of Person\\? .* ${since.length.toLocaleString('en-US')} records were changed or deleted since and are left out: they stay as they are\\.$`));
  assert.match(saveQuestionText(undoQuestion, words('de')), new RegExp(` ${since.length.toLocaleString('de-DE').replace('.', '\\.')} Datensätze wurden seitdem geändert oder gelöscht und werden ausgelassen`));
  assert.equal(writes.at(-1)!.updates.length, undoable.length, 'one write of exactly the rows not changed since');
  const restored = await people(backend);
  for (const p of undoable) assert.equal(restored.get(p.id)!.net_worth, p.net_worth, `person ${p.id} is undone`);
  assert.equal(restored.get(kept.id)!.net_worth, raised(kept.net_worth!), 'a row changed since keeps the batch\'s value');
  assert.equal(restored.get(changedSince.id)!.net_worth, '1.00', 'the row changed since keeps its value');
});

onBothStores('a review of 10,000 rows', ast, 0, async (backend) => {
  await seedPeople(backend, 10_000);
  const board = new BoardState();
  const deps: XosDeps = { client: embeddedClient(backend), board, confirmer: new ScriptedPerson(), locale: 'en' };
  const { call } = await connectInMemory(deps, 'bulk-10k');
  await call('xos_schema');
  const changes = Array.from({ length: 10_000 }, (_, i) => ({ id: String(i + 1), age: i % 3 === 0 ? 200 : 30 + (i % 40), city: i % 2 ? 'Köln' : 'Hamburg' }));
  const reply = await call('xos_ui_change_required', { context: 'person_list', changes });
  assert.equal(reply.isError, false, reply.text);
  assert.ok(Buffer.byteLength(reply.text) < REPLY_BUDGET, `the reply is ${Buffer.byteLength(reply.text)} bytes`);
  const tally = board.review()!.tally();
  assert.equal(tally.invalid, 3334, 'an age of 200 is over the AST\'s maximum');
  assert.match(reply.text, /3,334 invalid \(excluded\)/);
  assert.match(reply.text, /Invalid, for example: person 1: person\.age: must be at most 150/);
  // Too many rows for one review are refused with the count.
  const tooMany = await call('xos_ui_change_required', { context: 'person_list', changes: [...changes, { id: '10001', city: 'Kiel' }] });
  assert.equal(tooMany.isError, true);
});
