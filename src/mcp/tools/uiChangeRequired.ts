// xos_ui_change_required: the agent's proposed changes as a preview in the Board form
// (the use case proposeChanges).
import { z } from 'zod';
import { contextInput, handleInput } from './fields.ts';
import { proposeChanges } from '../../core/propose.ts';
import { CARD_URI } from '../apps/card.ts';
import { changesCard, withCard } from '../apps/cardData.ts';
import { defineTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { agentText } from '../wording.ts';

export const changesInput = z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).max(10_000), z.string()]);

export const uiChangeRequiredTool = defineTool({
  name: 'xos_ui_change_required',
  title: 'Preview changes in the Board',
  description: [
    'Writes proposed changes as a preview into the Board (old -> new). Nothing is saved.',
    'One record: after xos_query loaded it in a detail context, only the context\'s editable fields may change, with values of their types;',
    'calling it again adds to the pending changes. Example: context "person_detail", changes {"lastname": "Schmidt", "age": 35}.',
    'Many records (up to 10,000) on a list context: changes is a list [{"id": "7", "price": "10.50"}, …], or {"where": {…}, "set": {…}} with where as in xos_query',
    'and set values that are literals or, on number fields, {"_mul": 1.05} / {"_add": -10} (rounded to the field\'s scale).',
    'Example: context "product_list", changes {"where": {"category": {"_eq": "tools"}}, "set": {"price": {"_mul": 1.05}}}. The person reviews every row on the Board;',
    'the reply gives counts only. Then ask the person whether to save; call xos_ui_save only after they said so.',
  ].join(' '),
  inputSchema: {
    context: contextInput('Context of the form on the Board, e.g. person_detail.'),
    changes: changesInput.describe('One record: the changed fields as a JSON object, e.g. {"lastname": "Schmidt", "age": 35}. A list context: a list of {"id", field: value} or {"where", "set"}. Or the same as JSON text.'),
    handle: handleInput,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  requires: ['schema'],
  appResource: CARD_URI,
  async handler({ context, changes }, deps) {
    const outcome = await proposeChanges(deps, context, changes);
    const text = agentText(deps.client.ast(), outcome);
    return outcome.ok ? withCard(ok(text), () => changesCard(deps, 'xos_ui_change_required', context)) : fail(text);
  },
});
