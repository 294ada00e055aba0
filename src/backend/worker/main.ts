// The embedded backend in a worker thread: node:sqlite answers synchronously, so a long query
// (a sort over a million rows) run on a front end's own thread would freeze it — in VS Code,
// the whole extension host. Here the backend (storage, GraphQL) runs on this thread and the
// front end asks it through messages (src/graphql/workerBackend.ts). Nothing else changes:
// requests interleave here exactly as they did on the front end's thread.
import { parentPort, threadId, workerData, type MessagePort } from 'node:worker_threads';
import { startBackend, type Backend } from '../backend.ts';
import { errorData, isCancelled, type FromWorker, type ToWorker, type WorkerRequest, type WorkerStart } from './protocol.ts';
import { ChangeHub } from '../changes/hub.ts';
import { FeedForwarder } from './feedForwarder.ts';
import { usersOf, withTeamRole } from '../people/tokens.ts';
import type { Person } from '../people/person.ts';

if (!parentPort) throw new Error('src/backend/worker/main.ts runs as a worker thread (new Worker), not on its own.');
const port: MessagePort = parentPort;
const send = (message: FromWorker) => port.postMessage(message);
const { cancelled, ...start } = workerData as WorkerStart;
const cancelledSlots = new Int32Array(cancelled);
const counts = { runs: 0, skipped: 0 };

let backend: Backend | undefined;
/** The front end's person, with their role where the app has roles (the users' table's). */
let person: Person | undefined;
try {
  backend = await startBackend({
    ...start,
    onInternalError: (error) => send({ kind: 'internal_error', text: error instanceof Error ? error.stack ?? error.message : String(error) }),
  });
  const { storage, model } = backend.api;
  person = start.person && await withTeamRole(start.person, backend.api.ast.roles !== undefined, usersOf(storage, model));
  // The AST as the person's role shows it (the agent's schema lists nothing the role hides).
  send({ kind: 'started', storage: storage.kind, description: storage.description, seeded: backend.seeded, threadId, audit: backend.migration.audit, ast: backend.api.astFor(person) });
} catch (error) {
  await backend?.close().catch(() => undefined);
  backend = undefined;
  send({ kind: 'start_failed', error: errorData(error) });
  port.close();
}

if (backend) {
  const running = backend;
  const feed = new FeedForwarder(new ChangeHub(running.api.storage), send, start.person?.name);
  port.on('message', (message: ToWorker) => {
    if (message.kind === 'feed') feed.listen(message.on);
    else if (message.kind === 'announce') feed.announce(message.open);
    else void answer(running, message);
  });
}

async function answer(running: Backend, message: WorkerRequest): Promise<void> {
  try {
    switch (message.kind) {
      case 'run': {
        // Called off while it waited behind a long query: nobody wants the answer.
        if (isCancelled(cancelledSlots, message.id)) {
          counts.skipped++;
          return;
        }
        counts.runs++;
        const { query, variables, audit } = message;
        // The person this backend was started for, with their role; never a role a message claims.
        const asked = person ?? message.person;
        const result = await running.api.run({ query, variables, ...(audit ? { extensions: { xos: audit } } : {}), ...(asked ? { person: asked } : {}) });
        // graphql-js builds null-prototype objects; JSON is what the front end wants anyway.
        send({ kind: 'result', id: message.id, json: JSON.stringify(result) });
        return;
      }
      case 'stats':
        send({ kind: 'stats', id: message.id, ...counts });
        return;
      case 'ping':
        send({ kind: 'pong', id: message.id, latencyMs: await running.api.storage.ping() });
        return;
      case 'close':
        await running.close();
        send({ kind: 'closed', id: message.id });
        port.close();
        return;
    }
  } catch (error) {
    send({ kind: 'failed', id: message.id, error: errorData(error) });
  }
}
