// In-host suite for test/e2e/mail.e2e.ts (bundled to CommonJS, loaded as extensionTestsPath):
// the contacts and mail tools through VS Code's own MCP client (vscode.lm.invokeTool). It logs
// `xos-step: <name>` where the driving test looks at the page, clicks Send or Cancel in the
// XOS notification and checks what the SMTP server received; the tools' answers go to the
// outcome file, where the test compares them with exact values.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveMcpTools } from './support/liveTools.ts';

declare const XOS_HOST_OUTCOME_PATH: string;

interface MailInput { readonly to: string; readonly subject: string; readonly body: string }
/** The two mails to compose, given by the driving test (it checks them against the SMTP server). */
declare const XOS_MAIL_DRAFTS: { readonly first: MailInput; readonly second: MailInput };

interface XosApi {
  ready(): Promise<void>;
  boardView(): { mail?: MailInput };
  boardVisible(): boolean;
}

const MAIL_TOOLS = ['xos_contacts', 'xos_mail_compose', 'xos_mail_send'];
const extensionId = 'xos.xos-vscode';
const facts: Record<string, unknown> = {};

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function api(): XosApi {
  return vscode.extensions.getExtension<XosApi>(extensionId)!.exports;
}

/** The name VS Code gives an XOS tool (`mcp_<server>_<tool>`). */
function lmToolName(tool: string): string {
  const found = vscode.lm.tools.find((t) => t.name.startsWith('mcp_') && t.name.endsWith(`_${tool}`));
  if (!found) throw new Error(`no language model tool for ${tool}; tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
  return found.name;
}

async function invoke(tool: string, input: Record<string, unknown> = {}): Promise<string> {
  const result = await vscode.lm.invokeTool(lmToolName(tool), { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : JSON.stringify(part))).join('');
}

/**
 * Tells the driving test where we are and, unless `wait` is false, waits until it wrote
 * `.xos-e2e/<name>.done` into the workspace.
 */
async function step(name: string, { wait = true } = {}): Promise<void> {
  console.log(`xos-step: ${name}`);
  if (!wait) return;
  const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
  await until(`the driving test to finish step ${name}`, () => existsSync(join(root, '.xos-e2e', `${name}.done`)), 120_000);
}

/** Composes and waits until the host's Board state holds exactly that draft. */
async function compose(mail: MailInput): Promise<string> {
  const reply = await invoke('xos_mail_compose', { ...mail });
  await until('the Board to show the draft', () => api().boardVisible() && api().boardView().mail?.subject === mail.subject);
  return reply;
}

const checks: Array<readonly [string, () => Promise<void>]> = [
  ['the extension activates and VS Code lists the contacts and mail tools', async () => {
    const extension = vscode.extensions.getExtension<XosApi>(extensionId);
    assert.ok(extension, `${extensionId} not found`);
    await extension.activate();
    await extension.exports.ready();
    const live = await liveMcpTools(MAIL_TOOLS);
    assert.equal(live.length, MAIL_TOOLS.length);
    const mail = vscode.workspace.getConfiguration('xos.mail');
    facts.settings = { host: mail.get('host'), port: mail.get('port'), security: mail.get('security'), from: mail.get('from') };
  }],
  ['xos_contacts finds Max Mustermann in the demo CRM', async () => {
    facts.contacts = await invoke('xos_contacts', { query: 'Mustermann' });
    await step('mail-contacts');
  }],
  ['xos_mail_compose shows the draft on the Board', async () => {
    facts.composeReply = await compose(XOS_MAIL_DRAFTS.first);
    facts.boardMail = api().boardView().mail;
    await step('mail-draft');
  }],
  ['xos_mail_send sends after Send was clicked, and only once', async () => {
    await step('mail-send-asking', { wait: false });
    facts.sendReply = await invoke('xos_mail_send');
    facts.boardMailAfterSend = api().boardView().mail ?? null;
    await step('mail-sent');
    facts.againReply = await invoke('xos_mail_send');
    await step('mail-again');
  }],
  ['a new draft is not sent when Cancel is clicked', async () => {
    facts.secondComposeReply = await compose(XOS_MAIL_DRAFTS.second);
    await step('mail-second-draft');
    await step('mail-cancel-asking', { wait: false });
    facts.cancelReply = await invoke('xos_mail_send');
    facts.boardMailAfterCancel = api().boardView().mail ?? null;
    await step('mail-cancelled');
  }],
];

export async function run(): Promise<void> {
  const results: Array<{ name: string; ok: boolean; error?: string }> = [];
  for (const [name, check] of checks) {
    try {
      await check();
      results.push({ name, ok: true });
      console.log(`ok - ${name}`);
    } catch (error) {
      results.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
      console.log(`not ok - ${name}: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }
  const outcome = { passed: results.every((r) => r.ok), checks: results, facts };
  writeFileSync(XOS_HOST_OUTCOME_PATH, `${JSON.stringify(outcome, null, 2)}\n`);
  if (!outcome.passed) throw new Error(`${results.filter((r) => !r.ok).length} in-host checks failed`);
}
