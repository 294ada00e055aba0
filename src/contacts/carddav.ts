// CardDAV contacts (tsdav): discovery from a server or address book URL, every
// address book of the account, and a local cache kept current incrementally —
// WebDAV sync-collection with the server's sync token where offered, otherwise
// the ctag and per-card etags — so a search reads the cache, not the book.
import { addressBookMultiGet, addressBookQuery, createAccount, fetchAddressBooks, isCollectionDirty, syncCollection } from 'tsdav';
import type { DAVAccount, DAVAddressBook, DAVResponse } from 'tsdav';
import { isLoopbackHost } from '../net/loopbackHost.ts';
import { createFetch, type Fetch, type FetchCounter } from './httpFetch.ts';
import { matchesQuery, searchText, type ContactProvider, type ProviderContact } from './provider.ts';
import { parseVCards } from './vcard.ts';

export interface CarddavAccount {
  /** Server URL (discovery via /.well-known/carddav) or the URL of one address book. */
  readonly url: string;
  readonly user?: string;
  readonly password?: string;
}

export interface CarddavOptions {
  /** Searches within this many ms of the last sync use the cache as is. */
  readonly maxAgeMs?: number;
  /** Counts requests and bytes (the benchmark and tests read it). */
  readonly counter?: FetchCounter;
  readonly fetch?: Fetch;
}

export interface SyncReport {
  readonly books: number;
  readonly cards: number;
  /** Cards fetched (or removed) in this sync. */
  readonly changed: number;
  readonly removed: number;
  readonly method: 'full' | 'sync-token' | 'ctag' | 'unchanged';
}

interface CachedCard {
  readonly etag: string | undefined;
  readonly contacts: readonly ProviderContact[];
  readonly text: string;
}

interface CachedBook {
  book: DAVAddressBook;
  readonly cards: Map<string, CachedCard>;
}

const ETAG = { 'd:getetag': {} };
const ETAG_AND_DATA = { 'd:getetag': {}, 'card:address-data': {} };

/** Refuses plain HTTP except to this machine. */
export function carddavUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return undefined;
  return `${url} must use https:// (plain http is allowed only for this machine)`;
}

export class CarddavProvider implements ContactProvider {
  readonly source: string;
  private readonly account: CarddavAccount;
  private readonly headers: Record<string, string>;
  private readonly fetch: Fetch;
  private readonly maxAgeMs: number;
  private books: CachedBook[] | undefined;
  private syncedAt = 0;
  private running: Promise<SyncReport> | undefined;

  constructor(account: CarddavAccount, options: CarddavOptions = {}) {
    const problem = carddavUrlProblem(account.url);
    if (problem) throw new Error(problem);
    this.account = account;
    this.source = `carddav:${account.user ? `${account.user}@` : ''}${new URL(account.url).host}`;
    this.headers = account.user ? { authorization: `Basic ${Buffer.from(`${account.user}:${account.password ?? ''}`).toString('base64')}` } : {};
    this.fetch = options.fetch ?? createFetch(options.counter);
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
  }

  async search(query: string): Promise<ProviderContact[]> {
    if (!this.books || Date.now() - this.syncedAt > this.maxAgeMs) await this.sync();
    const words = query.toLowerCase();
    const found: ProviderContact[] = [];
    for (const { cards } of this.books ?? []) {
      for (const card of cards.values()) {
        if (!card.text.includes(words) && !card.contacts.some((c) => matchesQuery(c, query))) continue;
        found.push(...card.contacts);
      }
    }
    return found;
  }

  /** Brings the cache up to date; concurrent callers share one sync. */
  sync(): Promise<SyncReport> {
    this.running ??= this.syncNow().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Number of cached cards (all books). */
  get size(): number {
    return (this.books ?? []).reduce((sum, book) => sum + book.cards.size, 0);
  }

  private async syncNow(): Promise<SyncReport> {
    const started = Date.now();
    if (!this.books) {
      const books = await this.discover();
      this.books = [];
      let cards = 0;
      for (const book of books) {
        const cached: CachedBook = { book, cards: new Map() };
        this.store(cached, await this.query(book.url, ETAG_AND_DATA));
        cards += cached.cards.size;
        this.books.push(cached);
      }
      this.syncedAt = started;
      return { books: books.length, cards, changed: cards, removed: 0, method: 'full' };
    }
    let changed = 0;
    let removed = 0;
    const methods = new Set<SyncReport['method']>();
    for (const cached of this.books) {
      const result = await this.syncBook(cached);
      changed += result.changed;
      removed += result.removed;
      methods.add(result.method);
    }
    this.syncedAt = started;
    const method = methods.has('sync-token') ? 'sync-token' : methods.has('ctag') ? 'ctag' : 'unchanged';
    return { books: this.books.length, cards: this.size, changed, removed, method };
  }

  private async syncBook(cached: CachedBook): Promise<{ changed: number; removed: number; method: SyncReport['method'] }> {
    const { book } = cached;
    if (book.syncToken && book.reports?.includes('syncCollection')) {
      const responses = await syncCollection({ url: book.url, props: ETAG, syncLevel: 1, syncToken: String(book.syncToken), headers: this.headers, fetch: this.fetch });
      const failed = responses.find((r) => r.href && !isCard(r.href) && r.status >= 400);
      if (!failed) {
        const gone = responses.filter((r) => r.href && isCard(r.href) && r.status === 404).map((r) => this.absolute(r.href!, book.url));
        const changedUrls = responses.filter((r) => r.href && isCard(r.href) && r.status < 400).map((r) => this.absolute(r.href!, book.url));
        for (const url of gone) cached.cards.delete(url);
        await this.fetchCards(cached, changedUrls.filter((url) => cached.cards.get(url)?.etag !== etagOf(responses.find((r) => this.absolute(r.href ?? '', book.url) === url))));
        const token = (responses[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined)?.multistatus?.syncToken;
        book.syncToken = token ? String(token) : undefined;
        const changed = changedUrls.length;
        return { changed, removed: gone.length, method: changed + gone.length > 0 ? 'sync-token' : 'unchanged' };
      }
      // An expired token: fall back to comparing etags.
    }
    const { isDirty, newCtag } = await isCollectionDirty({ collection: book, headers: this.headers, fetch: this.fetch });
    if (!isDirty && book.ctag) return { changed: 0, removed: 0, method: 'unchanged' };
    const listed = await this.query(book.url, ETAG);
    const remote = new Map(listed.filter((r) => r.href && isCard(r.href)).map((r) => [this.absolute(r.href!, book.url), etagOf(r)]));
    let removed = 0;
    for (const url of [...cached.cards.keys()]) {
      if (!remote.has(url)) {
        cached.cards.delete(url);
        removed += 1;
      }
    }
    const stale = [...remote].filter(([url, etag]) => cached.cards.get(url)?.etag !== etag || etag === undefined).map(([url]) => url);
    await this.fetchCards(cached, stale);
    book.ctag = newCtag;
    await this.refreshToken(cached);
    return { changed: stale.length, removed, method: 'ctag' };
  }

  private async discover(): Promise<DAVAddressBook[]> {
    const account: DAVAccount = { accountType: 'carddav', serverUrl: this.account.url };
    const found = await createAccount({ account, headers: this.headers, fetch: this.fetch, loadCollections: false, loadObjects: false });
    const books = await fetchAddressBooks({ account: found, headers: this.headers, fetch: this.fetch });
    // An address book URL in the settings means just that book.
    const wanted = books.filter((book) => sameCollection(book.url, this.account.url));
    if (books.length === 0) throw new Error(`no address book found at ${this.account.url}`);
    return wanted.length > 0 ? wanted : books;
  }

  private async refreshToken(cached: CachedBook): Promise<void> {
    if (!cached.book.reports?.includes('syncCollection')) return;
    const [props] = await this.propfind(cached.book.url);
    const token = props?.props?.syncToken;
    cached.book.syncToken = token ? String(token) : undefined;
  }

  private propfind(url: string): Promise<DAVResponse[]> {
    return addressBookQuery({ url, props: { 'd:sync-token': {} }, depth: '0', headers: this.headers, fetch: this.fetch });
  }

  private async query(url: string, props: Record<string, object>): Promise<DAVResponse[]> {
    const responses = await addressBookQuery({ url, props, depth: '1', headers: this.headers, fetch: this.fetch });
    const failed = responses.find((r) => !r.ok && r.status >= 400 && !r.href);
    if (failed) throw new Error(`${url}: ${failed.status} ${failed.statusText}`);
    return responses;
  }

  private async fetchCards(cached: CachedBook, urls: readonly string[]): Promise<void> {
    if (urls.length === 0) return;
    const paths = urls.map((url) => new URL(url).pathname);
    const responses = await addressBookMultiGet({ url: cached.book.url, props: ETAG_AND_DATA, objectUrls: paths, depth: '1', headers: this.headers, fetch: this.fetch });
    this.store(cached, responses);
  }

  private store(cached: CachedBook, responses: readonly DAVResponse[]): void {
    for (const response of responses) {
      if (!response.href || !isCard(response.href) || response.status >= 400) continue;
      const data = response.props?.addressData?._cdata ?? response.props?.addressData;
      if (typeof data !== 'string') continue;
      const contacts = parseVCards(data).map(({ name, emails, phones, organization }) => ({ name, emails, phones, ...(organization ? { organization } : {}) }));
      cached.cards.set(this.absolute(response.href, cached.book.url), { etag: etagOf(response), contacts, text: contacts.map(searchText).join('\u0001') });
    }
  }

  private absolute(href: string, base: string): string {
    return new URL(href, base).href;
  }
}

function isCard(href: string): boolean {
  return !href.endsWith('/');
}

function etagOf(response: DAVResponse | undefined): string | undefined {
  const etag = response?.props?.getetag;
  return etag == null ? undefined : String(etag);
}

function sameCollection(a: string, b: string): boolean {
  const path = (url: string) => new URL(url).pathname.replace(/\/?$/, '/');
  return path(a) === path(b);
}
