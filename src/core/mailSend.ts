// Sending the Board's mail draft: the one path for xos_mail_send and the Board's Send button.
// The person confirms exactly the draft that goes out; it goes out once.
import { isDeepStrictEqual } from 'node:util';
import { MailSendError } from '../mail/errors.ts';
import type { Board, Confirmer, MailDraft, Mailer, XosClient } from './domain.ts';
import type { AuditPath } from '../backend/storage/audit.ts';
import type { Outcome } from './useCases.ts';

export interface MailSendDeps {
  readonly board: Board;
  readonly confirmer: Confirmer;
  readonly mailer: Mailer;
  /** Where a sent mail is recorded in the audit trail (absent: not recorded). */
  readonly client?: XosClient;
}

/** What happened to the Board's last drafts; kept per Board so every MCP session and the Board see the same. */
interface SendRecord {
  /** A send of this draft is being confirmed or transferred right now. */
  busy?: MailDraft;
  /** The last draft that went out (or may have: `uncertain`). */
  sent?: { draft: MailDraft; messageId?: string; at: string; uncertain: boolean; onBoard: boolean };
}

const records = new WeakMap<Board, SendRecord>();

function recordOf(board: Board): SendRecord {
  let record = records.get(board);
  if (!record) {
    record = {};
    records.set(board, record);
  }
  return record;
}

const done = (text: string): Outcome => ({ ok: true, text });
const refused = (text: string): Outcome => ({ ok: false, text });

/** Asks the person to confirm the Board's draft and sends it once; the outcome's words are for the agent and the person. */
export async function sendMailDraft(deps: MailSendDeps, signal: AbortSignal, path: AuditPath = 'agent'): Promise<Outcome> {
  const record = recordOf(deps.board);
  const draft = deps.board.snapshot().mail;
  if (record.sent && (!draft || (record.sent.uncertain && record.sent.onBoard))) return done(alreadySent(record.sent));
  if (!draft) return refused('There is no draft to send. Prepare one with xos_mail_compose first.');
  if (record.busy) return refused('This draft is already being sent (the person is being asked or it is on its way). Wait for that answer.');

  record.busy = draft;
  try {
    const changed = new AbortController();
    const subscription = deps.board.onChange((change) => {
      if (change === 'mail') changed.abort();
    });
    let answer;
    try {
      answer = await deps.confirmer.confirmSend(draft, AbortSignal.any([changed.signal, signal]));
    } finally {
      subscription.dispose();
    }
    if (changed.signal.aborted || !isDeepStrictEqual(deps.board.snapshot().mail, draft)) {
      return refused('Not sent: the draft changed while the person was asked. Check the Board and call xos_mail_send again when the person wants to send it.');
    }
    if (answer !== 'send') {
      return refused(`Not sent: ${answer === 'cancel' ? 'the person chose Cancel' : 'the person did not answer in time'}. The draft stays on the Board.`);
    }
    const outcome = await sendOnce(deps.board, record, draft, () => deps.mailer.send(draft));
    if (outcome.ok && deps.client && record.sent?.messageId) await recordSent(deps.client, draft, record.sent.messageId, path);
    return outcome;
  } finally {
    record.busy = undefined;
  }
}

/** Whether a send of the Board's draft is being confirmed or transferred now (the Board disables its buttons). */
export function mailSendBusy(board: Board): boolean {
  return records.get(board)?.busy !== undefined;
}

async function sendOnce(board: Board, record: SendRecord, draft: MailDraft, send: () => Promise<{ messageId: string }>): Promise<Outcome> {
  // Take the draft away before sending so it can never go out twice.
  board.clearMail();
  const at = new Date().toISOString();
  try {
    const { messageId } = await send();
    record.sent = { draft, messageId, at, uncertain: false, onBoard: false };
    return done(`Sent to ${draft.to.email} (message id ${messageId}).`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    board.showMail(draft);
    if (error instanceof MailSendError && error.accepted === 'no') {
      return refused(`Not sent: the mail server refused or could not be reached: ${message}. The draft stays on the Board; fix the mail settings and call xos_mail_send again when the person wants to send it.`);
    }
    // The server may have taken the message: sending again could deliver it twice.
    const sent = { draft, at, uncertain: true, onBoard: true };
    record.sent = sent;
    // Composing again (even the same text) is the person's decision to send anew.
    const subscription = board.onChange((change) => {
      if (change !== 'mail') return;
      sent.onBoard = false;
      subscription.dispose();
    });
    return refused(`The connection to the mail server broke while the mail was being transferred: ${message}. It may have been delivered, so it is not sent again. `
      + 'The draft stays on the Board; ask the recipient or check the sent folder, and compose it again only if it did not arrive.');
  }
}

function alreadySent(sent: NonNullable<SendRecord['sent']>): string {
  if (sent.uncertain) {
    return `Already sent to ${sent.draft.to.email} at ${sent.at}, but the server did not confirm it, so it is not sent again. Compose it again only if it did not arrive.`;
  }
  return `Already sent to ${sent.draft.to.email} at ${sent.at} (message id ${sent.messageId}). Compose a new mail with xos_mail_compose to send another.`;
}

/** Records a sent mail in the audit trail. The mail is out whatever happens here: a failure to record it never leads to a second send. */
async function recordSent(client: XosClient, draft: MailDraft, messageId: string, path: AuditPath): Promise<void> {
  const to = draft.to.name ? `${draft.to.name} <${draft.to.email}>` : draft.to.email;
  try {
    await client.run('mutation XosAuditMail($to: String!, $subject: String!, $messageId: String!) { xos_audit_mail(to: $to, subject: $subject, message_id: $messageId) { id } }',
      { to, subject: draft.subject, messageId }, { path, approval: 'Send confirmed by the person' });
  } catch {
    // The backend may be unreachable; the send itself succeeded and is not repeated.
  }
}
