// Looking things up in the AST by name, the vocabulary every floor above shares (the
// backend, the client, the use cases, the Board, the tools, the webview): contexts,
// fields and their labels, which ref an inverse list stands for,
// and how a ref is given and stored. Plain functions over the parsed AST; browser-safe.
import type { Ast, ContextDef, FieldDef } from './schema.ts';
import { resolveText } from './locale.ts';

export function findContext(ast: Ast, name: string): ContextDef | undefined {
  return Object.hasOwn(ast.contexts, name) ? ast.contexts[name] : undefined;
}

/**
 * Whether the app keeps its audit trail (History, Undo): as its AST says, else yes unless it
 * works on the database's own tables (there XOS creates its table only when allowed).
 */
export function keepsAudit(ast: Ast): boolean {
  return ast.audit ?? Object.values(ast.entities).every((entity) => entity.table === undefined);
}

/**
 * A record's value of a field, only when the record has one: the person's columns may be named
 * `constructor`, `toString` or `hasOwnProperty`, which a plain object would answer from its prototype.
 */
export function ownValue(record: Readonly<Record<string, unknown>>, field: string): unknown {
  return Object.hasOwn(record, field) ? record[field] : undefined;
}

export function fieldDef(ast: Ast, entity: string, field: string): FieldDef | undefined {
  const fields = ast.entities[entity].fields;
  return Object.hasOwn(fields, field) ? fields[field] : undefined;
}

export function fieldLabel(ast: Ast, entity: string, field: string, locale: string | undefined): string {
  const def = fieldDef(ast, entity, field);
  return resolveText(def?.label, locale ?? ast.locales[0], ast.locales) ?? field;
}

/** The ref that an inverse list name on `entityName` stands for. */
export function findInverse(ast: Ast, entityName: string, name: string): { entity: string; field: string } | undefined {
  for (const [entity, def] of Object.entries(ast.entities)) {
    for (const [field, fieldDef] of Object.entries(def.fields)) {
      if (fieldDef.type === 'ref' && fieldDef.entity === entityName && fieldDef.inverse === name) return { entity, field };
    }
  }
  return undefined;
}

/** A ref arrives as its related object `{ id, name }` or as a bare id; the id is what is edited and stored. */
export function refId(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'id' in value) return (value as { id: unknown }).id;
  return value;
}

/** The column that stores a ref field: `<field>_id`. */
export function refColumnName(field: string): string {
  return `${field}_id`;
}
