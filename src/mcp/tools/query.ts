// xos_query: runs a validated query of one context and shows the result on the Board
// (the use case showQuery; this file is the MCP declaration and the session rule).
import { z } from 'zod';
import { contextInput, handleInput } from './fields.ts';
import { showQuery } from '../../core/show.ts';
import { CARD_URI } from '../apps/card.ts';
import { shownCard, withCard } from '../apps/cardData.ts';
import { defineTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { agentText } from '../wording.ts';

export const queryTool = defineTool({
  name: 'xos_query',
  title: 'Query XOS data into the Board',
  description: [
    'Loads data with a GraphQL query and displays it on the XOS Board for the person.',
    'Rules: call xos_schema first (this tool refuses to run before it in the conversation);',
    'select exactly the list_fields of the context, no more and no fewer (ref fields with a sub-selection such as company { id name });',
    'send one query operation whose only root field is the context, never a mutation.',
    'Example: context "person_list", query "{ person_list { id firstname lastname email city age net_worth } }";',
    'a detail context takes the id: "{ person_detail(id: \\"17\\") { ... } }". List contexts accept where, order_by, limit and offset.',
    'The reply only confirms the display; the person sees the data on the Board.',
  ].join(' '),
  inputSchema: {
    context: contextInput('Name of the context, e.g. person_list or person_detail (see xos_schema).'),
    query: z.string().max(100_000).describe('GraphQL query selecting exactly the context\'s list_fields, e.g. { person_list { id firstname lastname email city age net_worth } }'),
    handle: handleInput,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  requires: ['schema'],
  appResource: CARD_URI,
  async handler({ context, query }, deps) {
    const outcome = await showQuery(deps, context, query);
    const text = agentText(deps.client.ast(), outcome);
    return outcome.ok ? withCard(ok(text), () => shownCard(deps, 'xos_query', context)) : fail(text);
  },
});
