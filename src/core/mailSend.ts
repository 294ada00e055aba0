// Sending the Board's mail draft: the one path for xos_mail_send and the Board's Send button.
// The person confirms exactly the draft that goes out; it goes out once.
import { isDeepStrictEqual } from 'node:util';
import { MailSendError } from '../mail/errors.ts';
import type { Board, Confirmer, MailDraft, Mailer, XosClient } from './domain.ts';
import type { AuditPath } from '../graphql/audit.ts';
import type { MailOutcome } from './outcomes.ts';
import { buildAuditMailMutation } from '../graphql/requests.ts';
import type { PreparedWrite } from './boundWrites.ts';

export interface MailSendDeps {
  readonly board: Board;
  readonly confirmer: Confirmer;
  readonly mailer: Mailer;
  /** Where a sent mail is recorded in the audit trail (absent: not recorded). */
  readonly client?: XosClient;
  /** The undo window after Send (absent or 0 seconds: the mail goes out at once). */
  readonly window?: SendWindow;
  /** Stored approvals of exactly this mail, taken by the Board's own send (absent: none are kept). */
  readonly claimSend?: (draft: MailDraft) => Promise<SendClaim | 'taken' | undefined>;
}

/**
 * The stored approvals of the mail the Board is sending, taken so the desk cannot send it too;
 * told what the send came to (sent, may have gone out, or not sent: they wait again).
 */
export interface SendClaim {
  settled(outcome: MailOutcome): Promise<void>;
}

/**
 * After the person's Send the mail waits `seconds` on the Board with Undo; the SMTP transaction
 * starts only when the window ends. If the process stops inside it, nothing is sent and the
 * kept draft says so at the next start.
 */
export interface SendWindow {
  readonly seconds: number;
  /** Starts the wait and returns how to cancel it (setTimeout unless a test drives it). */
  readonly schedule?: (ms: number, run: () => void) => () => void;
  /** The mail is waiting: the host offers Undo. */
  readonly onScheduled?: (draft: MailDraft, sendAt: Date) => void;
  /** How the wait ended: sent, or not and why. */
  readonly onSettled?: (outcome: MailOutcome) => void;
}

/** What happened to the Board's last drafts; kept per Board so every MCP session and the Board see the same. */
interface SendRecord {
  /** A send of this draft is being confirmed or transferred right now. */
  busy?: MailDraft;
  /**
   * A confirmed draft waiting out its undo window. It is bound to the Board's draft as it was at the
   * confirmation (`id`): any later change of the Board's mail (a compose, a restore, anything that
   * replaces or clears it) ends the wait at once and nothing goes out, even if the new draft reads the same.
   */
  scheduled?: ScheduledSend;
  /** The last draft that went out (or may have: `uncertain`). */
  sent?: { draft: MailDraft; messageId?: string; at: string; uncertain: boolean; onBoard: boolean };
}

interface ScheduledSend {
  /** The confirmed draft's identity: a number taken when the person's Send was accepted, unique per process. */
  readonly id: number;
  readonly draft: MailDraft;
  readonly sendAt: Date;
  /** Stops the timer and the watch on the Board's draft. */
  readonly cancel: () => void;
}

const records = new WeakMap<Board, SendRecord>();
let nextScheduleId = 1;

function recordOf(board: Board): SendRecord {
  let record = records.get(board);
  if (!record) {
    record = {};
    records.set(board, record);
  }
  return record;
}

/** Asks the person to confirm the Board's draft and sends it once. */
export async function sendMailDraft(deps: MailSendDeps, signal: AbortSignal, path: AuditPath = 'agent'): Promise<MailOutcome> {
  const prepared = prepareSend(deps.board);
  if (!('payload' in prepared)) return prepared;
  const record = recordOf(deps.board);
  const away = deps.confirmer.unavailable?.();
  if (away) return { kind: 'not_asked', ok: false, action: 'send', reason: away };
  const { draft } = prepared.payload;
  record.busy = draft;
  try {
    const changed = new AbortController();
    const subscription = deps.board.onChange((change) => {
      if (change === 'mail') changed.abort();
    });
    let answer;
    try {
      answer = await deps.confirmer.confirmSend(prepared.summary, AbortSignal.any([changed.signal, signal]));
    } finally {
      subscription.dispose();
    }
    if (changed.signal.aborted || !isDeepStrictEqual(deps.board.snapshot().mail, draft)) {
      return { kind: 'changed_while_asked', ok: false, action: 'send' };
    }
    if (answer !== 'send') return { kind: 'declined', ok: false, action: 'send', answer };
    const seconds = deps.window?.seconds ?? 0;
    if (seconds > 0) return schedule(deps, record, draft, seconds, path);
    return await sendNow(deps, record, draft, path);
  } finally {
    record.busy = undefined;
  }
}

/**
 * What sending the Board's draft would send: exactly that draft (the question shows it as it is),
 * from `from` (the mail account's sender, where known); or why nothing is to be sent (no draft,
 * sent already, waiting or being sent).
 */
export function prepareSend(board: Board, from?: string): Extract<PreparedWrite, { kind: 'send' }> | MailOutcome {
  const record = recordOf(board);
  const draft = board.snapshot().mail;
  if (record.sent && (!draft || (record.sent.uncertain && record.sent.onBoard))) return alreadySent(record.sent);
  if (!draft) return { kind: 'no_draft', ok: false };
  if (record.scheduled) {
    return { kind: 'already_scheduled', ok: true, to: record.scheduled.draft.to.email, sendAt: record.scheduled.sendAt.toISOString() };
  }
  if (record.busy) return { kind: 'sending', ok: false };
  return { kind: 'send', payload: { kind: 'send', draft, ...(from === undefined ? {} : { from }) }, summary: draft };
}

async function sendNow(deps: MailSendDeps, record: SendRecord, draft: MailDraft, path: AuditPath): Promise<MailOutcome> {
  // The same mail asked for by the agent and waiting on the desk is this send's too: taken first, so it goes out once.
  const claim = await deps.claimSend?.(draft);
  if (claim === 'taken') return { kind: 'sending', ok: false };
  const outcome = await sendOnce(deps.board, record, draft, () => deps.mailer.send(draft));
  await claim?.settled(outcome).catch(() => undefined);
  if (outcome.ok && deps.client && record.sent?.messageId) await recordSent(deps.client, draft, record.sent.messageId, path);
  return outcome;
}

/** The confirmed draft waits on the Board (kept with the Board's drafts) until the window ends. */
function schedule(deps: MailSendDeps, record: SendRecord, draft: MailDraft, seconds: number, path: AuditPath): MailOutcome {
  const window = deps.window!;
  const id = nextScheduleId++;
  const sendAt = new Date(Date.now() + seconds * 1000);
  const start = window.schedule ?? ((ms: number, run: () => void) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  });
  const watch: { current?: { dispose(): void } } = {};
  const stopTimer = start(seconds * 1000, () => {
    if (record.scheduled?.id !== id) return;
    watch.current?.dispose();
    record.scheduled = undefined;
    void settle(deps, record, draft, path).then((outcome) => window.onSettled?.(outcome));
  });
  record.scheduled = {
    id, draft, sendAt, cancel: () => {
      stopTimer();
      watch.current?.dispose();
    },
  };
  deps.board.scheduleMail(sendAt.toISOString());
  // From here on the Board's draft must stay the confirmed one: a change of it (which also takes
  // "goes out at … / Undo" off the Board) ends the wait, so nothing the person can no longer see or undo goes out.
  watch.current = deps.board.onChange((change) => {
    if (change !== 'mail' || record.scheduled?.id !== id) return;
    record.scheduled.cancel();
    record.scheduled = undefined;
    window.onSettled?.(replaced(draft));
  });
  window.onScheduled?.(draft, sendAt);
  return { kind: 'scheduled', ok: true, to: draft.to.email, sendAt: sendAt.toISOString(), seconds };
}

const replaced = (draft: MailDraft): MailOutcome => ({ kind: 'replaced', ok: false, to: draft.to.email });

/** The window ended: the draft goes out only if it is still exactly the one the person confirmed. */
async function settle(deps: MailSendDeps, record: SendRecord, draft: MailDraft, path: AuditPath): Promise<MailOutcome> {
  const shown = deps.board.snapshot().mail;
  if (!shown || !isDeepStrictEqual(shown, draft)) return replaced(draft);
  return sendNow(deps, record, draft, path);
}

/** The confirmed mail waiting out its undo window on this Board, if any: to whom and when it goes out. */
export function scheduledSend(board: Board): { readonly to: string; readonly sendAt: Date } | undefined {
  const scheduled = records.get(board)?.scheduled;
  return scheduled ? { to: scheduled.draft.to.email, sendAt: scheduled.sendAt } : undefined;
}

/** Undo within the window: nothing goes out and the draft stays on the Board. False when nothing was waiting. */
export function undoSend(board: Board): boolean {
  if (!dropScheduled(board)) return false;
  board.scheduleMail(undefined);
  return true;
}

/** Stops a waiting send without touching the Board (the process is ending): nothing is sent, the kept draft says so next time. */
export function abandonScheduledSend(board: Board): void {
  dropScheduled(board);
}

/** Cancels the Board's waiting send, if there is one; true when there was. */
function dropScheduled(board: Board): boolean {
  const record = records.get(board);
  if (!record?.scheduled) return false;
  record.scheduled.cancel();
  record.scheduled = undefined;
  return true;
}

async function sendOnce(board: Board, record: SendRecord, draft: MailDraft, send: () => Promise<{ messageId: string }>): Promise<MailOutcome> {
  // Take the draft away before sending so it can never go out twice.
  board.clearMail();
  const at = new Date().toISOString();
  try {
    const { messageId } = await send();
    record.sent = { draft, messageId, at, uncertain: false, onBoard: false };
    return { kind: 'sent', ok: true, to: draft.to.email, messageId };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    board.showMail(draft);
    if (error instanceof MailSendError && error.accepted === 'no') {
      return { kind: 'mail_refused', ok: false, reason: message };
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
    return { kind: 'transfer_broke', ok: false, reason: message };
  }
}

function alreadySent(sent: NonNullable<SendRecord['sent']>): MailOutcome {
  return { kind: 'already_sent', ok: true, to: sent.draft.to.email, at: sent.at, uncertain: sent.uncertain, ...(sent.messageId === undefined ? {} : { messageId: sent.messageId }) };
}

/**
 * A stored approval sent `draft` (or may have: `uncertain`), not the Board's own Send: the Board
 * takes it as sent, so it is never offered again — the draft is cleared where it still is that
 * mail, and sending it again answers that it was already sent.
 */
export function sentByApproval(board: Board, draft: MailDraft, sent: { readonly messageId?: string; readonly uncertain: boolean }): void {
  const shown = board.snapshot().mail;
  if (shown && isDeepStrictEqual(shown, draft)) board.clearMail();
  recordOf(board).sent = { draft, ...(sent.messageId ? { messageId: sent.messageId } : {}), at: new Date().toISOString(), uncertain: sent.uncertain, onBoard: false };
}

/** Records a sent mail in the audit trail. The mail is out whatever happens here: a failure to record it never leads to a second send. */
export async function recordSent(client: XosClient, draft: MailDraft, messageId: string, path: AuditPath, approval = 'Send confirmed by the person'): Promise<void> {
  const to = draft.to.name ? `${draft.to.name} <${draft.to.email}>` : draft.to.email;
  try {
    const request = buildAuditMailMutation({ to, subject: draft.subject, messageId });
    await client.run(request.query, request.variables, { path, approval });
  } catch {
    // The backend may be unreachable; the send itself succeeded and is not repeated.
  }
}
