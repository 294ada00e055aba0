// Regression: the agent's question must not replace the person's open question on the
// browser Board. Wired as xos-mcp wires it (QuestionConfirmer asking through the
// BoardController on a connected page, src/standalone/xosMcp.ts), with a page that holds
// each question until the test answers it: while the person's save question is open, the
// agent's send question reaches the page neither as a new board/ask nor as a withdrawal
// of the open one; after the person answered, it comes, 0.7 s later at the earliest.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { QuestionConfirmer } from '../../src/board/confirmer.ts';
import { BoardController, type BoardUi } from '../../src/board/controller.ts';
import { MessageEndpoint, type Question, type WireMessage } from '../../src/board/protocol.ts';
import { BoardState } from '../../src/board/state.ts';
import { translator } from '../../src/board/texts.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { until } from '../support/until.ts';

describe('the browser Board asks one question at a time', () => {
  let backend: Backend;
  let controller: BoardController;
  let confirmer: QuestionConfirmer;
  let endpoint: MessageEndpoint;
  /** The page: questions it was asked (held until answered) and questions withdrawn from it. */
  const asked: Array<{ id: number; question: Question; at: number }> = [];
  const withdrawn: number[] = [];

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    const client = embeddedClient(backend);
    const t = translator('en');
    const ui: BoardUi = {
      t, tell: async () => undefined, askDiscard: async () => false, setLocale: () => {}, csvExport: async () => undefined,
      log: { info: () => {}, warn: () => {}, error: () => {} },
    };
    endpoint = new MessageEndpoint((message: WireMessage) => {
      if ('method' in message && message.method === 'board/ask' && 'id' in message) asked.push({ id: message.id, question: message.params as Question, at: Date.now() });
      if ('method' in message && message.method === 'board/withdrawQuestion') withdrawn.push((message.params as { id: number }).id);
      if ('method' in message && message.method === 'board/formData' && 'id' in message) setImmediate(() => endpoint.receive({ id: message.id, result: {} }));
    });
    confirmer = new QuestionConfirmer({
      ast: () => client.ast(), locale: () => 'en', t, timeoutSeconds: () => 30,
      ask: (question, signal) => controller.questions.ask(question, signal),
      log: { info: () => {} },
    });
    const state = new BoardState();
    controller = new BoardController({
      state, client, locale: () => 'en',
      deps: () => ({ client, board: controller.board, confirmer, locale: 'en' }),
      surface: { show: () => {}, isOpen: () => true, isVisible: () => true, setTitle: () => {} },
      ui,
    });
    controller.connect(endpoint);
    endpoint.receive({ method: 'board/ready', params: {} });
  });
  after(() => backend?.close());

  const answer = (entry: { id: number; question: Question }, choice: string) => endpoint.receive({ id: entry.id, result: { choice } });

  test('the person\'s open question stays until answered; the agent\'s comes after it', async () => {
    const signal = new AbortController().signal;
    const save = confirmer.confirmSave({ entity: 'person', id: '1', action: 'update', changes: [{ field: 'city', label: 'City', from: 'Bonn', to: 'Kiel' }] }, signal);
    await until('the save question on the page', () => asked.length === 1);
    assert.match(asked[0].question.message, /^Save changes to Person 1\?/);

    // The agent's question comes while the person's is open (the attack: it replaced it within ~30 ms).
    const send = confirmer.confirmSend({ to: { email: 'eve@evil.example' }, subject: 'Rechnung', body: 'x' }, signal);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(asked.length, 1, 'no second question reached the page');
    assert.deepEqual(withdrawn, [], 'the open question was not withdrawn');
    assert.equal(confirmer.waiting, 1);

    const answeredAt = Date.now();
    answer(asked[0], 'Save');
    assert.equal(await save, 'save');
    await until('the send question after the save question', () => asked.length === 2);
    assert.deepEqual(withdrawn, [], 'nothing was withdrawn: the page closed the answered question itself');
    assert.match(asked[1].question.message, /^Send this mail to eve@evil\.example\?/);
    assert.ok(asked[1].at - answeredAt >= 690, `the next question came ${asked[1].at - answeredAt} ms after the answer`);
    answer(asked[1], 'Cancel');
    assert.equal(await send, 'cancel');
  });
});
