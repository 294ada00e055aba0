// The messages between a front end's thread and the embedded backend running in a worker
// thread (src/backend/worker/main.ts). Everything is plain data: the AST and DSN go in once,
// GraphQL requests and their JSON results go back and forth.
import type { Ast } from '../../ast/schema.ts';
import type { AuditMeta } from '../storage/audit.ts';
import type { AuditState } from '../storage/types.ts';
import type { ChangeFeedEvent, OpenRecord } from '../changes/types.ts';
import type { Person } from '../people/person.ts';

/** Requests the front end called off, by id: slot `id % CANCEL_SLOTS` holds the id (shared memory, read before a request starts). */
export const CANCEL_SLOTS = 1024;

/** Calls request `id` off (the front end's side). */
export function cancel(slots: Int32Array, id: number): void {
  Atomics.store(slots, id % CANCEL_SLOTS, id);
}

/** Whether request `id` was called off (the worker's side, before it starts the request). */
export function isCancelled(slots: Int32Array, id: number): boolean {
  return Atomics.load(slots, id % CANCEL_SLOTS) === id;
}

/** What the worker gets at start (`workerData`). */
export interface WorkerStart {
  /** Int32Array(CANCEL_SLOTS) over shared memory: the worker sees a call-off before it reads the message that asked. */
  readonly cancelled: SharedArrayBuffer;
  readonly ast: Ast;
  readonly dsn: string;
  readonly seed?: boolean | number;
  readonly statementTimeoutMs?: number;
  readonly maxDepth?: number;
  /** Who uses this front end: the name its presence goes by. */
  readonly person?: Person;
}

export type ToWorker =
  /** `person`: who the front end says sends it (the embedded backend runs in the person's own process). */
  | { readonly kind: 'run'; readonly id: number; readonly query: string; readonly variables?: Record<string, unknown>; readonly audit?: AuditMeta; readonly person?: Person }
  | { readonly kind: 'ping'; readonly id: number }
  | { readonly kind: 'stats'; readonly id: number }
  | { readonly kind: 'close'; readonly id: number }
  /** The front end listens to the change feed (on) or no longer (off). */
  | { readonly kind: 'feed'; readonly on: boolean }
  /** The record the front end has open (undefined: none), for the others' presence. */
  | { readonly kind: 'announce'; readonly open: OpenRecord | undefined };

/** The messages the worker answers (by id). */
export type WorkerRequest = Extract<ToWorker, { readonly id: number }>;

/** An error as it crosses threads: its name and message (its class stays behind). */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
}

export type FromWorker =
  | { readonly kind: 'started'; readonly storage: 'sqlite' | 'postgres'; readonly description: string; readonly seeded: Record<string, number>; readonly threadId: number; readonly audit: AuditState; readonly ast: Ast }
  | { readonly kind: 'start_failed'; readonly error: ErrorData }
  /** A GraphQL result as JSON text: parsed on the front end's side into plain objects. */
  | { readonly kind: 'result'; readonly id: number; readonly json: string }
  | { readonly kind: 'pong'; readonly id: number; readonly latencyMs: number }
  /** Requests run, and those left out because the front end had called them off. */
  | { readonly kind: 'stats'; readonly id: number; readonly runs: number; readonly skipped: number }
  | { readonly kind: 'closed'; readonly id: number }
  | { readonly kind: 'failed'; readonly id: number; readonly error: ErrorData }
  /** A bug inside the backend (the GraphQL layer hides it from the caller); for the front end's log. */
  | { readonly kind: 'internal_error'; readonly text: string }
  /** An event of the change feed, while the front end listens. */
  | { readonly kind: 'feed_event'; readonly event: ChangeFeedEvent };

export function errorData(error: unknown): ErrorData {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}
