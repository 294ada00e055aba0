// What every contact source offers: a search by name or address.

/** A contact as one provider knows it, before merging. */
export interface ProviderContact {
  readonly name: string;
  readonly emails: readonly string[];
  readonly phones: readonly string[];
  readonly organization?: string;
}

export interface ContactProvider {
  /** Names the source in results and failures, e.g. "carddav:Work", "google", "xos:person". */
  readonly source: string;
  search(query: string, signal?: AbortSignal): Promise<ProviderContact[]>;
}

/** True when every word of `query` occurs in the name, an address, the organisation or (as digits) a phone number. */
export function matchesQuery(contact: ProviderContact, query: string): boolean {
  const haystack = searchText(contact);
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => {
    if (haystack.includes(word)) return true;
    const digits = word.replace(/\D/g, '');
    return digits.length >= 3 && /^[+\d\s()/.-]+$/.test(word) && haystack.includes(digits);
  });
}

/** The lower-case text a query is matched against; cache it for large books. */
export function searchText(contact: ProviderContact): string {
  return [contact.name, ...contact.emails, contact.organization ?? '', ...contact.phones.map((p) => p.replace(/\D/g, ''))].join('\u0000').toLowerCase();
}
