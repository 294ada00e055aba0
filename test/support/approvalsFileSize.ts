// How much disk the approvals file takes when one client keeps asking: `count` reviews of 240
// records each (every one a different write), requested with one credential from 80 conversation
// ids, as an agent without an MCP session would. Prints the outcome counts and the file's bytes
// (the file, its WAL and shared memory) as JSON.
//   node test/support/approvalsFileSize.ts [count=200]
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import { BoardState } from '../../src/board/state.ts';
import { requestApproval } from '../../src/core/approvals.ts';
import type { CoreDeps } from '../../src/core/base.ts';
import { proposeBatch } from '../../src/core/batch.ts';
import { prepareSave } from '../../src/core/save.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { tempDir } from './tmp.ts';

const count = Number(process.argv[2] ?? 200);
const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
const dir = await tempDir('approvals-size');
try {
  const client = embeddedClient(backend);
  const board: CoreDeps = {
    client, board: new BoardState(), locale: 'en',
    confirmer: { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' },
  };
  const ids = ((await client.run('{ person_list(limit: 240) { id } }')).data!.person_list as Array<{ id: string }>).map((p) => String(p.id));
  const path = join(dir.path, APPROVALS_FILE);
  const store = new SqliteApprovalStore(path);
  const outcomes: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) {
    const proposed = await proposeBatch(board, 'person_list', client.ast().contexts.person_list, ids.map((id) => ({ id, city: `Batch ${i} ${id}` })));
    if (!proposed.ok) throw new Error(JSON.stringify(proposed));
    const prepared = await prepareSave(board);
    if (!('payload' in prepared)) throw new Error(JSON.stringify(prepared));
    const made = await requestApproval({ client, store }, prepared, { credential: 'bearer token sha256:one-client', client: 'agent via http', conversation: `chat-${i % 80}` });
    const kind = made.kind === 'requested' && 'again' in made && made.again ? 'again' : made.kind;
    outcomes[kind] = (outcomes[kind] ?? 0) + 1;
    board.board.closeReview();
  }
  const pending = (await store.list(['pending'])).length;
  store.close();
  const bytes = ['', '-wal', '-shm'].reduce((sum, side) => sum + (statSync(path + side, { throwIfNoEntry: false })?.size ?? 0), 0);
  console.log(JSON.stringify({ requests: count, rows: ids.length, outcomes, pending, fileBytes: bytes }));
} finally {
  await backend.close();
  await dir.remove();
}
