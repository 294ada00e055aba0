// The pieces of the agent's words (src/mcp/wording.ts words the use cases' outcomes with
// them): values quoted within bounds, fields the AST keeps from the agent masked or left out,
// server errors reworded so they name nothing hidden, and the short replies every tool ends
// with. The lookups these build on are the AST's (src/ast/lookup.ts).
import type { Ast } from '../ast/schema.ts';
import { agentPolicy, fieldOfColumn, hiddenNames, MASKED_VALUE, type AgentPolicy } from '../ast/agentPolicy.ts';
import { findInverse } from '../ast/lookup.ts';
import { describeValue, type FieldValueError } from '../ast/values.ts';

/** The reply to a context name the app does not have, with the names it has. */
export function unknownContextText(known: readonly string[], name: string): string {
  return `Unknown context "${name}". Known contexts: ${known.join(', ')}. Call xos_schema to see them with their fields.`;
}

/** Longest quoted value in a reply: the Board shows values whole; the agent's context gets a bounded echo. */
export const QUOTE_LIMIT = 300;

/** A value as the reply quotes it, cut (and said so) past QUOTE_LIMIT characters. */
export function quote(value: unknown): string {
  const text = describeValue(value);
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}… (${text.length} characters in all)` : text;
}

/** Whether a reply may name the field at all (hidden fields never reach the agent). */
export function namedToAgent(ast: Ast, entity: string, field: string): boolean {
  return agentFieldPolicy(ast, entity, field) !== 'hidden';
}

/**
 * The one policy the agent's words apply to a field of a record (or an inverse list): the AST's
 * `agent` setting, and, since the AST the tools are served is the person's role's, a name it does
 * not know is a field the role keeps from the person, as hidden as one the AST keeps from the agent.
 */
export function agentFieldPolicy(ast: Ast, entity: string, field: string): AgentPolicy {
  const fields = ast.entities[entity]?.fields;
  const known = (fields !== undefined && Object.hasOwn(fields, field)) || findInverse(ast, entity, field) !== undefined;
  return known ? agentPolicy(ast, entity, field) : 'hidden';
}

/** `and 2 fields only the person sees` ('' for none): hidden fields are counted, never named. */
export function unnamedFields(count: number): string {
  return count === 0 ? '' : `and ${count.toLocaleString('en-US')} ${count === 1 ? 'field' : 'fields'} only the person sees`;
}

/** A value as a reply quotes it to the agent: masked fields as •••. Hidden fields are left out by the caller. */
export function agentQuote(ast: Ast, entity: string, field: string, value: unknown): string {
  return agentFieldPolicy(ast, entity, field) === 'visible' ? quote(value) : MASKED_VALUE;
}

/** ` Stored: field: value; …` as the agent may read it: masked values as •••, hidden fields left out ('' when none is left). */
export function storedText(ast: Ast, entity: string, values: ReadonlyArray<readonly [string, unknown]>): string {
  const parts = values.filter(([field]) => namedToAgent(ast, entity, field)).map(([field, value]) => `${field}: ${agentQuote(ast, entity, field, value)}`);
  return parts.length ? ` Stored: ${parts.join('; ')}.` : '';
}

/** A value problem as the agent may read it: without the value of a masked field, without a hidden field's name. */
export function agentProblem(ast: Ast, error: Pick<FieldValueError, 'entity' | 'field'> & { message?: string }): string {
  const policy = agentFieldPolicy(ast, error.entity, error.field);
  if (policy === 'hidden') return 'a field only the person sees on the Board has an invalid value';
  if (policy === 'masked') return `${error.entity}.${error.field} has an invalid value (only the person sees it, on the Board)`;
  return error.message ?? `${error.entity}.${error.field} is invalid`;
}

/** A server error about a value, without the value or name of a field kept from the agent. */
export function serverMessage(ast: Ast, entity: string, error: { message: string; extensions?: Record<string, unknown> }): string {
  const column = error.extensions?.field;
  const field = typeof column === 'string' ? fieldOfColumn(ast, entity, column) : undefined;
  if (field !== undefined && agentPolicy(ast, entity, field) !== 'visible') return `${agentProblem(ast, { entity, field })}.`;
  return agentServerText(ast, error.message);
}

/** Words said instead of a server text that names something only the person sees. */
export const HIDDEN_SERVER_TEXT = 'the reason concerns a field only the person sees on the Board.';

/**
 * A server's error text as the agent may read it: without GraphQL's "Did you mean …?" suggestions
 * (they list names of the API, hidden ones included), and replaced as a whole when it names a hidden
 * field, a hidden ref's column or its inverse list. Every path that words a server error for the
 * agent goes through here.
 */
export function agentServerText(ast: Ast, message: string): string {
  const text = message.replace(/\s*Did you mean\b[^?]*\?/g, '');
  // Entity and context names are the agent's to know, even where a hidden field shares one (person.company).
  const known = new Set([...Object.keys(ast.entities), ...Object.keys(ast.contexts)]);
  const names = hiddenNames(ast).filter((name) => !known.has(name));
  if (names.length === 0) return text;
  // `deal.company_id` names a column the agent sees even when person.company is hidden.
  const visibleQualified = text.replace(/\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)/g, (whole, entity: string, column: string) => {
    if (!Object.hasOwn(ast.entities, entity)) return whole;
    const field = fieldOfColumn(ast, entity, column);
    return field !== undefined && agentPolicy(ast, entity, field) === 'visible' ? ' ' : whole;
  });
  const words = new RegExp(`(?<![A-Za-z0-9_])(?:${names.map(escapeRegExp).join('|')})(?![A-Za-z0-9_])`);
  return words.test(visibleQualified) ? HIDDEN_SERVER_TEXT : text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function recordsText(count: number, context: string): string {
  return `(${count} ${count === 1 ? 'record' : 'records'} of ${context}.)`;
}

export const DISPLAYED = 'All data was successfully displayed in the UI.';
