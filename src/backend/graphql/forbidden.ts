// A request naming what the person's role lacks fails validation (or variable coercion) on the
// role's schema with graphql-js's bare "Cannot query field…". When the app's full schema does
// know the name, the person is told which right the role lacks instead (code FORBIDDEN).
import { isInputObjectType, isObjectType, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { Ast, ContextRight, RoleDef } from '../../ast/schema.ts';
import { contextRights, fieldAccess } from '../roles.ts';

export interface RoleRefusal {
  readonly roleName: string;
  readonly role: RoleDef;
  /** The app's full AST and schema (what the administrator sees). */
  readonly ast: Ast;
  readonly schema: GraphQLSchema;
}

const UNKNOWN_NAME = [
  /Cannot query field "(\w+)" on type "(\w+)"/,
  /Field "(\w+)" is not defined by type "(\w+)"/,
];
const WRITE = /^(insert|update|delete)_(\w+?)(_many)?$/;
const INPUT = /^(\w+?)_(set_input|insert_input|bool_exp|order_by)$/;

/** The error as the role's refusal, or as it is when the full schema does not know the name either. */
export function asRefusal(error: GraphQLFormattedError, refusal: RoleRefusal): GraphQLFormattedError {
  const forbidden = (message: string): GraphQLFormattedError => ({ message, ...(error.locations ? { locations: error.locations } : {}), extensions: { code: 'FORBIDDEN' } });
  // A variable typed with a write's input the role's schema has not got.
  const unknownType = /Unknown type "((\w+?)_(set_input|insert_input|many_update_input))"/.exec(error.message);
  if (unknownType && refusal.schema.getType(unknownType[1]) && Object.hasOwn(refusal.ast.entities, unknownType[2])) {
    return forbidden(refusalMessage(refusal, 'Mutation', `${unknownType[3] === 'insert_input' ? 'insert' : 'update'}_${unknownType[2]}`));
  }
  for (const pattern of UNKNOWN_NAME) {
    const match = pattern.exec(error.message);
    if (!match || !knownInFullSchema(refusal.schema, match[2], match[1])) continue;
    return forbidden(refusalMessage(refusal, match[2], match[1]));
  }
  return error;
}

function knownInFullSchema(schema: GraphQLSchema, typeName: string, field: string): boolean {
  const type = schema.getType(typeName);
  return (isObjectType(type) || isInputObjectType(type)) && Object.hasOwn(type.getFields(), field);
}

function refusalMessage({ roleName, role, ast }: RoleRefusal, typeName: string, field: string): string {
  const prefix = `Your role "${roleName}"`;
  const needs = (entity: string, right: ContextRight, verb: string) => {
    const contexts = Object.entries(ast.contexts)
      .filter(([, c]) => c.entity === entity && (right === 'read' || right === 'edit' || c.kind === 'detail'))
      .map(([name]) => name);
    return `${prefix} may not ${verb} ${entity} records: it needs "${right}" on ${contexts.join(' or ') || `a context of ${entity}`}.`;
  };
  if (typeName === 'Query') {
    const context = [field, field.replace(/_(count|cursors)$/, '')].find((name) => Object.hasOwn(ast.contexts, name));
    if (context !== undefined) return `${prefix} may not read ${context}: it needs "read" on ${context}.`;
  }
  if (typeName === 'Mutation') {
    const write = WRITE.exec(field);
    if (write && Object.hasOwn(ast.entities, write[2])) {
      const [right, verb] = write[1] === 'insert' ? ['create', 'create'] as const : write[1] === 'delete' ? ['delete', 'delete'] as const : ['edit', 'change'] as const;
      return needs(write[2], right, verb);
    }
  }
  const input = INPUT.exec(typeName);
  const entity = Object.hasOwn(ast.entities, typeName) ? typeName : input && Object.hasOwn(ast.entities, input[1]) ? input[1] : undefined;
  if (entity !== undefined) {
    const readable = Object.entries(ast.contexts).some(([name, c]) => c.entity === entity && contextRights(role, name).has('read'));
    if (!readable) return needs(entity, 'read', 'read');
    const name = entityField(ast, entity, field);
    const inverse = inverseOf(ast, entity, name);
    if (inverse) {
      if (fieldAccess(role, inverse.from, inverse.field) === 'hidden') return `${prefix} may not see ${inverse.from}.${inverse.field}, so not ${entity}.${name} either.`;
      return needs(inverse.from, 'read', 'read');
    }
    if (fieldAccess(role, entity, name) === 'hidden') return `${prefix} may not see ${entity}.${name}.`;
    return `${prefix} may only read ${entity}.${name}: it needs "edit" on the field.`;
  }
  return `${prefix} may not use ${typeName}.${field}.`;
}

/** The ref an inverse list (`company.deals`) is made of. */
function inverseOf(ast: Ast, entity: string, name: string): { from: string; field: string } | undefined {
  if (Object.hasOwn(ast.entities[entity].fields, name)) return undefined;
  for (const [from, def] of Object.entries(ast.entities)) {
    for (const [field, fieldDef] of Object.entries(def.fields)) {
      if (fieldDef.type === 'ref' && fieldDef.entity === entity && fieldDef.inverse === name) return { from, field };
    }
  }
  return undefined;
}

/** `company_id` in an input is the ref field `company`. */
function entityField(ast: Ast, entity: string, field: string): string {
  const fields = ast.entities[entity].fields;
  if (Object.hasOwn(fields, field)) return field;
  const ref = field.replace(/_id$/, '');
  return Object.hasOwn(fields, ref) ? ref : field;
}
