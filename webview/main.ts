// The Board webview: for now a placeholder element with an empty state.
import { LitElement, css, html } from 'lit';

export class XosBoard extends LitElement {
  static override styles = css`
    :host {
      display: block;
      padding: 0 1rem;
      color: var(--vscode-foreground);
      font-family: var(--vscode-font-family);
    }
    .empty {
      color: var(--vscode-descriptionForeground);
    }
  `;

  override render() {
    return html`
      <h1>XOS Board</h1>
      <p class="empty">Nothing to show yet. Ask the agent to load the XOS schema and run a query.</p>
    `;
  }
}

customElements.define('xos-board', XosBoard);

// The panel's HTML may already contain the element; otherwise mount one.
if (!document.querySelector('xos-board')) document.body.append(document.createElement('xos-board'));
