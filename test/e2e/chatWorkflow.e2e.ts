// The seed's whole AI workflow in the real chat panel: the person types German prompts into
// the agent mode chat, the scripted model calls the XOS tools (xos_schema, xos_query,
// xos_ui_change_required, xos_ui_save) of the packaged extension, the Board shows the data
// and the preview (and the chat the list as an inline MCP Apps card), the person allows the save and clicks Save in the XOS notification, and
// the SQLite file the workspace points xos.dsn at holds the change.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/chatWorkflow.e2e.ts
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { boardFrame, frames, gridRowCount } from './board.support.ts';
import { launchChromium, type Browser, type Page } from './support/browser.ts';
import { vscodeServer, type CodeServer } from './support/codeServer.ts';
import { screenshot } from './support/artifacts.ts';
import { answerNotification, assertLiveTools, lastAnswer, openWorkbenchChat, pendingConfirmationButton, saveChatFailure, sendPrompt, waitForTurnEnd } from './support/chat.ts';
import { scriptedAgentProfile, readRequests, scriptedModelSettings, writeScript, type ModelRequest } from './support/scriptedModel.ts';

const LIST_PROMPT = 'Zeige mir alle Personen';
const CHANGE_PROMPT = 'Ändere den Nachnamen von Max Mustermann auf Schmidt';
const SAVE_PROMPT = 'Ja, speichern';
const NO_SCHEMA_PROMPT = 'Liste die Personen ohne Schema';

// The seed's query, and person_detail with exactly its list_fields (media/demo/crm.json).
const LIST_QUERY = '{ person_list { id firstname lastname email city age net_worth } }';
const DETAIL_QUERY = '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }';

// VS Code's chat names the conversation in every tool call, so the rule speaks of it.
const SCHEMA_FIRST = 'Call xos_schema first: xos_query needs the schema loaded in this conversation (contexts, list_fields, prompts). Then call xos_query again.';
const PREVIEW_REPLY = 'Preview on the Board, nothing saved yet. Pending changes of person 1: lastname: "Mustermann" -> "Schmidt". '
  + 'Ask the person whether to save; call xos_ui_save only after they said so.';
const SAVE_REPLY = 'Saved person 1 "Max Schmidt" (version 1 -> 2). Stored: lastname: "Schmidt".';

let browser: Browser;
let server: CodeServer;
let page: Page;
let workspace: string;
let profile: string;
let databasePath: string;
let failed = false;

before(async () => {
  vscodeServer.assertProvisioned();
  const created = await scriptedAgentProfile('xos-chatflow');
  profile = created.profile;
  const dirs = created.dirs;

  workspace = mkdtempSync(join(tmpdir(), 'xos-chatflow-ws-'));
  databasePath = join(workspace, 'xos.db');
  // An explicit xos.dsn is used as it is (not seeded), so the file starts with the demo
  // records here, the way `npm start` prepares its database.
  const seeded = await startBackend({ ast: demoApp(), dsn: `sqlite:${databasePath}`, seed: true });
  await seeded.close();
  mkdirSync(join(workspace, '.vscode'));
  writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify({ 'xos.dsn': `sqlite:${databasePath}` }, null, 2)}\n`);
  writeFileSync(join(workspace, 'README.md'), '# XOS chat workflow e2e workspace\n');
  writeScript(workspace, {
    [LIST_PROMPT]: [
      { tool: 'xos_schema' },
      { tool: 'xos_query', input: { context: 'person_list', query: LIST_QUERY } },
      { say: 'Die Personen stehen im Board. {{lastResult}}' },
    ],
    [CHANGE_PROMPT]: [
      { tool: 'xos_query', input: { context: 'person_detail', query: DETAIL_QUERY } },
      { tool: 'xos_ui_change_required', input: { context: 'person_detail', changes: { lastname: 'Schmidt' } } },
      { say: 'Vorschau im Board. {{lastResult}}' },
    ],
    [SAVE_PROMPT]: [{ tool: 'xos_ui_save' }, { say: 'Gespeichert. {{lastResult}}' }],
    [NO_SCHEMA_PROMPT]: [
      { tool: 'xos_query', input: { context: 'person_list', query: LIST_QUERY } },
      { say: 'XOS lehnt ab. {{lastResult}}' },
    ],
  });
  server = await vscodeServer.startCodeServer({ workspace, settings: scriptedModelSettings(), ...dirs });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const ready = await openWorkbenchChat(page, server, workspace);
  assert.deepEqual(ready.models, ['scripted']);
  assertLiveTools(ready, ['xos_schema', 'xos_query', 'xos_ui_change_required', 'xos_ui_save']);
});

after(async () => {
  if (failed) await saveChatFailure('chat-workflow', page, server, workspace);
  await browser?.close();
  if (failed) {
    await server?.stop();
    console.log(`chat workflow e2e: kept ${workspace} (script, requests.jsonl, xos.db) and ${server?.home} (code-server log)`);
  } else {
    await server?.dispose();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  }
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Marks the file as failed (for the artifacts) when `body` throws. */
async function recording(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    failed = true;
    throw error;
  }
}

/** What the scripted model answered in the turn of `prompt`, tool calls with their unprefixed names. */
function turnReplies(prompt: string): Array<{ tool: string; input: Record<string, unknown> } | { say: string }> {
  return readRequests(workspace)
    .filter((request) => request.offered.length > 0 && request.prompt.includes(prompt))
    .map(({ reply }: ModelRequest) => (reply.kind === 'tool' ? { tool: reply.name.replace(/^mcp_.*?_(xos_)/, '$1'), input: reply.input } : { say: reply.text }));
}

/** Person 1 as stored in the SQLite file, read without locking out the extension host. */
function storedPerson(): Record<string, unknown> {
  const db = new DatabaseSync(databasePath, { readOnly: true, timeout: 10_000 });
  try {
    return { ...(db.prepare('SELECT * FROM person WHERE id = 1').get() as Record<string, unknown>) };
  } finally {
    db.close();
  }
}

async function boardShown(): Promise<boolean> {
  for (const frame of frames(page)) {
    try {
      if (await frame.locator('xos-board').count() > 0) return true;
    } catch {
      // Frames come and go.
    }
  }
  return false;
}

// First: VS Code keeps one MCP session per server, and once xos_schema ran in it the rule is met.
test('xos_query without xos_schema first is refused, the answer quotes the rule, and the Board stays empty', { timeout: 180_000 }, () => recording(async () => {
  await sendPrompt(page, NO_SCHEMA_PROMPT);
  await waitForTurnEnd(page, workspace, NO_SCHEMA_PROMPT);
  await screenshot(page, 'chat-0-no-schema-refused');
  assert.deepEqual(turnReplies(NO_SCHEMA_PROMPT), [
    { tool: 'xos_query', input: { context: 'person_list', query: LIST_QUERY } },
    { say: `XOS lehnt ab. ${SCHEMA_FIRST}` },
  ]);
  assert.equal(await lastAnswer(page), `XOS lehnt ab. ${SCHEMA_FIRST}`);
  assert.equal(await boardShown(), false);
}));

test('the seed workflow in the chat: list, preview the new last name, save after Allow and Save', { timeout: 420_000 }, () => recording(async () => {
  // 1. The list.
  await sendPrompt(page, LIST_PROMPT);
  await waitForTurnEnd(page, workspace, LIST_PROMPT);
  const listReply = 'All data was successfully displayed in the UI. (240 records of person_list.)';
  assert.deepEqual(turnReplies(LIST_PROMPT), [
    { tool: 'xos_schema', input: {} },
    { tool: 'xos_query', input: { context: 'person_list', query: LIST_QUERY } },
    { say: `Die Personen stehen im Board. ${listReply}` },
  ]);
  assert.equal(await lastAnswer(page), `Die Personen stehen im Board. ${listReply}`);
  const board = await boardFrame(page);
  // 240 people and the header row; the grid renders only the rows on screen.
  await vscodeServer.waitFor(async () => (await gridRowCount(board)) === 241 || undefined, { timeoutMs: 30_000, describe: () => 'the Board never listed 240 people' });
  const max = board.locator('[role="grid"] [role="row"]', { hasText: 'Mustermann' }).first();
  const cells = (await max.locator('[role="gridcell"]').allInnerTexts()).map((text) => text.replaceAll('\u00a0', ' ').trim());
  assert.deepEqual(cells.slice(0, 6), ['1', 'Max', 'Mustermann', 'max.mustermann@nordlicht-software.example', 'Berlin', '40']);
  await screenshot(page, 'chat-1-list');
  // The same result as an inline card in the chat (MCP Apps): the count, the first rows, Open in Board.
  const card = await vscodeServer.waitFor(async () => {
    for (const frame of frames(page)) {
      try {
        if (await frame.locator('#xos-card h1').count() > 0) return frame;
      } catch {
        // Frames come and go.
      }
    }
    return undefined;
  }, { timeoutMs: 30_000, describe: () => 'no XOS card in the chat' });
  assert.match(await card.locator('#xos-card').innerText(), /240 records, the first 10 shown here/);
  assert.equal(await card.locator('#xos-card tbody tr').count(), 10);
  assert.match(await card.locator('#xos-card tbody tr').first().innerText(), /Max\s+Mustermann/);
  assert.equal(await card.locator('#xos-card button').count(), 1);
  await screenshot(page, 'chat-1b-card');

  // 2. The proposal for person 1.
  await sendPrompt(page, CHANGE_PROMPT);
  await waitForTurnEnd(page, workspace, CHANGE_PROMPT);
  assert.deepEqual(turnReplies(CHANGE_PROMPT), [
    { tool: 'xos_query', input: { context: 'person_detail', query: DETAIL_QUERY } },
    { tool: 'xos_ui_change_required', input: { context: 'person_detail', changes: { lastname: 'Schmidt' } } },
    { say: `Vorschau im Board. ${PREVIEW_REPLY}` },
  ]);
  assert.equal(await lastAnswer(page), `Vorschau im Board. ${PREVIEW_REPLY}`);
  const proposal = (await boardFrame(page)).locator('[data-field="lastname"] .proposal');
  await proposal.waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal((await proposal.innerText()).replace(/\s+/g, ' ').trim(), 'Mustermann → Schmidt Proposed by the agent Accept Revert');
  await screenshot(page, 'chat-2-preview');
  const beforeSave = storedPerson();
  assert.deepEqual({ lastname: beforeSave.lastname, version: beforeSave.version }, { lastname: 'Mustermann', version: 1 });

  // 3. The person confirms; VS Code may ask about the destructive tool, XOS asks in any case.
  await sendPrompt(page, SAVE_PROMPT);
  const allow = pendingConfirmationButton(page, /^Allow( in this Session)?$/);
  const question = page.locator('.notification-list-item:visible', { hasText: /Save changes to Person Max Mustermann \(#1\)\?/ });
  const first = await vscodeServer.waitFor(async () => {
    if (await question.count() > 0) return 'notification';
    if (await allow.count() > 0) return 'card';
    return undefined;
  }, { timeoutMs: 90_000, intervalMs: 300, describe: () => 'neither a tool confirmation card nor the XOS save question appeared' });
  if (first === 'card') {
    await screenshot(page, 'chat-3-allow-card');
    await allow.click({ timeout: 10_000 });
  }
  const asked = await answerNotification(page, /Save changes to Person Max Mustermann \(#1\)\?/, 'Save', 'chat-3-save-question');
  assert.equal(asked, 'Save changes to Person Max Mustermann (#1)? Last name: Mustermann → Schmidt');
  await waitForTurnEnd(page, workspace, SAVE_PROMPT);
  assert.deepEqual(turnReplies(SAVE_PROMPT), [{ tool: 'xos_ui_save', input: {} }, { say: `Gespeichert. ${SAVE_REPLY}` }]);
  assert.equal(await lastAnswer(page), `Gespeichert. ${SAVE_REPLY}`);
  await screenshot(page, 'chat-4-saved');
  assert.deepEqual(storedPerson(), { ...beforeSave, lastname: 'Schmidt', version: 2 });
}));
