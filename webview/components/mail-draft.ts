// <xos-mail-draft>: the agent's mail draft as the person's own surface: From, To, Subject
// and Body, editable (edits go to the host as they type), with Send (asked in VS Code like
// xos_mail_send) and Discard.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { MailField } from '../../src/board/protocol.ts';
import { StoreController } from '../storeController.ts';
import { mailDraftStyles } from './mail-draft.styles.ts';

export class XosMailDraft extends LitElement {
  static override styles = mailDraftStyles;
  private readonly board = new StoreController(this, ['mail', 'locale']);

  override render(): TemplateResult {
    const { store } = this.board;
    const mail = store.mail;
    const texts = store.texts;
    if (!mail || !texts) return html``;
    const edit = (field: MailField) => (event: Event) => store.editMail(field, (event.target as HTMLInputElement).value);
    const problem = store.mailProblem;
    // Why Send waits, if it does: mail is not set up, or the recipient is not an address.
    const blocked = mail.from === null ? texts.mailNotSetUp : problem;
    const blockedBy = mail.from === null ? 'mail-blocked' : problem !== null ? 'mail-to-problem' : undefined;
    return html`
      <section class="mail" aria-busy=${mail.sending ? 'true' : 'false'}>
        <h1>${texts.mail}</h1>
        <form class="mail" @submit=${(event: Event) => event.preventDefault()}>
          <span class="label" id="mail-from-label">${texts.mailFrom}</span>
          <span class="from" aria-labelledby="mail-from-label">${mail.from ?? '—'}</span>
          <label for="mail-to">${texts.mailTo}</label>
          <div class="field">
            <vscode-textfield id="mail-to" .label=${texts.mailTo} .value=${mail.to} ?invalid=${problem !== null} aria-invalid=${problem !== null ? 'true' : 'false'}
              aria-describedby=${problem !== null ? 'mail-to-problem' : nothing} ?disabled=${mail.sending || mail.sendAt !== undefined} @input=${edit('to')}></vscode-textfield>
            ${problem !== null ? html`<div id="mail-to-problem" class="problem" role="alert">${problem}</div>` : nothing}
          </div>
          <label for="mail-subject">${texts.mailSubject}</label>
          <vscode-textfield id="mail-subject" .label=${texts.mailSubject} .value=${mail.subject} ?disabled=${mail.sending || mail.sendAt !== undefined} @input=${edit('subject')}></vscode-textfield>
          <label for="mail-body">${texts.mailBody}</label>
          <vscode-textarea id="mail-body" rows="10" .label=${texts.mailBody} .value=${mail.body} ?disabled=${mail.sending || mail.sendAt !== undefined} @input=${edit('body')}></vscode-textarea>
        </form>
        ${mail.sendAt ? html`<div class="actions waiting" role="status">
          <span class="goes-out">${mail.sendAtText}</span>
          <vscode-button class="undo-send" @click=${() => store.mailAction('undo')}>${texts.mailUndo}</vscode-button>
        </div>` : html`<div class="actions">
          <vscode-button class="send" ?disabled=${mail.sending || blocked !== null} aria-describedby=${blockedBy ?? nothing}
            @click=${() => store.mailAction('send')}>${mail.sending ? texts.mailSending : texts.mailSend}</vscode-button>
          <vscode-button secondary class="discard" ?disabled=${mail.sending} @click=${() => store.mailAction('discard')}>${texts.mailDiscard}</vscode-button>
          ${mail.from === null ? html`<span id="mail-blocked" class="blocked">${texts.mailNotSetUp}</span>` : nothing}
        </div>`}
      </section>
    `;
  }
}

customElements.define('xos-mail-draft', XosMailDraft);
