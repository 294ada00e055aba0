// Why a send failed, and whether the server may nevertheless have taken the mail.

/**
 * `accepted: 'no'` — the server certainly did not take the message (it failed
 * before DATA, or the server answered DATA with a rejection); the draft may be
 * sent again after a new confirmation.
 * `accepted: 'unknown'` — the connection broke while or after the message was
 * transferred; sending again could deliver it twice, so it is never retried.
 */
export class MailSendError extends Error {
  readonly accepted: 'no' | 'unknown';

  constructor(message: string, accepted: 'no' | 'unknown', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailSendError';
    this.accepted = accepted;
  }
}
