// What the agent may know of each field (the AST's `agent`): hidden fields never
// reach the model, masked ones show only that a value exists. Everything that
// builds text or structure for the model asks here; the Board does not.
import type { Ast, ContextDef } from './schema.ts';
import { findInverse } from './view.ts';

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

/**
 * The first field a `where` or `order_by` argument names that the agent may not use, as a
 * path (`company.name`); filtering or sorting by a value would tell the agent about it.
 */
export function withheldArgumentField(ast: Ast, entity: string, argument: unknown, path: readonly string[] = []): string | undefined {
  if (Array.isArray(argument)) {
    for (const item of argument) {
      const found = withheldArgumentField(ast, entity, item, path);
      if (found) return found;
    }
    return undefined;
  }
  if (argument === null || typeof argument !== 'object') return undefined;
  for (const [key, value] of Object.entries(argument)) {
    if (key === '_and' || key === '_or' || key === '_not') {
      const found = withheldArgumentField(ast, entity, value, path);
      if (found) return found;
      continue;
    }
    if (key.startsWith('_')) continue;
    if (withheld(ast, entity, key)) return [...path, key].join('.');
    const related = relatedEntity(ast, entity, key);
    if (related) {
      const found = withheldArgumentField(ast, related, value, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** The entity a ref field or inverse list of `entity` leads to. */
export function relatedEntity(ast: Ast, entity: string, name: string): string | undefined {
  const fields = ast.entities[entity]?.fields ?? {};
  if (Object.hasOwn(fields, name)) return fields[name].type === 'ref' ? fields[name].entity : undefined;
  return findInverse(ast, entity, name)?.entity;
}
