// The AST resolved once per app and locale into what the Board and the use cases
// read: context and field labels, field kinds, enum labels, what a ref shows, how
// a column sorts, where a row navigates. Looked up by name afterwards instead of
// walking src/ast on every render or window.
import { resolveText } from './locale.ts';
import type { Ast, FieldDef, WidgetDef } from './schema.ts';
import { displayFields } from './display.ts';
import { findInverse } from './lookup.ts';
import { agentPolicy } from './agentPolicy.ts';
import type { BoardFieldType } from './fieldKinds.ts';

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export interface FieldModel {
  readonly field: string;
  readonly label: string;
  readonly type: BoardFieldType;
  readonly required: boolean;
  /** The AST's definition; undefined for inverse lists and unknown names. */
  readonly def: FieldDef | undefined;
  /** enum value -> label in the locale */
  readonly enumLabels?: Readonly<Record<string, string>>;
  /** A ref's related entity, and the fields that name its records (display.ts; a search matches any of them). */
  readonly refEntity?: string;
  readonly refFields?: readonly string[];
  /** The `<entity>_order_by` key that sorts by this field; undefined when it cannot be sorted. */
  readonly orderKey?: string;
  /** Where a click on a ref's value leads: the context's `navigate.<field>`, else a detail context of the related entity. */
  readonly refTarget?: RowTarget;
  /** An inverse list's items (a company's employees): the detail each opens, `idPath` inside the item. */
  readonly itemTarget?: RowTarget;
  /** The fields that name an inverse list's items (display.ts). */
  readonly itemDisplay?: readonly string[];
  /** From the context's layout: how the value is shown, and a list column's width in pixels. */
  readonly widget?: WidgetDef;
  readonly width?: number;
  /** The AST keeps this field from the agent (`agent: hidden / masked`); the person sees a lock. */
  readonly keptFromAgent?: 'hidden' | 'masked';
}

/** A part of a detail form: its label in the locale (none for the generic layout) and its fields in order. */
export interface SectionModel {
  readonly label?: string;
  readonly fields: readonly string[];
}

export interface RowTarget {
  /** The detail context a row opens. */
  readonly context: string;
  /** The path in the row's record that gives the detail's id (`id`, `company.id`). */
  readonly idPath: string;
}

export interface ContextModel {
  readonly name: string;
  readonly kind: 'list' | 'detail';
  readonly entity: string;
  readonly label: string;
  readonly entityLabel: string;
  /** The list_fields in order. */
  readonly fields: readonly FieldModel[];
  readonly editable: ReadonlySet<string>;
  readonly rowTarget?: RowTarget;
  /** The form's sections (the layout's, then the fields it left out); one untitled section without a layout. */
  readonly sections: readonly SectionModel[];
  /** Why the entity's records can only be read (the AST's `read_only`, or the database role's rights). */
  readonly readOnly?: string;
  /** The entity lives in the database's own table: its version is the row's state, a number that means nothing to people. */
  readonly ownTable: boolean;
}

export interface AppModel {
  readonly locale: string;
  readonly locales: readonly string[];
  context(name: string): ContextModel | undefined;
}

const cache = new WeakMap<Ast, Map<string, AppModel>>();

/** The resolved model; the same object for the same AST and locale. */
export function appModel(ast: Ast, locale: string): AppModel {
  let byLocale = cache.get(ast);
  if (!byLocale) {
    byLocale = new Map();
    cache.set(ast, byLocale);
  }
  let model = byLocale.get(locale);
  if (!model) {
    model = resolveApp(ast, locale);
    byLocale.set(locale, model);
  }
  return model;
}

function resolveApp(ast: Ast, locale: string): AppModel {
  const text = (t: FieldDef['label']) => resolveText(t, locale, ast.locales);
  const contexts = new Map<string, ContextModel>();
  for (const [name, context] of Object.entries(ast.contexts)) {
    const entity = ast.entities[context.entity];
    if (!entity) continue;
    const fields = context.list_fields.map((field): FieldModel => {
      const def = Object.hasOwn(entity.fields, field) ? entity.fields[field] : undefined;
      if (!def) {
        const inverse = findInverse(ast, context.entity, field);
        if (!inverse) return { field, label: field, type: 'unknown', required: false, def };
        // The AST gives an inverse list no label: its name, readable ("open_deals" -> "Open deals").
        const label = field.charAt(0).toUpperCase() + field.slice(1).replaceAll('_', ' ');
        return { field, label, type: 'list', required: false, def, itemTarget: itemTarget(ast, context, field, inverse.entity), itemDisplay: displayFields(ast, inverse.entity) };
      }
      const model: { -readonly [K in keyof FieldModel]: FieldModel[K] } = {
        field, label: text(def.label) ?? field, type: def.type, required: def.required === true, def,
        orderKey: def.type === 'ref' ? `${field}_id` : field,
      };
      if (def.type === 'enum') {
        model.enumLabels = Object.fromEntries((def.values ?? []).map((value) => [value, text(def.value_labels?.[value]) ?? value]));
      }
      if (def.type === 'ref' && def.entity) {
        model.refEntity = def.entity;
        model.refFields = displayFields(ast, def.entity);
        const nav = context.navigate?.[field];
        const target = nav && ast.contexts[nav.context]?.kind === 'detail'
          ? nav.context
          : Object.entries(ast.contexts).find(([, c]) => c.kind === 'detail' && c.entity === def.entity)?.[0];
        if (target) model.refTarget = { context: target, idPath: nav?.context === target ? nav.params?.id ?? `${field}.id` : `${field}.id` };
      }
      return model;
    });
    const layout = context.layout;
    // The person's role may narrow what the context offers (set by the server, in every locale).
    const readOnly = text(context.read_only_reason) ?? entity.read_only;
    const withLayout = fields.map((f): FieldModel => {
      const widget = layout?.widgets?.[f.field];
      const width = layout?.columns?.[f.field]?.width;
      const policy = agentPolicy(ast, context.entity, f.field);
      return widget || width || policy !== 'visible'
        ? { ...f, ...(widget ? { widget } : {}), ...(width ? { width } : {}), ...(policy !== 'visible' ? { keptFromAgent: policy } : {}) }
        : f;
    });
    const placed = new Set((layout?.sections ?? []).flatMap((section) => section.fields));
    const rest = context.list_fields.filter((field) => !placed.has(field));
    const sections: SectionModel[] = [
      ...(layout?.sections ?? []).map((section) => ({ label: text(section.label), fields: section.fields.filter((f) => context.list_fields.includes(f)) })),
      ...(rest.length ? [{ fields: rest }] : []),
    ];
    const nav = context.navigate?.row;
    const rowTarget = nav && ast.contexts[nav.context]?.kind === 'detail' ? { context: nav.context, idPath: nav.params?.id ?? 'id' } : undefined;
    contexts.set(name, {
      name,
      kind: context.kind,
      entity: context.entity,
      label: text(context.label) ?? text(entity.label) ?? name,
      entityLabel: text(entity.label) ?? context.entity,
      fields: withLayout,
      editable: new Set(context.editable ?? []),
      rowTarget,
      sections,
      ...(readOnly !== undefined ? { readOnly } : {}),
      ownTable: entity.table !== undefined,
    });
  }
  return { locale, locales: ast.locales, context: (name) => contexts.get(name) };
}

/** Where an inverse list's items lead: `navigate.<field>` when it names a detail of the item's entity, else any detail of it. */
function itemTarget(ast: Ast, context: Ast['contexts'][string], field: string, entity: string): RowTarget | undefined {
  const nav = context.navigate?.[field];
  if (nav && ast.contexts[nav.context]?.kind === 'detail' && ast.contexts[nav.context].entity === entity) {
    // `employees.id` names the id inside each item.
    const path = nav.params?.id ?? 'id';
    return { context: nav.context, idPath: path.startsWith(`${field}.`) ? path.slice(field.length + 1) : path };
  }
  const detail = Object.entries(ast.contexts).find(([, c]) => c.kind === 'detail' && c.entity === entity)?.[0];
  return detail ? { context: detail, idPath: 'id' } : undefined;
}

/** The detail context where records of a list's (or a detail's) entity are created; the row's target first. */
export function creatingContext(ast: Ast, contextName: string): string | undefined {
  const context = Object.hasOwn(ast.contexts, contextName) ? ast.contexts[contextName] : undefined;
  if (!context) return undefined;
  if (context.kind === 'detail') return context.create === true ? contextName : undefined;
  const row = context.navigate?.row?.context;
  if (row && ast.contexts[row]?.kind === 'detail' && ast.contexts[row].entity === context.entity && ast.contexts[row].create === true) return row;
  return Object.entries(ast.contexts).find(([, c]) => c.kind === 'detail' && c.entity === context.entity && c.create === true)?.[0];
}

/** enum options for a select: an empty choice first. */
export function enumOptions(field: FieldModel): SelectOption[] {
  return [{ value: '', label: '' }, ...Object.entries(field.enumLabels ?? {}).map(([value, label]) => ({ value, label }))];
}

/** Reads `company.id` through related objects. */
export function readPath(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
