// xos_render: shows JSON the model already has, checked against the context's fields
// (the use case showRendered).
import { z } from 'zod';
import { contextInput, handleInput } from './fields.ts';
import { showRendered } from '../../core/show.ts';
import { CARD_URI } from '../apps/card.ts';
import { shownCard, withCard } from '../apps/cardData.ts';
import { defineTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { agentText } from '../wording.ts';

export const renderTool = defineTool({
  name: 'xos_render',
  title: 'Render JSON into the Board',
  description: [
    'Displays JSON data directly on the XOS Board, without GraphQL, when the data is already at hand (for example from an external source).',
    'The context chooses the template; every record may only use fields of the context\'s list_fields (see xos_schema),',
    'with values of the field types. A list context takes an array of records, a detail context one record.',
    'Rendered data is not a stored record: to change and save a record, load it with xos_query.',
  ].join(' '),
  inputSchema: {
    context: contextInput('Context whose template shows the data, e.g. person_list.'),
    json: z.string().describe('The data as a JSON string: an array of records (or one record object), e.g. [{"id":1,"firstname":"Max","lastname":"Mustermann"}]'),
    handle: handleInput,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  requires: ['schema'],
  appResource: CARD_URI,
  async handler({ context, json }, deps) {
    const outcome = await showRendered(deps, context, json);
    const text = agentText(deps.client.ast(), outcome);
    return outcome.ok ? withCard(ok(text), () => shownCard(deps, 'xos_render', context)) : fail(text);
  },
});
