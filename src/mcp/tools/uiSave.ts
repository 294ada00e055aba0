// xos_ui_save: the person's form (their edits and the pending preview) against
// the loaded record, confirmed by the person in VS Code, then one update with
// the version that was loaded. The approval is bound to exactly that change set.
import { isDeepStrictEqual } from 'node:util';
import type { Ast, ContextDef } from '../../ast/schema.ts';
import { FieldValueError } from '../../backend/values.ts';
import { buildDetailQuery, buildUpdateMutation } from '../../graphql/mutation.ts';
import type { BoardRecord, DetailView, GraphQLResult, SaveSummary, XosDeps, XosTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { canonicalValue, fieldDef, fieldLabel, quote } from './fields.ts';

type Change = SaveSummary['changes'][number];

export const uiSaveTool: XosTool<Record<string, never>> = {
  name: 'xos_ui_save',
  title: 'Save the Board form',
  description: [
    'Saves the record on the Board: XOS collects the form data (the person\'s own edits and the pending preview from xos_ui_change_required),',
    'builds the GraphQL mutation and stores the changed fields. Call it only after the person explicitly said they want to save;',
    'VS Code asks them to confirm (Save / Discard) in any case, and nothing is written without that confirmation.',
    'The reply says what was actually stored, or why nothing was.',
  ].join(' '),
  inputSchema: {},
  annotations: { readOnlyHint: false, destructiveHint: true },
  async handler(_args, deps, _session, signal) {
    const ast = deps.client.ast();
    const board = deps.board.snapshot();
    const detail = board.detail;
    const context = board.context === undefined ? undefined : ast.contexts[board.context];
    if (!detail || !context || context.kind !== 'detail' || detail.version === undefined) {
      return fail('Nothing to save: the Board shows no loaded record. Load one with xos_query on a detail context, propose changes with xos_ui_change_required, then save.');
    }
    const contextName = board.context!;
    const asked = await changeSet(ast, context, detail, deps);
    if (typeof asked === 'string') return fail(asked);
    if (asked.length === 0) {
      return fail('Nothing to save: the form matches the stored record. Propose changes with xos_ui_change_required first.');
    }

    const id = String(detail.record.id);
    const summary: SaveSummary = { entity: context.entity, id, changes: asked };
    const answer = await askBound(deps, summary, signal);
    if (answer === 'void' || !isDeepStrictEqual(await changeSet(ast, context, detail, deps), asked)) {
      return fail('Not saved: the form changed while the person was asked, so that approval no longer matches what would be written. Nothing was written. Check the Board and call xos_ui_save again when the person wants to save.');
    }
    if (answer !== 'save') {
      const why = answer === 'discard' ? 'the person chose Discard' : 'the person did not answer in time';
      return fail(`Not saved: ${why}. Nothing was written; the preview stays on the Board.`);
    }

    const set = Object.fromEntries(asked.map((c) => [c.field, c.to]));
    const mutation = buildUpdateMutation(ast, contextName, id, detail.version, set);
    const result = await deps.client.run(mutation.query, mutation.variables);
    const error = result.errors?.[0];
    if (error?.extensions?.code === 'CONFLICT') {
      const current = await readBack(deps, ast, contextName, id);
      const stored = current ? ` (stored version ${current.version})` : '';
      return fail(`Not saved: ${context.entity} ${id} was changed by someone else after it was loaded${stored}; nothing was written. `
        + 'The Board now shows the current record. Propose the changes again with xos_ui_change_required if they are still wanted.');
    }
    if (error) return fail(`Not saved: the XOS server refused the change: ${error.message} Nothing was written.`);

    const saved = await readBack(deps, ast, contextName, id);
    if (!saved) throw new Error(`${context.entity} ${id} is missing right after saving it`);
    const stored = asked.map((c) => `${c.field}: ${quote(storedValue(ast, context, c.field, saved.record))}`);
    return ok(`Saved ${context.entity} ${id} (version ${detail.version} -> ${saved.version}). Stored: ${stored.join('; ')}.`);
  },
};

/** The changed fields of the form against the loaded record, or why the form cannot be saved. */
async function changeSet(ast: Ast, context: ContextDef, detail: DetailView, deps: XosDeps): Promise<Change[] | string> {
  const form = await deps.board.formData();
  const changes: Change[] = [];
  const problems: string[] = [];
  for (const field of context.editable ?? []) {
    if (!Object.hasOwn(form, field)) continue;
    const def = fieldDef(ast, context.entity, field)!;
    let to: unknown;
    try {
      to = canonicalValue(context.entity, field, def, form[field]);
    } catch (e) {
      if (!(e instanceof FieldValueError)) throw e;
      problems.push(e.message);
      continue;
    }
    const from = storedValue(ast, context, field, detail.record);
    if (!isDeepStrictEqual(from, to)) changes.push({ field, label: fieldLabel(ast, context.entity, field, deps.locale), from, to });
  }
  if (problems.length) {
    return `Not saved: the form has invalid values: ${problems.join('; ')}. Correct them with xos_ui_change_required or ask the person to fix them in the Board.`;
  }
  return changes;
}

function storedValue(ast: Ast, context: ContextDef, field: string, record: BoardRecord): unknown {
  const value = record[field] ?? null;
  try {
    return canonicalValue(context.entity, field, fieldDef(ast, context.entity, field)!, value);
  } catch {
    // A stored value the AST no longer accepts still differs from any valid new one.
    return value;
  }
}

/** Asks the person; any change of the Board while the question is open voids the answer. */
async function askBound(deps: XosDeps, summary: SaveSummary, signal: AbortSignal): Promise<'save' | 'discard' | 'timeout' | 'void'> {
  const changed = new AbortController();
  const subscription = deps.board.onChange((change) => {
    if (change !== 'mail') changed.abort();
  });
  try {
    const answer = await deps.confirmer.confirmSave(summary, AbortSignal.any([changed.signal, signal]));
    return changed.signal.aborted ? 'void' : answer;
  } finally {
    subscription.dispose();
  }
}

/** Reads the record again and shows it on the Board. */
async function readBack(deps: XosDeps, ast: Ast, contextName: string, id: string): Promise<{ record: BoardRecord; version: number } | undefined> {
  const request = buildDetailQuery(ast, contextName, id);
  const result: GraphQLResult = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(`reading ${contextName} ${id} back failed: ${result.errors[0].message}`);
  const row = result.data?.[contextName] as BoardRecord | null | undefined;
  if (!row) return undefined;
  const { version, ...record } = row;
  deps.board.showDetail({ context: contextName, record, version: version as number });
  return { record, version: version as number };
}
