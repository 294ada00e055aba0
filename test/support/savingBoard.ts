// A person's Board without a browser, for integration tests: the Board controller over a client,
// with a page that answers the first button (Save) to every question and holds no form of its
// own; every message the host sent the page is kept in order.
import { BoardController, type BoardUi } from '../../src/board/controller.ts';
import { QuestionConfirmer } from '../../src/board/confirmer.ts';
import { MessageEndpoint, type Question, type WireMessage } from '../../src/board/protocol.ts';
import { BoardState } from '../../src/board/state.ts';
import { translator } from '../../src/board/texts.ts';
import type { DetailBlock } from '../../src/board/viewTypes.ts';
import type { XosClient } from '../../src/graphql/types.ts';

export type Sent = { method: string; params: any };

export interface SavingBoard {
  readonly controller: BoardController;
  readonly endpoint: MessageEndpoint;
  /** Every message the host sent the page, in order. */
  readonly posted: WireMessage[];
  /** The page's messages of one kind sent since `from` (an index into `posted`). */
  sent(method: string, from?: number): Sent[];
  /** What the use cases need, as the tools get it. */
  deps(): { client: XosClient; board: BoardController['board']; confirmer: QuestionConfirmer; locale: string };
  /** The form the page was sent last. */
  lastDetail(): DetailBlock;
  /** The questions before unsaved work was dropped (each answered Discard Changes). */
  readonly discardAsked: string[];
  /** The page asks the host (a rows window, an action), as webview/state.ts does. */
  pageAsks<R>(method: string, params: unknown): Promise<R>;
}

export function openSavingBoard(client: XosClient): SavingBoard {
  const posted: WireMessage[] = [];
  const answers = new Map<number, (result: unknown) => void>();
  let nextPageId = 1_000_000;
  const t = translator('en');
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const discardAsked: string[] = [];
  const ui: BoardUi = { t, log: quiet, tell: async () => undefined, askDiscard: async (question) => discardAsked.push(question) > 0, setLocale: () => {}, csvExport: async () => undefined };
  const endpoint: MessageEndpoint = new MessageEndpoint((message) => {
    posted.push(message);
    if ('result' in message && answers.has(message.id)) answers.get(message.id)!(message.result);
    if (!('method' in message) || !('id' in message)) return;
    const id = message.id;
    if (message.method === 'board/ask') setImmediate(() => endpoint.receive({ id, result: { choice: (message.params as Question).buttons[0] } }));
    else if (message.method === 'board/formData') setImmediate(() => endpoint.receive({ id, result: {} }));
  });
  const confirmer: QuestionConfirmer = new QuestionConfirmer({
    ast: () => client.ast(), locale: () => 'en', t, timeoutSeconds: () => 30, gapMs: 0,
    ask: (question, signal) => controller.questions.ask(question, signal),
    log: { info: () => {} },
  });
  const deps = () => ({ client, board: controller.board, confirmer, locale: 'en' });
  const controller: BoardController = new BoardController({
    state: new BoardState(), client, locale: () => 'en', deps,
    surface: { show: () => {}, isOpen: () => true, isVisible: () => true, setTitle: () => {} },
    ui,
  });
  controller.connect(endpoint);
  endpoint.receive({ method: 'board/ready', params: {} });
  const sent = (method: string, from = 0): Sent[] => posted.slice(from).flatMap((m) => ('method' in m && m.method === method ? [{ method, params: m.params }] : []));
  return {
    controller, endpoint, posted, sent, deps, discardAsked,
    lastDetail: () => sent('board/detail').at(-1)!.params.detail,
    pageAsks<R>(method: string, params: unknown): Promise<R> {
      const id = nextPageId++;
      const answered = new Promise<R>((resolve) => answers.set(id, resolve as (result: unknown) => void));
      endpoint.receive({ id, method, params });
      return answered;
    },
  };
}
