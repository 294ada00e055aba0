// xos_contacts: searches the configured contact providers.
import { z } from 'zod';
import { describeFailures, failureTexts, searchContacts } from '../../contacts/search.ts';
import { defineTool } from '../ports.ts';
import type { Contact } from '../../core/domain.ts';
import { contactsOutput } from '../outputs.ts';
import { fail, okData } from '../result.ts';

export const CONTACTS_NOT_CONFIGURED = 'Contacts are not configured yet. Add an account in the setting xos.contacts.carddav '
  + '(its password with the command "XOS: Set CardDAV Password"), then try again.';

export const CONTACTS_SETUP_HINT = 'Set one up with the command "XOS: Add CardDAV Account" (setting xos.contacts.carddav, password with "XOS: Set CardDAV Password"), '
  + '"XOS: Sign In to Google Contacts" (xos.contacts.google.enabled), "XOS: Sign In to Microsoft Contacts" (xos.contacts.microsoft.enabled), '
  + 'or turn on xos.contacts.xos for the XOS records with an email field.';

export const contactsTool = defineTool({
  name: 'xos_contacts',
  title: 'Search contacts',
  description: 'Searches the configured contact providers (CardDAV, Google, Microsoft, XOS records with an email field) by name or email '
    + 'and returns the matching contacts with name, email, phone and source as JSON. Providers that could not be searched are named after the list.',
  inputSchema: {
    query: z.string().min(1).max(200).describe('Search term: part of a name or an email address (at most 200 characters).'),
  },
  outputSchema: contactsOutput,
  annotations: { readOnlyHint: true, openWorldHint: true },
  requires: ['contacts'],
  async handler({ query }, deps) {
    const search = await searchContacts(deps.contacts!, query);
    const failed = search.failures.length > 0 ? ` Not searched: ${describeFailures(search)}.` : '';
    const data = { contacts: search.contacts.map(listed), not_searched: failureTexts(search) };
    if (search.contacts.length === 0) {
      const text = `No contact matches "${query}".${failed}`;
      return search.failures.length > 0 ? fail(`${text} Check the account settings, then try again.`) : okData(data, text);
    }
    return okData(data, JSON.stringify(data.contacts) + failed);
  },
});

function listed(contact: Contact): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: contact.name,
    email: contact.email ?? null,
    phone: contact.phone ?? null,
    source: contact.sources?.join(', ') ?? null,
  };
  if (contact.emails && contact.emails.length > 1) entry.emails = contact.emails;
  if (contact.phones && contact.phones.length > 1) entry.phones = contact.phones;
  return entry;
}
