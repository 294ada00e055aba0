// A second process on an approvals file, for the store's race test: reads every pending approval,
// says "ready" (stderr) and waits for a line on stdin, then tries to move each one on
// (pending → committing) and prints the ids it won, as JSON. Both racers thus start from the same
// pending set, so every id is contended.
//   node test/support/approvalRacer.ts <file> <who>
import { once } from 'node:events';
import { SqliteApprovalStore } from '../../src/store/approvalStore.ts';

const [file, who] = process.argv.slice(2);
const store = new SqliteApprovalStore(file);
const pending = await store.list(['pending']);
process.stderr.write('ready\n');
await once(process.stdin, 'data');
const won: string[] = [];
for (const approval of pending) {
  if (await store.update({ ...approval, state: 'committing', decidedBy: who }, 'pending')) won.push(approval.id);
}
store.close();
process.stdout.write(JSON.stringify(won));
process.stdin.destroy();
