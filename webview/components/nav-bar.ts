// <xos-nav-bar>: Back and Forward through the lists and records shown on the Board,
// and a breadcrumb of the last steps. The history lives in the host, so it survives
// hiding the panel; Alt+Left and Alt+Right work anywhere on the Board.
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { StoreController } from '../storeController.ts';

export class XosNavBar extends LitElement {
  static override styles = css`
    :host { display: flex; align-items: center; gap: 0.25rem; margin-top: 0.6rem; min-height: 1.8em; }
    button {
      font: inherit;
      color: var(--vscode-foreground);
      background: transparent;
      border: 1px solid transparent;
      border-radius: 3px;
      padding: 0.1rem 0.45rem;
      cursor: pointer;
    }
    button:hover:not(:disabled) { background: var(--vscode-toolbar-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
    button:disabled { opacity: 0.4; cursor: default; }
    ol { display: flex; flex-wrap: wrap; list-style: none; margin: 0 0 0 0.4rem; padding: 0; color: var(--vscode-descriptionForeground); }
    li + li::before { content: '›'; padding: 0 0.4em; }
    [aria-current='page'] { color: var(--vscode-foreground); }
  `;

  private readonly board = new StoreController(this, ['locale', 'history']);
  private readonly onKey = (event: KeyboardEvent): void => {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // In a text field Alt/Option+arrows move the caret by word.
    const target = event.composedPath()[0];
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    const { store } = this.board;
    if (event.key === 'ArrowLeft' && store.history.canBack) store.navigate('back');
    else if (event.key === 'ArrowRight' && store.history.canForward) store.navigate('forward');
    else return;
    event.preventDefault();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this.onKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onKey);
  }

  override render(): TemplateResult {
    const { store } = this.board;
    const texts = store.texts;
    const { canBack, canForward, crumbs } = store.history;
    if (!texts) return html``;
    return html`
      <button type="button" class="back" aria-label=${texts.back} title="${texts.back} (Alt+←)" ?disabled=${!canBack} @click=${() => store.navigate('back')}>←</button>
      <button type="button" class="forward" aria-label=${texts.forward} title="${texts.forward} (Alt+→)" ?disabled=${!canForward} @click=${() => store.navigate('forward')}>→</button>
      ${crumbs.length ? html`<nav aria-label=${texts.breadcrumb}><ol>
        ${crumbs.map((crumb) => html`<li aria-current=${crumb.current ? 'page' : nothing}>${crumb.label}</li>`)}
      </ol></nav>` : nothing}
    `;
  }
}

customElements.define('xos-nav-bar', XosNavBar);
