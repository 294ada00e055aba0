// The typed messages between the host and the Board webview. Both sides import
// these descriptors; only src/host/boardTransport.ts and webview/transport.ts
// touch the actual transport (postMessage).
import type { BoardView } from './view.ts';

/** A one-way message. `P` is its payload type (phantom). */
export interface NotificationType<P> {
  readonly kind: 'notification';
  readonly method: string;
  readonly __params?: P;
}

/** A message that expects exactly one answer with the same id. */
export interface RequestType<P, R> {
  readonly kind: 'request';
  readonly method: string;
  readonly __params?: P;
  readonly __result?: R;
}

function notification<P>(method: string): NotificationType<P> {
  return { kind: 'notification', method };
}

function request<P, R>(method: string): RequestType<P, R> {
  return { kind: 'request', method };
}

export type FormValues = Record<string, unknown>;
export type MailField = 'to' | 'subject' | 'body';

// webview -> host
/** The webview is loaded and listens; the host answers with a render. */
export const ready = notification<Record<string, never>>('board/ready');
/** The person changed a form field (already converted to the field's value form). */
export const edit = notification<{ readonly field: string; readonly value: unknown }>('board/edit');
/** The person opened a list row (`navigate.row`). */
export const navigateRow = notification<{ readonly row: number }>('board/navigateRow');
/** The person clicked Save on the form. */
export const save = notification<Record<string, never>>('board/save');
/** The person edited the mail draft. */
export const editMail = notification<{ readonly field: MailField; readonly value: string }>('board/editMail');

// host -> webview
/** Everything the Board shows; sent on every change and whenever the panel (re)appears. */
export const render = notification<{ readonly view: BoardView }>('board/render');
/** The person's current form values (the fields they edited), flushed from the webview. */
export const formData = request<Record<string, never>, FormValues>('board/formData');

/** What travels over postMessage. */
export type WireMessage =
  | { readonly method: string; readonly params: unknown }
  | { readonly id: number; readonly method: string; readonly params: unknown }
  | { readonly id: number; readonly result: unknown }
  | { readonly id: number; readonly error: string };

/**
 * One side of the conversation: sends notifications and requests, dispatches what
 * arrives. The transport modules feed `receive` and give it `post`.
 */
export class MessageEndpoint {
  private readonly post: (message: WireMessage) => void;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> }>();
  private readonly notificationHandlers = new Map<string, (params: unknown) => void>();
  private readonly requestHandlers = new Map<string, (params: unknown) => unknown>();

  constructor(post: (message: WireMessage) => void) {
    this.post = post;
  }

  notify<P>(type: NotificationType<P>, params: P): void {
    this.post({ method: type.method, params });
  }

  request<P, R>(type: RequestType<P, R>, params: P, timeoutMs: number): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${type.method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.post({ id, method: type.method, params });
    });
  }

  onNotification<P>(type: NotificationType<P>, handler: (params: P) => void): void {
    this.notificationHandlers.set(type.method, handler as (params: unknown) => void);
  }

  onRequest<P, R>(type: RequestType<P, R>, handler: (params: P) => R | Promise<R>): void {
    this.requestHandlers.set(type.method, handler as (params: unknown) => unknown);
  }

  /** Rejects every open request (the other side went away). */
  cancelPending(reason: string): void {
    for (const [id, open] of this.pending) {
      clearTimeout(open.timer);
      open.reject(new Error(reason));
      this.pending.delete(id);
    }
  }

  /** Dispatches one incoming message; unknown ones are ignored (the other side may be newer). */
  receive(message: unknown): void {
    if (message === null || typeof message !== 'object') return;
    const m = message as Record<string, unknown>;
    if (typeof m.id === 'number' && typeof m.method !== 'string') {
      const open = this.pending.get(m.id);
      if (!open) return;
      this.pending.delete(m.id);
      clearTimeout(open.timer);
      if (typeof m.error === 'string') open.reject(new Error(m.error));
      else open.resolve(m.result);
      return;
    }
    if (typeof m.method !== 'string') return;
    if (typeof m.id === 'number') {
      const id = m.id;
      const handler = this.requestHandlers.get(m.method);
      if (!handler) {
        this.post({ id, error: `no handler for ${m.method}` });
        return;
      }
      Promise.resolve()
        .then(() => handler(m.params))
        .then((result) => this.post({ id, result }), (error: unknown) => this.post({ id, error: error instanceof Error ? error.message : String(error) }));
      return;
    }
    this.notificationHandlers.get(m.method)?.(m.params);
  }
}
