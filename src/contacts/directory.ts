// All configured providers behind the Contacts port: each is searched in
// parallel; one that fails is reported next to the others' merged results.
import type { Contact, ContactFailure, ContactSearch, Contacts } from './types.ts';
import { mergeContacts, type SourcedContacts } from './merge.ts';
import type { ContactProvider } from './provider.ts';

export interface DirectoryOptions {
  /** Country for national phone numbers (E.164 normalisation). */
  readonly country?: string;
  /** A provider slower than this counts as failed for this search. */
  readonly timeoutMs?: number;
  /** At most this many merged results. */
  readonly limit?: number;
}

export class ContactDirectory implements Contacts {
  private readonly providers: () => readonly ContactProvider[];
  private readonly options: DirectoryOptions;

  constructor(providers: readonly ContactProvider[] | (() => readonly ContactProvider[]), options: DirectoryOptions = {}) {
    this.providers = typeof providers === 'function' ? providers : () => providers;
    this.options = options;
  }

  async search(query: string): Promise<Contact[]> {
    return (await this.searchAll(query)).contacts;
  }

  async searchAll(query: string): Promise<ContactSearch> {
    const providers = this.providers();
    const timeoutMs = this.options.timeoutMs ?? 20_000;
    const settled = await Promise.allSettled(providers.map((provider) => provider.search(query, AbortSignal.timeout(timeoutMs))));
    const found: SourcedContacts[] = [];
    const failures: ContactFailure[] = [];
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') found.push({ source: providers[i].source, contacts: result.value });
      else failures.push({ source: providers[i].source, message: messageOf(result.reason) });
    });
    const contacts = mergeContacts(found, { country: this.options.country });
    return { contacts: contacts.slice(0, this.options.limit ?? 50), failures };
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.name === 'TimeoutError' ? 'no answer in time' : error.message;
  return String(error);
}
