// Builds the GraphQL documents the save path sends: the update mutation with
// its values as variables (never spliced into the text) and the read-back.
import type { Ast } from '../ast/schema.ts';
import { listFieldSelections } from '../ast/view.ts';
import { refColumnName } from '../ast/lookup.ts';

export interface BuiltRequest {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** The selection of a context's list_fields plus `version`; refs and inverse lists with their id and name. */
export function contextSelection(ast: Ast, contextName: string): string {
  const context = ast.contexts[contextName];
  const parts = listFieldSelections(ast, contextName);
  if (!context.list_fields.includes('id')) parts.unshift('id');
  parts.push('version');
  return `{ ${parts.join(' ')} }`;
}

/** `update_<entity>(id, version, set)`; `set` holds canonical field values keyed by field name. */
export function buildUpdateMutation(ast: Ast, contextName: string, id: string, version: number, set: Record<string, unknown>): BuiltRequest {
  const entity = ast.contexts[contextName].entity;
  const fields = ast.entities[entity].fields;
  const input: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(set)) {
    input[fields[field]?.type === 'ref' ? refColumnName(field) : field] = value;
  }
  const query = `mutation XosSave($id: ID!, $version: Int!, $set: ${entity}_set_input!) `
    + `{ update_${entity}(id: $id, version: $version, set: $set) ${contextSelection(ast, contextName)} }`;
  return { query, variables: { id, version, set: input } };
}

/** Reads one record of a detail context by id. */
export function buildDetailQuery(ast: Ast, contextName: string, id: string): BuiltRequest {
  return {
    query: `query XosRead($id: ID!) { ${contextName}(id: $id) ${contextSelection(ast, contextName)} }`,
    variables: { id },
  };
}
