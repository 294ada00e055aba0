// The agent's proposed changes: a preview in the Board's form, nothing saved
// (xos_ui_change_required). No MCP, no VS Code.
import { fieldDef, findContext } from '../ast/lookup.ts';
import { agentEditable } from '../ast/agentPolicy.ts';
import { canonicalValue, FieldValueError } from '../ast/values.ts';
import type { FieldProblem, ProposeOutcome } from './outcomes.ts';
import { storedValue, type CoreDeps } from './base.ts';
import { fieldProblem } from './save.ts';

/** The agent's proposed changes as a preview in the form; nothing is saved. */
export async function proposeChanges(deps: CoreDeps, context: string, changes: unknown): Promise<ProposeOutcome> {
  const ast = deps.client.ast();
  const def = findContext(ast, context);
  if (!def) return { kind: 'unknown_context', ok: false, context, known: Object.keys(ast.contexts) };
  const board = deps.board.snapshot();
  const detail = board.detail;
  if (def.kind !== 'detail' || board.context !== context || !detail) {
    return { kind: 'not_loaded', ok: false, context, detail: def.kind === 'detail', ...(board.context ? { shown: board.context } : {}) };
  }
  if (detail.version === undefined) {
    return { kind: 'rendered_only', ok: false, context };
  }

  let proposed: unknown = changes;
  if (typeof changes === 'string') {
    try {
      proposed = JSON.parse(changes);
    } catch (e) {
      return { kind: 'invalid_json', ok: false, what: 'changes', reason: (e as Error).message };
    }
  }
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
