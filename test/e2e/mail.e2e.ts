// Mail in real VS Code: an SMTP server on loopback (smtp-server, security none), the
// xos.mail.* settings pointing at it, and the in-host suite test/host/mail.host.ts calling
// xos_contacts, xos_mail_compose and xos_mail_send through vscode.lm.invokeTool. The test
// checks the draft in the Board's webview, clicks Send (then Cancel) in the XOS
// notification like a person, and reads what the server really received.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/mail.e2e.ts
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { body, header, startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { screenshot } from './support/artifacts.ts';
import type { Locator, Page } from './support/browser.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { answerNotification } from './support/notifications.ts';
import { attributeOf, boardFrame, runSteppedHostSuite } from './board.support.ts';

const RECIPIENT = 'max.mustermann@nordlicht-software.example';
const SENDER = 'xos-test@xos.example';
const DRAFTS = {
  first: {
    to: 'Max Mustermann',
    subject: 'Lizenzverlaengerung 2026',
    body: 'Hallo Herr Mustermann,\n\ndie Lizenzen laufen Ende des Monats aus. Sollen wir verlaengern?\n\nViele Gruesse\nXOS',
  },
  second: {
    to: 'Max Mustermann',
    subject: 'Termin naechste Woche',
    body: 'Hallo Herr Mustermann,\n\npasst Ihnen Dienstag um 10 Uhr?',
  },
  third: {
    to: 'Max Mustermann',
    subject: 'Angebot',
    body: 'Hallo Herr Mustermann,\n\nanbei das Angebot.',
  },
  fourth: {
    to: 'Max Mustermann',
    subject: 'Doch nicht',
    body: 'Dieser Entwurf wird verworfen.',
  },
  fifth: {
    to: 'Max Mustermann',
    subject: 'Lieber doch nicht',
    body: 'Diese Mail wird nach dem Senden rueckgaengig gemacht.',
  },
};

const browser = fileBrowser();
/** Typed by the person into "XOS: Set Mail Password"; must end up in VS Code's secret storage only. */
const MAIL_PASSWORD = 'Mail-Secret-e2e-4f7a91';

/** Every file below `dir` (the profile's logs, settings and storage; the workspace) that is still there when looked at. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    // VS Code and XOS still run while this looks: a file (the Board's kept draft) may be gone meanwhile.
    .filter((file) => (statSync(file, { throwIfNoEntry: false })?.size ?? Infinity) < 5 * 1024 * 1024);
}

/** A file's text, or undefined when it was removed since it was listed. */
function textOf(file: string): string | undefined {
  try {
    return readFileSync(file, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
let smtp: TestSmtpServer;
/** The SMTP server's certificate, trusted by the extension host through NODE_EXTRA_CA_CERTS. */
let caFile: string;

before(async () => {
  const certificate = await testCertificate();
  caFile = join(mkdtempSync(join(tmpdir(), 'xos-mail-ca-')), 'ca.pem');
  writeFileSync(caFile, certificate.cert);
  // A password only ever travels over TLS: STARTTLS with the test certificate.
  smtp = await startTestSmtpServer({ certificate, credentials: { user: 'xos', pass: MAIL_PASSWORD } });
});

after(async () => {
  await smtp?.close();
});

/** A webview element's live property (the Lit form fields keep their text in `.value`). */
function valueOf(locator: Locator): Promise<string> {
  return (locator as unknown as { evaluate(fn: (element: { value: string }) => string): Promise<string> }).evaluate((element) => element.value);
}

/**
 * Replaces a field's text like a person: a triple click selects it, then the new text is typed.
 * Not Ctrl+A: in a webview VS Code also runs its own "Select All" for that key, asynchronously,
 * and when it lands mid-typing the next key replaces everything typed so far. The value is
 * checked, and the typing repeated if the field does not hold exactly `text`.
 */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await field.click({ clickCount: 3 });
    await page.keyboard.type(text);
    if (await valueOf(field) === text) return;
    if (attempt === 3) throw new Error(`the field holds "${await valueOf(field)}" after typing "${text}" three times`);
  }
}

async function boardDraft(page: Page): Promise<{ to: string; subject: string; body: string }> {
  const frame = await boardFrame(page);
  const section = frame.locator('section.mail');
  await section.waitFor({ state: 'visible', timeout: 30_000 });
  return {
    to: await valueOf(section.locator('#mail-to')),
    subject: await valueOf(section.locator('#mail-subject')),
    body: await valueOf(section.locator('#mail-body')),
  };
}



test('a mail composed for a CRM contact goes out once after Send, and not at all after Cancel; the Board sends and discards its draft', { timeout: 400_000 }, async () => {
  const seen: Record<string, unknown> = {};
  const onStep = async (step: string, page: Page) => {
    switch (step) {
      case 'mail-password': {
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible', timeout: 30_000 });
        await page.keyboard.type(MAIL_PASSWORD);
        await page.keyboard.press('Enter');
        await input.waitFor({ state: 'hidden', timeout: 10_000 });
        return;
      }
      case 'mail-contacts':
        await screenshot(page, 'mail-1-contacts');
        return;
      case 'mail-draft':
        seen.draft = await boardDraft(page);
        await screenshot(page, 'mail-2-draft');
        return;
      case 'mail-send-asking':
        seen.sendQuestion = await answerNotification(page, /Send this mail to/, 'Send', 'mail-3-send-question');
        return;
      case 'mail-sent': {
        seen.receivedAfterSend = smtp.received.length;
        // The draft leaves the Board once it is sent.
        await (await boardFrame(page)).locator('section.mail').waitFor({ state: 'hidden', timeout: 30_000 });
        await screenshot(page, 'mail-4-sent');
        return;
      }
      case 'mail-again':
        seen.receivedAfterAgain = smtp.received.length;
        await screenshot(page, 'mail-5-already-sent');
        return;
      case 'mail-second-draft':
        seen.secondDraft = await boardDraft(page);
        await screenshot(page, 'mail-6-second-draft');
        return;
      case 'mail-cancel-asking':
        seen.cancelQuestion = await answerNotification(page, /Send this mail to/, 'Cancel', 'mail-7-cancel-question');
        return;
      case 'mail-cancelled':
        seen.draftAfterCancel = await boardDraft(page);
        await screenshot(page, 'mail-8-cancelled');
        return;
      case 'mail-board-send': {
        const frame = await boardFrame(page);
        const section = frame.locator('section.mail');
        await section.waitFor({ state: 'visible', timeout: 30_000 });
        seen.from = (await section.locator('.from').innerText()).trim();
        // A recipient that is no address: said at the field, and Send waits.
        const to = section.locator('#mail-to');
        await typeInto(page, to, 'max(at)nordlicht');
        await section.locator('#mail-to-problem').waitFor({ state: 'visible', timeout: 10_000 });
        seen.toProblem = { text: (await section.locator('#mail-to-problem').innerText()).trim(), invalid: await attributeOf(to, 'aria-invalid'), sendDisabled: (await attributeOf(section.locator('vscode-button.send'), 'disabled')) !== null };
        await screenshot(page, 'mail-9-board-invalid-recipient');
        await typeInto(page, to, `Max Mustermann <${RECIPIENT}>`);
        await section.locator('#mail-to-problem').waitFor({ state: 'hidden', timeout: 10_000 });
        await section.locator('vscode-button.send:not([disabled])').click();
        seen.boardSendQuestion = await answerNotification(page, /Send this mail to/, 'Send', 'mail-10-board-send-question');
        await section.waitFor({ state: 'hidden', timeout: 30_000 });
        // The draft leaves the Board before the transfer starts; the status line says when the server took it.
        const sent = frame.locator('[role="status"]', { hasText: /^Sent to / });
        await sent.waitFor({ state: 'visible', timeout: 30_000 });
        seen.boardSendStatus = (await sent.innerText()).trim();
        seen.receivedAfterBoardSend = smtp.received.length;
        return;
      }
      case 'mail-board-undo-send': {
        const section = (await boardFrame(page)).locator('section.mail');
        await section.locator('vscode-button.send:not([disabled])').click();
        seen.undoSendQuestion = await answerNotification(page, /Send this mail to/, 'Send', 'mail-11-undo-send-question');
        const waiting = section.locator('.waiting');
        await waiting.waitFor({ state: 'visible', timeout: 30_000 });
        seen.goesOut = (await waiting.locator('.goes-out').innerText()).trim();
        seen.toDisabledWhileWaiting = (await attributeOf(section.locator('#mail-to'), 'disabled')) !== null;
        await screenshot(page, 'mail-12-waiting-with-undo');
        await waiting.locator('vscode-button.undo-send').click();
        await section.locator('vscode-button.send').waitFor({ state: 'visible', timeout: 30_000 });
        seen.receivedAfterUndo = smtp.received.length;
        seen.dataAfterUndo = smtp.dataCount();
        await screenshot(page, 'mail-13-undone');
        return;
      }
      case 'mail-board-discard': {
        const section = (await boardFrame(page)).locator('section.mail');
        await section.waitFor({ state: 'visible', timeout: 30_000 });
        await section.locator('vscode-button.discard').click();
        await section.waitFor({ state: 'hidden', timeout: 30_000 });
        seen.receivedAfterDiscard = smtp.received.length;
        return;
      }
      default:
        throw new Error(`unknown step ${step}`);
    }
  };

  const settings = {
    'xos.locale': 'en',
    'xos.mail.host': '127.0.0.1',
    'xos.mail.port': smtp.port,
    'xos.mail.security': 'starttls',
    'xos.mail.from': `XOS Test <${SENDER}>`,
    'xos.mail.user': 'xos',
  };
  const leaks: string[] = [];
  let scanned = 0;
  const run = await runSteppedHostSuite(browser(), {
    name: 'mail', entry: 'mail.host.ts', defines: { XOS_MAIL_DRAFTS: DRAFTS }, settings, onStep, env: { NODE_EXTRA_CA_CERTS: caFile },
    // After the run: the password is in no setting, log, output channel, storage file or workspace file.
    inspect: (_run, { userDataDir, workspace }) => {
      for (const file of [...filesUnder(userDataDir), ...filesUnder(workspace)]) {
        // VS Code's own secret store keeps it, as it should.
        if (/\.vscdb(-journal|-wal)?$/.test(file)) continue;
        const text = textOf(file);
        if (text === undefined) continue;
        scanned++;
        if ([MAIL_PASSWORD, Buffer.from(MAIL_PASSWORD).toString('base64'), Buffer.from(`\0xos\0${MAIL_PASSWORD}`).toString('base64')].some((form) => text.includes(form))) leaks.push(file);
      }
    },
  });
  assert.deepEqual(leaks, [], 'the mail password appears in these files');
  assert.ok(scanned > 10, `scanned ${scanned} files of the profile and workspace`);
  assert.deepEqual({ exitCode: run.exitCode, checks: run.outcome.checks, errors: run.errors }, {
    exitCode: 0,
    errors: [],
    checks: [
      'the extension activates and VS Code lists the contacts and mail tools',
      'the mail password is set with "XOS: Set Mail Password", typed by the person',
      'xos_contacts finds Max Mustermann in the demo CRM',
      'xos_mail_compose shows the draft on the Board',
      'xos_mail_send sends after Send was clicked, and only once',
      'a new draft is not sent when Cancel is clicked',
      'the person sends a draft with the Board\'s Send button (asked like xos_mail_send) and discards another',
      'with an undo window a confirmed mail waits on the Board, and Undo Send keeps it as a draft',
    ].map((name) => ({ name, ok: true })),
  });
  const facts = run.outcome.facts;
  assert.deepEqual(facts.settings, { host: '127.0.0.1', port: smtp.port, security: 'starttls', from: `XOS Test <${SENDER}>` });

  // The contact comes from the demo CRM's person records.
  // VS Code hands the tool's structuredContent to the model (not the text): the matches and the providers not searched.
  assert.deepEqual(JSON.parse(facts.contacts), { contacts: [{ name: 'Max Mustermann', email: RECIPIENT, phone: '+491712345678', source: 'xos:person' }], not_searched: [] });

  const recipient = `Max Mustermann <${RECIPIENT}>`;
  assert.equal(facts.composeReply, `Draft on the Board, not sent: To: ${recipient}; Subject: ${DRAFTS.first.subject}. `
    + 'Ask the person whether to send it; call xos_mail_send only after they said so.');
  const shown = { to: recipient, subject: DRAFTS.first.subject, body: DRAFTS.first.body };
  assert.deepEqual(facts.boardMail, { from: `XOS Test <${SENDER}>`, ...shown, sending: false });
  assert.deepEqual(seen.draft, shown);

  // The question names the address first, then the display name.
  const asked = `${RECIPIENT} ("Max Mustermann")`;
  assert.equal(seen.sendQuestion, `Send this mail to ${asked}? Subject: ${DRAFTS.first.subject}. `
    + 'Hallo Herr Mustermann, / die Lizenzen laufen Ende des Monats aus. Sollen wir verlaengern? / Viele Gruesse …');

  // Exactly one message (counted when it was sent), to exactly that recipient, with that subject and body.
  const [mail] = smtp.received;
  assert.deepEqual({ from: mail.from, to: mail.to, secure: mail.secure, user: mail.user }, { from: SENDER, to: [RECIPIENT], secure: true, user: 'xos' });
  assert.equal(header(mail.raw, 'To'), recipient);
  assert.equal(header(mail.raw, 'From'), `XOS Test <${SENDER}>`);
  assert.equal(header(mail.raw, 'Subject'), DRAFTS.first.subject);
  assert.equal(body(mail.raw).replace(/\n$/, ''), DRAFTS.first.body);
  const messageId = header(mail.raw, 'Message-ID')!;
  assert.match(messageId, /^<[0-9a-f-]{36}@xos\.example>$/);
  assert.equal(facts.sendReply, `Sent to ${RECIPIENT} (message id ${messageId}).`);
  assert.equal(facts.boardMailAfterSend, null);
  assert.equal(seen.receivedAfterSend, 1);

  // A second send only says it was already sent.
  const escapedId = messageId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(facts.againReply, new RegExp(`^Already sent to ${RECIPIENT.replace(/\./g, '\\.')} at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\(message id ${escapedId}\\)\\. Compose a new mail with xos_mail_compose to send another\\.$`));
  assert.equal(seen.receivedAfterAgain, 1);

  // Cancel sends nothing; the draft stays.
  const second = { to: recipient, subject: DRAFTS.second.subject, body: DRAFTS.second.body };
  assert.deepEqual(seen.secondDraft, second);
  assert.equal(seen.cancelQuestion, `Send this mail to ${asked}? Subject: ${DRAFTS.second.subject}. Hallo Herr Mustermann, / passt Ihnen Dienstag um 10 Uhr?`);
  assert.equal(facts.cancelReply, 'Not sent: the person chose Cancel. The draft stays on the Board.');
  assert.deepEqual(facts.boardMailAfterCancel, { from: `XOS Test <${SENDER}>`, ...second, sending: false });
  assert.deepEqual(seen.draftAfterCancel, second);

  // The Board's own Send: the sender shown, a wrong recipient stopped at the field, the same question, one more message.
  assert.equal(seen.from, `XOS Test <${SENDER}>`);
  assert.deepEqual(seen.toProblem, { text: 'Enter an address like name@example.com or Name <name@example.com>.', invalid: 'true', sendDisabled: true });
  assert.equal(seen.boardSendQuestion, `Send this mail to ${asked}? Subject: ${DRAFTS.third.subject}. Hallo Herr Mustermann, / anbei das Angebot.`);
  assert.equal(String(seen.boardSendStatus), `Sent to ${RECIPIENT}.`);
  assert.equal(seen.receivedAfterBoardSend, 2);
  assert.equal(smtp.received[1].to[0], RECIPIENT);
  assert.equal(header(smtp.received[1].raw, 'Subject'), DRAFTS.third.subject);
  assert.match(facts.againAfterBoardSend, new RegExp(`^Already sent to ${RECIPIENT.replace(/\./g, '\\.')} at `));
  // Discard sends nothing.
  assert.equal(seen.receivedAfterDiscard, 2);
  // With an undo window: the same question, then the mail waits with Undo Send; Undo keeps the draft and nothing is transferred.
  assert.equal(seen.undoSendQuestion, `Send this mail to ${asked}? Subject: ${DRAFTS.fifth.subject}. Diese Mail wird nach dem Senden rueckgaengig gemacht.`);
  assert.match(String(seen.goesOut), /^Goes out at .+ unless you undo it\.$/);
  assert.equal(seen.toDisabledWhileWaiting, true);
  assert.equal(seen.receivedAfterUndo, 2);
  assert.equal(seen.dataAfterUndo, 2);
  assert.deepEqual(facts.afterUndo, { from: `XOS Test <${SENDER}>`, to: recipient, subject: DRAFTS.fifth.subject, body: DRAFTS.fifth.body, sending: false });
  assert.equal(smtp.received.length, 2);
  assert.equal(smtp.dataCount(), 2);
});
