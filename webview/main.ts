// The Board webview: renders what the host sends (a list as a table, a detail
// as a form with the agent's proposals marked, a mail draft) and reports the
// person's edits, row clicks and Save back to the host.
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { valueFromInput } from '../src/board/formValues.ts';
import * as protocol from '../src/board/protocol.ts';
import type { BoardView, DetailBlock, FormField, ListBlock, MailBlock } from '../src/board/view.ts';
import { hostEndpoint } from './transport.ts';

export class XosBoard extends LitElement {
  static override properties = { view: { state: true } };

  declare view: BoardView | undefined;
  /** The person's edits of the shown record, for the host's formData request. */
  private edits = new Map<string, unknown>();
  private shownRecord: string | undefined;

  static override styles = css`
    :host {
      display: block;
      padding: 0 1rem 1rem;
      color: var(--vscode-foreground);
      font-family: var(--vscode-font-family);
      font-size: var(--vscode-font-size);
    }
    h1 { font-size: 1.3em; font-weight: 600; margin: 1rem 0 0.25rem; }
    .summary, .empty { color: var(--vscode-descriptionForeground); }
    table { border-collapse: collapse; width: 100%; margin-top: 0.5rem; }
    th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    th { font-weight: 600; color: var(--vscode-foreground); }
    td.numeric, th.numeric { text-align: right; font-variant-numeric: tabular-nums; }
    tr.row.navigable { cursor: pointer; }
    tr.row:hover { background: var(--vscode-list-hoverBackground); }
    tr.row:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    form { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 6px 12px; align-items: start; margin-top: 0.75rem; }
    label { padding-top: 4px; }
    .value { display: flex; flex-direction: column; gap: 2px; }
    .readonly { padding-top: 4px; }
    .field.pending vscode-textfield, .field.pending vscode-textarea, .field.pending vscode-single-select {
      outline: 1px solid var(--vscode-inputValidation-warningBorder, var(--vscode-editorWarning-foreground));
    }
    .proposal { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; color: var(--vscode-descriptionForeground); }
    .proposal del { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-errorForeground)); }
    .proposal ins { text-decoration: none; color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-foreground)); font-weight: 600; }
    .actions { margin-top: 1rem; }
    section.mail { margin-top: 1.5rem; }
    vscode-textfield, vscode-textarea, vscode-single-select { width: 100%; max-width: 40rem; }
    vscode-textarea { min-height: 6rem; }
  `;

  override connectedCallback(): void {
    super.connectedCallback();
    hostEndpoint.onNotification(protocol.render, ({ view }) => this.show(view));
    hostEndpoint.onRequest(protocol.formData, () => Object.fromEntries(this.edits));
    hostEndpoint.notify(protocol.ready, {});
  }

  private show(view: BoardView): void {
    const record = view.detail?.key;
    if (record !== this.shownRecord) this.edits.clear();
    this.shownRecord = record;
    this.view = view;
    document.documentElement.lang = view.locale;
  }

  override render(): TemplateResult {
    const view = this.view;
    if (!view) return html``;
    const { list, detail, mail } = view;
    if (!list && !detail && !mail) return html`<h1>${view.texts.title}</h1><p class="empty">${view.texts.empty}</p>`;
    return html`
      ${list ? this.renderList(list) : nothing}
      ${detail ? this.renderDetail(detail, view) : nothing}
      ${mail ? this.renderMail(mail, view) : nothing}
    `;
  }

  private renderList(list: ListBlock): TemplateResult {
    const open = (row: number) => hostEndpoint.notify(protocol.navigateRow, { row });
    const onKey = (event: KeyboardEvent, row: number) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        open(row);
      }
    };
    return html`
      <h1>${list.label}</h1>
      <div class="summary">${list.summary}</div>
      <table class="list" data-context=${list.context}>
        <thead><tr>${list.columns.map((c) => html`<th class=${c.numeric ? 'numeric' : ''} scope="col">${c.label}</th>`)}</tr></thead>
        <tbody>
          ${list.rows.map((cells, row) => html`
            <tr class="row ${list.navigable ? 'navigable' : ''}" data-row=${row}
              tabindex=${list.navigable ? 0 : -1}
              @click=${list.navigable ? () => open(row) : undefined}
              @keydown=${list.navigable ? (event: KeyboardEvent) => onKey(event, row) : undefined}>
              ${cells.map((cell, i) => html`<td class=${list.columns[i].numeric ? 'numeric' : ''}>${cell}</td>`)}
            </tr>`)}
        </tbody>
      </table>
    `;
  }

  private renderDetail(detail: DetailBlock, view: BoardView): TemplateResult {
    return html`
      <h1>${detail.label}</h1>
      <div class="summary">${detail.summary}</div>
      <form class="detail" data-context=${detail.context} @submit=${(event: Event) => event.preventDefault()}>
        ${detail.fields.map((field) => this.renderField(field, view))}
      </form>
      ${detail.canSave ? html`<div class="actions"><vscode-button class="save" @click=${() => hostEndpoint.notify(protocol.save, {})}>${view.texts.save}</vscode-button></div>` : nothing}
    `;
  }

  private changed(field: FormField, raw: string | boolean): void {
    const value = valueFromInput(field.input, raw, field.type === 'int');
    this.edits.set(field.field, value);
    hostEndpoint.notify(protocol.edit, { field: field.field, value });
  }

  private renderField(field: FormField, view: BoardView): TemplateResult {
    const id = `field-${field.field}`;
    const proposal = field.pending
      ? html`<div class="proposal" title=${view.texts.proposedHint}>
          <del>${field.pending.from}</del><span aria-hidden="true">→</span><ins>${field.pending.to}</ins>
          <vscode-badge class="proposed">${view.texts.proposed}</vscode-badge>
        </div>`
      : nothing;
    return html`
      <label for=${id}>${field.label}</label>
      <div class="value field ${field.pending ? 'pending' : ''}" data-field=${field.field}>
        ${field.editable ? this.renderInput(id, field) : html`<span class="readonly" id=${id}>${field.display}</span>`}
        ${field.editable && field.type === 'ref' && field.display ? html`<span class="summary">${field.display}</span>` : nothing}
        ${proposal}
      </div>
    `;
  }

  private renderInput(id: string, field: FormField): TemplateResult {
    const text = (event: Event) => this.changed(field, (event.target as HTMLInputElement).value);
    switch (field.input) {
      case 'checkbox':
        return html`<vscode-checkbox id=${id} .checked=${field.value === true}
          @change=${(event: Event) => this.changed(field, (event.target as HTMLInputElement).checked)}></vscode-checkbox>`;
      case 'select':
        return html`<vscode-single-select id=${id} .value=${String(field.value)} @change=${text}>
          ${(field.options ?? []).map((o) => html`<vscode-option value=${o.value} ?selected=${o.value === field.value}>${o.label}</vscode-option>`)}
        </vscode-single-select>`;
      case 'textarea':
        return html`<vscode-textarea id=${id} .value=${String(field.value)} @input=${text}></vscode-textarea>`;
      case 'number':
        // Decimals keep their exact digits: a text field, since a number input would round and flag them.
        return field.type === 'int'
          ? html`<vscode-textfield id=${id} type="number" .value=${String(field.value)} @input=${text}></vscode-textfield>`
          : html`<vscode-textfield id=${id} inputmode="decimal" .value=${String(field.value)} @input=${text}></vscode-textfield>`;
      case 'date':
        return html`<vscode-textfield id=${id} type="date" .value=${String(field.value)} @input=${text}></vscode-textfield>`;
      default:
        return html`<vscode-textfield id=${id} .value=${String(field.value)} ?required=${field.required} @input=${text}></vscode-textfield>`;
    }
  }

  private renderMail(mail: MailBlock, view: BoardView): TemplateResult {
    const edit = (field: protocol.MailField) => (event: Event) =>
      hostEndpoint.notify(protocol.editMail, { field, value: (event.target as HTMLInputElement).value });
    return html`
      <section class="mail">
        <h1>${view.texts.mail}</h1>
        <form class="mail" @submit=${(event: Event) => event.preventDefault()}>
          <label for="mail-to">${view.texts.mailTo}</label>
          <vscode-textfield id="mail-to" .value=${mail.to} @input=${edit('to')}></vscode-textfield>
          <label for="mail-subject">${view.texts.mailSubject}</label>
          <vscode-textfield id="mail-subject" .value=${mail.subject} @input=${edit('subject')}></vscode-textfield>
          <label for="mail-body">${view.texts.mailBody}</label>
          <vscode-textarea id="mail-body" rows="10" .value=${mail.body} @input=${edit('body')}></vscode-textarea>
        </form>
      </section>
    `;
  }
}

customElements.define('xos-board', XosBoard);

// The panel's HTML already contains the element; mount one if it does not.
if (!document.querySelector('xos-board')) document.body.append(document.createElement('xos-board'));
