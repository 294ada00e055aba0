// <xos-board>: the app shell. Shows the list grid, the detail form and the mail
// draft as the host sends them, and the status line; the parts render themselves.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { store } from '../state.ts';
import { boardAppStyles } from './board-app.styles.ts';
import './detail-form.ts';
import './list-grid.ts';
import './mail-draft.ts';
import './nav-bar.ts';
import './question-dialog.ts';
import './start-page.ts';
import './status-strip.ts';

export class XosBoard extends LitElement {
  static override styles = boardAppStyles;
  private unsubscribe: (() => void) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    // Only what decides the layout; each part follows its own topic.
    this.unsubscribe = store.subscribe(['locale', 'list', 'detail', 'mail', 'connection'], () => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  override render(): TemplateResult {
    const texts = store.texts;
    if (!texts) return html``;
    const { list, detail, mail } = store;
    const banner = store.connection?.production ? html`<div class="production" role="note">${texts.production}</div>` : nothing;
    if (!list && !detail && !mail) return html`${banner}<xos-start-page></xos-start-page><xos-status-strip></xos-status-strip><xos-question></xos-question>`;
    return html`
      ${banner}
      ${list || detail ? html`<xos-nav-bar></xos-nav-bar>` : nothing}
      ${list ? html`<section class="list"><h1>${list.label}</h1><xos-list-grid></xos-list-grid></section>` : nothing}
      ${detail || mail ? html`<div class="scroll">
        ${detail ? html`<xos-detail-form></xos-detail-form>` : nothing}
        ${mail ? html`<xos-mail-draft></xos-mail-draft>` : nothing}
      </div>` : nothing}
      <xos-status-strip></xos-status-strip>
      <xos-question></xos-question>
    `;
  }
}

customElements.define('xos-board', XosBoard);
