// Before the person sorts a large list by a column no index serves: what it costs (every row read
// and sorted for each window) and the index that would serve it, so the wait is never silent.
// Asked of the backend (`xos_sort_hint`); a server without it, or any failure, means no warning.
// No MCP, no VS Code.
import { buildSortHintQuery } from '../graphql/requests.ts';
import type { CoreDeps } from './base.ts';

/** From this many rows on, a sort without an index is worth a word (a window then takes seconds, not milliseconds). */
export const COSTLY_SORT_ROWS = 100_000;

export interface CostlySort {
  readonly field: string;
  readonly rows: number;
  /** The statement that would create a serving index. */
  readonly index: string;
}

/** The cost of sorting `context` by `field` when no index serves it on a large table; undefined when it is cheap or unknown. */
export async function costlySort(deps: Pick<CoreDeps, 'client'>, context: string, field: string, threshold = COSTLY_SORT_ROWS): Promise<CostlySort | undefined> {
  const ast = deps.client.ast();
  // XOS's own tables have an index for every sortable column; only the person's own (`table`) may lack one.
  if (ast.entities[ast.contexts[context]?.entity ?? '']?.table === undefined) return undefined;
  try {
    const request = buildSortHintQuery(ast, context, field);
    const result = await deps.client.run(request.query, request.variables);
    const hint = result.data?.[request.root] as { indexed: boolean; rows: number; index: string | null } | undefined;
    if (!hint || hint.indexed || hint.rows < threshold || !hint.index) return undefined;
    return { field, rows: hint.rows, index: hint.index };
  } catch {
    return undefined;
  }
}
