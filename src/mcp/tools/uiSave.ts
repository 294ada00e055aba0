// xos_ui_save: the person's form (their edits and the pending preview) against
// the loaded record, confirmed by the person in VS Code, then one update with
// the version that was loaded (the use case saveForm, which the Board's Save runs too).
import { handleInput } from './fields.ts';
import { prepareSave, saveForm } from '../../core/save.ts';
import { approvalInput, guardedWrite } from '../approvalFlow.ts';
import { defineTool } from '../ports.ts';
import { agentText } from '../wording.ts';

export const uiSaveTool = defineTool({
  name: 'xos_ui_save',
  title: 'Save the Board form',
  description: [
    'Saves the record on the Board: XOS collects the form data (the person\'s own edits and the pending preview from xos_ui_change_required),',
    'builds the GraphQL mutation and stores the changed fields; for a review of many records, the rows and cells the person accepted, in one transaction.',
    'Call it only after the person explicitly said they want to save;',
    'XOS asks them to confirm (Save / Discard: a VS Code notification, or the XOS Board page for other clients) in any case, and nothing is written without that confirmation.',
    'The reply says what was actually stored, or why nothing was.',
    'Clients without an MCP session are not kept waiting: the change is stored as a pending approval, the reply gives its id at once, the person decides on the XOS Board,',
    'and calling xos_ui_save again with `approval` set to that id tells the outcome (waiting, saved, declined, expired, or void when the record was changed meanwhile).',
  ].join(' '),
  inputSchema: {
    handle: handleInput,
    approval: approvalInput,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  requires: ['schema'],
  handler(args, deps, session, signal) {
    return guardedWrite({
      tool: 'xos_ui_save',
      prepare: () => prepareSave(deps),
      askAndWrite: () => saveForm(deps, signal),
      words: (outcome) => agentText(deps.client.ast(), outcome),
    }, args.approval, deps, session, signal);
  },
});
