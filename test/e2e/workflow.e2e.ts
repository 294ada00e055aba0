// The seed's workflow in real VS Code: xos_schema, xos_query person_list,
// xos_query person_detail, xos_ui_change_required lastname -> Schmidt,
// xos_ui_save, with the person clicking Save in the VS Code notification; then
// the same with Discard. The stored record is read from the SQLite file itself.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/workflow.e2e.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { userInfo } from 'node:os';
import { cleanPersonName } from '../../src/backend/people/personName.ts';
import type { Locator, Page } from './support/browser.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { vscodeServer } from './support/codeServer.ts';
import { answerNotification } from './support/notifications.ts';
import { boardFrame, gridRowCount, runXosHostSuite, screenshot, type HostRun } from './board.support.ts';

const browser = fileBrowser();

/** The History's entries as text, one line each: who, what, the changes (time left out). */
async function historyText(history: Locator): Promise<string[]> {
  const entries = history.locator('li.entry');
  const lines: string[] = [];
  for (let i = 0; i < await entries.count(); i++) {
    const entry = entries.nth(i);
    const who = (await entry.locator('.who').innerText()).trim();
    const what = (await entry.locator('.what').innerText()).trim();
    const change = (await entry.locator('li.change').first().innerText()).replace(/\s+/g, ' ').trim();
    const undo = await entry.locator('vscode-button.undo').count();
    lines.push(`${who} | ${what} | ${change}${undo ? ' | Undo' : ''}`);
  }
  return lines;
}


test('the seed workflow saves after Save is clicked and writes nothing after Discard', { timeout: 300_000 }, async () => {
  const seen: Record<string, string | string[]> = {};
  const onStep = async (step: string, page: Page) => {
    switch (step) {
      case 'workflow-list': {
        // 240 people and the header row; the grid renders only the rows on screen.
        const frame = await boardFrame(page);
        await vscodeServer.waitFor(async () => (await gridRowCount(frame)) === 241 || undefined, { timeoutMs: 20_000, describe: () => 'the Board never listed 240 people' });
        break;
      }
      case 'workflow-detail':
        await (await boardFrame(page)).locator('[data-field="lastname"] vscode-textfield').waitFor({ state: 'visible', timeout: 20_000 });
        break;
      case 'workflow-preview': {
        const proposal = (await boardFrame(page)).locator('[data-field="lastname"] .proposal');
        await proposal.waitFor({ state: 'visible', timeout: 20_000 });
        seen.preview = (await proposal.innerText()).replace(/\s+/g, ' ').trim();
        break;
      }
      case 'workflow-save-asking':
        seen.saveQuestion = await answerNotification(page, /Save changes to Person Max \S+ \(#1\)\?/, 'Save', 'workflow-5-save-question');
        return;
      case 'workflow-discard-asking':
        seen.discardQuestion = await answerNotification(page, /Save changes to Person Max \S+ \(#1\)\?/, 'Discard', 'workflow-7-discard-question');
        return;
      case 'workflow-undo': {
        const history = (await boardFrame(page)).locator('details.history');
        await history.locator('summary').click();
        const first = history.locator('li.entry').first();
        await first.waitFor({ state: 'visible', timeout: 20_000 });
        seen.historyBefore = await historyText(history);
        await screenshot(page, 'workflow-9-history');
        await first.locator('vscode-button.undo').click();
        seen.undoQuestion = await answerNotification(page, /Save changes to Person Max \S+ \(#1\)\?/, 'Save', 'workflow-10-undo-question');
        return;
      }
      case 'workflow-undone': {
        const history = (await boardFrame(page)).locator('details.history');
        await vscodeServer.waitFor(async () => (await history.locator('li.entry').count()) === 2 || undefined, { timeoutMs: 20_000, describe: () => 'the History never showed the undo' });
        seen.historyAfter = await historyText(history);
        await screenshot(page, 'workflow-11-undone');
        return;
      }
      default:
        break;
    }
    const shots: Record<string, string> = {
      'workflow-schema': 'workflow-1-schema', 'workflow-list': 'workflow-2-list', 'workflow-detail': 'workflow-3-detail',
      'workflow-preview': 'workflow-4-preview', 'workflow-saved': 'workflow-6-saved', 'workflow-discarded': 'workflow-8-discarded',
    };
    if (shots[step]) await screenshot(page, shots[step]);
  };

  let stored: unknown;
  // What is really stored: the embedded backend's SQLite file, opened read-only.
  const readStored = (result: HostRun) => {
    const dsn = String(result.outcome.facts.dsn ?? '');
    if (!dsn.startsWith('sqlite:')) return;
    const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true, timeout: 10_000 });
    try {
      stored = { ...(db.prepare('SELECT lastname, version FROM person WHERE id = 1').get() as object) };
    } finally {
      db.close();
    }
  };
  const settings = { 'xos.locale': 'en' };
  const run = await runXosHostSuite(browser(), 'workflow', 'workflow', onStep, settings, readStored);
  assert.deepEqual({ exitCode: run.exitCode, checks: run.outcome.checks, errors: run.errors }, {
    exitCode: 0,
    errors: [],
    checks: [
      'extension activates with the embedded backend on a SQLite file in global storage',
      'the XOS commands are registered',
      'VS Code\'s MCP client lists the XOS server with all nine tools',
      'the seed workflow: schema, list, detail, change lastname, save (Save clicked)',
      'the same with Discard leaves the record untouched',
      'the person undoes the save from the Board\'s History (asked, Save clicked)',
    ].map((name) => ({ name, ok: true })),
  });
  const before = run.outcome.facts.lastnameBefore as string;
  assert.equal(seen.preview, `${before} → Schmidt Proposed by the agent Accept Revert`);
  assert.equal(seen.saveQuestion, `Save changes to Person Max ${before} (#1)? Last name: ${before} → Schmidt`);
  assert.equal(seen.discardQuestion, 'Save changes to Person Max Schmidt (#1)? Last name: Schmidt → Meier');

  // Undo from the Board: asked like any save, then the old name is stored (a new version, audited).
  // The History names the person (xos.person is not set: the OS user, as code-server runs as this user).
  const me = cleanPersonName(userInfo().username);
  const agentWho = me ? `The agent for ${me}` : 'The agent';
  const boardWho = me ? `${me} on the Board` : 'You on the Board';
  assert.deepEqual(seen.historyBefore, [`${agentWho} | Changed | Last name: ${before} → Schmidt | Undo`]);
  assert.equal(seen.undoQuestion, `Save changes to Person Max Schmidt (#1)? Last name: Schmidt → ${before}`);
  assert.deepEqual(seen.historyAfter, [`${boardWho} | Changed | Last name: Schmidt → ${before} | Undo`, `${agentWho} | Changed | Last name: ${before} → Schmidt | Undo`]);
  assert.deepEqual(stored, { lastname: before, version: 3 });
});
