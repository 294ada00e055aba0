// Every outcome the Board can receive (src/core/outcomes.ts) has the person's words in English
// and German, and none of them names a tool or tells the person to call one; the agent's words
// for the same outcomes (src/mcp/wording.ts) stay as the tools reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { BoardOutcome, ProposeOutcome, QueryRefusal, RecordProblem } from '../../src/core/outcomes.ts';
import { besideOpenConflicts, personText, personWords, type PersonWords } from '../../src/board/outcomeText.ts';
import { translator, type Translate } from '../../src/board/texts.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { agentText } from '../../src/mcp/wording.ts';
import { checkContextQuery } from '../../src/graphql/queryRules.ts';
import { REFUSED } from './queryRefusals.ts';

type Kind = BoardOutcome['kind'];

/** The query check's refusal of a query of the demo CRM. */
function refusalOf([context, query]: readonly [string, string]): QueryRefusal {
  const check = checkContextQuery(demoApp(), context, query);
  if (check.ok) throw new Error(`not refused: ${query}`);
  return check.refusal;
}

/** One problem of rendered data per kind. */
const RECORD_PROBLEMS: ReadonlyArray<{ readonly context: string; readonly problem: RecordProblem }> = [
  { context: 'person_list', problem: { kind: 'not_object' } },
  { context: 'person_list', problem: { kind: 'unknown_fields', fields: ['nickname', 'shoe_size'] } },
  { context: 'company_detail', problem: { kind: 'not_a_list', field: 'employees' } },
  { context: 'person_list', problem: { kind: 'value', value: { entity: 'person', field: 'age', message: 'person.age: must be an integer (got "old")', problem: { code: 'integer' } } } },
];

/** One outcome or more of every kind: a kind added to the union without one here fails the typecheck. */
const SAMPLES: { readonly [K in Kind]: ReadonlyArray<Extract<BoardOutcome, { kind: K }>> } = {
  saved: [
    { kind: 'saved', ok: true, entity: 'person', id: '12', versionFrom: 3, versionTo: 4, stored: [{ field: 'lastname', value: 'Schmidt' }, { field: 'age', value: 35 }] },
    { kind: 'saved', ok: true, entity: 'person', id: '12', versionFrom: 3, versionTo: 4, stored: [], lostAnswer: 'socket hang up' },
  ],
  created: [{ kind: 'created', ok: true, entity: 'person', id: '13', version: 1, stored: [{ field: 'firstname', value: 'Neu' }] }],
  nothing_to_save: [{ kind: 'nothing_to_save', ok: false, why: 'no_record' }, { kind: 'nothing_to_save', ok: false, why: 'unchanged' }],
  nothing_to_create: [{ kind: 'nothing_to_create', ok: false }],
  open_conflicts: [{ kind: 'open_conflicts', ok: false, entity: 'person', fields: ['city'] }],
  invalid_values: (['save', 'create'] as const).map((action) => ({
    kind: 'invalid_values', ok: false, action,
    problems: [{ entity: 'person', field: 'age', message: 'person.age: must be a whole number', problem: { code: 'integer' } }],
  }) as const),
  empty_form: [{ kind: 'empty_form', ok: false }],
  not_asked: (['save', 'create', 'delete', 'send'] as const).map((action) => ({ kind: 'not_asked', ok: false, action, reason: 'The Board is closed.' }) as const),
  declined: (['save', 'create', 'delete', 'send'] as const).flatMap((action) => (['discard', 'cancel', 'timeout'] as const)
    .map((answer) => ({ kind: 'declined', ok: false, action, answer }) as const)),
  changed_while_asked: (['save', 'create', 'delete', 'send'] as const).map((action) => ({ kind: 'changed_while_asked', ok: false, action }) as const),
  unavailable: [{ kind: 'unavailable', ok: false, reason: 'the XOS server is not reachable' }],
  server_refused: (['save', 'create', 'delete'] as const).map((action) => ({ kind: 'server_refused', ok: false, action, entity: 'person', error: { message: 'too long' } }) as const),
  conflict: [
    { kind: 'conflict', ok: false, entity: 'person', id: '12', versionFrom: 3, versionTo: 5, fields: [] },
    { kind: 'conflict', ok: false, entity: 'person', id: '12', versionFrom: 3, versionTo: 5, fields: [{ field: 'city', loaded: 'Kiel', stored: 'Bonn', pending: { value: 'Ulm' } }] },
  ],
  deleted_meanwhile: [{ kind: 'deleted_meanwhile', ok: false, entity: 'person', id: '12' }],
  answer_lost: (['unreadable', 'unchanged', 'changed', 'deleted'] as const).map((found) => ({
    kind: 'answer_lost', ok: false, entity: 'person', id: '12', reason: 'socket hang up', found, versionFrom: 3, ...(found === 'changed' ? { versionNow: 5 } : {}),
  }) as const),
  not_a_save: [{ kind: 'not_a_save', ok: false, entry: 7, action: 'create' }],
  batch_saved: [
    { kind: 'batch_saved', ok: true, entity: 'person', records: 2000, cells: 2000, fields: ['age'], batch: 'b-1' },
    { kind: 'batch_saved', ok: true, entity: 'person', records: 3, cells: 6, fields: ['age', 'city'], lostAnswer: 'socket hang up' },
  ],
  batch_conflict: [{ kind: 'batch_conflict', ok: false, entity: 'person', records: 1000, conflicts: 1, gone: 1, ids: ['7', '9'] }],
  review_asking: [{ kind: 'review_asking', ok: false, entity: 'person' }],
  review_conflicts: [{ kind: 'review_conflicts', ok: false, entity: 'person', count: 2 }],
  batch_answer_lost: [
    { kind: 'batch_answer_lost', ok: false, entity: 'person', records: 10, reason: 'socket hang up', found: 'unchanged' },
    { kind: 'batch_answer_lost', ok: false, entity: 'person', records: 10, reason: 'socket hang up', found: 'unknown' },
  ],
  batch_gone: [{ kind: 'batch_gone', ok: false, batch: 'b-1' }],
  unsaved_form: [{ kind: 'unsaved_form', ok: false }],
  not_undoable: [{ kind: 'not_undoable', ok: false, entity: 'person', fields: ['lastname', 'city'] }],
  gone: [{ kind: 'gone', ok: false, entity: 'person', id: '12' }],
  new_form: [{ kind: 'new_form', ok: true, context: 'person_detail' }],
  cannot_create: [{ kind: 'cannot_create', ok: false, context: 'person_list' }],
  deleted: [{ kind: 'deleted', ok: true, entity: 'person', id: '12' }],
  nothing_to_delete: [{ kind: 'nothing_to_delete', ok: false }],
  cannot_delete: [{ kind: 'cannot_delete', ok: false, context: 'person_detail' }],
  cannot_ask: [{ kind: 'cannot_ask', ok: false }],
  changed_meanwhile: [{ kind: 'changed_meanwhile', ok: false, entity: 'person', id: '12' }],
  sent: [{ kind: 'sent', ok: true, to: 'max@example.org', messageId: '<1@example.org>' }],
  already_sent: [
    { kind: 'already_sent', ok: true, to: 'max@example.org', at: '2026-12-04T15:00:00.000Z', messageId: '<1@example.org>', uncertain: false },
    { kind: 'already_sent', ok: true, to: 'max@example.org', at: '2026-12-04T15:00:00.000Z', uncertain: true },
  ],
  scheduled: [{ kind: 'scheduled', ok: true, to: 'max@example.org', sendAt: '2026-12-04T15:00:10.000Z', seconds: 10 }],
  already_scheduled: [{ kind: 'already_scheduled', ok: true, to: 'max@example.org', sendAt: '2026-12-04T15:00:10.000Z' }],
  no_draft: [{ kind: 'no_draft', ok: false }],
  sending: [{ kind: 'sending', ok: false }],
  replaced: [{ kind: 'replaced', ok: false, to: 'max@example.org' }],
  mail_refused: [{ kind: 'mail_refused', ok: false, reason: '550 mailbox unavailable' }],
  transfer_broke: [{ kind: 'transfer_broke', ok: false, reason: 'connection reset' }],
  shown: [{ kind: 'shown', ok: true, context: 'person_list', count: 7 }],
  query_invalid: Object.values(REFUSED).map((query) => ({ kind: 'query_invalid', ok: false, refusal: refusalOf(query) }) as const),
  query_refused: [{ kind: 'query_refused', ok: false, message: 'Cannot query field "x".' }],
  no_match: [{ kind: 'no_match', ok: false, context: 'person_detail' }],
  unknown_context: [{ kind: 'unknown_context', ok: false, context: 'nope', known: ['person_list'] }],
  invalid_json: [{ kind: 'invalid_json', ok: false, what: 'json', reason: 'Unexpected token' }, { kind: 'invalid_json', ok: false, what: 'changes', reason: 'Unexpected token' }],
  one_record_needed: [{ kind: 'one_record_needed', ok: false, context: 'person_detail', count: 2 }],
  records_invalid: RECORD_PROBLEMS.map(({ context, problem }) => ({
    kind: 'records_invalid', ok: false, context, problems: [{ index: 2, problem }, { index: 3, problem: { kind: 'not_object' } }], allowed: ['id', 'lastname'],
  }) as const),
  load_failed: [{ kind: 'load_failed', ok: false, message: 'the server is not reachable' }],
  not_found: [{ kind: 'not_found', ok: false, context: 'person_detail', id: '99' }],
  no_list: [{ kind: 'no_list', ok: false }],
  no_row_link: [{ kind: 'no_row_link', ok: false, context: 'person_list' }],
  no_link: [{ kind: 'no_link', ok: false, context: 'person_detail', field: 'company', items: false }, { kind: 'no_link', ok: false, context: 'company_detail', field: 'employees', items: true }],
  no_id: [{ kind: 'no_id', ok: false, key: '12', idPath: 'company.id' }],
  no_record: [{ kind: 'no_record', ok: false }],
  no_field: [{ kind: 'no_field', ok: false, context: 'person_detail', field: 'nope' }],
  empty_link: [{ kind: 'empty_link', ok: false, context: 'person_detail', field: 'company' }],
  not_an_item: [{ kind: 'not_an_item', ok: false, context: 'company_detail', field: 'employees', item: '7' }],
  no_step: [{ kind: 'no_step', ok: false, direction: 'back' }, { kind: 'no_step', ok: false, direction: 'forward' }],
  no_context: [{ kind: 'no_context', ok: false, context: 'nope' }],
  not_a_list: [{ kind: 'not_a_list', ok: false, context: 'person_detail' }],
};

/** The outcomes only the agent receives (the agent's proposals). */
const PROPOSALS: readonly ProposeOutcome[] = [
  { kind: 'previewed', ok: true, entity: 'person', id: '12', pending: [{ field: 'lastname', from: 'Muster', to: 'Schmidt' }] },
  { kind: 'not_loaded', ok: false, context: 'person_detail', detail: true },
  { kind: 'not_loaded', ok: false, context: 'person_list', detail: false, shown: 'company_list' },
  { kind: 'rendered_only', ok: false, context: 'person_detail' },
  { kind: 'changes_not_object', ok: false },
  { kind: 'not_editable', ok: false, context: 'person_detail', fields: ['id'], editable: ['lastname'] },
  { kind: 'invalid_proposal', ok: false, problems: [{ entity: 'person', field: 'age', message: 'person.age: must be a whole number', problem: { code: 'integer' } }] },
];

const samples = (): BoardOutcome[] => Object.values(SAMPLES).flat() as BoardOutcome[];

function recording(): { t: Translate; keys: Set<string> } {
  const keys = new Set<string>();
  const base = translator('en');
  return { keys, t: (english, ...args) => { keys.add(english); return base(english, ...args); } };
}

test('every outcome the Board can receive has English and German words for the person, without a tool name', () => {
  const ast = demoApp();
  const bundle = JSON.parse(readFileSync(new URL('../../l10n/bundle.l10n.de.json', import.meta.url), 'utf8')) as Record<string, string>;
  const english = recording();
  const en: PersonWords = personWords(english.t, ast, 'en');
  const de: PersonWords = personWords(translator('de'), ast, 'de');
  const kinds = new Set<string>();
  for (const outcome of samples()) {
    kinds.add(outcome.kind);
    const before = english.keys.size;
    const words = { en: personText(en, outcome), de: personText(de, outcome) };
    for (const [language, text] of Object.entries(words)) {
      assert.ok(text.trim().length > 0, `${outcome.kind} (${language}) has no words`);
      assert.doesNotMatch(text, /xos_|\bcall\b|\bagent\b/i, `${outcome.kind} (${language}): ${text}`);
    }
    assert.notEqual(words.de, words.en, `${outcome.kind} has no German words: ${words.en}`);
    assert.ok(english.keys.size >= before, outcome.kind);
  }
  assert.deepEqual([...kinds].sort(), Object.keys(SAMPLES).sort());
  const missing = [...english.keys].filter((key) => !Object.hasOwn(bundle, key));
  assert.deepEqual(missing, [], 'texts without German in l10n/bundle.l10n.de.json');
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const key of english.keys) assert.deepEqual(placeholders(bundle[key]), placeholders(key), key);
});

test('the German words for a refused query and for data that does not fit hold no English sentence of the check and no tool name', () => {
  const ast = demoApp();
  const de = personWords(translator('de'), ast, 'de');
  const en = personWords(translator('en'), ast, 'en');
  for (const outcome of [...SAMPLES.query_invalid, ...SAMPLES.records_invalid]) {
    const german = personText(de, outcome);
    const agent = agentText(ast, outcome);
    assert.doesNotMatch(german, /xos_|\bcall\b|\bagent\b/i, german);
    // No clause of the agent's (the check's) English words, and no English words of a sentence.
    const clauses = agent.split(/[.;:!?](?:\s+|$)|[()]/).map((c) => c.trim()).filter((c) => c.split(/\s+/).length >= 3);
    for (const clause of clauses) assert.ok(!german.includes(clause), `${german} holds "${clause}"`);
    assert.doesNotMatch(german, /\b(the|is|are|not|must|select|send|unknown|allowed|example|list_fields|query|record|fields?)\b/i, german);
    assert.ok(german.startsWith(outcome.kind === 'query_invalid' ? 'Die Abfrage wurde abgelehnt: ' : 'Die Daten passen nicht zu '), german);
    assert.notEqual(german, personText(en, outcome));
  }
  const [notObject, unknownFields, notAList, value] = SAMPLES.records_invalid.map((o) => personText(de, o));
  assert.match(notObject, /: Eintrag 3 ist kein Datensatz\.$/);
  assert.match(unknownFields, /: Eintrag 3 hat Felder, die er nicht enthalten darf \(nickname, shoe_size\)\.$/);
  assert.match(notAList, /: In Eintrag 3 ist .+ keine Liste von Datensätzen\.$/);
  assert.match(value, /: Eintrag 3, .+: /);
  assert.match(personText(en, SAMPLES.query_invalid.find((o) => o.refusal.kind === 'list_fields')!), /^The query was refused: it does not ask for exactly the fields of .+ available to it\.$/);
});

test('the agent\'s words for a refused query and for data that does not fit stay as the tools reply', () => {
  const ast = demoApp();
  const listFields = SAMPLES.query_invalid.find((o) => o.refusal.kind === 'list_fields')!;
  assert.equal(agentText(ast, listFields), 'Select exactly the list_fields of person_list (id, firstname, lastname, email, city, age, net_worth); '
    + 'missing: city, age, net_worth; not in list_fields: phone. For example: { person_list { id firstname lastname email city age net_worth } } Then call xos_query again.');
  assert.equal(agentText(ast, { kind: 'records_invalid', ok: false, context: 'person_list', allowed: ['id', 'age'], problems: RECORD_PROBLEMS.map(({ problem }, index) => ({ index, problem })) }),
    'Nothing was displayed. record 0: is not a JSON object; record 1: unknown fields nickname, shoe_size; record 2: employees must be a list of records; '
    + 'record 3: person.age: must be an integer (got "old"). Allowed fields of person_list: id, age. Call xos_render again with those fields.');
});

test('the person reads labels in the Board\'s language', () => {
  const ast = demoApp();
  const saved = SAMPLES.saved[0];
  assert.match(personText(personWords(translator('de'), ast, 'de'), saved), /^Gespeichert: Person 12\. Gespeicherte Werte: .+: "Schmidt"; .+: 35\.$/);
  assert.match(personText(personWords(translator('en'), ast, 'en'), saved), /^Saved Person 12\. Stored: .+: "Schmidt"; .+: 35\.$/);
});

test('the person never reads a record\'s version (a row digest on their own tables); the agent still does', () => {
  const ast = demoApp();
  // Versions as a digest of the person's own table makes them (PostgreSQL xmin, a SQLite value digest).
  const digests = (outcome: BoardOutcome): BoardOutcome => {
    const o = { ...outcome } as Record<string, unknown>;
    for (const [field, digest] of [['versionFrom', 1725912010], ['versionTo', 302456766], ['version', 918273645], ['versionNow', 564738291]] as const) {
      if (field in o) o[field] = digest;
    }
    return o as unknown as BoardOutcome;
  };
  const versioned = samples().filter((o) => ['versionFrom', 'versionTo', 'version', 'versionNow'].some((field) => field in o)).map(digests);
  assert.deepEqual(new Set(versioned.map((o) => o.kind)), new Set(['saved', 'created', 'conflict', 'answer_lost']));
  for (const outcome of versioned) {
    for (const locale of ['en', 'de']) {
      const text = personText(personWords(translator(locale), ast, locale), outcome);
      assert.doesNotMatch(text, /version|1725912010|302456766|918273645|564738291/i, `${outcome.kind} (${locale}): ${text}`);
    }
  }
  assert.equal(personText(personWords(translator('en'), ast, 'en'), versioned.find((o) => o.kind === 'conflict')!),
    'Not saved: Person 12 was changed by someone else meanwhile. Your changes are kept; save again to store them.');
  assert.match(agentText(ast, versioned.find((o) => o.kind === 'saved')!), /\(version 1725912010 -> 302456766\)/);
});

test('beside a form that shows its open conflicts, a save\'s outcome says only what happened, in English and German', () => {
  const ast = demoApp();
  const bundle = JSON.parse(readFileSync(new URL('../../l10n/bundle.l10n.de.json', import.meta.url), 'utf8')) as Record<string, string>;
  const english = recording();
  const en = personWords(english.t, ast, 'en');
  const de = personWords(translator('de'), ast, 'de');
  const [, conflict] = SAMPLES.conflict;
  const [open] = SAMPLES.open_conflicts;
  assert.equal(besideOpenConflicts(en, conflict), 'Not saved: Person 12 was changed by someone else meanwhile.');
  assert.equal(besideOpenConflicts(de, conflict), 'Nicht gespeichert: Person 12 wurde inzwischen von jemand anderem geändert.');
  assert.equal(besideOpenConflicts(en, open), 'Not saved: the marked fields wait for your choice.');
  assert.equal(personText(en, conflict), 'Not saved: Person 12 was changed by someone else meanwhile. Choose per marked field which value to keep, then save.');
  for (const outcome of [conflict, open]) {
    assert.doesNotMatch(besideOpenConflicts(en, outcome), /choose|someone else saved/i);
    assert.notEqual(besideOpenConflicts(de, outcome), besideOpenConflicts(en, outcome));
  }
  assert.deepEqual([...english.keys].filter((key) => !Object.hasOwn(bundle, key)), []);
});

test('the agent\'s words for the same outcomes name the next tool call where there is one', () => {
  const ast = demoApp();
  for (const outcome of [...samples(), ...PROPOSALS]) assert.equal(typeof agentText(ast, outcome), 'string', outcome.kind);
  assert.match(agentText(ast, PROPOSALS[0]), /^Preview on the Board, nothing saved yet\. Pending changes of person 12: lastname: "Muster" -> "Schmidt"\. /);
  assert.equal(agentText(ast, SAMPLES.saved[0]), 'Saved person 12 (version 3 -> 4). Stored: lastname: "Schmidt"; age: 35.');
  assert.match(agentText(ast, SAMPLES.nothing_to_save[1]), /xos_ui_change_required/);
});

test('the agent\'s reply to a save names the record when its entity has a display template and the agent sees all of it', () => {
  const saved = { ...SAMPLES.saved[0], name: 'Anna Schmidt' } as BoardOutcome;
  const plain = demoApp();
  delete plain.entities.person.display;
  assert.equal(agentText(plain, saved), 'Saved person 12 (version 3 -> 4). Stored: lastname: "Schmidt"; age: 35.', 'without a template the id names it');
  const named = demoApp();
  named.entities.person.display = '{firstname} {lastname}';
  assert.equal(agentText(named, saved), 'Saved person 12 "Anna Schmidt" (version 3 -> 4). Stored: lastname: "Schmidt"; age: 35.');
  const masked = demoApp();
  masked.entities.person.display = '{firstname} {lastname}';
  masked.entities.person.fields.firstname = { ...masked.entities.person.fields.firstname, agent: 'masked' };
  assert.equal(agentText(masked, saved), 'Saved person 12 (version 3 -> 4). Stored: lastname: "Schmidt"; age: 35.', 'a name made of a field kept from the agent is not told');
});

test('a context the agent may change nothing in is said plainly, never as an empty list of fields', () => {
  const ast = demoApp();
  const none = agentText(ast, { kind: 'not_editable', ok: false, context: 'person_detail', fields: ['lastname'], editable: [] });
  assert.equal(none, 'Not editable in person_detail: lastname. Nothing was previewed. The agent may change no field of person_detail: nothing can be proposed there.');
  const some = agentText(ast, { kind: 'not_editable', ok: false, context: 'person_detail', fields: ['age'], editable: ['lastname', 'city'] });
  assert.match(some, /Editable fields: lastname, city\.$/);
});
