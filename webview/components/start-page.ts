// <xos-start-page>: what the Board shows before anything is on it. The app's lists, each
// a button that opens it (the same path as the agent's xos_query), so a person can work
// without an agent.
import { LitElement, css, html, type TemplateResult } from 'lit';
import { StoreController } from '../storeController.ts';

export class XosStartPage extends LitElement {
  static override styles = css`
    :host { display: block; }
    h1 { font-size: 1.3em; font-weight: 600; margin: 1rem 0 0.5rem; }
    .empty { color: var(--vscode-descriptionForeground); }
    ul { list-style: none; margin: 0.75rem 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
    button {
      font: inherit;
      color: var(--vscode-button-secondaryForeground);
      background: var(--vscode-button-secondaryBackground);
      border: 1px solid var(--vscode-button-border, transparent);
      border-radius: 2px;
      padding: 0.35rem 0.8rem;
      cursor: pointer;
    }
    button:hover { background: var(--vscode-button-secondaryHoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
    .entity { color: var(--vscode-descriptionForeground); margin-left: 0.4em; }
  `;

  private readonly board = new StoreController(this, ['locale', 'home', 'list', 'detail', 'mail', 'review']);

  // Shown over a list or record by the breadcrumb's root or Back: focus goes to the first list, not lost with the button that was pressed.
  protected override firstUpdated(): void {
    if (this.board.store.home) this.renderRoot.querySelector<HTMLButtonElement>('nav button')?.focus();
  }

  override render(): TemplateResult {
    const { store } = this.board;
    const texts = store.texts;
    if (!texts) return html``;
    // Two lists of one entity are told apart by the entity's label.
    const labels = store.contexts.map((c) => c.label);
    return html`
      <h1>${store.app || texts.title}</h1>
      <p class="empty">${store.showsSomething ? texts.homeLead : texts.empty}</p>
      <nav aria-label=${texts.openContexts}>
        <ul>
          ${store.contexts.map((context) => html`<li><button type="button" data-context=${context.name} @click=${() => store.openContext(context.name)}>${context.label}${
            labels.indexOf(context.label) !== labels.lastIndexOf(context.label) ? html`<span class="entity">(${context.entityLabel})</span>` : ''
          }</button></li>`)}
        </ul>
      </nav>
    `;
  }
}

customElements.define('xos-start-page', XosStartPage);
