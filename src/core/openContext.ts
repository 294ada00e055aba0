// The person opens a context without the agent: from the Board's start page, the
// palette ("XOS: Open Context…") or the XOS view in the activity bar. A list opens
// through the same path as the agent's xos_query, with the context's own fields.
import type { Ast } from '../ast/schema.ts';
import { exampleQuery } from '../ast/view.ts';
import { appModel } from '../ast/appModel.ts';
import type { OpenableContext } from './domain.ts';
import { showQuery } from './show.ts';
import type { CoreDeps } from './base.ts';
import type { ShowOutcome } from './outcomes.ts';

/** The app's list contexts in AST order, labelled in the locale. */
export function openableContexts(ast: Ast, locale: string): OpenableContext[] {
  const model = appModel(ast, locale);
  return Object.keys(ast.contexts)
    .map((name) => model.context(name))
    .filter((context) => context?.kind === 'list')
    .map((context) => ({ name: context!.name, label: context!.label, entityLabel: context!.entityLabel }));
}

/** Shows a list context on the Board, all records, in the order the backend gives. */
export async function openContext(deps: CoreDeps, context: string): Promise<ShowOutcome> {
  const ast = deps.client.ast();
  const def = Object.hasOwn(ast.contexts, context) ? ast.contexts[context] : undefined;
  if (!def) return { kind: 'no_context', ok: false, context };
  if (def.kind !== 'list') return { kind: 'not_a_list', ok: false, context };
  return showQuery(deps, context, exampleQuery(ast, context));
}
