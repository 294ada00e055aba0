// The agent's proposed changes: a preview in the Board's form, nothing saved
// (xos_ui_change_required). No MCP, no VS Code.
import { fieldDef, findContext } from '../ast/lookup.ts';
import { agentEditable } from '../ast/agentPolicy.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import type { FieldProblem, ProposeOutcome } from './outcomes.ts';
import { hasUnsavedForm, storedValue, type CoreDeps } from './base.ts';
import { proposeBatch } from './batch.ts';
import { fieldProblem } from './outcomes.ts';

/** The agent's proposed changes as a preview in the form; nothing is saved. */
export async function proposeChanges(deps: CoreDeps, context: string, changes: unknown): Promise<ProposeOutcome> {
  const ast = deps.client.ast();
  const def = findContext(ast, context);
  if (!def) return { kind: 'unknown_context', ok: false, context, known: Object.keys(ast.contexts) };
  const board = deps.board.snapshot();
  if (def.kind === 'list') {
    const proposed = typeof changes === 'string' ? parsedJson(changes) : { value: changes };
    if ('error' in proposed) return { kind: 'invalid_json', ok: false, what: 'changes', reason: proposed.error };
    // A proposal never replaces the person's unsaved work.
    if (hasUnsavedForm(board) || (board.kind === 'review' && (deps.board.review()?.tally().accepted ?? 0) > 0 && board.context !== context)) {
      return { kind: 'board_unsaved', ok: false };
    }
    return proposeBatch(deps, context, def, proposed.value);
  }
  const detail = board.detail;
  if (def.kind !== 'detail' || board.context !== context || !detail) {
    return { kind: 'not_loaded', ok: false, context, detail: def.kind === 'detail', ...(board.context ? { shown: board.context } : {}) };
  }
  if (detail.version === undefined) {
    return { kind: 'rendered_only', ok: false, context };
  }

  const parsed = typeof changes === 'string' ? parsedJson(changes) : { value: changes };
  if ('error' in parsed) return { kind: 'invalid_json', ok: false, what: 'changes', reason: parsed.error };
  const proposed = parsed.value;
  if (proposed === null || typeof proposed !== 'object' || Array.isArray(proposed) || Object.keys(proposed).length === 0) {
    return { kind: 'changes_not_object', ok: false };
  }

  const editable = agentEditable(ast, def);
  const names = Object.keys(proposed);
  const notEditable = names.filter((n) => !editable.includes(n));
  if (notEditable.length) {
    return { kind: 'not_editable', ok: false, context, fields: notEditable, editable };
  }
  const canonical: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(proposed as Record<string, unknown>)) {
    try {
      canonical[field] = canonicalValue(def.entity, field, fieldDef(ast, def.entity, field)!, value);
    } catch (e) {
      if (!(e instanceof FieldValueError)) throw e;
      problems.push(fieldProblem(e));
    }
  }
  if (problems.length) return { kind: 'invalid_proposal', ok: false, problems };

  deps.board.preview(canonical);
  const pending = deps.board.snapshot().pending;
  return {
    kind: 'previewed', ok: true, entity: def.entity, id: String(detail.record.id),
    pending: Object.entries(pending).map(([field, to]) => ({ field, from: storedValue(ast, def, field, detail.record), to })),
  };
}

/** The agent's JSON text, or why it is none. */
function parsedJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
