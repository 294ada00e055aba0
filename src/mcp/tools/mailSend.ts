// xos_mail_send: sends the composed draft once, after the person confirmed exactly that draft.
import { sendMailDraft } from '../../core/mailSend.ts';
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
  ].join(' '),
  inputSchema: {},
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  requires: ['mailer'],
  async handler(_args, deps, _session, signal) {
    const outcome = await sendMailDraft({ board: deps.board, confirmer: deps.confirmer, mailer: deps.mailer!, client: deps.client, window: deps.mailWindow }, signal);
    const text = mailText(outcome);
    return outcome.ok ? ok(text) : fail(text);
  },
});
