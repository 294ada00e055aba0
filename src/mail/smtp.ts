// Sends a confirmed draft over SMTP with nodemailer, exactly once: one
// connection, one transaction, no retries. The phases are driven one by one so
// a failure is known to be before DATA (not sent) or during/after it (unknown).
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { MailDraft, Mailer } from './types.ts';
import { formatAddress, parseAddress, type MailAddress } from './address.ts';
import { headerProblem } from './draft.ts';
import { MailSendError } from './errors.ts';
import { isLoopbackHost } from '../net/loopbackHost.ts';

export type MailSecurity = 'starttls' | 'tls' | 'none';

export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  readonly security: MailSecurity;
  /** Empty or absent: no authentication. */
  readonly user?: string;
  readonly from: string;
  /** Extra trust anchors (a private CA); certificate checks stay on. */
  readonly ca?: string | Buffer;
  readonly connectionTimeoutMs?: number;
  readonly greetingTimeoutMs?: number;
  readonly socketTimeoutMs?: number;
}

export interface SmtpMailerOptions {
  /** The password of `settings.user`, read when a mail is sent. */
  readonly password?: () => Promise<string | undefined>;
  /** One line per sent mail: recipient, subject, message id, time. */
  readonly log?: (line: string) => void;
  readonly now?: () => Date;
}

/**
 * The SecretStorage key of the SMTP password: bound to user, host and port,
 * so settings that point the mail elsewhere (say a workspace's) get no password.
 */
export function mailPasswordKey(settings: Pick<SmtpSettings, 'host' | 'port' | 'user'>): string {
  return `xos.mail.password:${settings.user ?? ''}@${settings.host.trim().toLowerCase()}:${settings.port}`;
}

/** Problems of the settings, each naming the setting; empty when they are usable. */
export function smtpSettingsProblems(settings: SmtpSettings): string[] {
  const problems: string[] = [];
  if (!settings.host.trim()) problems.push('xos.mail.host is empty');
  if (!Number.isInteger(settings.port) || settings.port < 1 || settings.port > 65535) problems.push(`xos.mail.port ${settings.port} is not a port number`);
  if (!['starttls', 'tls', 'none'].includes(settings.security)) problems.push(`xos.mail.security "${settings.security}" must be starttls, tls or none`);
  if (settings.security === 'none' && settings.host.trim() && !isLoopbackHost(settings.host)) {
    problems.push(`xos.mail.security "none" is only allowed for a loopback host, not ${settings.host}; use starttls or tls`);
  }
  if (settings.security === 'none' && settings.user) problems.push('xos.mail.user needs xos.mail.security starttls or tls: a password is never sent in plain text');
  const from = parseAddress(settings.from);
  if (!settings.from.trim()) problems.push('xos.mail.from is empty');
  else if (typeof from === 'string') problems.push(`xos.mail.from: ${from}`);
  return problems;
}

export function createSmtpMailer(settings: SmtpSettings, options: SmtpMailerOptions = {}): Mailer {
  const problems = smtpSettingsProblems(settings);
  if (problems.length > 0) throw new Error(`Mail settings are not usable: ${problems.join('; ')}.`);
  const from = parseAddress(settings.from) as MailAddress;
  const now = options.now ?? (() => new Date());
  return {
    from: formatAddress(from),
    async send(draft: MailDraft) {
      const problem = headerProblem(draft, from);
      if (problem) throw new MailSendError(`Not sent: ${problem}`, 'no');
      const to = parseAddress(draft.to.email);
      if (typeof to === 'string' || to.email !== draft.to.email) throw new MailSendError(`Not sent: the recipient ${draft.to.email} is not a valid address.`, 'no');
      const messageId = `<${randomUUID()}@${from.email.slice(from.email.lastIndexOf('@') + 1)}>`;
      const date = now();
      const raw = await compose(draft, from, messageId, date);
      const password = settings.user ? await options.password?.() : undefined;
      if (settings.user && !password) throw new MailSendError(`Not sent: no password is set for ${settings.user} (command "XOS: Set Mail Password").`, 'no');
      await transfer(settings, { from: from.email, to: draft.to.email }, raw, settings.user ? { user: settings.user, pass: password! } : undefined);
      options.log?.(`Mail sent to ${draft.to.email}, subject ${JSON.stringify(draft.subject)}, message id ${messageId}, at ${date.toISOString()}`);
      return { messageId };
    },
  };
}

function compose(draft: MailDraft, from: MailAddress, messageId: string, date: Date): Promise<Buffer> {
  const composer = new MailComposer({
    from: { name: from.name ?? '', address: from.email },
    to: { name: draft.to.name ?? '', address: draft.to.email },
    subject: draft.subject,
    text: draft.body,
    messageId,
    date,
    // The body is text from the agent: never let it pull in files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return new Promise((resolve, reject) => {
    composer.compile().build((error, message) => (error ? reject(error) : resolve(message)));
  });
}

interface Envelope { readonly from: string; readonly to: string }

async function transfer(settings: SmtpSettings, envelope: Envelope, raw: Buffer, auth: { user: string; pass: string } | undefined): Promise<void> {
  const connection = new SMTPConnection({
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    tls: { rejectUnauthorized: true, minVersion: 'TLSv1.2', ...(isIP(settings.host) ? {} : { servername: settings.host }), ...(settings.ca ? { ca: settings.ca } : {}) },
    connectionTimeout: settings.connectionTimeoutMs ?? 30_000,
    greetingTimeout: settings.greetingTimeoutMs ?? 30_000,
    socketTimeout: settings.socketTimeoutMs ?? 60_000,
    allowInternalNetworkInterfaces: true,
  });
  // Errors also reach the pending callback; the listener keeps them from being unhandled.
  connection.on('error', () => undefined);
  try {
    await step((done) => connection.connect((error?: Error) => done(error ?? null)), connection, 'connect');
    if (auth) await step((done) => connection.login(auth, (error) => done(error ?? null)), connection, 'login');
    await new Promise<void>((resolve, reject) => {
      connection.send(envelope, raw, (error) => {
        if (!error) return resolve();
        reject(new MailSendError(describe(error), certainlyRejected(error) ? 'no' : 'unknown', { cause: error }));
      });
    });
  } finally {
    connection.quit();
  }
}

/** Runs one phase before DATA; any failure there means the mail was not sent. */
function step(run: (done: (error: Error | null) => void) => void, connection: SMTPConnection, phase: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => fail(error);
    const fail = (error: Error) => {
      connection.off('error', onError);
      reject(new MailSendError(`${describe(error)} (${phase})`, 'no', { cause: error }));
    };
    connection.once('error', onError);
    run((error) => {
      if (error) return fail(error);
      connection.off('error', onError);
      resolve();
    });
  });
}

interface SmtpError extends Error { code?: string; responseCode?: number }

/** The envelope was refused, or the server answered the message with a rejection code. */
function certainlyRejected(error: SmtpError): boolean {
  if (error.code === 'EENVELOPE') return true;
  // Any 4xx/5xx reply (a 421 that closes the channel included) means the server did not take the
  // message; only a connection lost without a reply after DATA leaves it unknown.
  return typeof error.responseCode === 'number' && error.responseCode >= 400;
}

function describe(error: SmtpError): string {
  return error.message.replace(/\s+/g, ' ').trim();
}
