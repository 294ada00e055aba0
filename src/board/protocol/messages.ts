// The Board's message machinery: typed one-way messages and requests, the hand-written guards
// that check what the host receives, and the endpoint each side's transport module feeds
// (src/host/boardTransport.ts, webview/transport.ts). The messages themselves are in the files
// beside this one, one per part of the Board (docs/board.md § Protocol).
import type { ListQuery } from '../../core/domain.ts';

/** Checks a message's params; anything failing it is dropped. */
export type Guard<P> = (params: unknown) => params is P;

/** A one-way message. `P` is its payload type (phantom). */
export interface NotificationType<P> {
  readonly kind: 'notification';
  readonly method: string;
  readonly guard?: Guard<P>;
  readonly __params?: P;
}

/** A message that expects exactly one answer with the same id. */
export interface RequestType<P, R> {
  readonly kind: 'request';
  readonly method: string;
  readonly guard?: Guard<P>;
  readonly __params?: P;
  readonly __result?: R;
}

export function notification<P>(method: string, guard?: Guard<P>): NotificationType<P> {
  return { kind: 'notification', method, guard };
}

export function request<P, R>(method: string, guard?: Guard<P>): RequestType<P, R> {
  return { kind: 'request', method, guard };
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

const MAX_TEXT = 1_000_000;

export const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;

export function isListQuery(v: unknown): v is ListQuery {
  if (!isObject(v)) return false;
  const { sort, filter } = v;
  if (filter !== undefined && !isText(filter, 1_000)) return false;
  if (sort === undefined) return true;
  return isObject(sort) && isText(sort.field, 200) && (sort.direction === 'asc' || sort.direction === 'desc');
}

/** The most rows one window may ask for (a list's, a review's); the grids ask for far fewer. */
export const MAX_ROWS_PER_REQUEST = 5_000;

export const isEmptyParams = (v: unknown): v is Record<string, never> => isObject(v);

/** What travels over postMessage. */
export type WireMessage =
  | { readonly method: string; readonly params: unknown }
  | { readonly id: number; readonly method: string; readonly params: unknown }
  | { readonly id: number; readonly result: unknown }
  | { readonly id: number; readonly error: string };

interface Handler {
  readonly guard?: (params: unknown) => boolean;
  readonly run: (params: unknown) => unknown;
}

/**
 * One side of the conversation: sends notifications and requests, dispatches what
 * arrives. The transport modules feed `receive` and give it `post`.
 */
export class MessageEndpoint {
  private readonly post: (message: WireMessage) => void;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; timer: ReturnType<typeof setTimeout> }>();
  private readonly notificationHandlers = new Map<string, Handler>();
  private readonly requestHandlers = new Map<string, Handler>();
  /** Called with each message that was dropped (malformed params or unknown method). */
  onDropped: ((method: string) => void) | undefined;

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
    this.notificationHandlers.set(type.method, { guard: type.guard, run: handler as (params: unknown) => void });
  }

  onRequest<P, R>(type: RequestType<P, R>, handler: (params: P) => R | Promise<R>): void {
    this.requestHandlers.set(type.method, { guard: type.guard, run: handler as (params: unknown) => unknown });
  }

  /** Rejects every open request (the other side went away). */
  cancelPending(reason: string): void {
    for (const [id, open] of this.pending) {
      clearTimeout(open.timer);
      open.reject(new Error(reason));
      this.pending.delete(id);
    }
  }

  /** Dispatches one incoming message; unknown and malformed ones are dropped. */
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
        this.onDropped?.(m.method);
        this.post({ id, error: `no handler for ${m.method}` });
        return;
      }
      if (handler.guard && !handler.guard(m.params)) {
        this.onDropped?.(m.method);
        this.post({ id, error: `malformed ${m.method}` });
        return;
      }
      Promise.resolve()
        .then(() => handler.run(m.params))
        .then((result) => this.post({ id, result }), (error: unknown) => this.post({ id, error: error instanceof Error ? error.message : String(error) }));
      return;
    }
    const handler = this.notificationHandlers.get(m.method);
    if (!handler || (handler.guard && !handler.guard(m.params))) {
      this.onDropped?.(m.method);
      return;
    }
    handler.run(m.params);
  }
}

