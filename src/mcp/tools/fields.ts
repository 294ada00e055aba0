// Field helpers the tools share: context lookup with a helpful refusal, and
// values in their canonical form so form data and stored records compare.
import { z } from 'zod';
import type { Ast, ContextDef, FieldDef } from '../../ast/schema.ts';
import { resolveText } from '../../ast/locale.ts';
import { coerceFieldValue, describeValue } from '../../backend/values.ts';

export function findContext(ast: Ast, name: string): ContextDef | undefined {
  return Object.hasOwn(ast.contexts, name) ? ast.contexts[name] : undefined;
}

export function unknownContextText(ast: Ast, name: string): string {
  return `Unknown context "${name}". Known contexts: ${Object.keys(ast.contexts).join(', ')}. Call xos_schema to see them with their fields.`;
}

export function fieldDef(ast: Ast, entity: string, field: string): FieldDef | undefined {
  const fields = ast.entities[entity].fields;
  return Object.hasOwn(fields, field) ? fields[field] : undefined;
}

/** A ref may be given or shown as its related object; its id is what is stored. */
function refId(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'id' in value) return (value as { id: unknown }).id;
  return value;
}

/** The canonical storage form of a value; throws FieldValueError when it does not fit the field. */
export function canonicalValue(entity: string, field: string, def: FieldDef, value: unknown): unknown {
  return coerceFieldValue(entity, field, def, def.type === 'ref' ? refId(value) : value);
}

export function fieldLabel(ast: Ast, entity: string, field: string, locale: string | undefined): string {
  const def = fieldDef(ast, entity, field);
  return resolveText(def?.label, locale ?? ast.locales[0], ast.locales) ?? field;
}

/** Longest quoted value in a reply: the Board shows values whole; the agent's context gets a bounded echo. */
export const QUOTE_LIMIT = 300;

/** A value as the reply quotes it, cut (and said so) past QUOTE_LIMIT characters. */
export function quote(value: unknown): string {
  const text = describeValue(value);
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}… (${text.length} characters in all)` : text;
}

export function recordsText(count: number, context: string): string {
  return `(${count} ${count === 1 ? 'record' : 'records'} of ${context}.)`;
}

export const DISPLAYED = 'All data was successfully displayed in the UI.';

/** A context name as a tool takes it: names are short, so a long one is refused before anything echoes it. */
export const contextInput = (description: string) => z.string().min(1).max(128).describe(description);
