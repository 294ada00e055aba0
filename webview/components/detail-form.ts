// <xos-detail-form>: a detail context as a form, one <xos-field-editor> per field,
// and Save (which runs the same save as the agent's xos_ui_save).
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { StoreController } from '../storeController.ts';
import { detailFormStyles } from './detail-form.styles.ts';
import './field-editor.ts';
import './record-history.ts';

export class XosDetailForm extends LitElement {
  static override styles = detailFormStyles;
  private readonly board = new StoreController(this, ['detail', 'locale', 'problems', 'presence']);

  override render(): TemplateResult {
    const { store } = this.board;
    const detail = store.detail;
    const texts = store.texts;
    if (!detail || !texts) return html``;
    return html`
      <h1>${detail.label}</h1>
      <div class="summary" data-version=${detail.version ?? nothing}>${detail.summary}${store.dirty ? html` · <span class="unsaved">${texts.unsaved}</span>` : nothing}</div>
      ${detail.readOnly ? html`<p class="read-only" role="note">${detail.readOnly}</p>` : nothing}
      ${detail.deleted ? html`<p class="deleted" role="alert">${texts.deletedMeanwhile}</p>` : nothing}
      ${store.presence.length && !detail.isNew ? html`<div class="presence" role="status" aria-label=${texts.presenceLabel}>
        ${store.presence.map((other) => html`<span class=${other.editing ? 'editing' : 'viewing'}>${(other.editing ? texts.personEditing : texts.personViewing).replace('{name}', other.person)}</span>`)}
      </div>` : nothing}
      ${detail.proposals > 1 ? html`<div class="bulk">
        <vscode-button secondary class="accept-all" @click=${() => store.formAction('acceptAll')}>${texts.acceptAll}</vscode-button>
        <vscode-button secondary class="revert-all" @click=${() => store.formAction('revertAll')}>${texts.revertAll}</vscode-button>
      </div>` : nothing}
      <form class="detail" data-context=${detail.context} @submit=${(event: Event) => event.preventDefault()}>
        ${detail.sections.map((section) => {
          const editors = section.fields.map((name) => detail.fields.find((f) => f.field === name)).filter((f) => f !== undefined)
            .map((field) => html`<xos-field-editor data-field=${field.field} .field=${field}></xos-field-editor>`);
          // The generic layout is one untitled section; the AST's sections are fieldsets with a legend.
          return section.label
            ? html`<fieldset class="section"><legend>${section.label}</legend><div class="fields">${editors}</div></fieldset>`
            : html`<div class="fields">${editors}</div>`;
        })}
      </form>
      ${detail.canSave ? this.saveAction(texts.save, texts.fixProblems) : nothing}
      <xos-record-history></xos-record-history>
    `;
  }

  /** Save, disabled (and saying why) while a field's value cannot be saved. */
  private saveAction(save: string, fixProblems: string): TemplateResult {
    const { store } = this.board;
    const conflicts = (store.detail?.conflicts ?? 0) > 0;
    const blocked = conflicts || Object.keys(store.problems).length > 0;
    const why = conflicts ? store.texts?.settleConflicts : fixProblems;
    return html`<div class="actions">
      <vscode-button class="save" ?disabled=${blocked} aria-describedby=${blocked ? 'save-blocked' : nothing} @click=${() => store.save()}>${save}</vscode-button>
      ${store.detail?.canDelete ? html`<vscode-button secondary class="delete" @click=${() => store.deleteRecord()}>${store.texts?.delete}</vscode-button>` : nothing}
      ${store.dirty ? html`<vscode-button secondary class="discard" @click=${() => store.formAction('discard')}>${store.texts?.discard}</vscode-button>` : nothing}
      ${blocked ? html`<span id="save-blocked" class="blocked">${why}</span>` : nothing}
    </div>`;
  }
}

customElements.define('xos-detail-form', XosDetailForm);
