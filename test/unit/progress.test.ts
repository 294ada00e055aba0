// A long first-run step says that it still runs, and stops saying so once it is done or failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withProgress } from '../../scripts/lib/progress.mjs';

test('a step tells that it still runs until it settles, then falls silent', async () => {
  const lines: string[] = [];
  const result = await withProgress('installing code-server 4.139.1', () => new Promise<string>((resolve) => {
    const check = setInterval(() => {
      if (lines.length < 2) return;
      clearInterval(check);
      resolve('done');
    }, 1);
  }), { log: (line) => lines.push(line), everyMs: 5 });
  assert.equal(result, 'done');
  assert.match(lines[0], /^still installing code-server 4\.139\.1 \(\d+ s\) …$/);
  const told = lines.length;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(lines.length, told, 'nothing more after the step settled');
});

test('a failing step fails as it did, and the ticker stops', async () => {
  const lines: string[] = [];
  await assert.rejects(withProgress('installing PostgreSQL', async () => { throw new Error('apt-get update failed'); }, { log: (line) => lines.push(line), everyMs: 5 }), /apt-get update failed/);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(lines, []);
});
