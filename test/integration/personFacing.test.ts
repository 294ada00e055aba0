// One door for text shown to the person: every text that reaches a front end's port (a VS Code
// notification, a question and its detail, the browser page's dialog, the Board's status line)
// went through personText.ts. The Board runs here on a real embedded backend with record data
// built to attack a VS Code notification (command and web links, bidi overrides, zero-width
// characters, a 5,000-character value); the ports record every method call through a Proxy, so
// a port method added later is checked as soon as a path calls it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { BoardState } from '../../src/board/state.ts';
import { BoardController, type BoardUi } from '../../src/board/controller.ts';
import { QuestionConfirmer, type AskPerson } from '../../src/board/confirmer.ts';
import { personFacingAsk } from '../../src/board/personFacing.ts';
import { INVISIBLE, QUESTION_BUDGET } from '../../src/text/personText.ts';
import { MessageEndpoint, type Question, type WireMessage } from '../../src/board/protocol.ts';
import { translator } from '../../src/board/texts.ts';
import { showRecord } from '../../src/core/show.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { until } from '../support/until.ts';

const COMMAND = '[x](command:workbench.action.terminal.new)';
const WEB = '[y](https://evil.example)';
const BIDI = 'Anna\u202Egnp.exe';
const ZERO = 'Zero\u200Bwidth\u2060joined\uFEFF';
const LONG = 'L'.repeat(5000);
const EVIL = `${COMMAND} ${WEB} ${BIDI} ${ZERO}`;

interface Call {
  readonly port: string;
  readonly method: string;
  readonly args: readonly unknown[];
}

/**
 * A port whose every method is recorded: `own` keeps what is not shown to the person (the
 * translator, the log); any other property is a method that records its arguments and
 * answers with `answer(method, args)`.
 */
function recordingPort<T extends object>(port: string, calls: Call[], own: Partial<T>, answer: (method: string, args: readonly unknown[]) => unknown = () => undefined): T {
  return new Proxy(own as T, {
    get(target, property) {
      if (typeof property === 'symbol' || property === 'then') return undefined;
      if (Object.hasOwn(target, property)) return (target as Record<string, unknown>)[property];
      return (...args: unknown[]) => {
        calls.push({ port, method: property, args });
        return Promise.resolve(answer(property, args));
      };
    },
  });
}

/** Every string inside a value (arguments, messages). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** The door's promise for one text, with what went wrong. */
function assertSanitised(text: string, where: string): void {
  assert.ok(!text.includes(']('), `${where}: link syntax in ${JSON.stringify(text.slice(0, 200))}`);
  assert.ok(!INVISIBLE.test(text), `${where}: invisible character in ${JSON.stringify(text.slice(0, 200))}`);
  assert.ok(!/[^\S ]/u.test(text), `${where}: a blank other than the space in ${JSON.stringify(text.slice(0, 200))}`);
  assert.ok(text.length <= QUESTION_BUDGET, `${where}: ${text.length} units`);
}

describe('one door for text shown to the person', () => {
  let backend: Backend;
  let client: XosClient;
  const calls: Call[] = [];
  const posted: WireMessage[] = [];
  let controller: BoardController;
  let endpoint: MessageEndpoint;
  /** The answer to the next "Saved …" notification (the person clicks its Undo once). */
  let clickUndo = false;

  before(async () => {
    const ast = demoApp();
    const person = ast.entities.person;
    // Room for the 5,000-character value; labels from the AST are data too.
    (person.fields.notes as { max?: number }).max = 6000;
    person.label = { en: `Person ${COMMAND}`, de: `Person ${COMMAND}` };
    ast.contexts.person_list.label = { en: `People ${WEB}\u202E`, de: `Personen ${WEB}\u202E` };
    backend = await startBackend({ ast, dsn: 'sqlite::memory:', seed: true });
    client = embeddedClient(backend);

    const t = translator('en');
    const ui = recordingPort<BoardUi>('BoardUi', calls, { t, log: { info: () => {}, warn: () => {}, error: () => {} } }, (method, args) => {
      if (method === 'askDiscard') return true;
      if (method === 'tell' && clickUndo && String(args[1]).startsWith('Saved ')) {
        clickUndo = false;
        return args[2];
      }
      return undefined;
    });
    endpoint = new MessageEndpoint((message) => {
      posted.push(message);
      if (!('method' in message) || !('id' in message)) return;
      const id = message.id;
      // The page: Save / Send / Delete on every question; its form holds nothing beyond the host's.
      if (message.method === 'board/ask') setImmediate(() => endpoint.receive({ id, result: { choice: (message.params as Question).buttons[0] } }));
      else if (message.method === 'board/formData') setImmediate(() => endpoint.receive({ id, result: {} }));
    });
    const confirmer = new QuestionConfirmer({
      ast: () => client.ast(), locale: () => 'en', t, timeoutSeconds: () => 30,
      // The browser Board's questions: asked on the page through the controller.
      ask: (question, signal) => controller.questions.ask(question, signal),
      log: { info: () => {} },
    });
    const state = new BoardState();
    controller = new BoardController({
      state, client, locale: () => 'en',
      deps: () => ({
        client, board: controller.board, confirmer, locale: 'en',
        onSaved: (saved, outcome) => controller.records.savedNotice(saved, outcome),
      }),
      surface: { show: () => {}, isOpen: () => true, isVisible: () => true, setTitle: () => {} },
      ui,
    });
    controller.connect(endpoint);
    endpoint.receive({ method: 'board/ready', params: {} });
  });
  after(() => backend?.close());

  const told = () => calls.filter((c) => c.port === 'BoardUi' && c.method === 'tell');
  const statusTexts = () => posted.flatMap((m) => ('method' in m && m.method === 'board/status' ? strings(m.params) : []));
  const pageQuestions = () => posted.flatMap((m) => ('method' in m && m.method === 'board/ask' ? [m.params as Question] : []));

  test('the "Saved … Stored: …" notification with Undo carries no link, marks invisibles and says what it left out', async () => {
    assert.equal((await showRecord({ client, board: controller.board, confirmer: undefined as never }, 'person_detail', '1')).ok, true);
    controller.board.edit('lastname', `${COMMAND}\u202E`);
    controller.board.edit('city', `${WEB}\u200B`);
    controller.board.edit('notes', LONG);
    await controller.records.save();
    const saved = told().find((c) => /^Saved Person .* 1\.( |$)/.test(String(c.args[1])));
    assert.ok(saved, JSON.stringify(told()));
    const [kind, text, ...actions] = saved.args as string[];
    assert.equal(kind, 'info');
    assert.deepEqual(actions, ['Undo']);
    assertSanitised(text, 'saved notice');
    // The data is there, shown as text: the links broken up, the override marked, the rest counted.
    assert.match(text, /\[x\] \(command:workbench\.action\.terminal\.new\)/);
    assert.match(text, /\[y\] \(https:\/\/evil\.example\)/);
    assert.match(text, /⟨U\+202E⟩/);
    // The save question on the page went through the same door (the entity label is a link too).
    const asked = pageQuestions().find((q) => q.kind === 'save');
    assert.ok(asked);
    assertSanitised(asked.message, 'save question');
    assert.match(asked.message, /Person \[x\] \(command:/);
  });

  test('a click on the notification\'s Undo still undoes: the sanitised action maps back to the caller\'s', async () => {
    const before = told().length;
    clickUndo = true;
    await controller.records.save(); // nothing changed since: only to settle the form
    controller.board.edit('firstname', `Eve ${ZERO}`);
    await controller.records.save();
    // The click answered "Undo"; the undo put the old first name back and saved it (the page said Save).
    await until('the undo\'s save', () => told().slice(before).filter((c) => /^Saved Person .* 1\.( |$)/.test(String(c.args[1]))).length >= 2);
    assert.ok(told().slice(before).some((c) => /^Saved Person .* 1\. Stored: First name: "Eve Zero⟨U\+200B⟩width/.test(String(c.args[1]))), 'Eve was saved first');
    const record = await backend.api.run({ query: '{ person_detail(id: "1") { firstname } }' });
    assert.doesNotMatch(JSON.stringify(record.data), /Eve/);
  });

  test('the Discard question names a record whose name is a command link as text, with its detail whole', async () => {
    // The record's name (its first name) is stored as a command link; the Board names it so.
    assert.equal((await showRecord({ client, board: controller.board, confirmer: undefined as never }, 'person_detail', '2')).ok, true);
    controller.board.edit('firstname', `${COMMAND} ${BIDI}`);
    await controller.records.save();
    assert.equal((await showRecord({ client, board: controller.board, confirmer: undefined as never }, 'person_detail', '2')).ok, true);
    controller.board.edit('lastname', ZERO);
    await controller.navigation.openContext('person_list');
    const discard = calls.filter((c) => c.method === 'askDiscard').at(-1);
    assert.ok(discard, 'askDiscard was called');
    const [question, detail, button] = discard.args as string[];
    for (const text of [question, detail, button]) assertSanitised(text, 'discard question');
    assert.match(question, /^Discard the unsaved changes to Person \[x\] \(command:workbench\.action\.terminal\.new\) Anna⟨U\+202E⟩gnp\.exe Ziegler\?$/);
    assert.equal(detail, 'They are not saved yet. Save them first to keep them.');
    assert.equal(button, 'Discard Changes');
    assert.ok(question.length + 1 + detail.length <= QUESTION_BUDGET);
  });

  test('every other path that speaks to the person: errors, exports, mail notices, status lines', async () => {
    await controller.navigation.openContext(`nope ${EVIL} ${LONG}`);
    await controller.navigation.openContext('person_list');
    await controller.records.exportCsv();
    assert.ok(calls.some((c) => c.method === 'csvExport'), 'the export asked where to write');
    controller.setStatus({ kind: 'error', text: `${EVIL}\n${LONG}` });
    controller.mail.scheduledNotice({ to: { name: BIDI, email: `${COMMAND}@evil.example` }, subject: WEB, body: LONG }, new Date());
    controller.mail.settled({ kind: 'mail_refused', ok: false, reason: `${EVIL} ${LONG}` });
    await controller.records.undoLastSave();
    await until('the open error', () => told().some((c) => String(c.args[1]).includes('nope')));
    assert.ok(statusTexts().some((text) => text.includes('⟨U+202E⟩')), 'the status line carried the data, marked');
    // A long text is fitted with an explicit marker, never cut silently.
    const announced = statusTexts().find((text) => text.startsWith('[x] (command:'));
    assert.ok(announced);
    assert.match(announced, /LLLL… \(\d+ more characters\)$/);
    assert.ok(told().some((c) => /^XOS could not open nope .*… \(\d+ more characters\)$/.test(String(c.args[1]))), 'the open error, fitted');
  });

  test('the questions, as the VS Code front end gets them (personFacingAsk) and as the page gets them', async () => {
    const t = translator('en');
    const vscodeAsk = recordingPort<{ ask: AskPerson }>('AskPerson', calls, {}, (_method, args) => (args[0] as { buttons: string[] }).buttons[0]);
    const confirmers = [
      new QuestionConfirmer({ ast: () => client.ast(), locale: () => 'en', t, timeoutSeconds: () => 30, ask: personFacingAsk((question, signal) => vscodeAsk.ask(question, signal), t), log: { info: () => {} } }),
      new QuestionConfirmer({ ast: () => client.ast(), locale: () => 'en', t, timeoutSeconds: () => 30, ask: (question, signal) => controller.questions.ask(question, signal), log: { info: () => {} } }),
    ];
    const signal = new AbortController().signal;
    for (const confirmer of confirmers) {
      assert.equal(await confirmer.confirmSave({ entity: 'person', id: `1 ${COMMAND}`, action: 'update', changes: [{ field: 'notes', label: `Notes ${WEB}`, from: LONG, to: `${EVIL} ${LONG}` }] }, signal), 'save');
      assert.equal(await confirmer.confirmDelete({ entity: 'person', id: '1', name: EVIL }, signal), 'delete');
      assert.equal(await confirmer.confirmSend({ to: { name: BIDI, email: 'a@example.org' }, subject: `${COMMAND} ${ZERO}`, body: `${WEB}\n${LONG}` }, signal), 'send');
    }
    assert.equal(calls.filter((c) => c.port === 'AskPerson').length, 3);
  });

  test('every text that reached any port method or the page went through the door', () => {
    const methods = new Set(calls.map((c) => `${c.port}.${c.method}`));
    for (const expected of ['BoardUi.tell', 'BoardUi.askDiscard', 'BoardUi.csvExport', 'AskPerson.ask']) assert.ok(methods.has(expected), `${expected} was not driven: ${[...methods].join(', ')}`);
    let checked = 0;
    for (const call of calls) {
      for (const text of strings(call.args)) {
        assertSanitised(text, `${call.port}.${call.method}`);
        checked++;
      }
    }
    for (const text of statusTexts()) {
      assertSanitised(text, 'board/status');
      checked++;
    }
    for (const question of pageQuestions()) {
      for (const text of strings(question)) {
        assertSanitised(text, 'board/ask');
        checked++;
      }
    }
    assert.ok(checked > 30, `${checked} texts checked`);
  });
});
