// xos_mail_send: sends the composed draft once, after the person confirmed exactly that draft.
import { isDeepStrictEqual } from 'node:util';
import type { XosTool } from '../ports.ts';
import { fail, ok } from '../result.ts';
import { MAIL_NOT_CONFIGURED } from './mailCompose.ts';

export const mailSendTool: XosTool<Record<string, never>> = {
  name: 'xos_mail_send',
  title: 'Send the mail',
  description: [
    'Sends the email prepared with xos_mail_compose in this session. Call it only after the person explicitly said to send it;',
    'VS Code asks them to confirm (Send / Cancel) in any case, and nothing is sent without that confirmation. The draft is sent once.',
  ].join(' '),
  inputSchema: {},
  annotations: { readOnlyHint: false, destructiveHint: true },
  async handler(_args, deps, _session, signal) {
    if (!deps.mailer) return fail(MAIL_NOT_CONFIGURED);
    const draft = deps.board.snapshot().mail;
    if (!draft) return fail('There is no draft to send. Prepare one with xos_mail_compose first.');

    const changed = new AbortController();
    const subscription = deps.board.onChange((change) => {
      if (change === 'mail') changed.abort();
    });
    let answer;
    try {
      answer = await deps.confirmer.confirmSend(draft, AbortSignal.any([changed.signal, signal]));
    } finally {
      subscription.dispose();
    }
    if (changed.signal.aborted || !isDeepStrictEqual(deps.board.snapshot().mail, draft)) {
      return fail('Not sent: the draft changed while the person was asked. Check the Board and call xos_mail_send again when the person wants to send it.');
    }
    if (answer !== 'send') {
      return fail(`Not sent: ${answer === 'cancel' ? 'the person chose Cancel' : 'the person did not answer in time'}. The draft stays on the Board.`);
    }
    // Take the draft away before sending so it can never go out twice.
    deps.board.clearMail();
    const { messageId } = await deps.mailer.send(draft);
    return ok(`Sent to ${draft.to.email} (message id ${messageId}).`);
  },
};
