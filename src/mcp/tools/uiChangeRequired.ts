// xos_ui_change_required: the agent's proposed changes as a preview in the Board form
// (the use case proposeChanges).
import { z } from 'zod';
import { contextInput } from './fields.ts';
import { proposeChanges } from '../../core/propose.ts';
import { CARD_URI } from '../apps/card.ts';
import { changesCard, withCard } from '../apps/cardData.ts';
import { defineTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { agentText } from '../wording.ts';

export const changesInput = z.union([z.record(z.string(), z.unknown()), z.string()]);

export const uiChangeRequiredTool = defineTool({
  name: 'xos_ui_change_required',
  title: 'Preview changes in the Board',
  description: [
    'Writes proposed changes as a preview into the Board form of the record the person is looking at (old -> new). Nothing is saved.',
    'Use it after xos_query loaded one record of a detail context, and before xos_ui_save. Only the context\'s editable fields may change,',
    'with values of their types; calling it again adds to the pending changes. Example: context "person_detail", changes {"lastname": "Schmidt", "age": 35}.',
    'Then ask the person whether to save; call xos_ui_save only after they said so.',
  ].join(' '),
  inputSchema: {
    context: contextInput('Context of the form on the Board, e.g. person_detail.'),
    changes: changesInput.describe('The changed fields as a JSON object (or its JSON text), e.g. {"lastname": "Schmidt", "age": 35}.'),
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
