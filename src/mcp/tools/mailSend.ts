// xos_mail_send: sends the composed draft once, after the person confirmed exactly that draft.
import { prepareSend, sendMailDraft } from '../../core/mailSend.ts';
import { approvalInput, guardedWrite } from '../approvalFlow.ts';
import { defineTool } from '../ports.ts';
import { mailText } from '../wording.ts';

export const mailSendTool = defineTool({
  name: 'xos_mail_send',
  title: 'Send the mail',
  description: [
    'Sends the email draft the Board shows (prepared with xos_mail_compose; one draft per Board, whichever session composed it).',
    'Call it only after the person explicitly said to send it;',
    'XOS asks them to confirm (Send / Cancel: a VS Code notification, or the XOS Board page for other clients) in any case, and nothing is sent without that confirmation. The draft is sent once;',
    'calling it again afterwards answers that it was already sent.',
    'Clients without an MCP session are not kept waiting: the mail is stored as a pending approval, the reply gives its id at once, the person decides on the XOS Board,',
    'and calling xos_mail_send again with `approval` set to that id tells the outcome (waiting, sent, declined or expired).',
  ].join(' '),
  inputSchema: {
    approval: approvalInput,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  requires: ['mailer'],
  handler(args, deps, session, signal) {
    return guardedWrite({
      tool: 'xos_mail_send',
      prepare: () => prepareSend(deps.board, deps.mailer!.from),
      askAndWrite: () => sendMailDraft({ board: deps.board, confirmer: deps.confirmer, mailer: deps.mailer!, client: deps.client, window: deps.mailWindow, ...(deps.boardSending ? { claimSend: deps.boardSending } : {}) }, signal),
      words: mailText,
    }, args.approval, deps, session, signal);
  },
});
