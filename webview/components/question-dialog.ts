// <xos-question>: a question the host asks on the Board page itself (the browser Board,
// where no VS Code notification exists): save, delete, send, or drop unsaved work. A
// WAI-ARIA alertdialog: modal, named by its message, focus on the button that keeps
// things as they are, Escape closes it (which declines). Only a click on the first
// button acts, and not in the first 0.7 s after the question appeared or changed
// (question-timing.ts): the button is aria-disabled and dimmed then, and a click or Enter
// does nothing. Below the buttons: how many more questions wait for their turn.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { StoreController } from '../storeController.ts';
import { ActGuard, questionKey } from './question-timing.ts';

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
    .act[aria-disabled="true"] { opacity: 0.4; cursor: not-allowed; }
    .waiting { margin: 0.75rem 0 0; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
  `;

  private readonly board = new StoreController(this, ['question']);
  private shown: number | undefined;
  private readonly guard = new ActGuard();
  private enableTimer: ReturnType<typeof setTimeout> | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.enableTimer);
  }

  override render(): TemplateResult | typeof nothing {
    const { store } = this.board;
    const question = store.questions.current;
    if (this.guard.show(question ? questionKey(question) : undefined)) {
      // New or changed: the act button waits, then this renders it enabled.
      clearTimeout(this.enableTimer);
      this.enableTimer = setTimeout(() => this.requestUpdate(), this.guard.remaining() + 10);
    }
    if (!question) return nothing;
    const [act, ...keep] = question.buttons;
    const inert = this.guard.inert();
    const waiting = question.waiting ?? 0;
    const texts = store.texts;
    const waitingLine = waiting > 0 && texts
      ? (waiting === 1 ? texts.questionWaitingOne : texts.questionsWaiting.replace('{count}', String(waiting)))
      : undefined;
    return html`<div class="backdrop">
      <div role="alertdialog" aria-modal="true" aria-labelledby="question-text" aria-describedby=${waitingLine ? 'question-waiting' : nothing} data-kind=${question.kind} @keydown=${this.onKeydown}>
        <p id="question-text">${question.message}</p>
        <div class="buttons">
          <vscode-button class="act" aria-disabled=${inert ? 'true' : 'false'} @click=${(event: Event) => this.act(event, act)}>${act}</vscode-button>
          ${keep.map((title) => html`<vscode-button secondary class="keep" @click=${() => store.questions.answer(title)}>${title}</vscode-button>`)}
        </div>
        ${waitingLine ? html`<p class="waiting" id="question-waiting" role="status">${waitingLine}</p>` : nothing}
      </div>
    </div>`;
  }

  /** The act button: nothing while it is inert (a click or Enter meant for what was there before). */
  private act(event: Event, title: string): void {
    if (this.guard.inert()) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    this.board.store.questions.answer(title);
  }

  override updated(): void {
    const question = this.board.store.questions.current;
    if (!question || this.shown === question.id) return;
    this.shown = question.id;
    // Focus starts on the button that changes nothing, so a stray Enter does not save or send.
    const keep = this.renderRoot.querySelector<HTMLElement>('.keep') ?? this.renderRoot.querySelector<HTMLElement>('.act');
    keep?.focus();
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.board.store.questions.answer(null);
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
