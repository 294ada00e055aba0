// Google contacts through the People API: the person's contacts
// (people:searchContacts) and the addresses they wrote to (otherContacts:search).
// Google asks for one warm-up search with an empty query before real ones;
// it is sent once per provider instance, i.e. once per session.
import { createFetch, type Fetch } from './httpFetch.ts';
import type { OAuthClient } from './oauth.ts';
import type { ContactProvider, ProviderContact } from './provider.ts';
import { getWithToken, type AccessTokenSource } from './tokens.ts';

export const GOOGLE_PEOPLE_URL = 'https://people.googleapis.com';

/**
 * The OAuth client of a Google Cloud project ("Desktop app" type, People API
 * enabled): its id comes from the setting xos.contacts.google.clientId, its
 * secret (Google calls it non-confidential for desktop apps) from secret storage.
 */
export function googleOAuthClient(clientId: string, clientSecret?: string): OAuthClient {
  return {
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    clientId,
    clientSecret,
    scopes: ['https://www.googleapis.com/auth/contacts.readonly', 'https://www.googleapis.com/auth/contacts.other.readonly'],
    // A refresh token is only issued with offline access and fresh consent.
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
  };
}

export interface GoogleOptions {
  readonly tokens: AccessTokenSource;
  /** Default https://people.googleapis.com; tests point it at a local server. */
  readonly baseUrl?: string;
  readonly fetch?: Fetch;
  /** Results per request; Google caps it at 30. */
  readonly pageSize?: number;
  /** Safety limit if a server keeps sending page tokens. */
  readonly maxPages?: number;
}

interface GooglePerson {
  names?: { displayName?: string; givenName?: string; familyName?: string }[];
  emailAddresses?: { value?: string }[];
  phoneNumbers?: { value?: string; canonicalForm?: string }[];
  organizations?: { name?: string }[];
}

interface GoogleSearchResponse {
  results?: { person?: GooglePerson }[];
  nextPageToken?: string;
}

const SEARCHES = [
  { path: '/v1/people:searchContacts', readMask: 'names,emailAddresses,phoneNumbers,organizations' },
  { path: '/v1/otherContacts:search', readMask: 'names,emailAddresses,phoneNumbers' },
] as const;

export class GoogleContactsProvider implements ContactProvider {
  readonly source = 'google';
  private readonly options: GoogleOptions;
  private readonly fetch: Fetch;
  private warmedUp: Promise<void> | undefined;

  constructor(options: GoogleOptions) {
    this.options = options;
    this.fetch = options.fetch ?? createFetch();
  }

  async search(query: string, signal?: AbortSignal): Promise<ProviderContact[]> {
    const trimmed = query.trim();
    if (!trimmed) return [];
    await this.warmUp(signal);
    const lists = await Promise.all(SEARCHES.map((search) => this.searchAll(search, trimmed, signal)));
    return lists.flat();
  }

  private warmUp(signal?: AbortSignal): Promise<void> {
    this.warmedUp ??= Promise.all(SEARCHES.map((search) => this.page(search, '', undefined, signal))).then(() => undefined);
    // A failed warm-up is tried again by the next search.
    this.warmedUp.catch(() => {
      this.warmedUp = undefined;
    });
    return this.warmedUp;
  }

  private async searchAll(search: (typeof SEARCHES)[number], query: string, signal?: AbortSignal): Promise<ProviderContact[]> {
    const found: ProviderContact[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < (this.options.maxPages ?? 5); page++) {
      const answer = await this.page(search, query, pageToken, signal);
      for (const result of answer.results ?? []) {
        if (result.person) found.push(toContact(result.person));
      }
      pageToken = answer.nextPageToken;
      if (!pageToken) break;
    }
    return found;
  }

  private async page(search: (typeof SEARCHES)[number], query: string, pageToken: string | undefined, signal?: AbortSignal): Promise<GoogleSearchResponse> {
    const url = new URL(search.path, this.options.baseUrl ?? GOOGLE_PEOPLE_URL);
    url.searchParams.set('query', query);
    url.searchParams.set('readMask', search.readMask);
    url.searchParams.set('pageSize', String(Math.min(this.options.pageSize ?? 30, 30)));
    if (pageToken) url.searchParams.set('pageToken', pageToken);
    const res = await getWithToken(this.fetch, url.href, this.options.tokens, signal);
    const text = await res.text();
    if (!res.ok) throw new Error(`Google ${search.path}: ${googleError(res.status, text)}`);
    return JSON.parse(text) as GoogleSearchResponse;
  }
}

/** "401 UNAUTHENTICATED: Request had invalid authentication credentials." */
export function googleError(status: number, body: string): string {
  try {
    const { error } = JSON.parse(body) as { error?: { code?: number; message?: string; status?: string } };
    if (error?.message) return `${error.code ?? status}${error.status ? ` ${error.status}` : ''}: ${error.message}`;
  } catch {
    // Not JSON: fall through to the bare status.
  }
  return `HTTP ${status}`;
}

function toContact(person: GooglePerson): ProviderContact {
  const name = person.names?.[0];
  const organization = person.organizations?.find((o) => o.name)?.name;
  return {
    name: name?.displayName ?? [name?.givenName, name?.familyName].filter(Boolean).join(' '),
    emails: (person.emailAddresses ?? []).map((e) => e.value ?? '').filter(Boolean),
    phones: (person.phoneNumbers ?? []).map((p) => p.canonicalForm ?? p.value ?? '').filter(Boolean),
    ...(organization ? { organization } : {}),
  };
}
