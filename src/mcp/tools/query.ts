// xos_query: runs a validated query of one context and shows the result on the Board.
import { z } from 'zod';
import { checkContextQuery, withIdAndVersion } from '../../graphql/queryRules.ts';
import type { BoardRecord, XosTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { DISPLAYED, recordsText } from './fields.ts';

export const queryTool: XosTool<{ context: z.ZodString; query: z.ZodString }> = {
  name: 'xos_query',
  title: 'Query XOS data into the Board',
  description: [
    'Loads data with a GraphQL query and displays it on the XOS Board for the person.',
    'Rules: call xos_schema first (this tool refuses to run before it in the session);',
    'select exactly the list_fields of the context, no more and no fewer (ref fields with a sub-selection such as company { id name });',
    'send one query operation whose only root field is the context, never a mutation.',
    'Example: context "person_list", query "{ person_list { id firstname lastname email city age net_worth } }";',
    'a detail context takes the id: "{ person_detail(id: \\"17\\") { ... } }". List contexts accept where, order_by, limit and offset.',
    'The reply only confirms the display; the person sees the data on the Board.',
  ].join(' '),
  inputSchema: {
    context: z.string().describe('Name of the context, e.g. person_list or person_detail (see xos_schema).'),
    query: z.string().describe('GraphQL query selecting exactly the context\'s list_fields, e.g. { person_list { id firstname lastname email city age net_worth } }'),
  },
  annotations: { readOnlyHint: true },
  async handler({ context, query }, deps, session) {
    const notYet = session.schemaRequired('xos_query');
    if (notYet) return fail(notYet);
    const check = checkContextQuery(deps.client.ast(), context, query);
    if (!check.ok) return fail(check.message);

    const result = await deps.client.run(withIdAndVersion(check.document));
    if (result.errors?.length) {
      return fail(`The XOS server refused the query: ${result.errors.map((e) => e.message).join('; ')} Fix the query and call xos_query again.`);
    }
    const data = result.data?.[context];
    if (check.kind === 'list') {
      const records = (data as BoardRecord[]).map(withoutVersion);
      deps.board.showList({ context, records: records.map((r) => r.record) });
      return ok(`${DISPLAYED} ${recordsText(records.length, context)}`);
    }
    if (data === null || data === undefined) {
      return fail(`No record of ${context} matches this query; nothing was displayed. Check the id (for example in the matching list context).`);
    }
    const { record, version } = withoutVersion(data as BoardRecord);
    deps.board.showDetail({ context, record, version });
    return ok(`${DISPLAYED} ${recordsText(1, context)}`);
  },
};

function withoutVersion(row: BoardRecord): { record: BoardRecord; version: number } {
  const { version, ...record } = row;
  return { record, version: version as number };
}
