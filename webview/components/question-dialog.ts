// <xos-question>: a question the host asks on the Board page itself (the browser Board,
// where no VS Code notification exists): save, delete, send, or drop unsaved work. A
// WAI-ARIA alertdialog: modal, named by its message, focus on the button that keeps
// things as they are, Escape closes it (which declines). Only a click on the first
// button acts.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { store } from '../state.ts';

export class XosQuestion extends LitElement {
  static override styles = css`
    :host { display: contents; }
    .backdrop { position: fixed; inset: 0; background: rgb(0 0 0 / 35%); display: flex; align-items: center; justify-content: center; z-index: 10; }
    [role="alertdialog"] {
      max-width: min(40rem, 90vw); padding: 1rem 1.25rem; border-radius: 4px;
      color: var(--vscode-foreground); background: var(--vscode-editorWidget-background, var(--vscode-editor-background));
      border: 1px solid var(--vscode-editorWidget-border, var(--vscode-contrastBorder, transparent));
      box-shadow: 0 4px 16px rgb(0 0 0 / 40%);
    }
    p { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0 0 1rem; }
    .buttons { display: flex; gap: 0.5rem; justify-content: flex-end; }
  `;

  private unsubscribe: (() => void) | undefined;
  private shown: number | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = store.subscribe(['question'], () => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  override render(): TemplateResult | typeof nothing {
    const question = store.question;
    if (!question) return nothing;
    const [act, ...keep] = question.buttons;
    return html`<div class="backdrop">
      <div role="alertdialog" aria-modal="true" aria-labelledby="question-text" data-kind=${question.kind} @keydown=${this.onKeydown}>
        <p id="question-text">${question.message}</p>
        <div class="buttons">
          <vscode-button class="act" @click=${() => store.answer(act)}>${act}</vscode-button>
          ${keep.map((title) => html`<vscode-button secondary class="keep" @click=${() => store.answer(title)}>${title}</vscode-button>`)}
        </div>
      </div>
    </div>`;
  }

  override updated(): void {
    const question = store.question;
    if (!question || this.shown === question.id) return;
    this.shown = question.id;
    // Focus starts on the button that changes nothing, so a stray Enter does not save or send.
    const keep = this.renderRoot.querySelector<HTMLElement>('.keep') ?? this.renderRoot.querySelector<HTMLElement>('.act');
    keep?.focus();
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      store.answer(null);
    } else if (event.key === 'Tab') {
      // Focus stays in the dialog while it is open.
      const buttons = [...this.renderRoot.querySelectorAll<HTMLElement>('vscode-button')];
      const index = buttons.indexOf((this.renderRoot as ShadowRoot).activeElement as HTMLElement);
      const next = (index + (event.shiftKey ? -1 : 1) + buttons.length) % buttons.length;
      event.preventDefault();
      buttons[next]?.focus();
    }
  }
}

customElements.define('xos-question', XosQuestion);
