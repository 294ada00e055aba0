// <xos-status-strip>: one line the host sends (a save in progress, its outcome,
// a row that could not be opened, an export), announced politely to screen readers.
import { LitElement, html, type TemplateResult } from 'lit';
import { store } from '../state.ts';
import { statusStripStyles } from './status-strip.styles.ts';

export class XosStatusStrip extends LitElement {
  static override styles = statusStripStyles;
  private unsubscribe: (() => void) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = store.subscribe(['status'], () => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  override render(): TemplateResult {
    const status = store.status;
    return html`<div role="status" aria-live="polite" class=${status?.kind ?? ''}>${status?.text ?? ''}</div>`;
  }
}

customElements.define('xos-status-strip', XosStatusStrip);
