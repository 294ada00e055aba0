// Undo-send against a real SMTP server: after the person's Send the mail waits out its window
// on the Board; the SMTP transaction starts only when the window ends (exactly one message),
// Undo keeps the draft and sends nothing, and a stop inside the window sends nothing and
// leaves the draft kept on disk with the time it would have gone out. The window is driven
// by the test (the scheduler is injected), so no test waits on a clock.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BoardState } from '../../src/board/state.ts';
import { DraftFile, keepDrafts } from '../../src/store/drafts.ts';
import { abandonScheduledSend, sendMailDraft, undoSend, type SendWindow } from '../../src/core/mailSend.ts';
import type { MailOutcome } from '../../src/core/outcomes.ts';
import { mailText } from '../../src/mcp/wording.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import { resultText } from '../../src/mcp/result.ts';
import { McpSession } from '../../src/mcp/session.ts';
import { mailComposeTool } from '../../src/mcp/tools/mailCompose.ts';
import { mailSendTool } from '../../src/mcp/tools/mailSend.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, MailDraft, Mailer, SendAnswer } from '../../src/core/domain.ts';
import { body, header, startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const DRAFT: MailDraft = { to: { name: 'Max Mustermann', email: 'max@nordlicht-software.example' }, subject: 'Termin', body: 'Hallo Max' };

class Person implements Confirmer {
  async confirmSave(): Promise<'discard'> {
    return 'discard';
  }
  async confirmSend(): Promise<SendAnswer> {
    return 'send';
  }
}

/** A window the test ends by hand. */
class ManualWindow implements SendWindow {
  readonly seconds = 10;
  waiting: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
  scheduledAt: Date[] = [];
  /** How each wait ended, with the words the agent reads for it. */
  settled: Array<{ ok: boolean; text: string }> = [];
  readonly schedule = (ms: number, run: () => void) => {
    const entry = { ms, run, cancelled: false };
    this.waiting.push(entry);
    return () => {
      entry.cancelled = true;
    };
  };
  readonly onScheduled = (_draft: MailDraft, sendAt: Date) => {
    this.scheduledAt.push(sendAt);
  };
  readonly onSettled = (outcome: MailOutcome) => {
    this.settled.push({ ok: outcome.ok, text: mailText(outcome) });
  };
  /** Ends every open wait, as the clock would. */
  end(): void {
    for (const entry of this.waiting.splice(0)) if (!entry.cancelled) entry.run();
  }
  async settledOnce(): Promise<{ ok: boolean; text: string }> {
    while (this.settled.length === 0) await new Promise((resolve) => setImmediate(resolve));
    return this.settled[0];
  }
}

describe('undo-send', () => {
  let smtp: TestSmtpServer;
  let mailer: Mailer;
  let dir: TempDir;
  let board: BoardState;
  let window: ManualWindow;
  /** SMTP DATA transfers since the test began (the server counts across tests). */
  let dataBefore = 0;
  const transfers = () => smtp.dataCount() - dataBefore;

  before(async () => {
    const certificate = await testCertificate();
    smtp = await startTestSmtpServer({ certificate });
    mailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'starttls', user: '', from: 'XOS CRM <crm@xos.example>', ca: certificate.cert });
    dir = await tempDir('xos-undo-send');
  });
  after(async () => {
    await smtp?.close();
    await dir?.remove();
  });
  beforeEach(() => {
    smtp.received.length = 0;
    dataBefore = smtp.dataCount();
    board = new BoardState();
    board.showMail(DRAFT);
    window = new ManualWindow();
  });

  const sendThroughTool = async () => {
    const deps: XosDeps = { client: undefined as never, board, confirmer: new Person(), mailer, mailWindow: window };
    const handler = mailSendTool.handler as (a: object, d: XosDeps, s: McpSession, signal: AbortSignal) => ReturnType<typeof mailSendTool.handler>;
    const result = await handler({}, deps, new McpSession('s', []), new AbortController().signal);
    return { text: resultText(result), isError: result.isError === true };
  };

  const composeThroughTool = async (args: { to: string; subject: string; body: string }) => {
    const deps: XosDeps = { client: undefined as never, board, confirmer: new Person(), mailer, mailWindow: window };
    const handler = mailComposeTool.handler as (a: object, d: XosDeps, s: McpSession, signal: AbortSignal) => ReturnType<typeof mailComposeTool.handler>;
    const result = await handler(args, deps, new McpSession('s', []), new AbortController().signal);
    return { text: resultText(result), isError: result.isError === true };
  };
  const SAME = { to: 'Max Mustermann <max@nordlicht-software.example>', subject: 'Termin', body: 'Hallo Max' };

  test('composing inside the window is refused: the Board keeps "goes out at … / Undo" and exactly the confirmed mail goes out', async () => {
    await sendThroughTool();
    const sendAt = window.scheduledAt[0];
    const time = `${sendAt.toISOString().slice(11, 19)} UTC`;
    const refusal = `Not composed: the person confirmed the mail to max@nordlicht-software.example; it goes out at ${time} (${sendAt.toISOString()}) unless they press Undo on the Board, `
      + `and a new draft would replace it. Wait until it has gone out (at ${time}) or until the person pressed Undo, then call xos_mail_compose again.`;
    // The same draft again (the way to take Undo off the Board before this fix), and a different one.
    assert.deepEqual(await composeThroughTool(SAME), { text: refusal, isError: true });
    assert.deepEqual(await composeThroughTool({ to: 'eve@evil.example', subject: 'Other', body: 'x' }), { text: refusal, isError: true });
    assert.deepEqual(board.snapshot().mail, DRAFT, 'the confirmed draft stays on the Board');
    assert.equal(board.snapshot().mailSendAt, sendAt.toISOString(), 'with its time and Undo');
    assert.equal(transfers(), 0);

    window.end();
    const settled = await window.settledOnce();
    assert.equal(settled.ok, true, settled.text);
    assert.equal(smtp.received.length, 1, 'exactly one message');
    const [mail] = smtp.received;
    assert.deepEqual(mail.to, ['max@nordlicht-software.example']);
    assert.equal(header(mail.raw, 'Subject'), 'Termin');
    assert.equal(body(mail.raw).trim(), 'Hallo Max');
    // Once it went out, composing works again.
    assert.equal((await composeThroughTool({ ...SAME, body: 'Noch etwas' })).isError, false);
    assert.equal(board.snapshot().mail?.body, 'Noch etwas');
  });

  test('after Undo, composing works again and nothing was sent', async () => {
    await sendThroughTool();
    assert.equal(undoSend(board), true);
    const composed = await composeThroughTool({ ...SAME, subject: 'Termin neu' });
    assert.equal(composed.isError, false, composed.text);
    window.end();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(transfers(), 0);
    assert.equal(smtp.received.length, 0);
  });

  test('a waiting send is bound to the confirmed draft: the same text put on the Board anew is not sent, and the person is told at once', async () => {
    await sendThroughTool();
    // Anything that replaces the Board's draft (a restore, another front end) takes "goes out at … / Undo" away,
    // so the confirmed send must not go out either, even though the new draft reads the same.
    board.showMail(structuredClone(DRAFT));
    assert.equal(board.snapshot().mailSendAt, undefined);
    assert.equal(window.settled.length, 1, 'the wait ended when the draft was replaced');
    assert.deepEqual(window.settled[0], { ok: false, text: 'Not sent to max@nordlicht-software.example: the draft was changed or replaced before it went out.' });
    window.end();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(window.settled.length, 1, 'the window ending sends nothing and reports nothing more');
    assert.equal(transfers(), 0);
    assert.equal(smtp.received.length, 0);
    // Nothing waits any more: the draft on the Board is asked for anew.
    assert.equal(undoSend(board), false);
    assert.match((await sendThroughTool()).text, /^Send confirmed/);
    window.end();
    while (window.settled.length < 2) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(window.settled[1].ok, true, window.settled[1].text);
    assert.equal(smtp.received.length, 1, 'exactly the newly confirmed one');
  });

  test('the mail goes out when the window ends, exactly once; the reply says when', async () => {
    const reply = await sendThroughTool();
    assert.equal(reply.isError, false);
    const sendAt = window.scheduledAt[0];
    assert.equal(window.waiting[0].ms, 10_000);
    assert.equal(reply.text, `Send confirmed: the mail to max@nordlicht-software.example goes out at ${sendAt.toISOString()} (in 10 s) unless the person clicks Undo; until then it waits on the Board. Nothing more to do.`);
    assert.equal(board.snapshot().mailSendAt, sendAt.toISOString(), 'the Board shows it waiting');
    assert.equal(transfers(), 0, 'no SMTP transaction inside the window');
    assert.match((await sendThroughTool()).text, /^Already confirmed: the mail to max@nordlicht-software\.example goes out at /);
    assert.equal(window.waiting.length, 1, 'a second call schedules nothing');

    window.end();
    const settled = await window.settledOnce();
    assert.equal(settled.ok, true, settled.text);
    assert.match(settled.text, /^Sent to max@nordlicht-software\.example \(message id /);
    assert.equal(smtp.received.length, 1);
    assert.equal(board.snapshot().mail, undefined);
    window.end();
    assert.match((await sendThroughTool()).text, /^Already sent to max@nordlicht-software\.example/);
    assert.equal(smtp.received.length, 1, 'exactly one message');
  });

  test('Undo keeps the draft and sends nothing, also when the window ends later', async () => {
    await sendThroughTool();
    assert.equal(undoSend(board), true);
    assert.deepEqual(board.snapshot().mail, DRAFT);
    assert.equal(board.snapshot().mailSendAt, undefined);
    window.end();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(window.settled, []);
    assert.equal(transfers(), 0);
    assert.equal(undoSend(board), false, 'nothing left to undo');
    // Sending again after Undo asks again and waits again.
    assert.match((await sendThroughTool()).text, /^Send confirmed/);
    assert.equal(window.scheduledAt.length, 2);
  });

  test('a draft changed inside the window is not sent', async () => {
    await sendMailDraft({ board, confirmer: new Person(), mailer, window }, new AbortController().signal, 'board');
    board.showMail({ ...DRAFT, body: 'Anderer Text' });
    window.end();
    const settled = await window.settledOnce();
    assert.equal(settled.ok, false);
    assert.match(settled.text, /was changed or replaced before it went out/);
    assert.equal(transfers(), 0);
  });

  test('a stop inside the window sends nothing and keeps the draft with the time it would have gone out', async () => {
    const file = new DraftFile(join(dir.path, 'board-draft.json'));
    const keeper = keepDrafts(board, file);
    await sendMailDraft({ board, confirmer: new Person(), mailer, window }, new AbortController().signal, 'board');
    keeper.flush();
    // The process stops: the wait is dropped without touching the Board.
    abandonScheduledSend(board);
    keeper.dispose();
    window.end();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(transfers(), 0);

    const kept = file.read();
    assert.ok(kept);
    assert.deepEqual(kept.draft.mail, DRAFT);
    assert.equal(kept.draft.mailSendAt, window.scheduledAt[0].toISOString());
    // The next start: the draft is back as a draft (not waiting, not sent).
    const next = new BoardState();
    next.restore(kept.draft);
    assert.deepEqual(next.snapshot().mail, DRAFT);
    assert.equal(next.snapshot().mailSendAt, undefined);
  });
});
