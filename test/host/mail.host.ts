// In-host suite for test/e2e/mail.e2e.ts (bundled to CommonJS, loaded as extensionTestsPath):
// the contacts and mail tools through VS Code's own MCP client (vscode.lm.invokeTool). It logs
// `xos-step: <name>` where the driving test looks at the page, clicks Send or Cancel in the
// XOS notification and checks what the SMTP server received; the tools' answers go to the
// outcome file, where the test compares them with exact values.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { liveMcpTools } from './support/liveTools.ts';
import { invoke, runChecks, step, until, type Check } from './support/suite.ts';

declare const XOS_HOST_OUTCOME_PATH: string;

interface MailInput { readonly to: string; readonly subject: string; readonly body: string }
/** The mails to compose, given by the driving test (it checks them against the SMTP server). */
declare const XOS_MAIL_DRAFTS: { readonly first: MailInput; readonly second: MailInput; readonly third: MailInput; readonly fourth: MailInput; readonly fifth: MailInput };

interface XosApi {
  ready(): Promise<void>;
  boardView(): { mail?: MailInput & { sendAt?: string } };
  boardVisible(): boolean;
}

const MAIL_TOOLS = ['xos_contacts', 'xos_mail_compose', 'xos_mail_send'];
const extensionId = 'xos.xos-vscode';
const facts: Record<string, unknown> = {};

function api(): XosApi {
  return vscode.extensions.getExtension<XosApi>(extensionId)!.exports;
}


/** Composes and waits until the host's Board state holds exactly that draft. */
async function compose(mail: MailInput): Promise<string> {
  const reply = await invoke('xos_mail_compose', { ...mail });
  await until('the Board to show the draft', () => api().boardVisible() && api().boardView().mail?.subject === mail.subject);
  return reply;
}

/** xos.mail.undoSeconds in the user settings; resolves once the extension host reads the new value. */
async function setUndoSeconds(seconds: number): Promise<void> {
  await vscode.workspace.getConfiguration('xos').update('mail.undoSeconds', seconds, vscode.ConfigurationTarget.Global);
  await until(`xos.mail.undoSeconds to read ${seconds}`, () => vscode.workspace.getConfiguration('xos').get('mail.undoSeconds') === seconds);
}

const checks: Check[] = [
  ['the extension activates and VS Code lists the contacts and mail tools', async () => {
    const extension = vscode.extensions.getExtension<XosApi>(extensionId);
    assert.ok(extension, `${extensionId} not found`);
    await extension.activate();
    await extension.exports.ready();
    const live = await liveMcpTools(MAIL_TOOLS);
    assert.equal(live.length, MAIL_TOOLS.length);
    const mail = vscode.workspace.getConfiguration('xos.mail');
    facts.settings = { host: mail.get('host'), port: mail.get('port'), security: mail.get('security'), from: mail.get('from') };
    // The first flows check the send itself: no undo window (a user setting, set as the person would).
    await setUndoSeconds(0);
  }],
  ['the mail password is set with "XOS: Set Mail Password", typed by the person', async () => {
    // The command asks in an input box; the driving test types the password there.
    const asked = vscode.commands.executeCommand('xos.setMailPassword');
    await step('mail-password');
    await asked;
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
  ['the person sends a draft with the Board\'s Send button (asked like xos_mail_send) and discards another', async () => {
    await compose(XOS_MAIL_DRAFTS.third);
    // The person corrects the recipient on the Board, clicks Send there and confirms in VS Code.
    await step('mail-board-send');
    await until('the Board to drop the sent draft', () => api().boardView().mail === undefined);
    facts.againAfterBoardSend = await invoke('xos_mail_send');
    await compose(XOS_MAIL_DRAFTS.fourth);
    await step('mail-board-discard');
    await until('the Board to drop the discarded draft', () => api().boardView().mail === undefined);
  }],
  ['with an undo window a confirmed mail waits on the Board, and Undo Send keeps it as a draft', async () => {
    // Long enough that the person's Undo always comes first, however slow the machine.
    await setUndoSeconds(300);
    await compose(XOS_MAIL_DRAFTS.fifth);
    // The person clicks Send, confirms, sees when it goes out, and clicks Undo Send.
    await step('mail-board-undo-send');
    await until('the draft to be back and no longer waiting', () => api().boardView().mail?.subject === XOS_MAIL_DRAFTS.fifth.subject && api().boardView().mail?.sendAt === undefined);
    facts.afterUndo = api().boardView().mail ?? null;
    await step('mail-board-discard');
    await until('the Board to drop the discarded draft', () => api().boardView().mail === undefined);
  }],
];

export async function run(): Promise<void> {
  await runChecks(checks, XOS_HOST_OUTCOME_PATH, facts);
}
