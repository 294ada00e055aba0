// xos_mail_compose: resolves the recipient and shows the draft on the Board.
import { z } from 'zod';
import { isEmailAddress } from '../../backend/values.ts';
import type { MailDraft, XosDeps, XosTool } from '../ports.ts';
import { fail, ok } from '../result.ts';

export const MAIL_NOT_CONFIGURED = 'Mail is not configured yet. Set the mail server in the setting xos.mail.host '
  + '(with xos.mail.port, xos.mail.security, xos.mail.user, xos.mail.from; the password with the command "XOS: Set Mail Password"), then try again.';

export const mailComposeTool: XosTool<{ to: z.ZodString; subject: z.ZodString; body: z.ZodString }> = {
  name: 'xos_mail_compose',
  title: 'Compose a mail',
  description: [
    'Prepares an email and shows it as a preview on the Board; nothing is sent.',
    'The recipient is an email address, "Name <address>", or a name found in the contacts.',
    'Then ask the person whether to send it; call xos_mail_send only after they said so.',
  ].join(' '),
  inputSchema: {
    to: z.string().min(1).describe('Recipient: a name or email address from the contacts.'),
    subject: z.string().describe('Subject line.'),
    body: z.string().describe('Message text (plain text).'),
  },
  annotations: { readOnlyHint: true },
  async handler({ to, subject, body }, deps) {
    if (!deps.mailer) return fail(MAIL_NOT_CONFIGURED);
    const recipient = await resolveRecipient(deps, to);
    if (typeof recipient === 'string') return fail(recipient);
    const draft: MailDraft = { to: recipient, subject, body };
    deps.board.showMail(draft);
    const shown = recipient.name ? `${recipient.name} <${recipient.email}>` : recipient.email;
    return ok(`Draft on the Board, not sent: To: ${shown}; Subject: ${subject}. Ask the person whether to send it; call xos_mail_send only after they said so.`);
  },
};

async function resolveRecipient(deps: XosDeps, to: string): Promise<MailDraft['to'] | string> {
  const text = to.trim();
  const named = /^(.*)<([^<>]+)>$/.exec(text);
  if (named && isEmailAddress(named[2].trim())) return { name: named[1].trim() || undefined, email: named[2].trim() };
  if (isEmailAddress(text)) return { email: text };
  if (!deps.contacts) return `"${to}" is not an email address and contacts are not configured (setting xos.contacts.carddav). Give the recipient's email address.`;
  const found = (await deps.contacts.search(text)).filter((c) => c.email);
  if (found.length === 0) return `No contact with an email address matches "${to}". Check with xos_contacts or give the email address.`;
  if (found.length > 1) {
    return `"${to}" matches several contacts: ${found.map((c) => `${c.name} <${c.email}>`).join(', ')}. Ask the person which one, then compose again with the address.`;
  }
  return { name: found[0].name, email: found[0].email! };
}
