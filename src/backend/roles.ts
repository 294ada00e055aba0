// The AST's roles applied to the AST a person is served (like rights.ts for the database's
// grants): contexts the role may not read are gone, hidden fields are gone, fields it may only
// read are read-only, and editing, creating and deleting stay only where the role has the right.
// The GraphQL API built from the result cannot name what the role lacks; the Board shows why.
import type { Ast, ContextDef, ContextRight, EntityDef, LocalizedText, RoleDef } from '../ast/schema.ts';
import type { Person } from './people/person.ts';

/** A person the app's roles give no access: no role, or one the AST does not define. */
export class RoleError extends Error {}

/** What a role may do with one entity's records through the API (any of its readable contexts). */
export interface EntityGrant {
  readonly read: boolean;
  readonly edit: boolean;
  readonly create: boolean;
  readonly delete: boolean;
}

/** Own records: the entity's rows whose `field` (a column of XOS's model) holds the person's name. */
export interface RowFilter {
  readonly entity: string;
  readonly field: string;
}

/** The role a person acts in; undefined when the AST has no roles (everything, as before roles). */
export function roleOf(ast: Ast, person: Person): { name: string; def: RoleDef } | undefined {
  const roles = ast.roles;
  if (roles === undefined) return undefined;
  const known = Object.keys(roles).join(', ');
  if (person.role === undefined) {
    throw new RoleError(`${person.name} has no role, and this app gives access only through one of its roles (${known}): ask the app's administrator to give ${person.name} a role.`);
  }
  if (!Object.hasOwn(roles, person.role)) {
    throw new RoleError(`${person.name}'s role "${person.role}" is not one of this app's roles (${known}): ask the app's administrator to give ${person.name} one of them.`);
  }
  return { name: person.role, def: roles[person.role] };
}

/** The role's rights on a context: its own entry, else `"*"`, else none. */
export function contextRights(role: RoleDef, context: string): ReadonlySet<ContextRight> {
  const rights = role.contexts[context] ?? role.contexts['*'] ?? [];
  // Every right needs the context to be seen at all.
  return new Set(rights.includes('read') ? rights : []);
}

/** `[]` hidden, `["read"]` read only, `["read","edit"]` (or not named) as its context allows. */
export function fieldAccess(role: RoleDef, entity: string, field: string): 'hidden' | 'read' | 'edit' {
  const rights = role.fields?.[`${entity}.${field}`];
  if (rights === undefined) return 'edit';
  if (!rights.includes('read')) return 'hidden';
  return rights.includes('edit') ? 'edit' : 'read';
}

/** Per entity, what the role may do with its records through the API. */
export function entityGrants(ast: Ast, role: RoleDef): Map<string, EntityGrant> {
  const grants = new Map<string, EntityGrant>();
  for (const name of Object.keys(ast.entities)) grants.set(name, { read: false, edit: false, create: false, delete: false });
  for (const [name, context] of Object.entries(ast.contexts)) {
    const rights = contextRights(role, name);
    const grant = grants.get(context.entity)!;
    grants.set(context.entity, {
      read: grant.read || rights.has('read'),
      edit: grant.edit || rights.has('edit'),
      create: grant.create || (rights.has('create') && !lacksRequired(ast, role, context.entity)),
      delete: grant.delete || rights.has('delete'),
    });
  }
  for (const [name, grant] of grants) {
    // The database's or the author's read-only wins over any role.
    if (ast.entities[name].read_only !== undefined) grants.set(name, { ...grant, edit: false, create: false, delete: false });
  }
  return grants;
}

/** The role's own-records filters, by entity. */
export function rowFilters(role: RoleDef): Map<string, RowFilter> {
  return new Map(Object.entries(role.rows ?? {}).map(([entity, row]) => [entity, { entity, field: row.field }]));
}

/** A new record needs every required field: one the role cannot set (hidden or read only) rules creating out, unless XOS sets it (the owner). */
function lacksRequired(ast: Ast, role: RoleDef, entity: string): boolean {
  const owner = role.rows?.[entity]?.field;
  return Object.entries(ast.entities[entity].fields)
    .some(([field, def]) => def.required === true && def.type !== 'id' && field !== owner && fieldAccess(role, entity, field) !== 'edit');
}

/**
 * The AST a person with `roleName` is served. Entities no readable context shows keep only their
 * id (a ref to them still names the record); the person is needed only to name them in an error.
 */
export function withRole(ast: Ast, roleName: string, person: Person): Ast {
  const { def: role } = roleOf(ast, { ...person, role: roleName })!;
  const grants = entityGrants(ast, role);
  const entities: Record<string, EntityDef> = {};
  for (const [name, entity] of Object.entries(ast.entities)) {
    const grant = grants.get(name)!;
    entities[name] = grant.read ? visibleEntity(ast, role, roleName, name, entity, grant) : idOnly(entity, readOnlyReason(roleName, name, ast));
  }
  const readable = new Set(Object.keys(ast.contexts).filter((name) => contextRights(role, name).has('read')));
  const inverses = inverseNames(entities);
  const contexts: Record<string, ContextDef> = {};
  for (const name of readable) {
    const context = ast.contexts[name];
    contexts[name] = visibleContext(ast, role, roleName, name, context, entities[context.entity], inverses.get(context.entity) ?? new Set(), readable);
  }
  // Other roles and the seed records (values of hidden fields among them) are not the person's to see.
  const { roles: _roles, data: _data, ...rest } = ast;
  return { ...rest, entities, contexts };
}

function visibleEntity(ast: Ast, role: RoleDef, roleName: string, name: string, entity: EntityDef, grant: EntityGrant): EntityDef {
  const fields: EntityDef['fields'] = {};
  for (const [field, def] of Object.entries(entity.fields)) {
    const access = def.type === 'id' ? 'read' : fieldAccess(role, name, field);
    if (access === 'hidden') continue;
    fields[field] = access === 'read' && def.type !== 'id' ? { ...def, read_only: true } : def;
  }
  const changes = grant.edit || grant.create || grant.delete;
  return {
    ...entity,
    fields,
    ...(entity.read_only === undefined && !changes ? { read_only: readOnlyReason(roleName, name, ast) } : {}),
  };
}

function idOnly(entity: EntityDef, reason: string): EntityDef {
  const { notes: _notes, ...rest } = entity;
  return { ...rest, fields: { id: entity.fields.id ?? { type: 'id' } }, read_only: entity.read_only ?? reason };
}

/** The English reason on the entity (the API, the agent); the Board shows each locale's from the context. */
function readOnlyReason(roleName: string, entity: string, ast: Ast): string {
  return roleTexts('en', roleName, entityLabel(ast, entity, 'en')).onlyRead;
}

function visibleContext(
  ast: Ast, role: RoleDef, roleName: string, name: string, context: ContextDef, entity: EntityDef,
  inverses: ReadonlySet<string>, readable: ReadonlySet<string>,
): ContextDef {
  const rights = contextRights(role, name);
  const known = (field: string) => Object.hasOwn(entity.fields, field) || inverses.has(field);
  const { editable, create, delete: remove, navigate, layout, ...rest } = context;
  const listFields = context.list_fields.filter(known);
  const writable = entity.read_only === undefined && rights.has('edit')
    ? (editable ?? []).filter((field) => Object.hasOwn(entity.fields, field) && entity.fields[field].read_only !== true)
    : [];
  const creates = create === true && rights.has('create') && entity.read_only === undefined && !lacksRequired(ast, role, context.entity);
  const deletes = remove === true && rights.has('delete') && entity.read_only === undefined;
  const kept = Object.entries(navigate ?? {}).filter(([key, target]) =>
    readable.has(target.context) && (key === 'row' || listFields.includes(key))
    && Object.values(target.params ?? {}).every((path) => known(path.split('.')[0])));
  const reason = contextReason(ast, roleName, context, rights, entity, editable ?? [], writable);
  return {
    ...rest,
    list_fields: listFields.length ? listFields : ['id'],
    ...(writable.length ? { editable: writable } : {}),
    ...(creates ? { create: true } : {}),
    ...(deletes ? { delete: true } : {}),
    ...(kept.length ? { navigate: Object.fromEntries(kept) } : {}),
    ...(layout ? { layout: visibleLayout(layout, new Set(listFields)) } : {}),
    ...(reason ? { read_only_reason: reason } : {}),
  };
}

/** Why the role sees less to change here than the context offers, in each of the app's locales. */
function contextReason(
  ast: Ast, roleName: string, context: ContextDef, rights: ReadonlySet<ContextRight>, entity: EntityDef,
  editable: readonly string[], writable: readonly string[],
): LocalizedText | undefined {
  // The database's or the author's own reason stays the one shown.
  if (ast.entities[context.entity].read_only !== undefined) return undefined;
  const roleReadOnly = entity.read_only !== undefined;
  if (!roleReadOnly && (editable.length === 0 || writable.length === editable.length)) return undefined;
  // A field hidden from the role is not named (nor is it a reason): the role does not see it at all.
  const lost = editable.filter((field) => !writable.includes(field) && Object.hasOwn(entity.fields, field));
  // Nothing left to change here says so plainly, whatever took each field away.
  const onlyContext = roleReadOnly || !rights.has('edit') || writable.length === 0;
  if (!onlyContext && lost.length === 0) return undefined;
  return Object.fromEntries(ast.locales.map((locale) => {
    const texts = roleTexts(locale, roleName, entityLabel(ast, context.entity, locale));
    const fields = lost.map((field) => labelOf(entity.fields[field].label, locale, ast.locales) ?? field).join(', ');
    return [locale, onlyContext ? texts.onlyRead : texts.notChange(fields)];
  }));
}

function visibleLayout(layout: NonNullable<ContextDef['layout']>, shown: ReadonlySet<string>): NonNullable<ContextDef['layout']> {
  const sections = layout.sections?.map((s) => ({ ...s, fields: s.fields.filter((f) => shown.has(f)) })).filter((s) => s.fields.length > 0);
  const pick = <T>(map: Record<string, T> | undefined) => (map ? Object.fromEntries(Object.entries(map).filter(([f]) => shown.has(f))) : undefined);
  const columns = pick(layout.columns);
  const widgets = pick(layout.widgets);
  return {
    ...(sections?.length ? { sections } : {}),
    ...(columns ? { columns } : {}),
    ...(widgets ? { widgets } : {}),
  };
}

/** entity -> the inverse lists its visible refs give it. */
function inverseNames(entities: Record<string, EntityDef>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const entity of Object.values(entities)) {
    for (const def of Object.values(entity.fields)) {
      if (def.type !== 'ref' || def.entity === undefined || def.inverse === undefined) continue;
      if (!out.has(def.entity)) out.set(def.entity, new Set());
      out.get(def.entity)!.add(def.inverse);
    }
  }
  return out;
}

function entityLabel(ast: Ast, entity: string, locale: string): string {
  return labelOf(ast.entities[entity]?.label, locale, ast.locales) ?? entity;
}

function labelOf(text: LocalizedText | undefined, locale: string, locales: readonly string[]): string | undefined {
  if (text === undefined || typeof text === 'string') return text;
  return text[locale] ?? text[locales[0]] ?? Object.values(text)[0];
}

/** The role's reasons in English and German (other locales: English), as the Board shows them. */
function roleTexts(locale: string, role: string, entity: string): { onlyRead: string; notChange: (fields: string) => string } {
  if (locale === 'de' || locale.startsWith('de-')) {
    return {
      onlyRead: `Ihre Rolle „${role}“ darf ${entity} nur lesen.`,
      notChange: (fields) => `Ihre Rolle „${role}“ darf ${fields} nicht ändern.`,
    };
  }
  return {
    onlyRead: `Your role "${role}" may only read ${entity}.`,
    notChange: (fields) => `Your role "${role}" may not change ${fields}.`,
  };
}
