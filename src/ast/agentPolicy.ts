// What the agent may know of each field (the AST's `agent`): hidden fields never
// reach the model, masked ones show only that a value exists. Everything that
// builds text or structure for the model asks here; the Board only to mark the
// fields kept from the agent (src/ast/appModel.ts).
import type { Ast, ContextDef } from './schema.ts';
import { findInverse } from './lookup.ts';

export type AgentPolicy = 'visible' | 'hidden' | 'masked';

/** How a masked value appears to the agent. */
export const MASKED_VALUE = '•••';

/** The policy of a field or inverse list of an entity; an inverse list follows its ref field. */
export function agentPolicy(ast: Ast, entity: string, name: string): AgentPolicy {
  const fields = ast.entities[entity]?.fields ?? {};
  if (Object.hasOwn(fields, name)) return fields[name].agent ?? 'visible';
  const inverse = findInverse(ast, entity, name);
  return inverse ? agentPolicy(ast, inverse.entity, inverse.field) : 'visible';
}

/** Whether the agent may not see the field's value (hidden or masked). */
export function withheld(ast: Ast, entity: string, name: string): boolean {
  return agentPolicy(ast, entity, name) !== 'visible';
}

/** The context's list_fields the agent knows of: all but the hidden ones. */
export function agentListFields(ast: Ast, contextName: string): string[] {
  const context = ast.contexts[contextName];
  return context.list_fields.filter((field) => agentPolicy(ast, context.entity, field) !== 'hidden');
}

/** The list_fields the agent does not select but the Board shows: the hidden ones. */
export function hiddenListFields(ast: Ast, contextName: string): string[] {
  const context = ast.contexts[contextName];
  return context.list_fields.filter((field) => agentPolicy(ast, context.entity, field) === 'hidden');
}

/** The fields the agent may propose values for: editable and visible to it. */
export function agentEditable(ast: Ast, context: ContextDef): string[] {
  return (context.editable ?? []).filter((field) => !withheld(ast, context.entity, field));
}

/** The operators of a `where` comparison (DESIGN §4); anything else is not passed on. */
export const FILTER_OPERATORS: ReadonlySet<string> = new Set(['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_is_null', '_like', '_ilike']);

/** What a key of a `where` or `order_by` of `entity` may name for the agent. */
export type AgentFilterKey =
  | { readonly kind: 'column' }
  | { readonly kind: 'relation'; readonly entity: string };

/**
 * An allow-list of what the agent may filter or sort by: `id`, `version`, the fields it sees
 * (neither hidden nor masked), the `<ref>_id` column of a ref it sees, and the relations (refs and
 * inverse lists) it sees. Any other name, a hidden one included, is undefined: the same answer as
 * for a name that does not exist, so a refusal tells nothing about what exists.
 */
export function agentFilterKey(ast: Ast, entity: string, key: string): AgentFilterKey | undefined {
  if (key === 'id' || key === 'version') return { kind: 'column' };
  const fields = ast.entities[entity]?.fields ?? {};
  if (Object.hasOwn(fields, key)) {
    const def = fields[key];
    if ((def.agent ?? 'visible') !== 'visible') return undefined;
    return def.type === 'ref' ? { kind: 'relation', entity: def.entity! } : { kind: 'column' };
  }
  const ref = key.endsWith('_id') ? key.slice(0, -3) : undefined;
  if (ref && Object.hasOwn(fields, ref) && fields[ref].type === 'ref') {
    return (fields[ref].agent ?? 'visible') === 'visible' ? { kind: 'column' } : undefined;
  }
  const inverse = findInverse(ast, entity, key);
  if (inverse && agentPolicy(ast, inverse.entity, inverse.field) === 'visible') return { kind: 'relation', entity: inverse.entity };
  return undefined;
}

/** What the agent may select of `entity` below a context's fields: its fields and relations that are not hidden, `id`, `version`. */
export function agentSelectable(ast: Ast, entity: string, name: string): { readonly relation?: string; readonly list: boolean } | undefined {
  if (name === 'id' || name === 'version' || name === '__typename') return { list: false };
  const fields = ast.entities[entity]?.fields ?? {};
  if (Object.hasOwn(fields, name)) {
    const def = fields[name];
    if (def.agent === 'hidden') return undefined;
    return def.type === 'ref' ? { relation: def.entity!, list: false } : { list: false };
  }
  const inverse = findInverse(ast, entity, name);
  if (inverse && agentPolicy(ast, inverse.entity, inverse.field) !== 'hidden') return { relation: inverse.entity, list: true };
  return undefined;
}

/** Names the agent must never read (hidden fields of every entity, the columns and inverse lists of hidden refs), for scrubbing server texts. */
export function hiddenNames(ast: Ast): string[] {
  const names = new Set<string>();
  for (const def of Object.values(ast.entities)) {
    for (const [field, fieldDef] of Object.entries(def.fields)) {
      if (fieldDef.agent !== 'hidden') continue;
      names.add(field);
      if (fieldDef.type === 'ref') names.add(`${field}_id`);
      if (fieldDef.type === 'ref' && fieldDef.inverse) names.add(fieldDef.inverse);
    }
  }
  return [...names];
}

/** The AST field a column of `entity` stores: the field of the same name, or the ref of a `<ref>_id` column. */
export function fieldOfColumn(ast: Ast, entity: string, column: string): string | undefined {
  const fields = ast.entities[entity]?.fields ?? {};
  if (Object.hasOwn(fields, column)) return column;
  const ref = column.endsWith('_id') ? column.slice(0, -3) : undefined;
  return ref && Object.hasOwn(fields, ref) && fields[ref].type === 'ref' ? ref : undefined;
}

/** The entity a ref field or inverse list of `entity` leads to. */
export function relatedEntity(ast: Ast, entity: string, name: string): string | undefined {
  const fields = ast.entities[entity]?.fields ?? {};
  if (Object.hasOwn(fields, name)) return fields[name].type === 'ref' ? fields[name].entity : undefined;
  return findInverse(ast, entity, name)?.entity;
}
