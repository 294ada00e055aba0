// A long first-run step says that it still runs, and stops saying so once it is done or failed.
// The clock is mocked: every tick is the test's, none is waited for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withProgress } from '../../scripts/lib/progress.mjs';

test('a step tells every 15 s that it still runs until it settles, then falls silent', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
  const lines: string[] = [];
  let finish!: (value: string) => void;
  const running = withProgress('installing code-server 4.139.1', () => new Promise<string>((resolve) => { finish = resolve; }), { log: (line) => lines.push(line) });
  t.mock.timers.tick(14_999);
  assert.deepEqual(lines, [], 'nothing before the first 15 s');
  t.mock.timers.tick(1);
  t.mock.timers.tick(15_000);
  assert.deepEqual(lines, ['still installing code-server 4.139.1 (15 s) …', 'still installing code-server 4.139.1 (30 s) …']);
  finish('done');
  assert.equal(await running, 'done');
  t.mock.timers.tick(60_000);
  assert.equal(lines.length, 2, 'nothing more after the step settled');
});

test('a failing step fails as it did, and the ticker stops', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
  const lines: string[] = [];
  await assert.rejects(withProgress('installing PostgreSQL', async () => { throw new Error('apt-get update failed'); }, { log: (line) => lines.push(line) }), /apt-get update failed/);
  t.mock.timers.tick(60_000);
  assert.deepEqual(lines, []);
});
