// Every GraphQL document the front ends send, built in one place, so the backend's naming
// contract has one home on the client side: the root fields (`<context>`, `<context>_count`,
// `update_<entity>`, `insert_<entity>`, `delete_<entity>`, `xos_audit`, `xos_audit_mail`),
// the input types (`<entity>_bool_exp`, `<entity>_order_by`, `<entity>_set_input`,
// `<entity>_insert_input`) and the stored column of a ref (`<ref>_id`).
//
// Values always travel in variables, never in the document's text. Names are spliced in
// only after they were found in the AST (contexts, entities, fields), so nothing the person
// or the agent typed reaches the text. The few literals left are the builders' own numbers
// (a page size) and, in the agent's checked xos_query, the limit and offset the check
// rebuilt (the API applies its own checks of literal limits to them). Each builder returns
// `{ query, variables }`, and `root`: the key of `data` that holds the answer.
import { print } from 'graphql';
import type { Ast, ContextDef } from '../ast/schema.ts';
import { exampleQuery, listFieldSelections } from '../ast/view.ts';
import { refColumnName } from '../ast/lookup.ts';
import { containsPattern, nameMatch } from '../ast/display.ts';
import { checkedSelection, type CheckedQuery } from './queryRules.ts';

export interface BuiltRequest {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** A request and the key of the answer's `data` that holds its result. */
export interface RootedRequest extends BuiltRequest {
  readonly root: string;
}

/** A GraphQL name: what the AST's names are, checked again before one goes into a document. */
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

function graphqlName(name: string, what: string): string {
  if (!GRAPHQL_NAME.test(name)) throw new Error(`${what} ${JSON.stringify(name)} is not a GraphQL name`);
  return name;
}

/** The context `name` of the AST (own property, GraphQL name), or an error. */
function astContext(ast: Ast, name: string, kind?: ContextDef['kind']): ContextDef {
  const context = Object.hasOwn(ast.contexts, name) ? ast.contexts[name] : undefined;
  if (!context || (kind && context.kind !== kind)) throw new Error(`${name} is not a ${kind ? `${kind} ` : ''}context of the app`);
  graphqlName(name, 'context');
  astEntity(ast, context.entity);
  return context;
}

function astEntity(ast: Ast, entity: string): string {
  if (!Object.hasOwn(ast.entities, entity)) throw new Error(`${entity} is not an entity of the app`);
  return graphqlName(entity, 'entity');
}

/** A field of `entity` (or its `id`), checked against the AST. */
function astField(ast: Ast, entity: string, field: string): string {
  if (field !== 'id' && !Object.hasOwn(ast.entities[entity].fields, field)) throw new Error(`${field} is not a field of ${entity}`);
  return graphqlName(field, 'field');
}

/** A number the builder itself puts into the text (a page size): a non-negative safe integer. */
function literalCount(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${value} is not a count`);
  return value;
}

/** Field values keyed by field name as the API's input columns: a ref is stored as `<ref>_id`. */
function inputColumns(ast: Ast, entity: string, values: Record<string, unknown>): Record<string, unknown> {
  const fields = ast.entities[entity].fields;
  const input: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    input[Object.hasOwn(fields, field) && fields[field].type === 'ref' ? refColumnName(field) : field] = value;
  }
  return input;
}

/** The selection of a context's list_fields plus `version`; refs and inverse lists with their id and name. */
export function contextSelection(ast: Ast, contextName: string): string {
  const context = astContext(ast, contextName);
  const parts = listFieldSelections(ast, contextName);
  if (!context.list_fields.includes('id')) parts.unshift('id');
  parts.push('version');
  return `{ ${parts.join(' ')} }`;
}

/** Reads one record of a detail context by id, with the context's selection and `version`. */
export function buildDetailQuery(ast: Ast, contextName: string, id: string): RootedRequest {
  astContext(ast, contextName);
  return {
    query: `query XosRead($id: ID!) { ${contextName}(id: $id) ${contextSelection(ast, contextName)} }`,
    variables: { id },
    root: contextName,
  };
}

/** `update_<entity>(id, version, set)`; `set` holds canonical field values keyed by field name. */
export function buildUpdateMutation(ast: Ast, contextName: string, id: string, version: number, set: Record<string, unknown>): RootedRequest {
  const entity = astContext(ast, contextName).entity;
  const query = `mutation XosSave($id: ID!, $version: Int!, $set: ${entity}_set_input!) `
    + `{ update_${entity}(id: $id, version: $version, set: $set) ${contextSelection(ast, contextName)} }`;
  return { query, variables: { id, version, set: inputColumns(ast, entity, set) }, root: `update_${entity}` };
}

/** `insert_<entity>(object)` of a detail context's new record; `values` keyed by field name. */
export function buildInsertMutation(ast: Ast, contextName: string, values: Record<string, unknown>): RootedRequest {
  const entity = astContext(ast, contextName).entity;
  return {
    query: `mutation XosCreate($object: ${entity}_insert_input!) { insert_${entity}(object: $object) ${contextSelection(ast, contextName)} }`,
    variables: { object: inputColumns(ast, entity, values) },
    root: `insert_${entity}`,
  };
}

/** `delete_<entity>(id, version)` of the record a context shows. */
export function buildDeleteMutation(ast: Ast, contextName: string, id: string, version: number): RootedRequest {
  const entity = astContext(ast, contextName).entity;
  return {
    query: `mutation XosDelete($id: ID!, $version: Int!) { delete_${entity}(id: $id, version: $version) }`,
    variables: { id, version },
    root: `delete_${entity}`,
  };
}

/** One field (the record's name) of a record, read through a detail context by id. */
export function buildRefNameQuery(ast: Ast, contextName: string, fields: readonly string[], id: string): RootedRequest {
  const context = astContext(ast, contextName, 'detail');
  for (const field of fields) astField(ast, context.entity, field);
  return {
    query: `query XosRefName($id: ID!) { ${contextName}(id: $id) { ${fields.join(' ')} } }`,
    variables: { id },
    root: contextName,
  };
}

export interface ListWindowInput {
  /** The root field's selection set as GraphQL text, rebuilt by the query check (`checkedSelection`). */
  readonly selection: string;
  readonly where: unknown;
  readonly orderBy: unknown;
  readonly limit: number;
  readonly offset: number;
  /** Ask for `<context>_count` of the same `where` too. */
  readonly count: boolean;
  /** Read on from a record's `_cursor` (in the same order_by): the rows after it, or before it. */
  readonly after?: string;
  readonly before?: string;
  /** Ask for each record's `_cursor` (default); false for a server that has no cursors yet. */
  readonly keyed?: boolean;
}

/**
 * A window of a list context: rows by where/order_by/limit/offset, from a cursor when one is
 * given, each with its own `_cursor` to read on from; and the count when asked.
 */
export function buildListWindowQuery(ast: Ast, contextName: string, input: ListWindowInput): RootedRequest & { readonly countRoot: string } {
  const entity = astContext(ast, contextName, 'list').entity;
  const countRoot = `${contextName}_count`;
  const count = input.count ? ` ${countRoot}(where: $where)` : '';
  if (input.keyed === false) {
    const query = `query XosListWindow($where: ${entity}_bool_exp, $order_by: [${entity}_order_by!], $limit: Int, $offset: Int) `
      + `{ ${contextName}(where: $where, order_by: $order_by, limit: $limit, offset: $offset) ${input.selection}${count} }`;
    return { query, variables: { where: input.where, order_by: input.orderBy, limit: input.limit, offset: input.offset }, root: contextName, countRoot };
  }
  const selection = input.selection.replace(/^\s*\{/, '{ _cursor');
  const query = `query XosListWindow($where: ${entity}_bool_exp, $order_by: [${entity}_order_by!], $limit: Int, $offset: Int, $after: String, $before: String) `
    + `{ ${contextName}(where: $where, order_by: $order_by, limit: $limit, offset: $offset, after: $after, before: $before) ${selection}${count} }`;
  const cursor = { ...(input.after === undefined ? {} : { after: input.after }), ...(input.before === undefined ? {} : { before: input.before }) };
  return { query, variables: { where: input.where, order_by: input.orderBy, limit: input.limit, offset: input.offset, ...cursor }, root: contextName, countRoot };
}

/** The `_cursor` of every `every`-th record of a list context's query: where jumps into it start reading by key. */
export function buildListCursorsQuery(ast: Ast, contextName: string, input: { readonly where: unknown; readonly orderBy: unknown; readonly every: number }): RootedRequest {
  const entity = astContext(ast, contextName, 'list').entity;
  const root = `${contextName}_cursors`;
  return {
    query: `query XosListCursors($where: ${entity}_bool_exp, $order_by: [${entity}_order_by!], $every: Int!) { ${root}(where: $where, order_by: $order_by, every: $every) }`,
    variables: { where: input.where, order_by: input.orderBy, every: input.every },
    root,
  };
}

/**
 * The ref picker's choices: records of a list context whose name field contains `search`
 * (all when empty), ordered by that field, at most `limit`.
 */
export function buildRefChoicesQuery(ast: Ast, listContext: string, nameFields: readonly string[], search: string, limit: number): RootedRequest {
  const entity = astContext(ast, listContext, 'list').entity;
  const named = nameFields.filter((field) => field !== 'id');
  for (const field of named) astField(ast, entity, field);
  // The search matches any part of the name ("Peacock" finds "Jane Peacock").
  const where = (search ? nameMatch(named, search) : undefined) ?? {};
  const orderBy = named.length === 0 ? [{ id: 'asc' }] : named.map((field) => ({ [field]: 'asc' }));
  const selection = ['id', ...named].join(' ');
  return {
    query: `query XosRefChoices($where: ${entity}_bool_exp, $orderBy: [${entity}_order_by!]) { ${listContext}(where: $where, order_by: $orderBy, limit: ${literalCount(limit)}) { ${selection} } }`,
    variables: { where, orderBy },
    root: listContext,
  };
}

/** A record's audit entries, an entity's, a batch's, or the whole trail's, newest first; with their count when `count`. */
export function buildAuditQuery(filter: { readonly entity?: string; readonly id?: string; readonly batch?: string }, limit: number, offset = 0, count = false): RootedRequest {
  return {
    query: 'query XosAudit($entity: String, $id: ID, $batch: String, $limit: Int, $offset: Int) { xos_audit(entity: $entity, id: $id, batch: $batch, limit: $limit, offset: $offset) '
      + `{ id at path action entity record_id version_from version_to approval batch person changes { field from to } }${count ? ' xos_audit_count(entity: $entity, id: $id, batch: $batch)' : ''} }`,
    variables: { entity: filter.entity ?? null, id: filter.id ?? null, batch: filter.batch ?? null, limit, offset },
    root: 'xos_audit',
  };
}

/** Records a sent mail in the audit trail. */
export function buildAuditMailMutation(mail: { readonly to: string; readonly subject: string; readonly messageId: string }): RootedRequest {
  return {
    query: 'mutation XosAuditMail($to: String!, $subject: String!, $messageId: String!) { xos_audit_mail(to: $to, subject: $subject, message_id: $messageId) { id } }',
    variables: { to: mail.to, subject: mail.subject, messageId: mail.messageId },
    root: 'xos_audit_mail',
  };
}

export interface ContactSearchInput {
  /** Every word must match one of these fields (`_ilike`, contains). */
  readonly searchFields: readonly string[];
  /** The fields to read. */
  readonly fields: readonly string[];
  readonly words: readonly string[];
  readonly limit: number;
}

/** Records of a list context as contacts: each word in a variable `$w<i>`, matched against any search field. */
export function buildContactSearchQuery(ast: Ast, listContext: string, input: ContactSearchInput): RootedRequest {
  const entity = astContext(ast, listContext, 'list').entity;
  for (const field of [...input.searchFields, ...input.fields]) astField(ast, entity, field);
  const variables: Record<string, string> = {};
  const conditions = input.words.map((word, i) => {
    variables[`w${i}`] = containsPattern(word);
    return `{ _or: [${input.searchFields.map((field) => `{ ${field}: { _ilike: $w${i} } }`).join(', ')}] }`;
  });
  const declared = input.words.map((_, i) => `$w${i}: String!`).join(', ');
  const query = `query XosContacts${declared ? `(${declared})` : ''} { ${listContext}(where: { _and: [${conditions.join(', ')}] }, `
    + `limit: ${literalCount(input.limit)}) { ${input.fields.join(' ')} } }`;
  return { query, variables, root: listContext };
}

/**
 * The agent's checked xos_query as XOS runs it: the root's arguments in variables typed from the
 * API's input types, `id` and `version` selected so the Board can edit what it shows, and the given
 * selections the agent does not make (the hidden list_fields). Limit and offset go as the literals
 * the check rebuilt.
 */
export function buildCheckedQuery(checked: CheckedQuery, boardSelections: readonly string[] = []): RootedRequest {
  graphqlName(checked.context, 'context');
  graphqlName(checked.entity, 'entity');
  const types: Record<string, string> = checked.kind === 'detail'
    ? { id: 'ID!' }
    : { where: `${checked.entity}_bool_exp`, order_by: `[${checked.entity}_order_by!]` };
  const given = Object.entries(checked.args).filter(([name, value]) => value !== undefined && Object.hasOwn(types, name));
  const declared = given.map(([name]) => `$${name}: ${types[name]}`).join(', ');
  const literals = (['limit', 'offset'] as const).flatMap((name) => (checked.args[name] ? [`${name}: ${print(checked.args[name])}`] : []));
  const args = [...given.map(([name]) => `${name}: $${name}`), ...literals].join(', ');
  const query = `query XosQuery${declared ? `(${declared})` : ''} { ${checked.context}${args ? `(${args})` : ''} ${checkedSelection(checked, boardSelections)} }`;
  return { query, variables: Object.fromEntries(given), root: checked.context };
}

/** The most records one review reads and one batch save writes (the API's cap of `update_<entity>_many`). */
export const MAX_REVIEW_ROWS = 10_000;

/**
 * The rows a proposal of many changes touches: a list context's records matching `where` (a checked
 * filter, in a variable), `fields` selected with `id` and `version` (refs with their id and name), in key
 * order, at most MAX_REVIEW_ROWS; and how many match.
 */
export function buildReviewRowsQuery(ast: Ast, contextName: string, where: unknown, fields: readonly string[]): RootedRequest & { readonly countRoot: string } {
  const entity = astContext(ast, contextName, 'list').entity;
  for (const field of fields) astField(ast, entity, field);
  const selection = listFieldSelections(ast, contextName, fields.filter((f) => f !== 'id' && f !== 'version'));
  const countRoot = `${contextName}_count`;
  return {
    query: `query XosReviewRows($where: ${entity}_bool_exp) { ${contextName}(where: $where, order_by: [{ id: asc }], limit: ${MAX_REVIEW_ROWS}) `
      + `{ id version ${selection.join(' ')} } ${countRoot}(where: $where) }`,
    variables: { where },
    root: contextName,
    countRoot,
  };
}

/** `update_<entity>_many(updates)`: every record against its version, in one transaction; `set` keyed by field name. */
export function buildUpdateManyMutation(ast: Ast, entity: string, updates: ReadonlyArray<{ readonly id: string; readonly version: number; readonly set: Record<string, unknown> }>): RootedRequest {
  graphqlName(entity, 'entity');
  if (!Object.hasOwn(ast.entities, entity)) throw new Error(`unknown entity ${entity}`);
  const root = `update_${entity}_many`;
  return {
    query: `mutation XosSaveMany($updates: [${entity}_many_update_input!]!) { ${root}(updates: $updates) { id version } }`,
    variables: { updates: updates.map((u) => ({ id: u.id, version: u.version, set: inputColumns(ast, entity, u.set) })) },
    root,
  };
}

/**
 * The agent's query of a list context with `where` (JSON) as a literal, for xos_query's own check to rule on
 * (a bulk change's filter); undefined when `where` holds a key that is no GraphQL name or a value JSON cannot be.
 */
export function buildFilterCheckQuery(ast: Ast, contextName: string, where: unknown): string | undefined {
  astContext(ast, contextName, 'list');
  const literal = graphqlLiteral(where);
  if (literal === undefined) return undefined;
  return exampleQuery(ast, contextName).replace(`{ ${contextName} {`, `{ ${contextName}(where: ${literal}) {`);
}

/** A JSON value as a GraphQL literal; undefined for a key that is no GraphQL name. */
function graphqlLiteral(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const items = value.map(graphqlLiteral);
    return items.includes(undefined) ? undefined : `[${items.join(', ')}]`;
  }
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const text = graphqlLiteral(item);
      if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(key) || text === undefined) return undefined;
      parts.push(`${key}: ${text}`);
    }
    return `{ ${parts.join(', ')} }`;
  }
  return undefined;
}

/** Whether an index serves sorting a list context by `field`, and how many rows the table holds. */
export function buildSortHintQuery(ast: Ast, contextName: string, field: string): RootedRequest {
  astField(ast, astContext(ast, contextName, 'list').entity, field);
  return {
    query: 'query XosSortHint($context: String!, $field: String!) { xos_sort_hint(context: $context, field: $field) { indexed rows index } }',
    variables: { context: contextName, field },
    root: 'xos_sort_hint',
  };
}
