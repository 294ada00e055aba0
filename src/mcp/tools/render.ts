// xos_render: shows JSON the model already has, checked against the context's fields.
import { z } from 'zod';
import { findInverse } from '../../ast/view.ts';
import { FieldValueError } from '../../backend/values.ts';
import type { Ast, ContextDef } from '../../ast/schema.ts';
import type { BoardRecord, XosTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { canonicalValue, DISPLAYED, fieldDef, findContext, recordsText, unknownContextText } from './fields.ts';

export const renderTool: XosTool<{ context: z.ZodString; json: z.ZodString }> = {
  name: 'xos_render',
  title: 'Render JSON into the Board',
  description: [
    'Displays JSON data directly on the XOS Board, without GraphQL, when the data is already at hand (for example from an external source).',
    'The context chooses the template; every record may only use fields of the context\'s list_fields (see xos_schema),',
    'with values of the field types. A list context takes an array of records, a detail context one record.',
    'Rendered data is not a stored record: to change and save a record, load it with xos_query.',
  ].join(' '),
  inputSchema: {
    context: z.string().describe('Context whose template shows the data, e.g. person_list.'),
    json: z.string().describe('The data as a JSON string: an array of records (or one record object), e.g. [{"id":1,"firstname":"Max","lastname":"Mustermann"}]'),
  },
  annotations: { readOnlyHint: true },
  async handler({ context, json }, deps) {
    const ast = deps.client.ast();
    const def = findContext(ast, context);
    if (!def) return fail(unknownContextText(ast, context));
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (e) {
      return fail(`json is not valid JSON (${(e as Error).message}). Send an array of records or one record object as a JSON string.`);
    }
    const records = Array.isArray(parsed) ? parsed : [parsed];
    if (def.kind === 'detail' && records.length !== 1) {
      return fail(`${context} is a detail context: send exactly one record object (got ${records.length}).`);
    }
    const checked: BoardRecord[] = [];
    const problems: string[] = [];
    records.forEach((record, index) => {
      const result = checkRecord(ast, def, record);
      if (typeof result === 'string') problems.push(`record ${index}: ${result}`);
      else checked.push(result);
    });
    if (problems.length) {
      return fail(`Nothing was displayed. ${problems.slice(0, 10).join('; ')}. Allowed fields of ${context}: ${def.list_fields.join(', ')}.`);
    }
    if (def.kind === 'list') deps.board.showList({ context, records: checked });
    else deps.board.showDetail({ context, record: checked[0] });
    return ok(`${DISPLAYED} ${recordsText(checked.length, context)}`);
  },
};

/** The record with canonical scalar values, or why it does not fit the context. */
function checkRecord(ast: Ast, context: ContextDef, record: unknown): BoardRecord | string {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'is not a JSON object';
  const entries = Object.entries(record as Record<string, unknown>);
  const unknown = entries.map(([k]) => k).filter((k) => !context.list_fields.includes(k));
  if (unknown.length) return `unknown fields ${unknown.join(', ')}`;
  const out: BoardRecord = {};
  for (const [field, value] of entries) {
    const def = fieldDef(ast, context.entity, field);
    if (!def) {
      if (findInverse(ast, context.entity, field) && value !== null && !Array.isArray(value)) return `${field} must be a list of records`;
      out[field] = value;
      continue;
    }
    try {
      const canonical = canonicalValue(context.entity, field, def, value);
      out[field] = def.type === 'ref' ? value : canonical;
    } catch (e) {
      if (e instanceof FieldValueError) return e.message;
      throw e;
    }
  }
  return out;
}
