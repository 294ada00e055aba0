// The person's edits in the list grid: cells of the shown list changed in place gather in one
// review of the person's own (Board.gridEdits), row by row as they are edited, each checked like
// a form value. Save shows them as the Board's review and saves it the way the agent's bulk
// change is saved (batchSave.ts): one question naming the changes, one transaction against the
// versions read, undone as one batch. No MCP, no VS Code.
import { fieldDef } from '../ast/lookup.ts';
import type { Ast } from '../ast/schema.ts';
import type { AuditPath } from '../graphql/audit.ts';
import { withoutVersion, type CoreDeps } from './base.ts';
import { reviewEditValue, storedRows } from './batch.ts';
import { saveReview } from './batchSave.ts';
import type { SaveOutcome, UndoOutcome } from './outcomes.ts';

/**
 * The columns of a list the person may edit in its grid: what the form its rows open lets them
 * edit, shown in the list, not the id and not a ref (a ref is changed on the form, with its picker).
 */
export function gridEditable(ast: Ast, listContext: string): string[] {
  const list = ast.contexts[listContext];
  if (list?.kind !== 'list') return [];
  const target = list.navigate?.row?.context;
  const detail = (target && ast.contexts[target]?.kind === 'detail' && ast.contexts[target].entity === list.entity ? ast.contexts[target] : undefined)
    ?? Object.values(ast.contexts).find((c) => c.kind === 'detail' && c.entity === list.entity && (c.editable?.length ?? 0) > 0);
  const editable = new Set(detail?.editable ?? []);
  return list.list_fields.filter((field) => field !== 'id' && editable.has(field) && fieldDef(ast, list.entity, field)?.type !== 'ref');
}

/** Identifying columns the review of the grid's edits shows besides the id. */
const SHOWN_FIELDS = 3;

export type GridEditOutcome = { readonly kind: 'grid_edited'; readonly ok: true; readonly cells: number } | Extract<UndoOutcome, { kind: 'gone' }>;

/**
 * The person's value for the cell `field` of the shown list's record `id`: kept with the grid's
 * edits (the record read first, with its version, when it is the first edit of its row); the
 * stored value typed back takes the cell out. Undefined when the cell is not one the grid edits.
 */
export async function editGridCell(deps: CoreDeps, id: string, field: string, value: unknown): Promise<GridEditOutcome | undefined> {
  const { board } = deps;
  const ast = deps.client.ast();
  const list = board.list();
  const fields = list ? gridEditable(ast, list.context) : [];
  if (!list || !fields.includes(field)) return undefined;
  const entity = ast.contexts[list.context].entity;
  // The review that Save shows tells the rows apart by a few of the list's other columns.
  const shown = ast.contexts[list.context].list_fields.filter((f) => f !== 'id' && !fields.includes(f) && fieldDef(ast, entity, f)?.type !== 'ref').slice(0, SHOWN_FIELDS);
  const edits = board.gridEdits() ?? board.startGridEdits({ context: list.context, entity, fields, shown, unchanged: 0, rows: [] });
  if (!edits) return undefined;
  if (!edits.row(id)) {
    const stored = (await storedRows(deps, edits, [id])).get(id);
    // The list or its edits changed while the record was read: this edit belongs to neither.
    if (board.gridEdits() !== edits) return undefined;
    if (!stored) return { kind: 'gone', ok: false, entity, id };
    const { record, version } = withoutVersion(stored);
    edits.addRow({ id, version, record, proposed: {} });
  }
  const checked = reviewEditValue(ast, edits, field, value);
  const row = edits.row(id)!;
  if (!checked) return undefined;
  const storedValue = row.record[field] ?? null;
  if (!checked.problem && JSON.stringify(checked.value) === JSON.stringify(storedValue)) edits.clear(id, field);
  else edits.edit(id, field, checked.value, checked.problem);
  board.gridEdited();
  return { kind: 'grid_edited', ok: true, cells: board.gridEdits()?.cells().length ?? 0 };
}

/**
 * Save of the grid's edits: shown as the Board's review and saved as one (one question, one
 * transaction, one batch to undo). A question declined leaves the review shown, to save or discard.
 */
export async function saveGridEdits(deps: CoreDeps, signal: AbortSignal, path: AuditPath = 'board'): Promise<SaveOutcome> {
  const review = deps.board.reviewGridEdits();
  if (!review) return { kind: 'nothing_to_save', ok: false, why: 'unchanged' };
  return saveReview(deps, review, signal, path);
}
