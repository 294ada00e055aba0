// Microsoft contacts through Graph: the person's Outlook contacts (/me/contacts,
// which Graph filters with startswith() but does not $search) and the people
// they work with (/me/people, which Graph searches with $search).
import { createFetch, type Fetch } from './httpFetch.ts';
import type { OAuthClient } from './oauth.ts';
import type { ContactProvider, ProviderContact } from './provider.ts';
import { getWithToken, type AccessTokenSource } from './tokens.ts';

export const MICROSOFT_GRAPH_URL = 'https://graph.microsoft.com';

export const MICROSOFT_SCOPES = ['Contacts.Read', 'People.Read'] as const;

/**
 * A public client of an Entra ID app registration ("Mobile and desktop
 * applications" platform, redirect http://127.0.0.1), from the setting
 * xos.contacts.microsoft.clientId; used when VS Code's own Microsoft account
 * cannot grant the contact scopes.
 */
export function microsoftOAuthClient(clientId: string): OAuthClient {
  return {
    authorizationEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    clientId,
    // offline_access brings the refresh token.
    scopes: [...MICROSOFT_SCOPES, 'offline_access'],
  };
}

export interface MicrosoftOptions {
  readonly tokens: AccessTokenSource;
  /** Default https://graph.microsoft.com; tests point it at a local server. */
  readonly baseUrl?: string;
  readonly fetch?: Fetch;
  /** Results per page ($top). */
  readonly pageSize?: number;
  /** Pages followed through @odata.nextLink per search. */
  readonly maxPages?: number;
}

interface GraphContact {
  displayName?: string;
  givenName?: string;
  surname?: string;
  emailAddresses?: { address?: string }[];
  businessPhones?: string[];
  homePhones?: string[];
  mobilePhone?: string | null;
  companyName?: string | null;
}

interface GraphPerson {
  displayName?: string;
  scoredEmailAddresses?: { address?: string }[];
  phones?: { number?: string }[];
  companyName?: string | null;
}

interface GraphPage<T> {
  value?: T[];
  '@odata.nextLink'?: string;
}

export class MicrosoftContactsProvider implements ContactProvider {
  readonly source = 'microsoft';
  private readonly options: MicrosoftOptions;
  private readonly fetch: Fetch;
  private readonly base: string;

  constructor(options: MicrosoftOptions) {
    this.options = options;
    this.fetch = options.fetch ?? createFetch();
    this.base = options.baseUrl ?? MICROSOFT_GRAPH_URL;
  }

  async search(query: string, signal?: AbortSignal): Promise<ProviderContact[]> {
    const trimmed = query.trim();
    if (!trimmed) return [];
    const top = this.options.pageSize ?? 50;
    const contacts = this.all<GraphContact>(
      `/v1.0/me/contacts?${odataQuery({ $filter: contactFilter(trimmed), $select: 'displayName,givenName,surname,emailAddresses,businessPhones,homePhones,mobilePhone,companyName', $top: String(top) })}`,
      signal,
    );
    const people = this.all<GraphPerson>(
      `/v1.0/me/people?${odataQuery({ $search: searchTerm(trimmed), $select: 'displayName,scoredEmailAddresses,phones,companyName', $top: String(top) })}`,
      signal,
    );
    const [fromContacts, fromPeople] = await Promise.all([contacts, people]);
    return [...fromContacts.map(fromContact), ...fromPeople.map(fromPerson)];
  }

  private async all<T>(pathAndQuery: string, signal?: AbortSignal): Promise<T[]> {
    const found: T[] = [];
    let url: string | undefined = new URL(pathAndQuery, this.base).href;
    for (let page = 0; url && page < (this.options.maxPages ?? 5); page++) {
      const res = await getWithToken(this.fetch, url, this.options.tokens, signal);
      const text = await res.text();
      if (!res.ok) throw new Error(`Microsoft Graph ${new URL(url).pathname}: ${graphError(res.status, text)}`);
      const body = JSON.parse(text) as GraphPage<T>;
      found.push(...(body.value ?? []));
      url = body['@odata.nextLink'];
      // The token goes only to the Graph origin, whatever a response links to.
      if (url && new URL(url).origin !== new URL(this.base).origin) throw new Error(`Microsoft Graph linked to another host: ${new URL(url).host}`);
    }
    return found;
  }
}

/** OData wants %20, not "+", for spaces; `$` and `,` may stay as written. */
function odataQuery(params: Record<string, string>): string {
  return Object.entries(params).map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/%2C/g, ',').replace(/%24/g, '$')}`).join('&');
}

/** An OData string literal: single quotes doubled. */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** startswith() on the names; an address is matched exactly (Graph allows only eq there). */
export function contactFilter(query: string): string {
  const literal = odataString(query);
  const names = ['displayName', 'givenName', 'surname'].map((field) => `startswith(${field},${literal})`);
  if (query.includes('@')) names.push(`emailAddresses/any(a:a/address eq ${odataString(query.toLowerCase())})`);
  return names.join(' or ');
}

/** A $search term: quoted, with quotes and backslashes escaped. */
export function searchTerm(query: string): string {
  return `"${query.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** "401 InvalidAuthenticationToken: Access token has expired." */
export function graphError(status: number, body: string): string {
  try {
    const { error } = JSON.parse(body) as { error?: { code?: string; message?: string } };
    if (error?.code || error?.message) return `${status} ${[error.code, error.message].filter(Boolean).join(': ')}`;
  } catch {
    // Not JSON: fall through to the bare status.
  }
  return `HTTP ${status}`;
}

function fromContact(contact: GraphContact): ProviderContact {
  const phones = [contact.mobilePhone ?? '', ...(contact.businessPhones ?? []), ...(contact.homePhones ?? [])].filter(Boolean);
  return {
    name: contact.displayName || [contact.givenName, contact.surname].filter(Boolean).join(' '),
    emails: (contact.emailAddresses ?? []).map((e) => e.address ?? '').filter(Boolean),
    phones,
    ...(contact.companyName ? { organization: contact.companyName } : {}),
  };
}

function fromPerson(person: GraphPerson): ProviderContact {
  return {
    name: person.displayName ?? '',
    emails: (person.scoredEmailAddresses ?? []).map((e) => e.address ?? '').filter(Boolean),
    phones: (person.phones ?? []).map((p) => p.number ?? '').filter(Boolean),
    ...(person.companyName ? { organization: person.companyName } : {}),
  };
}
