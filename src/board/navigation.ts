// Where a click on the Board leads: the AST's `navigate` entries turned into
// the detail query to run. Paths like `company.id` read through related objects.
import type { Ast } from '../ast/schema.ts';
import { buildDetailQuery, type BuiltRequest } from '../graphql/mutation.ts';
import type { BoardRecord } from '../mcp/ports.ts';

export interface NavigationTarget {
  readonly context: string;
  readonly id: string;
  readonly request: BuiltRequest;
}

function readPath(record: BoardRecord, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The detail a list row opens, or undefined when the context has no `navigate.row` to a detail context. */
export function rowTarget(ast: Ast, contextName: string, record: BoardRecord): NavigationTarget | undefined {
  const context = Object.hasOwn(ast.contexts, contextName) ? ast.contexts[contextName] : undefined;
  const nav = context?.navigate?.row;
  if (!nav || ast.contexts[nav.context]?.kind !== 'detail') return undefined;
  const path = nav.params?.id ?? 'id';
  const id = readPath(record, path);
  if (id === undefined || id === null || id === '') return undefined;
  return { context: nav.context, id: String(id), request: buildDetailQuery(ast, nav.context, String(id)) };
}
