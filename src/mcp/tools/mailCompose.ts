// xos_mail_compose: resolves the recipient and shows the draft on the Board.
import { z } from 'zod';
import { describeFailures, searchContacts } from '../../contacts/search.ts';
import { scheduledSend } from '../../core/mailSend.ts';
import { waitingSendRefusal } from '../wording.ts';
import { formatAddress, parseAddress, type MailAddress } from '../../mail/address.ts';
import { createDraft } from '../../mail/draft.ts';
import { CARD_URI } from '../apps/card.ts';
import { mailCard, withCard } from '../apps/cardData.ts';
import { defineTool, type XosDeps } from '../ports.ts';
import type { Contact } from '../../core/domain.ts';
import { fail, ok } from '../result.ts';

export const MAIL_NOT_CONFIGURED = 'Mail is not configured yet. Set the mail server in the setting xos.mail.host '
  + '(with xos.mail.port, xos.mail.security, xos.mail.user, xos.mail.from; the password with the command "XOS: Set Mail Password"), then try again.';

export const mailComposeTool = defineTool({
  name: 'xos_mail_compose',
  title: 'Compose a mail',
  description: [
    'Prepares an email and shows it as a preview on the Board; nothing is sent. Composing again replaces the draft.',
    'The recipient is an email address, "Name <address>", or a name found in the contacts; when a name matches several contacts',
    'the candidates are returned: ask the person which one and compose again with that address.',
    'Then ask the person whether to send it; call xos_mail_send only after they said so.',
  ].join(' '),
  inputSchema: {
    to: z.string().min(1).max(500).describe('Recipient: a name or email address from the contacts.'),
    subject: z.string().max(998).describe('Subject line (one line, at most 998 characters).'),
    body: z.string().max(100_000).describe('Message text (plain text, at most 100,000 characters).'),
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
  requires: ['mailer'],
  appResource: CARD_URI,
  async handler({ to, subject, body }, deps) {
    // A confirmed mail waiting out its undo window stays the Board's draft, with its Undo, until it went out or was undone.
    const before = scheduledSend(deps.board);
    if (before) return fail(waitingSendRefusal(before));
    const recipient = await resolveRecipient(deps, to);
    if (typeof recipient === 'string') return fail(recipient);
    const draft = createDraft(recipient, subject, body);
    if (typeof draft === 'string') return fail(`Not composed: ${draft} Compose again without it.`);
    const waiting = scheduledSend(deps.board);
    if (waiting) return fail(waitingSendRefusal(waiting));
    deps.board.showMail(draft);
    return withCard(ok(`Draft on the Board, not sent: To: ${formatAddress(draft.to)}; Subject: ${subject}. Ask the person whether to send it; call xos_mail_send only after they said so.`),
      () => mailCard(deps, 'xos_mail_compose', draft));
  },
});

async function resolveRecipient(deps: XosDeps, to: string): Promise<MailAddress | string> {
  const text = to.trim();
  if (text.includes('@')) {
    const address = parseAddress(text);
    return typeof address === 'string' ? `Not composed: ${address}. Give a valid address such as "Name <name@example.org>".` : address;
  }
  if (/[\r\n]/.test(text)) return 'Not composed: the recipient contains a line break. Give a name or an email address on one line.';
  if (!deps.contacts) return `"${to}" is not an email address and contacts are not configured (setting xos.contacts.carddav). Give the recipient's email address.`;
  const search = await searchContacts(deps.contacts, text);
  const found = search.contacts.flatMap(addressesOf);
  const exact = found.filter((c) => c.name.toLowerCase() === text.toLowerCase());
  const candidates = exact.length === 1 ? exact : found;
  if (candidates.length === 0) {
    const failed = search.failures.length > 0 ? ` Not searched: ${describeFailures(search)}.` : '';
    return `No contact with an email address matches "${to}".${failed} Check with xos_contacts or give the email address.`;
  }
  if (candidates.length > 1) {
    return `"${to}" matches several contacts: ${candidates.map(candidate).join(', ')}. Ask the person which one, then compose again with the address.`;
  }
  return candidates[0];
}

/** One candidate per address: a contact with two addresses is two choices. */
function addressesOf(contact: Contact): Array<{ name: string; email: string }> {
  const emails = contact.emails && contact.emails.length > 0 ? contact.emails : contact.email ? [contact.email] : [];
  return emails.map((email) => ({ name: contact.name, email }));
}

function candidate(contact: { name: string; email: string }): string {
  return `${contact.name} <${contact.email}>`;
}
