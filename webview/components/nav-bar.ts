// <xos-nav-bar>: Back and Forward through the lists and records shown on the Board,
// and a breadcrumb of the last steps. The history lives in the host, so it survives
// hiding the panel; Alt+Left and Alt+Right work anywhere on the Board. The breadcrumb's
// root, the app's name, leads to the start page with the app's lists, as Back does from
// the first step: every list is one step away from every view. The bar is one line whatever
// the trail's length: a breadcrumb that wrapped would move everything below it (the approvals'
// buttons included) under a pointer on its way whenever a step was added.
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { StoreController } from '../storeController.ts';

export class XosNavBar extends LitElement {
  static override styles = css`
    :host { display: flex; align-items: center; gap: 0.25rem; margin-top: 0.6rem; min-height: 1.8em; min-width: 0; }
    nav { flex: 1; min-width: 0; }
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
    ol { display: flex; flex-wrap: nowrap; overflow: hidden; list-style: none; margin: 0 0 0 0.4rem; padding: 0; color: var(--vscode-descriptionForeground); }
    li { white-space: nowrap; flex-shrink: 0; }
    li + li::before { content: '›'; padding: 0 0.4em; }
    /* When the trail is wider than the bar, the earlier steps give way first, then the current one ends in "…"; the root (the way to the start page) stays whole. */
    li.step { flex-shrink: 1000; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
    li.step[aria-current='page'] { flex-shrink: 1; }
    [aria-current='page'] { color: var(--vscode-foreground); }
    button.home { padding: 0 0.3rem; color: var(--vscode-textLink-foreground); }
  `;

  private readonly board = new StoreController(this, ['locale', 'history', 'home', 'list', 'detail', 'mail', 'review']);
  private readonly onKey = (event: KeyboardEvent): void => {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // In a text field Alt/Option+arrows move the caret by word.
    const target = event.composedPath()[0];
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    const { store } = this.board;
    if (event.key === 'ArrowLeft' && store.canBack) store.back();
    else if (event.key === 'ArrowRight' && store.canForward) store.forward();
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
    if (!texts) return html``;
    const home = store.home !== null || !store.showsSomething;
    const app = store.app || texts.title;
    // On the start page the root is where the person is; elsewhere it is the way there.
    const root = home
      ? html`<li aria-current="page">${app}</li>`
      : html`<li><button type="button" class="home" title=${texts.homeHint} @click=${() => store.goHome()}>${app}</button></li>`;
    return html`
      <button type="button" class="back" aria-label=${texts.back} title="${texts.back} (Alt+←)" ?disabled=${!store.canBack} @click=${() => store.back()}>←</button>
      <button type="button" class="forward" aria-label=${texts.forward} title="${texts.forward} (Alt+→)" ?disabled=${!store.canForward} @click=${() => store.forward()}>→</button>
      <nav aria-label=${texts.breadcrumb}><ol>
        ${root}
        ${home ? nothing : store.history.crumbs.map((crumb) => html`<li class="step" title=${crumb.label} aria-current=${crumb.current ? 'page' : nothing}>${crumb.label}</li>`)}
      </ol></nav>
    `;
  }
}

customElements.define('xos-nav-bar', XosNavBar);
