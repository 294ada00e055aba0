// <xos-ref-picker>: a reference field of the form as a combobox (WAI-ARIA combobox with a
// listbox popup). Typing searches the related records by name in the backend; arrows move,
// Enter picks, Escape closes. The field's value becomes the picked record's id.
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import type { RefChoice } from '../../src/core/domain.ts';
import type { FormField } from '../../src/board/viewTypes.ts';
import { StoreController } from '../storeController.ts';

const SEARCH_DELAY_MS = 150;

export class XosRefPicker extends LitElement {
  static override properties = { field: { attribute: false }, inputId: { attribute: 'input-id' }, invalid: { type: Boolean } };
  static override styles = css`
    :host { display: block; position: relative; width: 100%; max-width: 40rem; }
    input {
      box-sizing: border-box; width: 100%;
      font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background);
      border: 1px solid var(--vscode-input-border, var(--vscode-settings-textInputBorder, transparent)); border-radius: 2px;
      padding: 3px 6px; min-height: 26px;
    }
    input:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    input[aria-invalid='true'] { border-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
    ul {
      position: absolute; z-index: 10; left: 0; right: 0; margin: 2px 0 0; padding: 2px 0; list-style: none;
      max-height: 14rem; overflow: auto;
      color: var(--vscode-editorSuggestWidget-foreground, var(--vscode-foreground));
      background: var(--vscode-editorSuggestWidget-background, var(--vscode-dropdown-background));
      border: 1px solid var(--vscode-editorSuggestWidget-border, var(--vscode-dropdown-border));
    }
    li { padding: 2px 8px; cursor: pointer; }
    li[aria-selected='true'] {
      color: var(--vscode-list-activeSelectionForeground); background: var(--vscode-list-activeSelectionBackground);
      outline: 1px solid var(--vscode-list-focusOutline, transparent);
    }
    .empty { color: var(--vscode-descriptionForeground); cursor: default; }
  `;

  declare field: FormField | undefined;
  declare inputId: string;
  declare invalid: boolean;
  private text: string | undefined;
  private choices: readonly RefChoice[] = [];
  private open = false;
  private active = -1;
  private searched = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped per search; an older answer is dropped. */
  private generation = 0;
  /** The store only: the picker asks for choices and edits; the form re-renders it. */
  private readonly board = new StoreController(this, []);

  constructor() {
    super();
    this.inputId = '';
    this.invalid = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private get options(): readonly RefChoice[] {
    // An optional ref can be emptied: the first choice is "none".
    const none = this.field && !this.field.required ? [{ id: '', label: this.board.store.texts?.none ?? '—' }] : [];
    return [...none, ...this.choices];
  }

  private search(text: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const generation = ++this.generation;
      this.board.store.refChoices(this.field!.field, text).then((choices) => {
        if (generation !== this.generation) return;
        this.choices = choices;
        this.searched = text;
        // With a search, the first match is active (Enter takes it); without one, the current choice "none".
        const offset = this.options.length - this.choices.length;
        this.active = text && this.choices.length ? offset : this.options.length ? 0 : -1;
        this.open = true;
        this.requestUpdate();
      }, () => {
        if (generation !== this.generation) return;
        this.choices = [];
        this.open = true;
        this.requestUpdate();
      });
    }, SEARCH_DELAY_MS);
  }

  private pick(choice: RefChoice): void {
    const field = this.field!;
    this.board.store.edit(field.field, choice.id === '' ? null : choice.id);
    this.text = choice.id === '' ? '' : choice.label;
    this.open = false;
    this.active = -1;
    this.requestUpdate();
  }

  private onInput(event: Event): void {
    this.text = (event.target as HTMLInputElement).value;
    this.search(this.text);
  }

  private onFocus(): void {
    if (!this.open) this.search(this.text ?? '');
  }

  private onKey(event: KeyboardEvent): void {
    const options = this.options;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!this.open) this.search(this.text ?? '');
      else if (options.length) this.active = (this.active + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length;
    } else if (event.key === 'Enter' && this.open && this.active >= 0) {
      this.pick(options[this.active]);
    } else if (event.key === 'Escape' && this.open) {
      this.open = false;
      this.text = undefined;
    } else return;
    event.preventDefault();
    event.stopPropagation();
    this.requestUpdate();
  }

  private onBlur(): void {
    // A click on an option lands before the blur's timer runs out.
    setTimeout(() => {
      if (this.shadowRoot?.activeElement) return;
      this.open = false;
      this.requestUpdate();
    }, 150);
  }

  override render(): TemplateResult {
    const field = this.field;
    if (!field) return html``;
    const listId = `${this.inputId}-choices`;
    const options = this.options;
    const shown = this.text ?? field.display.replace(/^—$/, '');
    return html`
      <input id=${this.inputId} type="text" role="combobox" aria-autocomplete="list" aria-label=${field.label}
        aria-expanded=${this.open ? 'true' : 'false'} aria-controls=${listId}
        aria-activedescendant=${this.open && this.active >= 0 ? `${listId}-${this.active}` : nothing}
        aria-invalid=${this.invalid ? 'true' : 'false'} autocomplete="off"
        .value=${shown} @input=${this.onInput} @focus=${this.onFocus} @keydown=${this.onKey} @blur=${this.onBlur}>
      ${this.open ? html`<ul role="listbox" id=${listId} aria-label=${field.label}>
        ${options.length
          ? options.map((choice, i) => html`<li role="option" id="${listId}-${i}" data-id=${choice.id} aria-selected=${i === this.active ? 'true' : 'false'}
              @mousedown=${(event: Event) => event.preventDefault()} @click=${() => this.pick(choice)}>${choice.label}</li>`)
          : html`<li class="empty" role="option" aria-disabled="true" aria-selected="false">${this.searched ? `“${this.searched}”: —` : '—'}</li>`}
      </ul>` : nothing}
    `;
  }
}

customElements.define('xos-ref-picker', XosRefPicker);
