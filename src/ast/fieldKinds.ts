// The field-kind registry as the Board reads it: per field type, how the Board inputs, parses,
// checks and formats a value, and how the quick filter matches it — each type's `kind` in
// fieldTypes.ts, plus the two kinds that are not AST types (an inverse relation's list, an unknown
// type). The host's view model, the use cases and the webview all read this, so a type behaves the
// same in the form, the grid, the CSV and the backend filter. Browser-safe: no Node or VS Code imports.
import type { FieldType } from './schema.ts';
import { isEmpty, plainText, textKind, type FieldKind } from './boardFormats.ts';
import { fieldType, isFieldType } from './fieldTypes.ts';

export type { FieldKind, FilterHints, FormatContext, InputKind, TextEditor } from './boardFormats.ts';

/** A field type as the Board knows it; `list` is an inverse relation (shown as its count). */
export type BoardFieldType = FieldType | 'list' | 'unknown';

// A list field (an inverse relation) is shown as its count; an unknown type as text.
const LIST_KIND: FieldKind = { ...textKind(), format: (value, c) => (Array.isArray(value) ? String(value.length) : isEmpty(value) ? c.none : plainText(value)), quickFilter: () => undefined };
const UNKNOWN_KIND: FieldKind = textKind();

export function fieldKind(type: BoardFieldType): FieldKind {
  if (type === 'list') return LIST_KIND;
  return isFieldType(type) ? fieldType(type).kind : UNKNOWN_KIND;
}
