// Questions asked on the connected Board page itself (the browser Board, where no VS Code
// notification exists): the page shows a dialog, the clicked button's title comes back. A part
// of the Board (boardHost.ts): it asks on the page that connected last.
import type { BoardHost, BoardPart } from './boardHost.ts';
import type { AskedQuestion } from './confirmer.ts';
import * as protocol from './protocol/questions.ts';
import type { MessageEndpoint } from './protocol/messages.ts';

/** How long a question may wait for a page that went away without a word; the asker keeps its own limit. */
const LOST_PAGE_MS = 24 * 60 * 60 * 1000;

export type PageQuestion = Omit<protocol.Question, 'id'> & Pick<AskedQuestion, 'onWaiting'>;

export class PageQuestions implements BoardPart {
  private readonly host: BoardHost;
  private endpoint: MessageEndpoint | undefined;
  private nextQuestion = 1;

  constructor(host: BoardHost) {
    this.host = host;
  }

  register(endpoint: MessageEndpoint): void {
    this.endpoint = endpoint;
  }

  /**
   * The clicked button's title, or undefined when the dialog was closed, the question
   * withdrawn (`signal`) or no page is connected.
   */
  async ask(question: PageQuestion, signal: AbortSignal): Promise<string | undefined> {
    const { endpoint } = this;
    const { door } = this.host;
    if (!this.host.pageConnected() || !endpoint || signal.aborted) return undefined;
    const id = this.nextQuestion++;
    const withdraw = () => endpoint.notify(protocol.withdrawQuestion, { id });
    signal.addEventListener('abort', withdraw, { once: true });
    const { onWaiting, ...asked } = question;
    // The open question shows how many wait behind it, live.
    const stopWaiting = onWaiting?.((waiting) => endpoint.notify(protocol.questionWaiting, { id, waiting }));
    try {
      // The page shows the question as the door lets it out; the answer is the caller's button title.
      const buttons = door.actions(asked.buttons);
      const shown = { ...asked, message: door.text(asked.message), buttons: buttons.shown };
      const { choice } = await endpoint.request(protocol.ask, { id, ...shown }, LOST_PAGE_MS);
      return buttons.original(choice);
    } catch {
      return undefined;
    } finally {
      stopWaiting?.();
      signal.removeEventListener('abort', withdraw);
    }
  }
}
