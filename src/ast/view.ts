// The processed AST the model reads (xos_schema): per context only what it
// shows, with texts resolved to one locale and an example query to copy. The MCP
// reply cleans and bounds its texts (src/mcp/schemaReply.ts).
import type { Ast, ContextKind, FieldDef, FieldType, NavigateDef } from './schema.ts';
import { pickLocale, resolveText } from './locale.ts';
import { appName } from './appName.ts';
import { agentEditable, agentListFields, agentPolicy } from './agentPolicy.ts';
import { displayFields } from './display.ts';
import { findInverse } from './lookup.ts';


export interface FieldView {
  /** The field type, or `list` for an inverse list. */
  type: FieldType | 'list';
  label: string;
  description?: string;
  required?: boolean;
  min?: number;
  max?: number;
  scale?: number;
  values?: string[];
  /** ref fields: the entity pointed at. */
  entity?: string;
  /** inverse lists: the entity of the listed records. */
  list?: string;
  /** The person sees this value on the Board; the agent never does (replies show •••). */
  masked?: true;
}

export interface ContextView {
  kind: ContextKind;
  entity: string;
  label: string;
  fields: Record<string, FieldView>;
  list_fields: string[];
  /** detail contexts only. */
  editable?: string[];
  /** Absent: the context has none. */
  prompts?: string[];
  /** Absent: nothing to follow. */
  navigate?: Record<string, NavigateDef>;
  query: string;
}

export interface RelationView {
  entity: string;
  field: string;
  target: string;
  inverse: string | null;
  cardinality: 'many-to-one';
}

export interface SchemaView {
  app: string;
  /** The app's name as people read it (appName.ts), the one the Board and the start lines use. */
  label: string;
  version?: string;
  locale: string;
  locales: string[];
  prompts: string[];
  contexts: Record<string, ContextView>;
  relations: RelationView[];
}

export function buildSchemaView(ast: Ast, locale?: string): SchemaView {
  const chosen = pickLocale(locale, ast.locales);
  const text = (value: Parameters<typeof resolveText>[0]) => resolveText(value, chosen, ast.locales);
  const prompts = (list: FieldDef['label'][] | undefined) => (list ?? []).map((p) => text(p) ?? '');
  const contexts: Record<string, ContextView> = {};
  for (const [name, context] of Object.entries(ast.contexts)) {
    const fields: Record<string, FieldView> = {};
    const listFields = agentListFields(ast, name);
    for (const field of listFields) fields[field] = fieldView(ast, context.entity, field, text);
    const navigate = agentNavigate(ast, context.entity, context.navigate ?? {});
    contexts[name] = {
      kind: context.kind,
      entity: context.entity,
      label: text(context.label) ?? name,
      fields,
      list_fields: listFields,
      ...(context.kind === 'detail' ? { editable: agentEditable(ast, context) } : {}),
      ...(context.prompts?.length ? { prompts: prompts(context.prompts) } : {}),
      ...(Object.keys(navigate).length ? { navigate } : {}),
      query: exampleQuery(ast, name),
    };
  }
  return {
    app: ast.app,
    label: appName(ast, chosen),
    ...(ast.version === undefined ? {} : { version: ast.version }),
    locale: chosen,
    locales: [...ast.locales],
    prompts: prompts(ast.prompts),
    contexts,
    relations: relations(ast),
  };
}

function fieldView(ast: Ast, entity: string, name: string, text: (t: FieldDef['label']) => string | undefined): FieldView {
  const def = ast.entities[entity].fields[name];
  const masked = agentPolicy(ast, entity, name) === 'masked' ? { masked: true as const } : {};
  if (!def) {
    const inverse = findInverse(ast, entity, name);
    return { type: 'list', label: name, list: inverse?.entity, ...masked };
  }
  const view: FieldView = { type: def.type, label: text(def.label) ?? name, ...masked };
  const description = text(def.description);
  if (description !== undefined) view.description = description;
  if (def.required !== undefined) view.required = def.required;
  if (def.min !== undefined) view.min = def.min;
  if (def.max !== undefined) view.max = def.max;
  if (def.scale !== undefined) view.scale = def.scale;
  if (def.values !== undefined) view.values = [...def.values];
  if (def.entity !== undefined) view.entity = def.entity;
  return view;
}

/** Navigation the agent may follow: none that starts at or reads a hidden field. */
function agentNavigate(ast: Ast, entity: string, navigate: Record<string, NavigateDef>): Record<string, NavigateDef> {
  const hidden = (path: string) => agentPolicy(ast, entity, path.split('.')[0]) === 'hidden';
  return Object.fromEntries(Object.entries(structuredClone(navigate))
    .filter(([key, def]) => !(key !== 'row' && hidden(key)) && !Object.values(def.params ?? {}).some(hidden)));
}

/**
 * The selection of each of the given list_fields (all of the context's by default); refs and
 * inverse lists get `{ id <display fields> }` (display.ts).
 */
export function listFieldSelections(ast: Ast, contextName: string, names: readonly string[] = ast.contexts[contextName].list_fields): string[] {
  const context = ast.contexts[contextName];
  const fields = ast.entities[context.entity].fields;
  return names.map((name) => {
    const def = fields[name];
    const related = def ? (def.type === 'ref' ? def.entity : undefined) : findInverse(ast, context.entity, name)?.entity;
    if (related === undefined) return name;
    return `${name} { ${['id', ...displayFields(ast, related)].join(' ')} }`;
  });
}

/** The agent's query of a context, `{ person_list { id firstname company { id name } } }`; detail contexts select by id. */
export function exampleQuery(ast: Ast, contextName: string): string {
  const context = ast.contexts[contextName];
  const selection = listFieldSelections(ast, contextName, agentListFields(ast, contextName));
  const args = context.kind === 'detail' ? '(id: "1")' : '';
  return `{ ${contextName}${args} { ${selection.join(' ')} } }`;
}

function relations(ast: Ast): RelationView[] {
  const out: RelationView[] = [];
  for (const [entity, def] of Object.entries(ast.entities)) {
    for (const [field, fieldDef] of Object.entries(def.fields)) {
      if (fieldDef.type !== 'ref' || fieldDef.agent === 'hidden') continue;
      out.push({ entity, field, target: fieldDef.entity!, inverse: fieldDef.inverse ?? null, cardinality: 'many-to-one' });
    }
  }
  return out;
}
