// XOS in real VS Code (code-server, headless Chromium): VS Code's MCP client
// lists the XOS server and its nine tools, tool calls show data on the Board,
// the agent's proposal is visibly marked in the webview, and hiding the Board
// loses nothing.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/board.e2e.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from './support/browser.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { vscodeServer } from './support/codeServer.ts';
import { boardFrame, gridRowCount, runXosHostSuite, screenshot } from './board.support.ts';

const browser = fileBrowser();

test('the Board shows tool results; VS Code lists the XOS MCP server with all nine tools', { timeout: 300_000 }, async () => {
  const seen: Record<string, string> = {};
  const onStep = async (step: string, page: Page) => {
    if (step === 'board-list') {
      const frame = await boardFrame(page);
      const rows = frame.locator('[role="grid"] [role="row"]:not([aria-rowindex="1"])');
      await vscodeServer.waitFor(async () => (await rows.count()) === 5 || undefined, { timeoutMs: 20_000, describe: () => 'the Board grid never had 5 rows' });
      seen.rowcount = String(await gridRowCount(frame));
      seen.header = (await frame.locator('[role="grid"] [role="row"][aria-rowindex="1"]').innerText()).replace(/\s+/g, ' ').trim();
      await screenshot(page, 'board-1-list');
    }
    if (step === 'board-preview' || step === 'board-reshown') {
      const frame = await boardFrame(page);
      const proposal = frame.locator('[data-field="lastname"] .proposal');
      await proposal.waitFor({ state: 'visible', timeout: 20_000 });
      seen[step] = (await proposal.innerText()).replace(/\s+/g, ' ').trim();
      await screenshot(page, step === 'board-preview' ? 'board-2-preview' : 'board-3-reshown');
    }
  };
  const run = await runXosHostSuite(browser(), 'board', 'board', onStep, { 'xos.locale': 'en' });
  assert.deepEqual({ exitCode: run.exitCode, checks: run.outcome.checks, errors: run.errors }, {
    exitCode: 0,
    errors: [],
    checks: [
      'extension activates with the embedded backend on a SQLite file in global storage',
      'the XOS commands are registered',
      'VS Code\'s MCP client lists the XOS server with all nine tools',
      'xos.showStatus reports the same as xos_system_status',
      'xos_query before xos_schema is refused by the server',
      'xos_query person_list opens the Board and shows the list',
      'a detail with a proposal shows old -> new, and hiding the Board loses nothing',
    ].map((name) => ({ name, ok: true })),
  });
  assert.deepEqual(run.steps, ['board-list', 'board-preview', 'board-reshown']);
  assert.equal(seen.header, 'id First name Last name Email City Age Net worth');
  assert.equal(seen.rowcount, '6', 'aria-rowcount counts the header row');
  assert.match(seen['board-preview'], /^\S.* → Schmidt Proposed by the agent Accept Revert$/);
  assert.equal(seen['board-reshown'], seen['board-preview']);
  assert.deepEqual(run.outcome.facts.toolNames.map((n: string) => n.replace(/^mcp_.*?_(xos_)/, '$1')), [
    'xos_schema', 'xos_query', 'xos_render', 'xos_ui_change_required', 'xos_ui_save', 'xos_system_status', 'xos_contacts', 'xos_mail_compose', 'xos_mail_send',
  ]);
});
