// A question the host asks on the page itself (the browser Board, where no VS Code notification
// exists), until the person answers it or the host withdraws it. The host asks one at a time;
// should a second arrive anyway it waits here too, so the open question never changes under the
// person's cursor, and the open one says how many wait behind it. It registers its own messages
// on the endpoint the store gives it and says when it changed.
import * as protocol from '../src/board/protocol.ts';
import type { BoardEndpoint } from './endpoint.ts';

export type OpenQuestion = protocol.Question & { resolve(choice: string | null): void };

export class QuestionsState {
  /** The question shown now, or null. */
  current: OpenQuestion | null = null;
  private readonly queued: OpenQuestion[] = [];
  private readonly changed: () => void;

  constructor(host: BoardEndpoint, changed: () => void) {
    this.changed = changed;
    host.onRequest(protocol.ask, (question) => new Promise<{ choice: string | null }>((resolve) => {
      const asked = { ...question, resolve: (choice: string | null) => resolve({ choice }) };
      if (this.current) {
        this.queued.push(asked);
        this.current = { ...this.current, waiting: (this.current.waiting ?? 0) + 1 };
      } else {
        this.current = asked;
      }
      changed();
    }));
    host.onNotification(protocol.withdrawQuestion, ({ id }) => {
      if (this.current?.id === id) {
        this.answer(null);
        return;
      }
      const queued = this.queued.findIndex((q) => q.id === id);
      if (queued >= 0) {
        this.queued.splice(queued, 1)[0].resolve(null);
        if (this.current) this.current = { ...this.current, waiting: Math.max(0, (this.current.waiting ?? 0) - 1) };
        changed();
      }
    });
    host.onNotification(protocol.questionWaiting, ({ id, waiting }) => {
      if (this.current?.id !== id) return;
      this.current = { ...this.current, waiting: waiting + this.queued.length };
      changed();
    });
  }

  /** The person's answer to the open question: a button's title, or null (closed). */
  answer(choice: string | null): void {
    const open = this.current;
    if (!open) return;
    this.current = this.queued.shift() ?? null;
    open.resolve(choice !== null && open.buttons.includes(choice) ? choice : null);
    this.changed();
  }
}
