// The approval desk over stored approvals: its questions are the blocking question's words (English
// and German), it names who asked, words what a decision came to, and tells the Board to read the
// list again when an approval is requested here, decided by another store on the same file, or expires.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { demoApp } from '../../src/backend/demo.ts';
import { SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import { QuestionConfirmer } from '../../src/board/confirmer.ts';
import { approvalQuestion, decisionOutcome, requesterText, StoredApprovalDesk } from '../../src/board/storedApprovalDesk.ts';
import { translator } from '../../src/board/texts.ts';
import { decideApproval, requestApproval, type ApprovalDeps, type PendingApproval } from '../../src/core/approvals.ts';
import type { PreparedWrite } from '../../src/core/boundWrites.ts';
import type { MailDraft, SaveSummary, XosClient } from '../../src/core/domain.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const ast = demoApp();
const SUMMARY: SaveSummary = { entity: 'person', id: '12', changes: [{ field: 'city', label: 'City', from: 'Bonn', to: 'Kiel' }] };
const DRAFT: MailDraft = { to: { name: 'Anna Muster', email: 'anna@example.com' }, subject: 'Hello', body: 'Dear Anna,\nsee you.' };
const PREPARED: PreparedWrite = {
  kind: 'save',
  payload: { kind: 'save', entity: 'person', context: 'person_detail', id: '12', version: 3, set: { city: 'Kiel' }, action: 'Save' },
  summary: SUMMARY,
};
/** The decisions tested here (decline, list) never reach the backend. */
const noBackend = {} as XosClient;

let dir: TempDir;
before(async () => { dir = await tempDir('approval-desk'); });
after(async () => { await dir.remove(); });

/** The message the blocking question shows for the same write, in `locale`. */
async function blockingQuestion(locale: string, ask: (confirmer: QuestionConfirmer, signal: AbortSignal) => Promise<unknown>): Promise<string> {
  let message = '';
  const confirmer = new QuestionConfirmer({
    ast: () => ast, locale: () => locale, t: translator(locale), timeoutSeconds: () => 60, gapMs: 0, log: { info: () => {} },
    ask: async (question) => { message = question.message; return undefined; },
  });
  await ask(confirmer, new AbortController().signal);
  return message;
}

for (const locale of ['en', 'de']) {
  test(`a stored approval asks in the blocking question's words (${locale})`, async () => {
    const words = { ast, locale, t: translator(locale) };
    const save = approvalQuestion({ kind: 'save', summary: SUMMARY }, words);
    assert.equal(save, await blockingQuestion(locale, (c, s) => c.confirmSave(SUMMARY, s)));
    assert.match(save, locale === 'de' ? /Bonn → Kiel/ : /^Save changes to Person 12\? City: Bonn → Kiel$/);
    // A record with a name is asked about by it, beside its id.
    const named = { ...SUMMARY, name: 'Anna Muster' };
    const namedSave = approvalQuestion({ kind: 'save', summary: named }, words);
    assert.equal(namedSave, await blockingQuestion(locale, (c, s) => c.confirmSave(named, s)));
    assert.equal(namedSave, locale === 'de' ? 'Änderungen an Person Anna Muster (#12) speichern? City: Bonn → Kiel' : 'Save changes to Person Anna Muster (#12)? City: Bonn → Kiel');
    const send = approvalQuestion({ kind: 'send', summary: DRAFT }, words);
    assert.equal(send, await blockingQuestion(locale, (c, s) => c.confirmSend(DRAFT, s)));
    const deletion = approvalQuestion({ kind: 'delete', summary: { entity: 'person', id: '12', name: 'Anna Muster' } }, words);
    assert.equal(deletion, await blockingQuestion(locale, (c, s) => c.confirmDelete({ entity: 'person', id: '12', name: 'Anna Muster' }, s)));
  });
}

test('who asked: the agent, its client where known, for whom', () => {
  const en = translator('en');
  const de = translator('de');
  assert.equal(requesterText(en, { client: 'claude-ai via http', person: 'anna' }), 'The agent (claude-ai via http) for anna');
  assert.equal(requesterText(de, { client: 'claude-ai via http', person: 'anna' }), 'Der Agent (claude-ai via http) für anna');
  assert.equal(requesterText(en, { client: '', person: 'anna' }), 'The agent for anna');
  assert.equal(requesterText(de, { client: 'cli' }), 'Der Agent (cli)');
  assert.equal(requesterText(en, { client: '[x](command:evil)' }).includes('](command:'), false, 'a client name is data: no link syntax reaches the person');
});

test('what a decision came to, worded for the Board (English and German)', () => {
  const approval = { id: 'a', kind: 'save', summary: SUMMARY } as unknown as PendingApproval;
  const en = { ast, locale: 'en', t: translator('en') };
  const de = { ast, locale: 'de', t: translator('de') };
  assert.deepEqual(decisionOutcome({ kind: 'unknown', id: 'a' }, en), { kind: 'gone' });
  assert.deepEqual(decisionOutcome({ kind: 'already_decided', approval }, en), { kind: 'gone' });
  assert.deepEqual(decisionOutcome({ kind: 'decided', approval: { ...approval, state: 'declined' } }, en), { kind: 'declined' });
  const changed = { ...approval, state: 'void' as const, outcome: { kind: 'record_changed' as const, ok: false as const, entity: 'person', ids: ['12'] } };
  assert.deepEqual(decisionOutcome({ kind: 'decided', approval: changed }, en), { kind: 'void', why: 'Person 12 was changed after the request.' });
  assert.deepEqual(decisionOutcome({ kind: 'decided', approval: changed }, de), { kind: 'void', why: 'Person 12 wurde nach der Anfrage geändert.' });
  const saved = { ...approval, state: 'approved' as const, outcome: { kind: 'saved' as const, ok: true as const, entity: 'person', id: '12', versionFrom: 3, versionTo: 4, stored: [] } };
  assert.deepEqual(decisionOutcome({ kind: 'decided', approval: saved }, en), { kind: 'approved', text: 'Saved Person 12.' });
  assert.deepEqual(decisionOutcome({ kind: 'not_committed', approval, why: { kind: 'no_mailer' } }, de),
    { kind: 'failed', text: 'Hier ist kein Mailkonto eingerichtet, um sie zu senden. Die Anfrage wartet weiter.' });
});

/** Resolves at the listener's next call. */
function nextChange(desk: StoredApprovalDesk): Promise<void> {
  return new Promise((resolve) => {
    const stop = desk.onChange(() => { stop(); resolve(); });
  });
}

/**
 * Resolves once the desk lists `count` approvals, looking again at each change it tells. A change
 * noticed late (another connection's earlier commit, seen at the watcher's next poll on a loaded
 * machine) may come before the one awaited, so the test waits for the list, not for one change.
 */
async function listed(desk: StoredApprovalDesk, count: number): Promise<void> {
  for (;;) {
    const changed = nextChange(desk);
    if ((await desk.pending()).length === count) return;
    await changed;
  }
}

test('the desk hears a request in this process, a decision by another store on the same file, and an expiry', async () => {
  const file = join(dir.path, 'approvals.sqlite');
  const mine = new SqliteApprovalStore(file);
  const other = new SqliteApprovalStore(file);
  const words = () => ({ ast, locale: 'en', t: translator('en') });
  const deps = (): ApprovalDeps => ({ client: noBackend, store: watched });
  const desk = new StoredApprovalDesk({ deps, words, person: () => 'anna', changedElsewhere: () => mine.dataVersion(), watchMs: 10 });
  const watched = desk.watched(mine);
  try {
    const requested = nextChange(desk);
    const made = await requestApproval(deps(), PREPARED, { client: 'claude-ai via http', person: 'anna' });
    assert.equal(made.kind, 'requested');
    await requested;
    const [view] = await desk.pending();
    assert.deepEqual({ question: view.question, requester: view.requester, kind: view.kind },
      { question: 'Save changes to Person 12? City: Bonn → Kiel', requester: 'The agent (claude-ai via http) for anna', kind: 'save' });

    const decidedElsewhere = nextChange(desk);
    const id = (made as { approval: PendingApproval }).approval.id;
    assert.equal((await decideApproval({ client: noBackend, store: other }, id, 'decline', 'bob')).kind, 'decided');
    await decidedElsewhere;
    await listed(desk, 0);
    assert.deepEqual(await desk.pending(), []);
    assert.deepEqual(await desk.decide(id, 'approve'), { kind: 'gone' }, 'decided elsewhere: gone here');

    // An approval expiring soon: the desk's timer tells the Board at its expiry.
    const soon = await requestApproval(deps(), PREPARED, { client: 'cli' }, { ttlMs: 30 });
    assert.equal(soon.kind, 'requested');
    await listed(desk, 0);
    assert.deepEqual(await desk.pending(), [], 'expired: off the list');
    assert.equal((await mine.get((soon as { approval: PendingApproval }).approval.id))?.state, 'expired');
  } finally {
    desk.dispose();
    mine.close();
    other.close();
  }
});

test('with nothing waiting the list is read without the app\'s words: at start, before the backend is up, nothing is reported as unreadable', async () => {
  const store = new SqliteApprovalStore(join(dir.path, 'before-backend.sqlite'));
  const desk = new StoredApprovalDesk({
    deps: () => ({ client: noBackend, store }),
    words: () => { throw new Error('XOS has no backend: the AST or the endpoint could not be loaded (see the XOS output).'); },
    person: () => 'anna',
  });
  try {
    assert.deepEqual(await desk.pending(), []);
  } finally {
    desk.dispose();
    store.close();
  }
});
