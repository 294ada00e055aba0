// The embedded backend on its own thread (src/backend/worker/main.ts), as an XosClient: the
// extension host and xos-mcp keep their thread for the person and the agent while SQLite
// sorts, filters and counts. The AST stays here too (the tools read it synchronously).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BackendOptions } from '../backend/backend.ts';
import type { Person } from '../backend/people/person.ts';
import { redactDsn } from '../backend/dsn.ts';
import { cancel, CANCEL_SLOTS, type ErrorData, type FromWorker, type ToWorker, type WorkerRequest, type WorkerStart } from '../backend/worker/protocol.ts';
import { packageRoot } from '../packageRoot.ts';
import type { DsnStatus, GraphQLResult, XosClient } from './types.ts';
import { BackendUnavailableError } from './unavailable.ts';
import { Announcer, FeedListeners } from './feedListeners.ts';

export type WorkerBackendOptions = Omit<BackendOptions, 'onInternalError'> & {
  /** Bugs inside the backend (the caller only sees "internal error"), with their stack. */
  readonly onInternalError?: (text: string) => void;
  /** The person using this front end: named with every request (the audit trail records them). */
  readonly person?: Person;
};

export interface WorkerBackend {
  readonly client: XosClient;
  readonly storage: 'sqlite' | 'postgres';
  /** The storage's DSN, password masked (as the status says it). */
  readonly description: string;
  /** Rows inserted per entity by seeding. */
  readonly seeded: Record<string, number>;
  /** The worker thread's id (not this thread's). */
  readonly threadId: number;
  /** Requests run so far, and reads left out because they were called off before they started. */
  stats(): Promise<{ runs: number; skipped: number }>;
  close(): Promise<void>;
}

/** The worker's script: the TypeScript source when running from the sources, the bundle next to it in dist/. */
export function workerScript(): string {
  const source = join(import.meta.dirname, '..', 'backend', 'worker', 'main.ts');
  return existsSync(source) ? source : join(packageRoot(import.meta.dirname), 'dist', 'backendWorker.mjs');
}

/** An error from the worker, with its name (the class stays in the worker). */
function revive(data: ErrorData): Error {
  const error = new Error(data.message);
  error.name = data.name;
  return error;
}

export async function startWorkerBackend(options: WorkerBackendOptions): Promise<WorkerBackend> {
  const { onInternalError, person, ...rest } = options;
  const cancelled = new Int32Array(new SharedArrayBuffer(CANCEL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const start: WorkerStart = { ...rest, ...(person ? { person } : {}), cancelled: cancelled.buffer as SharedArrayBuffer };
  const worker = new Worker(workerScript(), { workerData: start });
  const pending = new Map<number, { resolve(message: FromWorker): void; reject(error: Error): void }>();
  // The change feed runs in the worker while anyone listens here (messages never keep the process alive).
  const post = (message: ToWorker) => {
    if (!gone) worker.postMessage(message);
  };
  const feedListeners = new FeedListeners(() => post({ kind: 'feed', on: true }), () => post({ kind: 'feed', on: false }));
  const announcer = new Announcer((open) => post({ kind: 'announce', open }));
  let nextId = 1;
  /** Why the worker can no longer answer, once it cannot. */
  let gone: Error | undefined;

  const started = new Promise<Extract<FromWorker, { kind: 'started' }>>((resolve, reject) => {
    worker.on('message', (message: FromWorker) => {
      switch (message.kind) {
        case 'started': resolve(message); return;
        case 'start_failed': reject(revive(message.error)); return;
        case 'internal_error': onInternalError?.(message.text); return;
        case 'feed_event': feedListeners.emit(message.event); return;
        default: {
          const waiting = pending.get(message.id);
          pending.delete(message.id);
          waiting?.resolve(message);
        }
      }
    });
    const stop = (error: Error) => {
      gone ??= error;
      reject(error);
      for (const waiting of pending.values()) waiting.reject(gone);
      pending.clear();
    };
    worker.on('error', (error) => stop(new BackendUnavailableError(`the embedded XOS backend stopped: ${error.message}`)));
    worker.on('exit', (code) => stop(new BackendUnavailableError(`the embedded XOS backend stopped (exit code ${code})`)));
  });

  let info: Extract<FromWorker, { kind: 'started' }>;
  try {
    info = await started;
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  // An idle backend does not keep the process alive (a front end that forgot to close it still
  // exits); one with a request under way does, until the answer is in.
  worker.unref();
  const ask = (message: WorkerRequest, signal?: AbortSignal): Promise<FromWorker> => {
    if (gone) return Promise.reject(gone);
    return new Promise<FromWorker>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(message.id, { resolve, reject });
      worker.postMessage(message);
      signal?.addEventListener('abort', () => {
        if (!pending.delete(message.id)) return;
        // Seen by the worker before it starts the request; one already running ends unheard.
        cancel(cancelled, message.id);
        reject(signal.reason);
      }, { once: true });
    }).finally(() => {
      if (pending.size === 0) worker.unref();
    });
  };
  const failed = (answer: FromWorker): answer is Extract<FromWorker, { kind: 'failed' }> => answer.kind === 'failed';
  // As the backend serves it: the database role's rights applied (a table it may not change is read-only).
  const ast = info.ast;
  const description = redactDsn(info.description);

  const client: XosClient = {
    feed: { subscribe: (listener) => feedListeners.subscribe(listener), announce: (open) => announcer.announce(open) },
    run: async (query, variables, audit, signal) => {
      signal?.throwIfAborted();
      // A write is never called off: once asked, it is the backend's to finish (and audit).
      const write = audit !== undefined || /^\s*mutation\b/.test(query);
      const answer = await ask({ kind: 'run', id: nextId++, query, variables, audit, ...(person ? { person } : {}) }, write ? undefined : signal);
      if (failed(answer)) throw revive(answer.error);
      return JSON.parse((answer as Extract<FromWorker, { kind: 'result' }>).json) as GraphQLResult;
    },
    ast: () => ast,
    async status(): Promise<DsnStatus> {
      // The agent sees this: never user info, whatever the storage put in its description.
      const base = { kind: info.storage, description, audit: info.audit };
      try {
        const answer = await ask({ kind: 'ping', id: nextId++ });
        if (failed(answer)) throw revive(answer.error);
        const latency = (answer as Extract<FromWorker, { kind: 'pong' }>).latencyMs;
        return { ...base, ok: true, latency_ms: Math.round(latency * 100) / 100 };
      } catch {
        return { ...base, ok: false, latency_ms: null };
      }
    },
  };

  let closing: Promise<void> | undefined;
  return {
    client,
    storage: info.storage,
    description,
    seeded: info.seeded,
    threadId: info.threadId,
    stats: async () => {
      const answer = await ask({ kind: 'stats', id: nextId++ });
      if (answer.kind !== 'stats') throw new Error(`the backend worker answered ${answer.kind} to stats`);
      return { runs: answer.runs, skipped: answer.skipped };
    },
    close: () => (closing ??= (async () => {
      try {
        if (!gone) await ask({ kind: 'close', id: nextId++ });
      } catch {
        // Stopped already: nothing to close.
      }
      announcer.stop();
      gone ??= new BackendUnavailableError('the embedded XOS backend was closed');
      await worker.terminate();
    })()),
  };
}
