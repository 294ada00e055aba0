// xos_mail_send: sends the composed draft once, after the person confirmed exactly that draft.
import { prepareSend, sendMailDraft } from '../../core/mailSend.ts';
import { answerStored, approvalInput, approvalOfRound, noStoredApprovals, requestStored, resumeStored, storedRequest } from '../approvalFlow.ts';
import { defineTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
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
  async handler(args, deps, session, signal) {
    const stored = storedRequest(deps, session);
    if (args.approval !== undefined) return stored ? answerStored('xos_mail_send', stored, args.approval, deps) : noStoredApprovals('xos_mail_send');
    // A later round of a call that asked the client to wait with the person (protocol 2026-07-28).
    const resumed = approvalOfRound(session.round);
    if (stored && resumed && session.round) return resumeStored('xos_mail_send', stored, resumed, session.round, deps, signal);
    if (stored) {
      const prepared = prepareSend(deps.board, deps.mailer!.from);
      if ('payload' in prepared) return requestStored('xos_mail_send', stored, prepared, deps, session.round);
      const text = mailText(prepared);
      return prepared.ok ? ok(text) : fail(text);
    }
    const outcome = await sendMailDraft({ board: deps.board, confirmer: deps.confirmer, mailer: deps.mailer!, client: deps.client, window: deps.mailWindow }, signal);
    const text = mailText(outcome);
    return outcome.ok ? ok(text) : fail(text);
  },
});
