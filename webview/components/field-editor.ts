// <xos-field-editor>: one field of the detail form: its label, an input chosen by
// the field kind (or the read-only value), and the agent's proposal old -> new.
// What the person types is parsed by the same field kind the host uses.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import type { FormField, WebviewTexts } from '../../src/board/viewTypes.ts';
import { StoreController } from '../storeController.ts';
import './ref-picker.ts';
import { fieldEditorStyles } from './field-editor.styles.ts';

export class XosFieldEditor extends LitElement {
  static override styles = fieldEditorStyles;
  static override properties = { field: { attribute: false }, invalid: { state: true } };

  declare field: FormField | undefined;
  declare invalid: boolean;

  private readonly board = new StoreController(this, ['problems']);

  constructor() {
    super();
    this.invalid = false;
  }

  private changed(raw: string | boolean): void {
    const field = this.field!;
    const kind = fieldKind(field.type);
    const value = kind.parse(raw);
    this.invalid = !kind.valid(value);
    this.board.store.edit(field.field, value, raw);
  }

  override render(): TemplateResult {
    const { store } = this.board;
    const field = this.field;
    const texts = store.texts;
    if (!field || !texts) return html``;
    const id = `field-${field.field}`;
    // Accept and Revert name their field for screen readers ("Accept: Last name").
    const action = (kind: 'accept' | 'revert' | 'keepMine' | 'keepTheirs', label: string) => html`<button type="button" class="field-action ${kind}"
      aria-label="${label}: ${field.label}" @click=${() => store.formAction(kind, field.field)}>${label}</button>`;
    const proposal = field.pending
      ? html`<div class="proposal" title=${texts.proposedHint}>
          <del>${field.pending.from}</del><span aria-hidden="true">→</span><ins>${field.pending.to}</ins>
          <vscode-badge class="proposed">${texts.proposed}</vscode-badge>
          ${action('accept', texts.accept)}${action('revert', texts.revert)}
        </div>`
      : store.edited.has(field.field)
        ? html`<div class="own-edit"><vscode-badge class="edited">${texts.edited}</vscode-badge>${action('revert', texts.revert)}</div>`
        : nothing;
    const problem = field.editable ? store.problems[field.field] : undefined;
    const conflict = field.conflict
      ? html`<div class="conflict" role="group" aria-label="${texts.conflictTitle}: ${field.label}">
          <div class="conflict-title">${texts.conflictTitle}</div>
          <dl>
            <dt>${texts.conflictBase}</dt><dd class="base">${field.conflict.base}</dd>
            <dt>${texts.conflictTheirs}</dt><dd class="theirs">${field.conflict.theirs}</dd>
            <dt>${texts.conflictMine}</dt><dd class="mine">${field.conflict.mine}</dd>
          </dl>
          <div class="conflict-actions">${action('keepMine', texts.keepMine)}${action('keepTheirs', texts.keepTheirs)}</div>
        </div>`
      : nothing;
    return html`
      <label for=${id}>${field.label}${field.required && field.editable ? html`<span class="required" aria-hidden="true"> *</span>` : nothing}${this.kept(field, texts)}</label>
      <div class="value field ${field.pending ? 'pending' : ''} ${store.edited.has(field.field) ? 'edited' : ''} ${field.conflict ? 'conflicting' : ''}" data-field=${field.field}>
        ${field.editable ? this.renderInput(id, field) : field.opens && field.type === 'ref'
          ? html`<span class="readonly" id=${id}>${this.link(field.display, field.field)}</span>`
          : html`<span class="readonly" id=${id}>${field.display}</span>`}
        ${field.editable && field.type === 'ref' && field.display
          ? html`<span class="summary">${field.opens ? this.link(field.display, field.field) : field.display}</span>` : nothing}
        ${field.items?.length ? html`<ul class="related" aria-label=${field.label}>
          ${field.items.map((item) => html`<li>${field.opens ? this.link(item.label, field.field, item.key) : item.label}</li>`)}
        </ul>` : nothing}
        ${problem ? html`<div class="problem" id="${id}-problem" role="alert">${problem}</div>` : nothing}
        ${conflict}
        ${field.conflict ? nothing : proposal}
      </div>
    `;
  }

  /** A link to a related record; the host looks the id up in the loaded record. */
  /** A lock on fields the AST keeps from the agent; its text is part of the label for screen readers. */
  private kept(field: FormField, texts: WebviewTexts): TemplateResult | typeof nothing {
    if (!field.keptFromAgent) return nothing;
    const text = field.keptFromAgent === 'hidden' ? texts.hiddenFromAgent : texts.maskedForAgent;
    return html`<span class="kept ${field.keptFromAgent}" title=${text}><span class="codicon-lock" aria-hidden="true">🔒</span><span class="visually-hidden">${text}</span></span>`;
  }

  private link(label: string, field: string, item?: string): TemplateResult {
    const open = (event: Event) => {
      event.preventDefault();
      this.board.store.openFormLink(field, item);
    };
    return html`<a href="#" class="opens" data-item=${item ?? nothing} @click=${open}>${label}</a>`;
  }

  private renderInput(id: string, field: FormField): TemplateResult {
    const { store } = this.board;
    const text = (event: Event) => this.changed((event.target as HTMLInputElement).value);
    // The host checks the AST's rules like the backend; the local check answers at once for the type.
    const isInvalid = this.invalid || store.problems[field.field] !== undefined;
    const invalid = isInvalid ? 'true' : 'false';
    if (field.type === 'ref') return html`<xos-ref-picker input-id=${id} .field=${field} ?invalid=${isInvalid}></xos-ref-picker>`;
    switch (field.input) {
      case 'checkbox':
        return html`<vscode-checkbox id=${id} .checked=${live(store.inputValue(field.field, field.value) === true)} 
          @change=${(event: Event) => this.changed((event.target as HTMLInputElement).checked)}><span class="visually-hidden">${field.label}</span></vscode-checkbox>`;
      case 'select':
        return html`<vscode-single-select id=${id} .value=${live(String(store.inputValue(field.field, field.value)))} .label=${field.label} aria-invalid=${invalid} @change=${text}>
          ${(field.options ?? []).map((o) => html`<vscode-option value=${o.value} ?selected=${o.value === field.value}>${o.label}</vscode-option>`)}
        </vscode-single-select>`;
      case 'textarea':
        return html`<vscode-textarea id=${id} .value=${live(String(store.inputValue(field.field, field.value)))} .label=${field.label} aria-invalid=${invalid} ?invalid=${isInvalid} @input=${text}></vscode-textarea>`;
      default: {
        // A text field typed by the field's kind (fieldTypes.ts): a number, date, date-time or time input, or plain text.
        const editor = fieldKind(field.type).editor;
        const label = editor?.utc ? `${field.label} (UTC)` : field.label;
        return html`<vscode-textfield id=${id} type=${editor?.type ?? nothing} inputmode=${editor?.inputMode ?? nothing} step=${editor?.step ?? nothing}
          min=${editor?.bounds ? field.min ?? nothing : nothing} max=${editor?.bounds ? field.max ?? nothing : nothing}
          .value=${live(String(store.inputValue(field.field, field.value)))} ?required=${field.required && editor === undefined} .label=${label}
          aria-invalid=${invalid} ?invalid=${isInvalid} @input=${text}></vscode-textfield>${editor?.utc ? html`<span class="summary">UTC</span>` : nothing}`;
      }
    }
  }
}

customElements.define('xos-field-editor', XosFieldEditor);
