// Mail recipient integrity: whatever the agent writes as the recipient, the mail that reaches a
// real SMTP server goes to exactly the address the person was asked about, and its headers name
// exactly that recipient. The published address-parsing and header-injection proofs of concept
// against mail libraries, then thousands of fuzzed addresses and display names, each composed with
// xos_mail_compose, approved by a recording person and sent with xos_mail_send through the real
// SMTP client to smtp-server on loopback. smtp-server waits 100 ms before its greeting (it
// detects early talkers), so the fuzzed sends run in lanes side by side, each lane with an SMTP
// server of its own and a seed of its own: one lane's sends stay one at a time, as the checks of
// what arrived need.
//   XOS_MAIL_FUZZ=20000 node --test test/integration/mail.integrity.test.ts   (default 5000)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser';
import { BoardState } from '../../src/board/state.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import { resultText } from '../../src/mcp/result.ts';
import { McpSession } from '../../src/mcp/session.ts';
import { mailComposeTool } from '../../src/mcp/tools/mailCompose.ts';
import { mailSendTool } from '../../src/mcp/tools/mailSend.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, MailDraft, Mailer, SendAnswer } from '../../src/core/domain.ts';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';

const FUZZED = Number(process.env.XOS_MAIL_FUZZ ?? 5000);
/** Fuzzed sends side by side, each lane with its own SMTP server (the time is the servers' greeting delay, not CPU). */
const LANES = 10;
const FROM = 'XOS CRM <crm@xos.example>';

/** Proofs of concept published against mail libraries' address parsing and header building. */
const PROOFS_OF_CONCEPT = [
  '"xclow3n@gmail.com x"@internal.domain', // nodemailer GHSA-mm7p-fcc7-pg87: routed to the quoted domain
  '"test@test.com x"@super.com', // the bypass of GHSA-g839-f65j-c574
  '"foo@psres.net> ORCPT=admin@admin.com"@test.com', // RCPT misroute + ESMTP parameter smuggling
  'user@good-corp.com(x)evil.com', // comment concatenation into one domain
  'user@good-corp.com (x) evil@evil.example',
  'victim@bank.example\r\nBcc: attacker@evil.example',
  'victim@bank.example\nBcc: attacker@evil.example',
  'Victim\r\nBcc: attacker@evil.example <victim@bank.example>',
  '=?utf-8?q?attacker=40evil.example?= <victim@bank.example>',
  '"=?utf-8?b?YXR0YWNrZXJAZXZpbC5leGFtcGxl?=" <victim@bank.example>',
  'victim@bank.example, attacker@evil.example',
  'victim@bank.example; attacker@evil.example',
  'undisclosed-recipients: attacker@evil.example;',
  'Alice <alice@bank.example> <attacker@evil.example>',
  `Alice ‹alice@bank.example›${'\u2800'.repeat(1000)} <attacker@evil.example>`,
  `Alice ${'\u200b'.repeat(50)}<attacker@evil.example>`,
  'Alice \u202e<elpmaxe.live@rekcatta>',
  '<attacker@evil.example>',
  'attacker@[127.0.0.1]',
  'attacker@evil.example.',
  'attacker@evіl.example', // Cyrillic і: sent in punycode, shown so
  'attacker+tag@EVIL.example',
  '@evil.example:victim@bank.example', // source route
  'victim%evil.example@bank.example',
  'victim@bank.example\u0000attacker@evil.example',
];

/** A person who approves every draft they are shown, and remembers it. */
class ApprovingPerson implements Confirmer {
  readonly shown: MailDraft[] = [];
  async confirmSave(): Promise<'discard'> { return 'discard'; }
  async confirmSend(draft: MailDraft): Promise<SendAnswer> {
    this.shown.push(structuredClone(draft));
    return 'send';
  }
}

type Handler = (args: Record<string, string>, deps: XosDeps, session: McpSession, signal: AbortSignal) => Promise<Parameters<typeof resultText>[0]>;

async function call(tool: { handler: unknown }, args: Record<string, string>, deps: XosDeps): Promise<{ text: string; isError: boolean }> {
  const result = await (tool.handler as Handler)(args, deps, new McpSession('mail', []), new AbortController().signal);
  return { text: resultText(result), isError: result.isError === true };
}

/** An address as it travels in SMTP: the domain in punycode. */
function asWire(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}`;
}

/** Header lines of a raw message, unfolded. */
function headers(raw: string): Array<[string, string]> {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return head.split('\r\n').map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
  });
}

describe('mail recipient integrity', () => {
  /** An SMTP server and the mailer that sends to it: one send at a time per lane. */
  interface Lane { readonly server: TestSmtpServer; readonly mailer: Mailer }
  const lanes: Lane[] = [];
  before(async () => {
    const certificate = await testCertificate();
    for (let i = 0; i < LANES; i++) {
      const server = await startTestSmtpServer({ certificate });
      lanes.push({ server, mailer: createSmtpMailer({ host: '127.0.0.1', port: server.port, security: 'none', user: '', from: FROM }) });
    }
  });
  after(() => Promise.all(lanes.map((lane) => lane.server.close())));

  /** Composes to `to`, approves, sends through `lane`; checks what arrived against what was approved. */
  async function composeAndSend(lane: Lane, to: string, subject = 'Angebot', body = 'Hallo'): Promise<'refused' | 'sent'> {
    const { server, mailer } = lane;
    const person = new ApprovingPerson();
    const deps: XosDeps = { client: undefined as never, board: new BoardState(), confirmer: person, mailer };
    const receivedBefore = server.received.length;
    const composed = await call(mailComposeTool, { to, subject, body }, deps);
    if (composed.isError) {
      const sent = await call(mailSendTool, {}, deps);
      assert.equal(sent.isError, true, `nothing to send after a refused compose of ${JSON.stringify(to)}`);
      assert.equal(server.received.length, receivedBefore, `a refused recipient ${JSON.stringify(to)} still got mail`);
      return 'refused';
    }
    const sent = await call(mailSendTool, {}, deps);
    assert.equal(sent.isError, false, `${JSON.stringify(to)}: ${sent.text}`);
    assert.equal(person.shown.length, 1);
    assert.equal(server.received.length, receivedBefore + 1, 'exactly one message per approved send');
    const approved = person.shown[0].to;
    const mail = server.received.at(-1)!;
    // The envelope: exactly the approved address, nothing else. (smtp-server reports the
    // punycode domain that came over the wire in Unicode; encode it back to compare.)
    assert.deepEqual(mail.to.map(asWire), [approved.email], `envelope for ${JSON.stringify(to)}`);
    assert.equal(mail.from, 'crm@xos.example');
    // The headers: one To naming exactly the approved address; no Cc, no Bcc.
    const lines = headers(mail.raw);
    assert.deepEqual(lines.filter(([name]) => ['cc', 'bcc', 'resent-to', 'resent-cc', 'resent-bcc'].includes(name)), []);
    const toLines = lines.filter(([name]) => name === 'to');
    assert.equal(toLines.length, 1, `To headers of ${JSON.stringify(to)}: ${JSON.stringify(toLines)}`);
    const parsed = addressparser(toLines[0][1], { flatten: true });
    assert.deepEqual(parsed.map((a) => a.address), [approved.email], `To header ${JSON.stringify(toLines[0][1])} for ${JSON.stringify(to)}`);
    // Nothing the person was not shown: the address they approved is plain ASCII (IDN in punycode).
    assert.match(approved.email, /^[\x21-\x7e]+@[a-z0-9.-]+$/);
    return 'sent';
  }

  test('the published proofs of concept: refused, or sent exactly where the person approved', async () => {
    const outcomes: Record<string, string> = {};
    for (const to of PROOFS_OF_CONCEPT) outcomes[to.slice(0, 60)] = await composeAndSend(lanes[0], to);
    console.log(`proofs of concept: ${JSON.stringify(outcomes)}`);
    // The attacks that name another domain or a second recipient are refused outright.
    for (const to of PROOFS_OF_CONCEPT.slice(0, 17)) assert.equal(outcomes[to.slice(0, 60)], 'refused', to);
  });

  test(`${FUZZED} fuzzed addresses and display names: every delivered envelope and header equals the approved recipient`, { timeout: 600_000 }, async () => {
    const atom = fc.string({ unit: fc.constantFrom(...'abcxyz09.+-_!#$%&\'*/=?^`{|}~'.split('')), minLength: 1, maxLength: 12 });
    const tricky = fc.constantFrom('"', '\\', '@', '<', '>', ',', ';', ':', '(', ')', '[', ']', ' ', '\t', '\r\n', '\n', '\u0000', '\u202e', '\u200b', '\u00a0', 'é', 'ß', '𝔘', '=?utf-8?q?x?=', 'Bcc: e@evil.example');
    const part = fc.array(fc.oneof({ weight: 4, arbitrary: atom }, { weight: 1, arbitrary: tricky }), { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
    const domain = fc.oneof(
      fc.constantFrom('bank.example', 'nordlicht.example', 'EVIL.example', 'münchen.example', 'xn--mnchen-3ya.example', '[127.0.0.1]', 'localhost', 'a..example', '-bad.example'),
      fc.array(fc.string({ unit: fc.constantFrom(...'abcdefxyz0129-'.split('')), minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 3 }).map((labels) => `${labels.join('.')}.example`),
    );
    const name = fc.oneof(fc.constant(''), part, fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 15 }));
    const recipient = fc.tuple(part, domain, name, fc.constantFrom('bare', 'angle', 'named', 'quoted', 'comment', 'list'))
      .map(([local, host, display, form]) => {
        const address = `${local}@${host}`;
        switch (form) {
          case 'bare': return address;
          case 'angle': return `<${address}>`;
          case 'named': return `${display} <${address}>`;
          case 'quoted': return `"${display}" <${address}>`;
          case 'comment': return `${address} (${display})`;
          default: return `${address}, ${display}@evil.example`;
        }
      });
    const tally = { sent: 0, refused: 0 };
    // Lane i runs its share on seed 5000 + i: the same cases every run, a failure shrunk within its lane.
    await Promise.all(lanes.map((lane, i) => fc.assert(fc.asyncProperty(recipient, fc.string({ maxLength: 40 }), async (to, subject) => {
      tally[await composeAndSend(lane, to, subject)]++;
    }), { numRuns: Math.ceil((FUZZED - i) / LANES), seed: 5000 + i, endOnFailure: true })));
    console.log(`fuzzed recipients: ${JSON.stringify(tally)}`);
    assert.ok(tally.sent > FUZZED / 10 && tally.refused > FUZZED / 10, `both outcomes are exercised: ${JSON.stringify(tally)}`);
  });
});
