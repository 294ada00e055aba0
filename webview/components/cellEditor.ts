// The in-place editor of a grid cell, chosen by the field's input kind like the form's: the review
// grid's proposed cells and the list grid's editable ones use this one piece.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import type { ReviewColumn, WebviewTexts } from '../../src/board/viewTypes.ts';
import { localProblem } from './reviewText.ts';

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
    default: {
      // A text input typed by the field's kind (fieldTypes.ts), as the form's.
      const editor = fieldKind(column.type).editor;
      return html`<input class="editor" type=${editor?.type ?? 'text'} inputmode=${editor?.inputMode ?? nothing} step=${editor?.step ?? nothing}
        min=${editor?.bounds ? column.min ?? nothing : nothing} max=${editor?.bounds ? column.max ?? nothing : nothing}
        aria-label=${editor?.utc ? `${label} (UTC)` : label} aria-invalid=${ariaInvalid} ?required=${column.required && editor === undefined}
        .value=${live(text)} @input=${on.input} @keydown=${on.key} @blur=${on.blur}>`;
    }
  }
}

/** The typed value in the field's value form, and what the page finds wrong with it (the host checks it again). */
export function typedValue(column: ReviewColumn, raw: string | boolean, texts: WebviewTexts, locale: string): { readonly value: unknown; readonly problem?: string } {
  const value = fieldKind(column.type).parse(raw);
  const problem = localProblem(column, value, texts, numberFormat(locale));
  return problem === undefined ? { value } : { value, problem };
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** The number format of a locale, made once. */
export function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, format = new Intl.NumberFormat(locale));
  return format;
}

/** The raw value an input event leaves in the editor. */
export function editorRaw(event: Event): string | boolean {
  const target = event.target as HTMLInputElement | HTMLSelectElement;
  return target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
}

/** What an open cell editor asks of its grid. */
export interface EditingGrid {
  /** Whether an edit is open. */
  editing(): boolean;
  /** The raw value changed (typed, picked, ticked). */
  input(event: Event): void;
  /** Keeps the typed value when it passes (`refocus`: the grid takes focus back). */
  commit(refocus: boolean): void;
  cancel(): void;
}

/**
 * The editor's events as both grids handle them: the grid's own keys do not apply while typing,
 * Enter keeps the value, Escape cancels, and leaving the cell keeps what was typed, as a
 * spreadsheet does (Enter and Escape closed it already).
 */
export function editorHandlers(grid: EditingGrid): CellEditorHandlers {
  return {
    input: (event) => grid.input(event),
    key: (event) => {
      event.stopPropagation();
      if (event.key === 'Enter') {
        event.preventDefault();
        grid.commit(true);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        grid.cancel();
      }
    },
    blur: (event) => {
      if (grid.editing() && (event.target as HTMLElement).isConnected) grid.commit(false);
    },
  };
}

/** A key on the grid while an edit stays open (its value did not pass): Escape drops it, Enter or F2 goes back to the editor, others do nothing. */
export function keyWhileEditing(event: KeyboardEvent, root: ParentNode, cancel: () => void): void {
  if (event.key === 'Escape') cancel();
  else if (event.key === 'Enter' || event.key === 'F2') root.querySelector<HTMLElement>('.editor')?.focus();
  else return;
  event.preventDefault();
}
