// What the database role may do on the person's own tables, applied to the AST every front end
// is served: a table the role may not change is read-only with the reason (the Board shows it,
// the agent's schema offers no edits), one it may not insert into or delete from loses those.
import type { Ast } from '../ast/schema.ts';
import type { TableRights } from './storage/types.ts';

export function withRights(ast: Ast, rights: ReadonlyMap<string, TableRights>): Ast {
  if (rights.size === 0) return ast;
  const entities = { ...ast.entities };
  for (const [name, right] of rights) {
    const entity = entities[name];
    if (!entity || entity.read_only !== undefined || !right.readOnlyReason) continue;
    entities[name] = { ...entity, read_only: right.readOnlyReason };
  }
  const contexts = Object.fromEntries(Object.entries(ast.contexts).map(([name, context]) => {
    const right = rights.get(context.entity);
    if (!right) return [name, context];
    const { editable, create, delete: remove, ...rest } = context;
    const readOnly = entities[context.entity].read_only !== undefined;
    return [name, {
      ...rest,
      ...(editable !== undefined && !readOnly ? { editable } : {}),
      ...(create !== undefined && !readOnly && right.insert ? { create } : {}),
      ...(remove !== undefined && !readOnly && right.delete ? { delete: remove } : {}),
    }];
  }));
  return { ...ast, entities, contexts };
}
