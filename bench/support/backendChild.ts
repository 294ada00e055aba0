// The embedded backend as a child process, for `npm run bench:thread` only: the same backend and
// the same request/answer shape as the worker thread (src/backend/worker/main.ts), over the
// process's IPC channel instead of a MessagePort.
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';

interface Request { readonly id: number; readonly query: string; readonly variables?: Record<string, unknown> }

const send = (message: unknown) => process.send!(message);
const ast = demoApp();
delete ast.data;
const backend = await startBackend({ ast, dsn: process.argv[2] });
process.on('message', (request: Request | 'close') => {
  if (request === 'close') {
    void backend.close().then(() => process.disconnect());
    return;
  }
  void backend.api.run({ query: request.query, variables: request.variables })
    .then((result) => send({ id: request.id, json: JSON.stringify(result) }));
});
send({ ready: true, rssMb: process.memoryUsage().rss / 2 ** 20 });
