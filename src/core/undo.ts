// The audit trail as the person uses it: a record's history on the Board, and undoing
// a save. An undo is a compensating save: the old values go into the form against the
// version the save produced, the person confirms it like any save, and a record that
// changed since becomes a conflict side by side, never an overwrite. It is audited too.
import type { Ast } from '../ast/schema.ts';
import { readAudit, type AuditEntry, type AuditPath } from '../graphql/audit.ts';
import type { BoardRecord } from './domain.ts';
import { hasUnsavedForm, readStored, refName, type CoreDeps } from './base.ts';
import type { UndoOutcome } from './outcomes.ts';
import { conflictShown, saveForm } from './save.ts';

/** A record's audit entries, or the whole trail's, newest first (as the API gives them). */
export async function auditTrail(deps: Pick<CoreDeps, 'client'>, filter: { entity?: string; id?: string }, limit = 50): Promise<AuditEntry[]> {
  return readAudit(deps.client, filter, limit);
}

/**
 * The names of the records the entries' references point at (`company 2` → "Nordlicht Software GmbH"),
 * keyed `entity:id`; the trail keeps ids, the person reads names. One lookup per distinct record.
 */
export async function referencedNames(deps: Pick<CoreDeps, 'client'>, entries: readonly AuditEntry[]): Promise<Map<string, string>> {
  const ast = deps.client.ast();
  const wanted = new Map<string, { entity: string; id: unknown }>();
  for (const entry of entries) {
    const fields = entry.entity ? ast.entities[entry.entity]?.fields ?? {} : {};
    for (const [field, change] of Object.entries(entry.changes)) {
      const target = fields[field]?.type === 'ref' ? fields[field].entity : undefined;
      if (!target) continue;
      for (const id of [change.from, change.to]) if (id !== null) wanted.set(`${target}:${String(id)}`, { entity: target, id });
    }
  }
  const names = new Map<string, string>();
  for (const [key, { entity, id }] of wanted) {
    const name = await refName(ast, deps, entity, id);
    if (name) names.set(key, name);
  }
  return names;
}

/** The newest save (an update) in the trail, if any. */
export async function lastSave(deps: Pick<CoreDeps, 'client'>): Promise<AuditEntry | undefined> {
  return (await auditTrail(deps, {}, 100)).find((entry) => entry.action === 'update');
}

/** The detail context in which every field of the save can be edited. */
function undoContext(ast: Ast, entity: string, fields: readonly string[]): string | undefined {
  return Object.entries(ast.contexts).find(([, c]) => c.kind === 'detail' && c.entity === entity && fields.every((f) => (c.editable ?? []).includes(f)))?.[0];
}

/**
 * Puts the save's old values into the Board's form against the version it produced and asks
 * the person to save that. Nothing is written without their Save; a newer version is a conflict.
 */
export async function undoSave(deps: CoreDeps, entry: AuditEntry, signal: AbortSignal, path: AuditPath = 'board'): Promise<UndoOutcome> {
  if (entry.action !== 'update' || !entry.entity || !entry.recordId || entry.versionTo === null) {
    return { kind: 'not_a_save', ok: false, entry: entry.id, action: entry.action };
  }
  if (hasUnsavedForm(deps.board.snapshot())) {
    return { kind: 'unsaved_form', ok: false };
  }
  const ast = deps.client.ast();
  const fields = Object.keys(entry.changes);
  const contextName = undoContext(ast, entry.entity, fields);
  if (!contextName) {
    return { kind: 'not_undoable', ok: false, entity: entry.entity, fields };
  }
  const current = await readStored(deps, ast, contextName, entry.recordId);
  if (!current) return { kind: 'gone', ok: false, entity: entry.entity, id: entry.recordId };
  const refs = new Set(fields.filter((f) => ast.entities[entry.entity!].fields[f]?.type === 'ref'));
  // As the save left it: a later change of these fields then shows as a conflict.
  const asSaved: BoardRecord = { ...current.record };
  if (current.version !== entry.versionTo) {
    for (const field of fields) asSaved[field] = refValue(refs.has(field), entry.changes[field].to);
  }
  deps.board.showDetail({ context: contextName, record: asSaved, version: entry.versionTo });
  const undone = fields.map((field) => ({ field, to: refValue(refs.has(field), entry.changes[field].from) }));
  for (const { field, to } of undone) deps.board.edit(field, to);
  // A record changed since is found before the person is asked, so they are asked once: the other
  // change is taken under the undo's values, and a field both changed waits side by side first.
  if (current.version !== entry.versionTo) {
    const conflict = conflictShown(deps, ast, ast.contexts[contextName], contextName, entry.recordId, { context: contextName, record: asSaved, version: entry.versionTo }, current, undone);
    if (conflict.fields.length) return conflict;
  }
  return saveForm(deps, signal, path, `Undo of audit entry ${entry.id}`);
}

/** A stored ref id as the form holds it (`{ id }`), other values as they are. */
function refValue(isRef: boolean, value: unknown): unknown {
  return isRef && value !== null && value !== undefined ? { id: String(value) } : value;
}
