// <xos-mail-draft>: the agent's mail draft; the person's edits go to the host as they type.
import { LitElement, html, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { MailField } from '../../src/board/protocol.ts';
import { store } from '../state.ts';
import { mailDraftStyles } from './mail-draft.styles.ts';

export class XosMailDraft extends LitElement {
  static override styles = mailDraftStyles;
  private unsubscribe: (() => void) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = store.subscribe(['mail', 'locale'], () => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  override render(): TemplateResult {
    const mail = store.mail;
    const texts = store.texts;
    if (!mail || !texts) return html``;
    const edit = (field: MailField) => (event: Event) => store.editMail(field, (event.target as HTMLInputElement).value);
    return html`
      <section class="mail">
        <h1>${texts.mail}</h1>
        <form class="mail" @submit=${(event: Event) => event.preventDefault()}>
          <label for="mail-to">${texts.mailTo}</label>
          <vscode-textfield id="mail-to" .value=${mail.to} @input=${edit('to')}></vscode-textfield>
          <label for="mail-subject">${texts.mailSubject}</label>
          <vscode-textfield id="mail-subject" .value=${mail.subject} @input=${edit('subject')}></vscode-textfield>
          <label for="mail-body">${texts.mailBody}</label>
          <vscode-textarea id="mail-body" rows="10" .value=${mail.body} @input=${edit('body')}></vscode-textarea>
        </form>
      </section>
    `;
  }
}

customElements.define('xos-mail-draft', XosMailDraft);
