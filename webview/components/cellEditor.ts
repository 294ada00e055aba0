// The in-place editor of a grid cell, chosen by the field's input kind like the form's: the review
// grid's proposed cells and the list grid's editable ones use this one piece.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ReviewColumn } from '../../src/board/viewTypes.ts';

export interface CellEditorHandlers {
  readonly input: (event: Event) => void;
  readonly key: (event: KeyboardEvent) => void;
  readonly blur: (event: FocusEvent) => void;
}

/** `raw`: the value as the input holds it (a string, or a boolean for a checkbox); `label`: the editor's accessible name. */
export function cellEditor(column: ReviewColumn, raw: string | boolean, label: string, invalid: boolean, on: CellEditorHandlers): TemplateResult {
  const text = String(raw);
  const ariaInvalid = invalid ? 'true' : 'false';
  switch (column.input) {
    case 'checkbox':
      return html`<input class="editor" type="checkbox" aria-label=${label} aria-invalid=${ariaInvalid} .checked=${live(raw === true)}
        @change=${on.input} @keydown=${on.key} @blur=${on.blur}>`;
    case 'select':
      return html`<select class="editor" aria-label=${label} aria-invalid=${ariaInvalid} @change=${on.input} @keydown=${on.key} @blur=${on.blur}>
        ${(column.options ?? []).map((o) => html`<option value=${o.value} ?selected=${o.value === text}>${o.label}</option>`)}
      </select>`;
    case 'number':
      // Decimals keep their exact digits: a text input, since a number input would round them.
      return column.type === 'int'
        ? html`<input class="editor" type="number" min=${column.min ?? nothing} max=${column.max ?? nothing} aria-label=${label} aria-invalid=${ariaInvalid}
            .value=${live(text)} @input=${on.input} @keydown=${on.key} @blur=${on.blur}>`
        : html`<input class="editor" type="text" inputmode="decimal" aria-label=${label} aria-invalid=${ariaInvalid}
            .value=${live(text)} @input=${on.input} @keydown=${on.key} @blur=${on.blur}>`;
    case 'date':
      return html`<input class="editor" type="date" aria-label=${label} aria-invalid=${ariaInvalid}
        .value=${live(text)} @input=${on.input} @keydown=${on.key} @blur=${on.blur}>`;
    case 'datetime':
      return html`<input class="editor" type="datetime-local" aria-label="${label} (UTC)" aria-invalid=${ariaInvalid}
        .value=${live(text)} @input=${on.input} @keydown=${on.key} @blur=${on.blur}>`;
    default:
      return html`<input class="editor" type="text" aria-label=${label} aria-invalid=${ariaInvalid} ?required=${column.required}
        .value=${live(text)} @input=${on.input} @keydown=${on.key} @blur=${on.blur}>`;
  }
}

/** The raw value an input event leaves in the editor. */
export function editorRaw(event: Event): string | boolean {
  const target = event.target as HTMLInputElement | HTMLSelectElement;
  return target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
}
