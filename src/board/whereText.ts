// The agent's `where` of a list in the person's words, for the list's title: a list the agent
// narrowed (`where: { id: { _eq: 5 } }`) says so ("Customers · ID = 5") and can be widened.
// Hasura-style operators (DESIGN §4) become short signs; fields are named by their labels,
// a ref's fields as "Customer › City". What cannot be read is shown as the agent wrote it.
import type { Ast } from '../ast/schema.ts';
import { resolveText } from '../ast/locale.ts';
import type { Translate } from './texts.ts';

/** Longest title part; a longer condition is cut (the agent's query stays whole on the host). */
const MAX_LENGTH = 120;

const SIGNS: Readonly<Record<string, string>> = { _eq: '=', _neq: '≠', _lt: '<', _lte: '≤', _gt: '>', _gte: '≥' };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function valueText(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return `(${value.map(valueText).join(', ')})`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The condition of an entity's `where` as text; undefined when there is none (no where, `{}`). */
export function whereText(ast: Ast, entity: string, where: unknown, locale: string, t: Translate): string | undefined {
  if (!isObject(where) || Object.keys(where).length === 0) return undefined;
  const text = conditionText(ast, entity, where, locale, t, []);
  if (!text) return undefined;
  return [...text].length > MAX_LENGTH ? `${[...text].slice(0, MAX_LENGTH - 1).join('')}…` : text;
}

function conditionText(ast: Ast, entity: string | undefined, where: Record<string, unknown>, locale: string, t: Translate, path: readonly string[]): string {
  const parts: string[] = [];
  for (const [key, condition] of Object.entries(where)) {
    if (key === '_and' || key === '_or') {
      const items = (Array.isArray(condition) ? condition : [condition]).filter(isObject)
        .map((c) => conditionText(ast, entity, c, locale, t, path)).filter(Boolean);
      if (items.length) parts.push(items.length === 1 ? items[0] : `(${items.join(key === '_and' ? ` ${t('and')} ` : ` ${t('or')} `)})`);
    } else if (key === '_not') {
      if (isObject(condition)) parts.push(`${t('not')} (${conditionText(ast, entity, condition, locale, t, path)})`);
    } else {
      const def = entity ? fieldOf(ast, entity, key) : undefined;
      const label = [...path, (def && resolveText(def.label, locale, ast.locales)) || key];
      if (!isObject(condition)) parts.push(`${label.join(' › ')} = ${valueText(condition)}`);
      else if (Object.keys(condition).some((op) => op.startsWith('_'))) parts.push(...operatorTexts(label.join(' › '), condition, t));
      // A ref's own fields: `customer: { city: { _eq: … } }`.
      else parts.push(conditionText(ast, def?.type === 'ref' ? def.entity : undefined, condition, locale, t, label));
    }
  }
  return parts.join(` ${t('and')} `);
}

/** A field by name, or the ref behind `<ref>_id` (the id a filter compares). */
function fieldOf(ast: Ast, entity: string, name: string): Ast['entities'][string]['fields'][string] | undefined {
  const fields = ast.entities[entity]?.fields ?? {};
  if (Object.hasOwn(fields, name)) return fields[name];
  const ref = name.endsWith('_id') ? name.slice(0, -3) : undefined;
  return ref && Object.hasOwn(fields, ref) && fields[ref].type === 'ref' ? fields[ref] : undefined;
}

function operatorTexts(label: string, ops: Record<string, unknown>, t: Translate): string[] {
  return Object.entries(ops).map(([op, value]) => {
    if (Object.hasOwn(SIGNS, op)) return `${label} ${SIGNS[op]} ${valueText(value)}`;
    switch (op) {
      case '_in': return `${label} ${t('in')} ${valueText(value)}`;
      case '_nin': return `${label} ${t('not in')} ${valueText(value)}`;
      case '_like': case '_ilike': return `${label} ${t('like')} ${valueText(value)}`;
      case '_is_null': return value === false ? t('{0} is not empty', label) : t('{0} is empty', label);
      default: return `${label} ${op} ${valueText(value)}`;
    }
  });
}
