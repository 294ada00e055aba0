// xos_ui_change_required: the agent's proposed changes as a preview in the Board form.
import { z } from 'zod';
import { FieldValueError } from '../../backend/values.ts';
import { exampleQuery } from '../../ast/view.ts';
import type { XosTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { canonicalValue, fieldDef, findContext, quote, unknownContextText } from './fields.ts';

export const changesInput = z.union([z.record(z.string(), z.unknown()), z.string()]);

export const uiChangeRequiredTool: XosTool<{ context: z.ZodString; changes: typeof changesInput }> = {
  name: 'xos_ui_change_required',
  title: 'Preview changes in the Board',
  description: [
    'Writes proposed changes as a preview into the Board form of the record the person is looking at (old -> new). Nothing is saved.',
    'Use it after xos_query loaded one record of a detail context, and before xos_ui_save. Only the context\'s editable fields may change,',
    'with values of their types; calling it again adds to the pending changes. Example: context "person_detail", changes {"lastname": "Schmidt", "age": 35}.',
    'Then ask the person whether to save; call xos_ui_save only after they said so.',
  ].join(' '),
  inputSchema: {
    context: z.string().describe('Context of the form on the Board, e.g. person_detail.'),
    changes: changesInput.describe('The changed fields as a JSON object (or its JSON text), e.g. {"lastname": "Schmidt", "age": 35}.'),
  },
  annotations: { readOnlyHint: true },
  async handler({ context, changes }, deps) {
    const ast = deps.client.ast();
    const def = findContext(ast, context);
    if (!def) return fail(unknownContextText(ast, context));
    const board = deps.board.snapshot();
    const detail = board.detail;
    if (def.kind !== 'detail' || board.context !== context || !detail) {
      const shown = board.context ? `The Board shows ${board.context}` : 'The Board shows nothing yet';
      const example = def.kind === 'detail' ? ` with a query like ${exampleQuery(ast, context)}` : '';
      return fail(`${shown}, not a loaded record of ${context}. Load the record first with xos_query (context ${def.kind === 'detail' ? context : 'a detail context'})${example}, then propose the changes again.`);
    }
    if (detail.version === undefined) {
      return fail(`The Board shows rendered data of ${context}, not a stored record. Load the record with xos_query, then propose the changes again.`);
    }

    let proposed: unknown = changes;
    if (typeof changes === 'string') {
      try {
        proposed = JSON.parse(changes);
      } catch (e) {
        return fail(`changes is not valid JSON (${(e as Error).message}). Send an object such as {"lastname": "Schmidt"}.`);
      }
    }
    if (proposed === null || typeof proposed !== 'object' || Array.isArray(proposed) || Object.keys(proposed).length === 0) {
      return fail('changes must be a JSON object with at least one field, such as {"lastname": "Schmidt"}.');
    }

    const editable = def.editable ?? [];
    const names = Object.keys(proposed);
    const notEditable = names.filter((n) => !editable.includes(n));
    if (notEditable.length) {
      return fail(`Not editable in ${context}: ${notEditable.join(', ')}. Nothing was previewed. Editable fields: ${editable.join(', ')}.`);
    }
    const canonical: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [field, value] of Object.entries(proposed as Record<string, unknown>)) {
      try {
        canonical[field] = canonicalValue(def.entity, field, fieldDef(ast, def.entity, field)!, value);
      } catch (e) {
        if (!(e instanceof FieldValueError)) throw e;
        problems.push(e.message);
      }
    }
    if (problems.length) return fail(`Nothing was previewed: ${problems.join('; ')}. Send valid values.`);

    deps.board.preview(canonical);
    const pending = deps.board.snapshot().pending;
    const lines = Object.entries(pending).map(([field, to]) => {
      const fromValue = detail.record[field];
      let from: unknown = fromValue;
      try {
        from = canonicalValue(def.entity, field, fieldDef(ast, def.entity, field)!, fromValue);
      } catch {
        // A stored value the AST no longer accepts is quoted as it is.
      }
      return `${field}: ${quote(from)} -> ${quote(to)}`;
    });
    return ok(`Preview on the Board, nothing saved yet. Pending changes of ${def.entity} ${String(detail.record.id)}: ${lines.join('; ')}. `
      + 'Ask the person whether to save; call xos_ui_save only after they said so.');
  },
};
