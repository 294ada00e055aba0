// XOS records as contacts: every entity with an `email` field (people in the
// demo CRM) is searched through its list context with an `_ilike` filter; the
// search term travels in variables, never in the query text.
import type { Ast } from '../ast/schema.ts';
import { withheld } from '../ast/agentPolicy.ts';
import type { XosClient } from '../graphql/types.ts';
import { buildContactSearchQuery } from '../graphql/requests.ts';
import type { ContactProvider, ProviderContact } from './provider.ts';

interface Searchable {
  readonly entity: string;
  readonly context: string;
  readonly nameFields: readonly string[];
  readonly searchFields: readonly string[];
  readonly emailField: string;
  readonly phoneField?: string;
}

const NAME_FIELDS = [['firstname', 'lastname'], ['first_name', 'last_name'], ['name'], ['title']];
/** The most records one search returns. */
const SEARCH_LIMIT = 50;

export class XosRecordsProvider implements ContactProvider {
  readonly source: string;
  private readonly client: XosClient;
  private readonly searchable: Searchable;

  constructor(client: XosClient, searchable: Searchable) {
    this.client = client;
    this.searchable = searchable;
    this.source = `xos:${searchable.entity}`;
  }

  async search(query: string): Promise<ProviderContact[]> {
    const { context, nameFields, searchFields, emailField, phoneField } = this.searchable;
    const words = query.trim().split(/\s+/).filter(Boolean);
    const fields = [...new Set([...nameFields, emailField, ...(phoneField ? [phoneField] : [])])];
    // Every word must match one of the fields, as in the other providers.
    const request = buildContactSearchQuery(this.client.ast(), context, { searchFields, fields, words, limit: SEARCH_LIMIT });
    const result = await this.client.run(request.query, request.variables);
    if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
    const rows = (result.data?.[request.root] ?? []) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      name: nameFields.map((f) => row[f]).filter((v) => typeof v === 'string' && v).join(' '),
      emails: typeof row[emailField] === 'string' && row[emailField] ? [row[emailField] as string] : [],
      phones: phoneField && typeof row[phoneField] === 'string' && row[phoneField] ? [row[phoneField] as string] : [],
    }));
  }
}

/**
 * One provider per entity with an `email` field that has a list context. Contacts reach the agent,
 * so fields the AST keeps from it (hidden or masked) are neither searched nor returned.
 */
export function xosRecordProviders(client: XosClient, ast: Ast = client.ast()): XosRecordsProvider[] {
  const providers: XosRecordsProvider[] = [];
  for (const [entity, definition] of Object.entries(ast.entities)) {
    const fields = Object.fromEntries(Object.entries(definition.fields).filter(([name]) => !withheld(ast, entity, name)));
    const emailField = Object.keys(fields).find((f) => f === 'email') ?? Object.keys(fields).find((f) => fields[f].type === 'email');
    if (!emailField) continue;
    const context = Object.entries(ast.contexts).find(([, c]) => c.kind === 'list' && c.entity === entity)?.[0];
    if (!context) continue;
    const nameFields = NAME_FIELDS.find((names) => names.every((n) => fields[n]?.type === 'string')) ?? [];
    const phoneField = Object.keys(fields).find((f) => fields[f].type === 'phone');
    providers.push(new XosRecordsProvider(client, {
      entity, context, nameFields, emailField, phoneField,
      searchFields: [...nameFields, emailField],
    }));
  }
  return providers;
}
