// Merges the contacts of several providers: same normalised address (or, for
// contacts without one, same name and phone) is one person, with every source kept.
import type { Contact } from './types.ts';
import { normalizeEmail, normalizePhone } from './normalize.ts';
import type { ProviderContact } from './provider.ts';

export interface SourcedContacts {
  readonly source: string;
  readonly contacts: readonly ProviderContact[];
}

interface Entry {
  name: string;
  emails: string[];
  phones: string[];
  organization?: string;
  sources: string[];
}

export function mergeContacts(lists: readonly SourcedContacts[], options: { country?: string } = {}): Contact[] {
  const entries: Entry[] = [];
  const byKey = new Map<string, Entry>();
  for (const { source, contacts } of lists) {
    for (const contact of contacts) {
      const emails = unique(contact.emails.map(normalizeEmail).filter(Boolean));
      const phones = unique(contact.phones.map((p) => normalizePhone(p, options.country)).filter(Boolean));
      const keys = emails.length > 0
        ? emails.map((email) => `email:${email}`)
        : [`name:${contact.name.trim().toLowerCase()}|${phones[0] ?? ''}`];
      let entry = keys.map((key) => byKey.get(key)).find((e) => e !== undefined);
      if (!entry) {
        entry = { name: contact.name.trim(), emails: [], phones: [], sources: [] };
        entries.push(entry);
      }
      if (!entry.name) entry.name = contact.name.trim();
      entry.emails = unique([...entry.emails, ...emails]);
      entry.phones = unique([...entry.phones, ...phones]);
      entry.organization ??= contact.organization;
      if (!entry.sources.includes(source)) entry.sources.push(source);
      for (const key of [...keys, ...entry.emails.map((email) => `email:${email}`)]) byKey.set(key, entry);
    }
  }
  return entries.map(toContact);
}

function toContact(entry: Entry): Contact {
  return {
    name: entry.name || entry.emails[0] || entry.phones[0] || '',
    ...(entry.emails[0] ? { email: entry.emails[0] } : {}),
    ...(entry.phones[0] ? { phone: entry.phones[0] } : {}),
    emails: entry.emails,
    phones: entry.phones,
    ...(entry.organization ? { organization: entry.organization } : {}),
    sources: entry.sources,
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
