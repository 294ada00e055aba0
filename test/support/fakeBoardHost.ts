// The host's side of the Board protocol (src/board/protocol.ts), played by a unit test of the
// Board's store (webview/state.ts): what the store sends and asks is recorded, each message
// checked by the protocol's guard as the real host does, and the test sends the host's
// notifications and answers the store's requests itself, in any order.
import assert from 'node:assert/strict';
import type * as protocol from '../../src/board/protocol.ts';
import type { BoardEndpoint } from '../../webview/state.ts';

export interface Sent {
  readonly method: string;
  readonly params: unknown;
}

/** A request of the store, open until the test answers it. */
export interface Asked<P = unknown> {
  readonly method: string;
  readonly params: P;
  readonly timeoutMs: number;
  settled: boolean;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class FakeBoardHost implements BoardEndpoint {
  readonly sent: Sent[] = [];
  readonly asked: Asked[] = [];
  private readonly notificationHandlers = new Map<string, (params: unknown) => void>();
  private readonly requestHandlers = new Map<string, (params: unknown) => unknown>();

  notify<P>(type: protocol.NotificationType<P>, params: P): void {
    // The real host drops a message failing its guard.
    assert.ok(!type.guard || type.guard(params), `${type.method} with params the host would drop: ${JSON.stringify(params)}`);
    this.sent.push({ method: type.method, params });
  }

  request<P, R>(type: protocol.RequestType<P, R>, params: P, timeoutMs: number): Promise<R> {
    assert.ok(!type.guard || type.guard(params), `${type.method} with params the host would refuse: ${JSON.stringify(params)}`);
    return new Promise<R>((resolve, reject) => {
      const asked: Asked = {
        method: type.method, params, timeoutMs, settled: false,
        resolve: (result) => { asked.settled = true; resolve(result as R); },
        reject: (error) => { asked.settled = true; reject(error); },
      };
      this.asked.push(asked);
    });
  }

  onNotification<P>(type: protocol.NotificationType<P>, handler: (params: P) => void): void {
    this.notificationHandlers.set(type.method, handler as (params: unknown) => void);
  }

  onRequest<P, R>(type: protocol.RequestType<P, R>, handler: (params: P) => R | Promise<R>): void {
    this.requestHandlers.set(type.method, handler as (params: unknown) => unknown);
  }

  /** The host sends a notification to the webview. */
  send<P>(type: protocol.NotificationType<P>, params: P): void {
    const handler = this.notificationHandlers.get(type.method);
    assert.ok(handler, `the store does not listen to ${type.method}`);
    handler(params);
  }

  /** The host asks the webview; resolves with the webview's answer. */
  async ask<P, R>(type: protocol.RequestType<P, R>, params: P): Promise<R> {
    const handler = this.requestHandlers.get(type.method);
    assert.ok(handler, `the store answers no ${type.method}`);
    return await handler(params) as R;
  }

  /** The store's requests of this type not answered yet, in the order asked. */
  open<P, R>(type: protocol.RequestType<P, R>): Asked<P>[] {
    return this.asked.filter((a) => a.method === type.method && !a.settled) as Asked<P>[];
  }
}

/** Lets the store's promise callbacks run. */
export const settle = () => new Promise((resolve) => setImmediate(resolve));
