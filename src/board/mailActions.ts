// The person's actions on the Board's mail draft: Send (the use case xos_mail_send runs, its
// confirmation and undo window included), Undo Send, the notices while a confirmed mail waits
// and once it went out, Discard, and the draft's own edits. A part of the Board (boardHost.ts):
// it registers the page's mail messages itself.
import type { MailDraft } from '../core/domain.ts';
import { abandonScheduledSend, sendMailDraft, undoSend } from '../core/mailSend.ts';
import type { MailOutcome } from '../core/outcomes.ts';
import * as protocol from './protocol/mail.ts';
import type { MessageEndpoint } from './protocol/messages.ts';
import type { StatusLine } from './protocol/board.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import { runAction, type ActionReporter } from './runAction.ts';
import { boardTexts } from './texts.ts';
import { mailProblem, parseMailbox } from './view.ts';

export class MailActions implements BoardPart {
  private readonly host: BoardHost;
  /** While a send runs: Send again does nothing, Discard neither, and the draft shows it is being sent. */
  private sendingMail = false;

  constructor(host: BoardHost) {
    this.host = host;
  }

  register(endpoint: MessageEndpoint): void {
    endpoint.onNotification(protocol.editMail, ({ field, value }) => this.applyEdit(field, value));
    endpoint.onNotification(protocol.mailAction, ({ action }) => {
      if (action === 'send') void this.send();
      else if (action === 'undo') this.undoSend();
      else this.discard();
    });
  }

  /** Whether a send is running (the mail part shows it). */
  get sending(): boolean {
    return this.sendingMail;
  }

  /** Send on the mail draft: the use case xos_mail_send runs, confirmation included. */
  async send(): Promise<void> {
    const { host } = this;
    if (this.sendingMail) return;
    const texts = boardTexts(host.locale());
    const deps = host.deps();
    const { mailer } = deps;
    if (!mailer) {
      host.setStatus({ kind: 'error', text: texts.mailNotSetUp });
      return;
    }
    this.sendingMail = true;
    host.setStatus({ kind: 'busy', text: texts.mailSending }, true);
    // The send's status line waits for its end, to go out with the draft that is no longer being sent.
    let settled: StatusLine | null = null;
    const holdingStatus: ActionReporter = { ui: host.ui, setStatus: (status) => { settled = status; } };
    try {
      await runAction(holdingStatus, async () => {
        const outcome = await sendMailDraft({ board: host.board, confirmer: deps.confirmer, mailer, client: deps.client, window: deps.mailWindow, ...(deps.boardSending ? { claimSend: deps.boardSending } : {}) }, new AbortController().signal, 'board');
        host.ui.log.info(`Board send: ${host.logged(outcome)}`);
        if (outcome.ok && host.state.snapshot().mailSendAt) {
          // Waiting out its undo window: the draft says when it goes out, and mailScheduledNotice offers Undo.
          settled = null;
        } else {
          settled = { kind: outcome.ok ? 'info' : 'error', text: host.said(outcome) };
          void host.ui.tell(outcome.ok ? 'info' : 'warning', host.told(outcome));
        }
      }, { log: 'Board send failed', stack: true, status: (message) => message, notice: ['XOS could not send the mail: {0}'] });
    } finally {
      this.sendingMail = false;
      host.setStatus(settled, true);
    }
  }

  /** Undo Send (the Board's button or the notification's) while the confirmed mail waits: it stays a draft. */
  undoSend(): void {
    const { host } = this;
    if (!undoSend(host.board)) return;
    const text = boardTexts(host.locale()).mailUndone;
    host.ui.log.info('Board mail: send undone within its window');
    host.setStatus({ kind: 'info', text });
  }

  /** A confirmed mail waits out its window: a notification with Undo (the Board shows the same). */
  scheduledNotice(draft: MailDraft, sendAt: Date): void {
    const { host } = this;
    const undo = host.ui.t('Undo');
    const time = new Intl.DateTimeFormat(host.locale(), { timeStyle: 'medium' }).format(sendAt);
    void host.ui.tell('info', host.ui.t('The mail to {0} goes out at {1}.', draft.to.email, time), undo).then((choice) => {
      if (choice === undo) this.undoSend();
    });
  }

  /** The window ended: the mail went out, or why not. */
  settled(outcome: MailOutcome): void {
    const { host } = this;
    host.ui.log.info(`Board mail after its undo window: ${host.logged(outcome)}`);
    host.setStatus({ kind: outcome.ok ? 'info' : 'error', text: host.said(outcome) });
    void host.ui.tell(outcome.ok ? 'info' : 'warning', host.told(outcome));
  }

  /** Discard on the mail draft: it leaves the Board (not while it is being sent). */
  discard(): void {
    const { host } = this;
    const { mail, mailSendAt } = host.state.snapshot();
    if (this.sendingMail || !mail || mailSendAt) return;
    host.state.clearMail();
    host.setStatus({ kind: 'info', text: boardTexts(host.locale()).mailDiscarded });
  }

  /** The person's edit of the draft on the page. */
  applyEdit(field: protocol.MailField, value: string): void {
    const { host } = this;
    const { mail: draft, mailSendAt } = host.state.snapshot();
    // A confirmed mail waiting to go out is read-only: Undo first.
    if (!draft || mailSendAt) return;
    const next = field === 'to' ? { ...draft, to: parseMailbox(value) } : { ...draft, [field]: value };
    host.applyPageEdit(() => host.state.editMail(next));
    // Not echoed while typing; only what is wrong with the recipient goes back.
    if (field === 'to' && host.pageConnected()) host.notifyPage(protocol.mailState, { problem: mailProblem(next, host.locale()) ?? null });
  }

  /** The front end is stopping: a mail waiting out its undo window does not go out; the kept draft says so next time. */
  dispose(): void {
    abandonScheduledSend(this.host.board);
  }
}
