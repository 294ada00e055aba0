// xos_contacts: searches the configured contact providers.
import { z } from 'zod';
import type { XosTool } from '../ports.ts';
import { fail, ok } from '../result.ts';

export const CONTACTS_NOT_CONFIGURED = 'Contacts are not configured yet. Add an account in the setting xos.contacts.carddav '
  + '(its password with the command "XOS: Set CardDAV Password"), then try again.';

export const contactsTool: XosTool<{ query: z.ZodString }> = {
  name: 'xos_contacts',
  title: 'Search contacts',
  description: 'Searches the configured contact providers (CardDAV, Google, Microsoft) by name or email and returns the matching contacts with name, email and phone as JSON.',
  inputSchema: {
    query: z.string().min(1).describe('Search term: part of a name or an email address.'),
  },
  annotations: { readOnlyHint: true },
  async handler({ query }, deps) {
    if (!deps.contacts) return fail(CONTACTS_NOT_CONFIGURED);
    const found = await deps.contacts.search(query);
    if (found.length === 0) return ok(`No contact matches "${query}".`);
    return ok(JSON.stringify(found.map((c) => ({ name: c.name, email: c.email ?? null, phone: c.phone ?? null }))));
  },
};
