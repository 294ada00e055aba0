// The messages between a front end's thread and the embedded backend running in a worker
// thread (src/backend/worker/main.ts). Everything is plain data: the AST and DSN go in once,
// GraphQL requests and their JSON results go back and forth.
import type { Ast } from '../../ast/schema.ts';
import type { AuditMeta } from '../storage/audit.ts';

/** What the worker gets at start (`workerData`). */
export interface WorkerStart {
  readonly ast: Ast;
  readonly dsn: string;
  readonly seed?: boolean | number;
  readonly statementTimeoutMs?: number;
  readonly maxDepth?: number;
}

export type ToWorker =
  | { readonly kind: 'run'; readonly id: number; readonly query: string; readonly variables?: Record<string, unknown>; readonly audit?: AuditMeta }
  | { readonly kind: 'ping'; readonly id: number }
  | { readonly kind: 'close'; readonly id: number };

/** An error as it crosses threads: its name and message (its class stays behind). */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
}

export type FromWorker =
  | { readonly kind: 'started'; readonly storage: 'sqlite' | 'postgres'; readonly description: string; readonly seeded: Record<string, number>; readonly threadId: number }
  | { readonly kind: 'start_failed'; readonly error: ErrorData }
  /** A GraphQL result as JSON text: parsed on the front end's side into plain objects. */
  | { readonly kind: 'result'; readonly id: number; readonly json: string }
  | { readonly kind: 'pong'; readonly id: number; readonly latencyMs: number }
  | { readonly kind: 'closed'; readonly id: number }
  | { readonly kind: 'failed'; readonly id: number; readonly error: ErrorData }
  /** A bug inside the backend (the GraphQL layer hides it from the caller); for the front end's log. */
  | { readonly kind: 'internal_error'; readonly text: string };

export function errorData(error: unknown): ErrorData {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}
