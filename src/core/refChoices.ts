// The ref picker on the form: the records of the related entity whose name matches what
// the person types, through a list context of that entity (the search text goes in a
// variable, never into the query).
import { displayFields, displayName } from '../ast/display.ts';
import { buildRefChoicesQuery } from '../graphql/requests.ts';
import type { RefChoice } from './domain.ts';
import type { CoreDeps } from './base.ts';

/** The most choices one search returns. */
export const MAX_REF_CHOICES = 20;

/** Records of the shown form's ref field `field` whose name contains `search` (all, by name, when empty). */
export async function refChoices(deps: CoreDeps, field: string, search: string): Promise<RefChoice[]> {
  const ast = deps.client.ast();
  const detail = deps.board.snapshot().detail;
  const context = detail && ast.contexts[detail.context];
  const def = context && Object.hasOwn(ast.entities[context.entity]?.fields ?? {}, field) ? ast.entities[context.entity].fields[field] : undefined;
  if (!context || !def || def.type !== 'ref' || !def.entity || !(context.editable ?? []).includes(field)) {
    throw new Error(`${field} is not an editable reference of the shown record`);
  }
  const entity = def.entity;
  const list = Object.entries(ast.contexts).find(([, c]) => c.kind === 'list' && c.entity === entity)?.[0];
  if (!list) throw new Error(`no list context of ${entity} to choose from`);
  const text = search.trim().slice(0, 200);
  const request = buildRefChoicesQuery(ast, list, displayFields(ast, entity), text, MAX_REF_CHOICES);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(result.errors[0].message);
  const rows = (result.data?.[request.root] ?? []) as Record<string, unknown>[];
  return rows.map((row) => ({ id: String(row.id), label: displayName(ast, entity, row) ?? `#${String(row.id)}` }));
}
