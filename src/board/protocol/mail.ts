// The mail draft on the Board: typing, Send, Discard, Undo (src/board/mailActions.ts).
import { isObject, isText, notification } from './messages.ts';

export type MailField = 'to' | 'subject' | 'body';

/** The person edited the mail draft. */
export const editMail = notification<{ readonly field: MailField; readonly value: string }>('board/editMail',
  (v): v is { field: MailField; value: string } => isObject(v) && (v.field === 'to' || v.field === 'subject' || v.field === 'body') && isText(v.value));

/** The person clicked Send (asked in VS Code like xos_mail_send), Discard, or Undo while a confirmed mail waits to go out. */
export type MailAction = 'send' | 'discard' | 'undo';

export const mailAction = notification<{ readonly action: MailAction }>('board/mailAction',
  (v): v is { action: MailAction } => isObject(v) && (v.action === 'send' || v.action === 'discard' || v.action === 'undo'));

/** The mail draft as the person's typing left it: what is wrong with the recipient, if anything. */
export const mailState = notification<{ readonly problem: string | null }>('board/mailState');
