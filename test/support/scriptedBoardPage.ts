// The Board page's side of xos-mcp's browser Board over plain HTTP, as webview/browser.ts
// speaks it: for integration tests that play the person's page without a browser.
import { readJsonLines } from '../../src/board/jsonLines.ts';
import { boardSession } from './boardSession.ts';

/**
 * The Board page's side, as webview/browser.ts speaks it: the key handshake, then one streamed
 * response of JSON lines, POSTs with the session and the page id. Answers the host's questions
 * as the test scripts it.
 */
export class ScriptedPage {
  readonly received: Array<Record<string, any>> = [];
  readonly asked: Array<{ kind: string; message: string; buttons: string[] }> = [];
  /** The button to click, null to close the dialog, undefined to leave it open. */
  answer: (question: { kind: string; buttons: string[] }) => string | null | undefined = () => null;
  replaced = false;
  takeoverRefused = false;
  /** The events stream's status when it was refused (409: another page has a question open). */
  refused: { status: number; body: string } | undefined;
  private page = '';
  private session = '';
  private readonly abort = new AbortController();
  private readonly done: Promise<void>;

  private readonly base: string;
  private readonly key: string | Buffer;
  private readonly startId: string | undefined;

  /** With `startId`, a page that resumes with that start's key (`key` is then K_start, see startKey). */
  constructor(base: string, key: string | Buffer, startId?: string) {
    this.base = base;
    this.key = key;
    this.startId = startId;
    let hello!: () => void;
    const helloSeen = new Promise<void>((resolve) => { hello = resolve; });
    this.done = this.listen(hello);
    this.ready = helloSeen.then(async () => {
      await this.post({ method: 'board/ready', params: {} });
    });
  }

  readonly ready: Promise<void>;

  private async listen(hello: () => void): Promise<void> {
    this.session = await boardSession(this.base, this.key, this.startId);
    const response = await fetch(`${this.base}board/events`, { headers: { authorization: `Bearer ${this.session}` }, signal: this.abort.signal });
    if (response.status !== 200) {
      this.refused = { status: response.status, body: await response.text() };
      return;
    }
    try {
      await readJsonLines(response.body!, (message: Record<string, any>) => {
        if (message.xos === 'hello') {
          this.page = message.page as string;
          hello();
        } else if (message.xos === 'replaced') this.replaced = true;
        else if (message.xos === 'takeoverRefused') this.takeoverRefused = true;
        else this.handle(message);
      });
    } catch (error) {
      if (!this.abort.signal.aborted) throw error;
    }
  }

  private handle(message: Record<string, any>): void {
    this.received.push(message);
    if (message.method === 'board/ask') {
      this.asked.push(message.params);
      const choice = this.answer(message.params);
      if (choice !== undefined) void this.post({ id: message.id, result: { choice } });
    } else if (typeof message.id === 'number' && message.method === 'board/formData') {
      void this.post({ id: message.id, result: {} });
    }
  }

  async post(message: unknown): Promise<number> {
    const response = await fetch(`${this.base}board/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.session}`, 'x-xos-page': this.page },
      body: JSON.stringify(message),
    });
    return response.status;
  }

  notified(method: string): Array<Record<string, any>> {
    return this.received.filter((m) => m.method === method);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done.catch(() => {});
  }
}

