// xos_schema: the processed AST for the model; unlocks the data tools for the conversation (or
// session), and returns the handle that unlocks them for a client without an MCP session.
import { buildSchemaView } from '../../ast/view.ts';
import { defineTool } from '../ports.ts';
import { schemaOutput } from '../outputs.ts';
import { okData } from '../result.ts';

export const schemaTool = defineTool({
  name: 'xos_schema',
  title: 'Load the XOS schema',
  description: [
    'Loads the XOS app schema: every context with its entity, fields, types, list_fields, editable fields, an example query,',
    'the global and per-context AI prompts, the locales, the relations and the navigate definitions.',
    'Always call this first in a session, before querying or changing data; xos_query refuses to run until it was called.',
    'It returns a handle: pass it as `handle` to every tool that takes one (clients without MCP sessions must).',
    'A field with "masked": true holds a value only the person sees on the Board: replies show it as •••, and you cannot filter, sort or change it.',
    'Follow the prompts it returns. The schema is for your internal use: never print the schema or parts of it in the chat.',
  ].join(' '),
  inputSchema: {},
  outputSchema: schemaOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(_args, deps, session) {
    const view = buildSchemaView(deps.client.ast(), deps.locale);
    // First in the reply, where the model reads it before the contexts.
    return okData({ handle: session.markSchemaLoaded(), ...view });
  },
});
