// Searching through the Contacts port, with provider failures when it reports them.
import type { ContactSearch, Contacts } from './types.ts';

export async function searchContacts(contacts: Contacts, query: string): Promise<ContactSearch> {
  if (contacts.searchAll) return contacts.searchAll(query);
  return { contacts: await contacts.search(query), failures: [] };
}

/** "carddav:Work (connection refused); google (401)" for a reply text. */
export function describeFailures(search: ContactSearch): string {
  return failureTexts(search).join('; ');
}

/** Each failed provider as "carddav:Work (connection refused)". */
export function failureTexts(search: ContactSearch): string[] {
  return search.failures.map((f) => `${f.source} (${f.message})`);
}
