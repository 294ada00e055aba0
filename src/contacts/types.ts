// A contact as the providers find it, and the search over all of them: the vocabulary of
// src/contacts/ that the use cases and the tools share. Types only, browser-safe.

export interface Contact {
  readonly name: string;
  /** The first email address; all of them are in `emails`. */
  readonly email?: string;
  /** The first phone number; all of them are in `phones`. */
  readonly phone?: string;
  readonly emails?: readonly string[];
  readonly phones?: readonly string[];
  readonly organization?: string;
  /** Where the contact was found (e.g. "carddav:Work", "google", "xos:person"), one entry per provider. */
  readonly sources?: readonly string[];
}

/** A provider that could not be searched, named so the person knows which. */
export interface ContactFailure {
  readonly source: string;
  readonly message: string;
}

export interface ContactSearch {
  readonly contacts: Contact[];
  readonly failures: readonly ContactFailure[];
}

export interface Contacts {
  search(query: string): Promise<Contact[]>;
  /** Like `search`, with the providers that failed reported next to the results. */
  searchAll?(query: string): Promise<ContactSearch>;
}
