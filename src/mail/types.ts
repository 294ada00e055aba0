// A mail draft and what sends it: the vocabulary of src/mail/ that the use cases,
// the Board and the tools share. Types only, browser-safe.

export interface MailDraft {
  readonly to: { readonly name?: string; readonly email: string };
  readonly subject: string;
  readonly body: string;
}

export interface Mailer {
  /** The sender as configured (`Name <address>` or an address), shown on the mail draft. */
  readonly from?: string;
  send(draft: MailDraft): Promise<{ messageId: string }>;
}
