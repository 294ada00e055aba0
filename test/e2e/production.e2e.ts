// Production data in real VS Code (code-server, headless Chromium, the packaged .vsix):
// `xos.environment: production` in the person's settings and `development` in the
// workspace's .vscode/settings.json (a repository trying to switch it off). The Board shows
// the production banner, and every question — the person's create and delete on the Board,
// the agent's save and send in the real chat (the scripted model, test/extensions/scripted-model)
// — is VS Code's modal dialog over a blocked workbench, never a notification; the answer
// clicked in the dialog takes effect (the rows in the SQLite file, the mail at the SMTP server).
// Not an in-host suite: VS Code refuses dialogs while extension tests run (extensionTestsPath),
// so only a workbench without one shows them.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/production.e2e.ts
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { attributeOf, boardFrame, typeNewPerson } from './board.support.ts';
import { launchChromium, type Browser, type Page } from './support/browser.ts';
import { vscodeServer, type CodeServer } from './support/codeServer.ts';
import { screenshot } from './support/artifacts.ts';
import { assertLiveTools, openWorkbenchChat, pendingConfirmationButton, saveChatFailure, sendPrompt, waitForTurnEnd } from './support/chat.ts';
import { readRequests, scriptedAgentProfile, scriptedModelSettings, writeScript } from './support/scriptedModel.ts';

const LIST_PROMPT = 'Zeige mir alle Personen';
const SAVE_PROMPT = 'Ändere den Nachnamen von Max Mustermann auf Produktiv und speichere';
const MAIL_PROMPT = 'Schreibe Max eine Mail und sende sie';
const LIST_QUERY = '{ person_list { id firstname lastname email city age net_worth } }';
const DETAIL_QUERY = '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }';
const RECIPIENT = 'max.mustermann@nordlicht-software.example';

let browser: Browser;
let server: CodeServer;
let page: Page;
let workspace: string;
let profile: string;
let databasePath: string;
let smtp: TestSmtpServer;
let failed = false;

before(async () => {
  vscodeServer.assertProvisioned();
  // Plain SMTP on loopback (xos.mail.security none), no password.
  smtp = await startTestSmtpServer({ certificate: await testCertificate() });
  const created = await scriptedAgentProfile('xos-production');
  profile = created.profile;
  databasePath = join(created.dirs.userDataDir, 'User', 'globalStorage', 'xos.xos-vscode', 'xos.db');
  workspace = mkdtempSync(join(tmpdir(), 'xos-production-ws-'));
  // The repository says development; the person's own settings say production.
  mkdirSync(join(workspace, '.vscode'));
  writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify({ 'xos.environment': 'development' }, null, 2)}\n`);
  writeFileSync(join(workspace, 'README.md'), '# XOS production e2e workspace\n');
  writeScript(workspace, {
    [LIST_PROMPT]: [
      { tool: 'xos_schema' },
      { tool: 'xos_query', input: { context: 'person_list', query: LIST_QUERY } },
      { say: 'Die Personen stehen im Board.' },
    ],
    [SAVE_PROMPT]: [
      { tool: 'xos_query', input: { context: 'person_detail', query: DETAIL_QUERY } },
      { tool: 'xos_ui_change_required', input: { context: 'person_detail', changes: { lastname: 'Produktiv' } } },
      { tool: 'xos_ui_save' },
      { say: 'Gespeichert. {{lastResult}}' },
    ],
    [MAIL_PROMPT]: [
      { tool: 'xos_mail_compose', input: { to: RECIPIENT, subject: 'Produktivdaten', body: 'Hallo Herr Mustermann,\n\ndies ist ein Test.' } },
      { tool: 'xos_mail_send' },
      { say: 'Gesendet. {{lastResult}}' },
    ],
  });
  server = await vscodeServer.startCodeServer({
    workspace,
    ...created.dirs,
    settings: {
      ...scriptedModelSettings(),
      'xos.locale': 'en',
      'xos.environment': 'production',
      'xos.mail.host': '127.0.0.1',
      'xos.mail.port': smtp.port,
      'xos.mail.security': 'none',
      'xos.mail.from': 'XOS Test <xos-test@xos.example>',
      'xos.mail.undoSeconds': 0,
    },
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const ready = await openWorkbenchChat(page, server, workspace);
  assertLiveTools(ready, ['xos_schema', 'xos_query', 'xos_ui_change_required', 'xos_ui_save', 'xos_mail_compose', 'xos_mail_send']);
});

after(async () => {
  if (failed) await saveChatFailure('production', page, server, workspace);
  await browser?.close();
  if (failed) await server?.stop();
  else await server?.dispose();
  await smtp?.close();
  if (workspace && !failed) rmSync(workspace, { recursive: true, force: true });
  if (profile && !failed) rmSync(profile, { recursive: true, force: true });
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

interface Dialog {
  /** The dialog's text (message and detail). */
  readonly text: string;
  readonly buttons: readonly string[];
  /** VS Code's modal block covers the workbench behind it. */
  readonly blocked: boolean;
  /** Notifications holding the same question: must be none. */
  readonly notifications: number;
}

/**
 * Waits for VS Code's modal dialog asking `question` (first answering the chat's tool
 * confirmation card with Allow, if the chat shows one), records what it shows, takes a
 * screenshot `shot` and clicks `button`; the dialog must close.
 */
async function answerDialog(question: RegExp, button: string, shot: string): Promise<Dialog> {
  const box = page.locator('.monaco-dialog-box', { hasText: question }).first();
  // "Allow", "Allow in this Session", or for a tool result with outside data "Allow Without Review in this Session".
  const allow = pendingConfirmationButton(page, /^Allow\b/);
  await vscodeServer.waitFor(async () => {
    if (await page.locator('.monaco-dialog-box:visible', { hasText: question }).count() > 0) return true;
    if (await allow.count() > 0) await allow.click({ timeout: 10_000 }).catch(() => undefined);
    return undefined;
  }, { timeoutMs: 90_000, intervalMs: 300, describe: () => `no modal dialog asking ${question}` });
  const text = (await box.locator('.dialog-message-container').innerText()).replaceAll('\u00a0', ' ').replace(/\s+/g, ' ').trim();
  const buttons = (await box.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((label) => label.trim());
  const blocked = (await page.locator('.monaco-dialog-modal-block').count()) > 0;
  const notifications = await page.locator('.notification-list-item', { hasText: question }).count();
  await screenshot(page, shot);
  await box.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^${button}$`) }).first().click({ timeout: 10_000 });
  await box.waitFor({ state: 'hidden', timeout: 10_000 });
  return { text, buttons, blocked, notifications };
}

/**
 * Ends the chat turn for `prompt`: a tool result with outside data (the mail's addresses) may
 * wait for "Allow Without Review" in the chat before the model sees it; that is allowed here.
 */
async function finishTurn(prompt: string): Promise<void> {
  const allow = pendingConfirmationButton(page, /^Allow\b/);
  await vscodeServer.waitFor(async () => {
    if (await allow.count() > 0) {
      await allow.click({ timeout: 10_000 }).catch(() => undefined);
      return undefined;
    }
    return finalWords(prompt) !== undefined || undefined;
  }, { timeoutMs: 90_000, intervalMs: 300, describe: () => `the chat turn for "${prompt}" did not reach its final words` });
  await waitForTurnEnd(page, workspace, prompt);
}

function assertModal(dialog: Dialog, text: RegExp, buttons: readonly string[]): void {
  assert.match(dialog.text, text);
  assert.ok(buttons.every((label) => dialog.buttons.includes(label)), `buttons: ${dialog.buttons.join(', ')}`);
  assert.equal(dialog.blocked, true, 'the workbench is not blocked behind the dialog');
  assert.equal(dialog.notifications, 0, 'the question is also a notification');
}

/** A person as stored in the SQLite file, read without locking out the extension host. */
function storedPerson(id: number): { lastname: string; version: number } | undefined {
  const db = new DatabaseSync(databasePath, { readOnly: true, timeout: 10_000 });
  try {
    const row = db.prepare('SELECT lastname, version FROM person WHERE id = ?').get(id) as { lastname: string; version: number } | undefined;
    return row && { ...row };
  } finally {
    db.close();
  }
}

/** The text the scripted model said last for `prompt`. */
function finalWords(prompt: string): string | undefined {
  const said = readRequests(workspace).filter((request) => request.prompt.includes(prompt) && request.reply.kind === 'text').at(-1)?.reply;
  return said?.kind === 'text' ? said.text : undefined;
}

test('production in the person\'s settings: the Board shows the banner though the workspace says development', { timeout: 180_000 }, () => recording(async () => {
  await sendPrompt(page, LIST_PROMPT);
  await waitForTurnEnd(page, workspace, LIST_PROMPT);
  const board = await boardFrame(page);
  const banner = board.locator('xos-board .production');
  await banner.waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal((await banner.innerText()).trim(), 'Production data: every save and send is asked for in a dialog.');
  assert.equal(await attributeOf(banner, 'role'), 'note');
  await screenshot(page, 'production-1-banner');
}));

test('production: the person\'s create and delete on the Board are asked in modal dialogs', { timeout: 180_000 }, () => recording(async () => {
  const board = await boardFrame(page);
  await board.locator('[role="grid"] [role="row"][aria-rowindex="2"]').waitFor({ state: 'visible', timeout: 30_000 });
  await typeNewPerson(board, page, 'Erika', 'Neuanlage');
  await board.locator('vscode-button.save').click();
  assertModal(await answerDialog(/Create a new Person\?/, 'Save', 'production-2-create-dialog'), /^Create a new Person\? .*Neuanlage/, ['Save', 'Discard']);
  const created = Number(await vscodeServer.waitFor(async () => {
    // Stored: the form names the new record by its id and was read at its first version.
    const text = await board.locator('xos-detail-form div.summary[data-version="1"]').innerText({ timeout: 1_000 }).catch(() => '');
    return /^#(\d+)/.exec(text)?.[1];
  }, { timeoutMs: 30_000, describe: () => 'the new person was not shown as stored' }));
  assert.deepEqual(storedPerson(created), { lastname: 'Neuanlage', version: 1 });
  await board.locator('vscode-button.delete').click();
  assertModal(await answerDialog(/Delete Person Erika/, 'Delete', 'production-3-delete-dialog'), /^Delete Person Erika.*\? This cannot be undone\./, ['Delete', 'Cancel']);
  await vscodeServer.waitFor(() => (storedPerson(created) === undefined || undefined), { timeoutMs: 30_000, describe: () => 'the person was not deleted' });
}));

test('production: the agent\'s save in the chat is asked in a modal dialog, and Save writes', { timeout: 240_000 }, () => recording(async () => {
  const before = storedPerson(1)!;
  assert.equal(before.lastname, 'Mustermann');
  await sendPrompt(page, SAVE_PROMPT);
  assertModal(await answerDialog(/Save changes to Person Max Mustermann \(#1\)\?/, 'Save', 'production-4-save-dialog'), /^Save changes to Person Max Mustermann \(#1\)\? Last name: Mustermann → Produktiv/, ['Save', 'Discard']);
  await finishTurn(SAVE_PROMPT);
  assert.equal(finalWords(SAVE_PROMPT), `Gespeichert. Saved person 1 "Max Produktiv" (version ${before.version} -> ${before.version + 1}). Stored: lastname: "Produktiv".`);
  assert.deepEqual(storedPerson(1), { lastname: 'Produktiv', version: before.version + 1 });
}));

test('production: the agent\'s send in the chat is asked in a modal dialog, and Send sends once', { timeout: 240_000 }, () => recording(async () => {
  assert.equal(smtp.received.length, 0);
  await sendPrompt(page, MAIL_PROMPT);
  assertModal(await answerDialog(/Send this mail to/, 'Send', 'production-5-send-dialog'), new RegExp(`^Send this mail to ${RECIPIENT.replace(/\./g, '\\.')}.*Subject: Produktivdaten`), ['Send', 'Cancel']);
  await finishTurn(MAIL_PROMPT);
  assert.match(finalWords(MAIL_PROMPT) ?? '', new RegExp(`^Gesendet\\. Sent to ${RECIPIENT.replace(/\./g, '\\.')} \\(message id .+\\)\\.$`));
  assert.equal(smtp.received.length, 1);
  assert.deepEqual(smtp.received[0].to, [RECIPIENT]);
}));
