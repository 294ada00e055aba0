// What names a record: the entity's `display` template (`{first_name} {last_name}`), else one
// field chosen by type. A name is the fields' values joined by spaces, empty ones left out, so a
// related record loaded as `{ id first_name last_name }` reads the same in every front end
// without the template at hand (fieldKinds' ref format joins what was loaded). Browser-safe.
import type { Ast } from './schema.ts';

const TEMPLATE = /^\{([A-Za-z_][A-Za-z0-9_]*)\}(?: \{([A-Za-z_][A-Za-z0-9_]*)\})*$/;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The fields of a `display` template, in order; undefined when it is not `{a}` or `{a} {b} ...`. */
export function displayTemplateFields(template: string): string[] | undefined {
  if (!TEMPLATE.test(template)) return undefined;
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

/**
 * The fields that name a record of `entity`: its template's, else the first required string
 * field, else the first string field, else the same of text fields; none when only the id does.
 */
export function displayFields(ast: Ast, entityName: string): string[] {
  const entity = Object.hasOwn(ast.entities, entityName) ? ast.entities[entityName] : undefined;
  const fromTemplate = entity?.display === undefined ? undefined : displayTemplateFields(entity.display);
  if (fromTemplate) return fromTemplate;
  const fields = Object.entries(entity?.fields ?? {});
  for (const type of ['string', 'text']) {
    const named = fields.filter(([, def]) => def.type === type);
    const field = named.find(([, def]) => def.required)?.[0] ?? named[0]?.[0];
    if (field !== undefined) return [field];
  }
  return [];
}

/** A record's name from the values it holds (the display fields' own, joined), or undefined. */
export function displayName(ast: Ast, entityName: string, record: Readonly<Record<string, unknown>>): string | undefined {
  return joinedName(displayFields(ast, entityName).map((field) => (Object.hasOwn(record, field) ? record[field] : undefined)));
}

/** Values joined by spaces, the empty and non-scalar ones left out; undefined when none is left. */
export function joinedName(values: readonly unknown[]): string | undefined {
  const parts = values
    .filter((value) => typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')
    .map((value) => String(value).trim())
    .filter((text) => text !== '');
  return parts.length ? parts.join(' ') : undefined;
}

/** A LIKE pattern that finds `text` anywhere, its wildcards (`%`, `_`) and backslashes taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The filter that finds records whose name contains `text`: any of their name fields matches
 * ("Peacock" finds "Jane Peacock"); undefined when only the id names them. The ref picker's
 * search and the list's quick filter on a ref column are this one rule.
 */
export function nameMatch(nameFields: readonly string[], text: string): Record<string, unknown> | undefined {
  const matches = nameFields.filter((field) => field !== 'id').map((field) => ({ [field]: { _ilike: containsPattern(text) } }));
  return matches.length === 0 ? undefined : matches.length === 1 ? matches[0] : { _or: matches };
}
