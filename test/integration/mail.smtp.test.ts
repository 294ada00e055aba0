// Sending over a real SMTP server (smtp-server) with STARTTLS and a test
// certificate: exactly the confirmed mail arrives, header injection is refused,
// and a connection that breaks after DATA never leads to a second send.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BoardState } from '../../src/board/state.ts';
import { MailSendError } from '../../src/mail/errors.ts';
import { createSmtpMailer, smtpSettingsProblems, type SmtpSettings } from '../../src/mail/smtp.ts';
import { McpSession } from '../../src/mcp/session.ts';
import { mailComposeTool } from '../../src/mcp/tools/mailCompose.ts';
import { mailSendTool } from '../../src/mcp/tools/mailSend.ts';
import { resultText } from '../../src/mcp/result.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, MailDraft, Mailer, SendAnswer } from '../../src/core/domain.ts';
import { body, header, startTestSmtpServer, testCertificate, type TestCertificate, type TestSmtpServer } from '../support/smtp.ts';

const CREDENTIALS = { user: 'xos', pass: 'secret-pass' };

function settings(port: number, certificate: TestCertificate, extra: Partial<SmtpSettings> = {}): SmtpSettings {
  return { host: '127.0.0.1', port, security: 'starttls', user: CREDENTIALS.user, from: 'XOS CRM <crm@xos.example>', ca: certificate.cert, ...extra };
}

/** A person who answers the send question as scripted, recording what they were shown. */
class Person implements Confirmer {
  shown: MailDraft[] = [];
  answer: (draft: MailDraft) => Promise<SendAnswer> = async () => 'send';
  async confirmSave(): Promise<'discard'> {
    return 'discard';
  }
  async confirmSend(draft: MailDraft): Promise<SendAnswer> {
    this.shown.push(structuredClone(draft));
    return this.answer(draft);
  }
}

function toolDeps(mailer: Mailer, board = new BoardState(), person = new Person()): XosDeps & { board: BoardState; confirmer: Person } {
  return { client: undefined as never, board, confirmer: person, mailer };
}

async function call(tool: typeof mailComposeTool | typeof mailSendTool, args: Record<string, string>, deps: XosDeps) {
  const result = await (tool.handler as (a: Record<string, string>, d: XosDeps, s: McpSession, signal: AbortSignal) => ReturnType<typeof mailSendTool.handler>)(
    args, deps, new McpSession('s', []), new AbortController().signal,
  );
  return { text: resultText(result), isError: result.isError === true };
}

describe('SMTP over STARTTLS', () => {
  let certificate: TestCertificate;
  let server: TestSmtpServer;

  before(async () => {
    certificate = await testCertificate();
    server = await startTestSmtpServer({ certificate, credentials: CREDENTIALS, refuse: ['nobody@xos.example'] });
  });
  after(() => server?.close());

  test('settings are checked before anything is sent', () => {
    const base = settings(server.port, certificate);
    assert.deepEqual(smtpSettingsProblems(base), []);
    assert.deepEqual(smtpSettingsProblems({ ...base, host: 'mail.example.org', security: 'none', user: '' }), [
      'xos.mail.security "none" is only allowed for a loopback host, not mail.example.org; use starttls or tls',
    ]);
    assert.deepEqual(smtpSettingsProblems({ ...base, security: 'none' }), ['xos.mail.user needs xos.mail.security starttls or tls: a password is never sent in plain text']);
    assert.deepEqual(smtpSettingsProblems({ ...base, host: '', port: 0, from: 'crm' }), [
      'xos.mail.host is empty', 'xos.mail.port 0 is not a port number', 'xos.mail.from: "crm" is not an email address (expected local@domain)',
    ]);
    assert.throws(() => createSmtpMailer({ ...base, from: '' }), { message: 'Mail settings are not usable: xos.mail.from is empty.' });
  });

  test('the confirmed mail arrives exactly once, with the confirmed recipient, subject and body', async () => {
    const log: string[] = [];
    const mailer = createSmtpMailer(settings(server.port, certificate), { password: async () => CREDENTIALS.pass, log: (line) => log.push(line), now: () => new Date('2025-01-02T03:04:05.000Z') });
    const deps = toolDeps(mailer);
    const before = server.received.length;
    assert.deepEqual(await call(mailComposeTool, { to: 'Erika Muster <erika@Müller.example>', subject: 'Angebot für Q3', body: 'Hallo Erika,\n\nanbei das Angebot.\n' }, deps), {
      text: 'Draft on the Board, not sent: To: Erika Muster <erika@xn--mller-kva.example>; Subject: Angebot für Q3. Ask the person whether to send it; call xos_mail_send only after they said so.',
      isError: false,
    });
    const sent = await call(mailSendTool, {}, deps);
    const messageId = /message id (<[^>]+>)/.exec(sent.text)?.[1];
    assert.equal(sent.text, `Sent to erika@xn--mller-kva.example (message id ${messageId}).`);
    assert.equal(sent.isError, false);
    assert.deepEqual(deps.confirmer.shown, [{ to: { name: 'Erika Muster', email: 'erika@xn--mller-kva.example' }, subject: 'Angebot für Q3', body: 'Hallo Erika,\n\nanbei das Angebot.\n' }]);

    assert.equal(server.received.length, before + 1);
    const mail = server.received.at(-1)!;
    // smtp-server shows envelope domains decoded from punycode.
    assert.deepEqual({ from: mail.from, to: mail.to, secure: mail.secure, user: mail.user }, { from: 'crm@xos.example', to: ['erika@müller.example'], secure: true, user: 'xos' });
    assert.equal(header(mail.raw, 'To'), 'Erika Muster <erika@xn--mller-kva.example>');
    assert.equal(header(mail.raw, 'From'), 'XOS CRM <crm@xos.example>');
    assert.equal(header(mail.raw, 'Subject'), '=?UTF-8?Q?Angebot_f=C3=BCr_Q3?=');
    assert.equal(header(mail.raw, 'Message-ID'), messageId);
    assert.equal(header(mail.raw, 'Bcc'), undefined);
    assert.equal(header(mail.raw, 'Content-Transfer-Encoding'), '7bit');
    assert.equal(body(mail.raw), 'Hallo Erika,\n\nanbei das Angebot.\n');
    assert.deepEqual(log, [`Mail sent to erika@xn--mller-kva.example, subject "Angebot für Q3", message id ${messageId}, at 2025-01-02T03:04:05.000Z`]);

    assert.match((await call(mailSendTool, {}, deps)).text, new RegExp(`^Already sent to erika@xn--mller-kva\\.example at .+ \\(message id ${messageId}\\)\\. Compose a new mail with xos_mail_compose to send another\\.$`));
    assert.equal(server.received.length, before + 1);
  });

  test('header injection is refused in every field and nothing reaches the server', async () => {
    const mailer = createSmtpMailer(settings(server.port, certificate), { password: async () => CREDENTIALS.pass });
    const deps = toolDeps(mailer);
    const transfers = server.dataCount();
    assert.deepEqual(await call(mailComposeTool, { to: 'erika@xos.example', subject: 'Hi\r\nBcc: all@evil.example', body: 'x' }, deps), {
      text: 'Not composed: The subject contains a line break; header fields must be a single line. Compose again without it.', isError: true,
    });
    assert.deepEqual(await call(mailComposeTool, { to: 'Erika\nBcc: all@evil.example <erika@xos.example>', subject: 'Hi', body: 'x' }, deps), {
      text: 'Not composed: "Erika\\nBcc: all@evil.example <erika@xos.example>" contains a line break or control character. Give a valid address such as "Name <name@example.org>".', isError: true,
    });
    assert.equal(deps.board.snapshot().mail, undefined);
    // Drafts that bypass composing are refused by the transport itself.
    const injected: MailDraft[] = [
      { to: { email: 'erika@xos.example' }, subject: 'Hi\nBcc: all@evil.example', body: '' },
      { to: { name: 'E\r\nBcc: all@evil.example', email: 'erika@xos.example' }, subject: 'Hi', body: '' },
      { to: { email: 'erika@xos.example\r\nRCPT TO:<all@evil.example>' }, subject: 'Hi', body: '' },
    ];
    for (const draft of injected) {
      await assert.rejects(mailer.send(draft), (error: unknown) => error instanceof MailSendError && error.accepted === 'no' && /^Not sent: The (subject|recipient name|recipient address) contains a line break/.test(error.message));
    }
    const badFrom = createSmtpMailer(settings(server.port, certificate, { from: 'XOS <crm@xos.example>' }), { password: async () => CREDENTIALS.pass });
    assert.equal(smtpSettingsProblems(settings(server.port, certificate, { from: 'XOS\r\nBcc: x@evil.example <crm@xos.example>' }))[0], 'xos.mail.from: "XOS\\r\\nBcc: x@evil.example <crm@xos.example>" contains a line break or control character');
    assert.ok(badFrom);
    assert.equal(server.dataCount(), transfers);
  });

  test('certificate checks stay on: an untrusted certificate is refused before anything is sent', async () => {
    const mailer = createSmtpMailer(settings(server.port, certificate, { ca: undefined }), { password: async () => CREDENTIALS.pass });
    const transfers = server.dataCount();
    await assert.rejects(mailer.send({ to: { email: 'erika@xos.example' }, subject: 'Hi', body: 'x' }), (error: unknown) => {
      assert.ok(error instanceof MailSendError);
      assert.equal(error.accepted, 'no');
      assert.match(error.message, /self[- ]signed certificate.*\(connect\)$/);
      return true;
    });
    assert.equal(server.dataCount(), transfers);
  });

  test('a wrong password and a refused recipient are reported and the draft is kept', async () => {
    const wrong = toolDeps(createSmtpMailer(settings(server.port, certificate), { password: async () => 'wrong' }));
    await call(mailComposeTool, { to: 'erika@xos.example', subject: 'Hi', body: 'x' }, wrong);
    const reply = await call(mailSendTool, {}, wrong);
    assert.equal(reply.isError, true);
    assert.match(reply.text, /^Not sent: the mail server refused or could not be reached: Invalid login: 535 .*\(login\)\. The draft stays on the Board; fix the mail settings and call xos_mail_send again when the person wants to send it\.$/);
    assert.deepEqual(wrong.board.snapshot().mail, { to: { email: 'erika@xos.example' }, subject: 'Hi', body: 'x' });

    const refused = toolDeps(createSmtpMailer(settings(server.port, certificate), { password: async () => CREDENTIALS.pass }));
    await call(mailComposeTool, { to: 'nobody@xos.example', subject: 'Hi', body: 'x' }, refused);
    const answer = await call(mailSendTool, {}, refused);
    assert.match(answer.text, /^Not sent: the mail server refused or could not be reached: Can't send mail - all recipients were rejected: 550 Mailbox unavailable\. The draft stays on the Board/);
    assert.deepEqual(refused.board.snapshot().mail, { to: { email: 'nobody@xos.example' }, subject: 'Hi', body: 'x' });
  });

  test('a draft edited while the person is asked is not sent', async () => {
    const deps = toolDeps(createSmtpMailer(settings(server.port, certificate), { password: async () => CREDENTIALS.pass }));
    const before = server.received.length;
    await call(mailComposeTool, { to: 'erika@xos.example', subject: 'First', body: 'x' }, deps);
    deps.confirmer.answer = async () => {
      await call(mailComposeTool, { to: 'max@xos.example', subject: 'Second', body: 'y' }, deps);
      return 'send';
    };
    assert.deepEqual(await call(mailSendTool, {}, deps), {
      text: 'Not sent: the draft changed while the person was asked. Check the Board and call xos_mail_send again when the person wants to send it.', isError: true,
    });
    assert.equal(server.received.length, before);
  });
});

test('a server that drops the connection after DATA gets the mail once, never twice', async () => {
  const certificate = await testCertificate();
  const server = await startTestSmtpServer({ certificate, dropAfterData: true });
  try {
    const mailer = createSmtpMailer({ host: '127.0.0.1', port: server.port, security: 'starttls', from: 'crm@xos.example', ca: certificate.cert, socketTimeoutMs: 5000 });
    const deps = toolDeps(mailer);
    await call(mailComposeTool, { to: 'erika@xos.example', subject: 'Once', body: 'only once' }, deps);
    const reply = await call(mailSendTool, {}, deps);
    assert.equal(reply.isError, true);
    assert.match(reply.text, /^The connection to the mail server broke while the mail was being transferred: Connection closed unexpectedly\. It may have been delivered, so it is not sent again\. The draft stays on the Board;/);
    assert.equal(server.dataCount(), 1);
    assert.deepEqual(deps.board.snapshot().mail, { to: { email: 'erika@xos.example' }, subject: 'Once', body: 'only once' });
    assert.match((await call(mailSendTool, {}, deps)).text, /^Already sent to erika@xos\.example at .+, but the server did not confirm it, so it is not sent again\. Compose it again only if it did not arrive\.$/);
    assert.equal(server.dataCount(), 1);
    assert.equal(deps.confirmer.shown.length, 1);
  } finally {
    await server.close();
  }
});

test('security "none" works only on loopback and never with a password', async () => {
  const certificate = await testCertificate();
  const server = await startTestSmtpServer({ certificate });
  try {
    const mailer = createSmtpMailer({ host: '127.0.0.1', port: server.port, security: 'none', from: 'crm@xos.example' });
    const { messageId } = await mailer.send({ to: { email: 'erika@xos.example' }, subject: 'Plain', body: 'x' });
    assert.match(messageId, /^<[0-9a-f-]{36}@xos\.example>$/);
    assert.deepEqual(server.received.map((m) => [m.to, m.secure]), [[['erika@xos.example'], false]]);
  } finally {
    await server.close();
  }
});
