// The XOS API as a function: one GraphQL request in, one JSON-ready result out.
// The HTTP server and the extension's embedded backend both go through here.
import {
  defaultFieldResolver, execute, GraphQLError, parse, specifiedRules, validate, visit,
  type DocumentNode, type FormattedExecutionResult, type GraphQLFieldResolver, type GraphQLFormattedError, type GraphQLSchema,
} from 'graphql';
import type { Ast } from '../../ast/schema.ts';
import { buildModel, type Model } from '../model.ts';
import type { Storage } from '../storage/types.ts';
import { depthLimitRule } from './depth.ts';
import { tryFastPath } from './fastpath.ts';
import { buildXosSchema } from './schema.ts';
import { createRequestContext } from './context.ts';
import { auditMetaOf } from './audit.ts';
import type { Person } from '../people/person.ts';
import { entityGrants, roleOf, RoleError, rowFilters, withRole } from '../roles.ts';
import { roleStorage } from '../roleStorage.ts';
import { asRefusal, type RoleRefusal } from './forbidden.ts';
import type { AuditMeta } from '../storage/audit.ts';

export interface GraphQLRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
  /** `{ xos: { path, approval } }`: who writes and which approval allowed it (the audit trail). */
  readonly extensions?: Record<string, unknown> | null;
  /** Who sends it, as proven by the HTTP layer (a person's token) or named by the embedded front end. */
  readonly person?: Person;
}

export interface XosApiOptions {
  readonly maxDepth?: number;
  /** Called with errors that are bugs; the client only sees "internal error". */
  readonly onInternalError?: (error: unknown) => void;
  /** Serve plain scalar list/detail queries without graphql-js's executor (default true). */
  readonly fastPath?: boolean;
}

export interface XosApi {
  readonly ast: Ast;
  readonly model: Model;
  readonly schema: GraphQLSchema;
  readonly storage: Storage;
  run(request: GraphQLRequest): Promise<FormattedExecutionResult>;
  /**
   * The AST the person is served (their role's, see roles.ts); without a person, or without roles
   * in the AST, the whole AST. Throws RoleError for a person the roles give no access.
   */
  astFor(person?: Person): Ast;
  /**
   * Of `ids` (records of `entity`), those the person may read where their role reads only own
   * records of it; undefined: the role reads all of them (or there are no roles). Throws RoleError
   * for a person the roles give no access.
   */
  visibleIds(person: Person, entity: string, ids: readonly string[]): Promise<ReadonlySet<string> | undefined>;
}

export const DEFAULT_MAX_DEPTH = 12;
const DOCUMENT_CACHE_SIZE = 500;
const CACHEABLE_QUERY_LENGTH = 16 * 1024;

type Runner = (request: GraphQLRequest, storage: Storage) => Promise<FormattedExecutionResult>;

export function createXosApi(ast: Ast, storage: Storage, options: XosApiOptions = {}): XosApi {
  const model = buildModel(ast);
  const schema = buildXosSchema(ast, model);
  const run = createRunner(schema, model, options);
  const onInternalError = options.onInternalError ?? ((e: unknown) => console.error(e));
  // One restricted API per role, made when a person of that role first asks, on the same storage (never migrated again).
  const roleApis = new Map<string, RoleApi>();
  const roleApi = (person: Person): RoleApi | undefined => {
    const role = roleOf(ast, person);
    if (!role) return undefined;
    let api = roleApis.get(role.name);
    if (!api) {
      const roleAst = withRole(ast, role.name, person);
      const roleModel = buildModel(roleAst);
      const grants = entityGrants(ast, role.def);
      const roleSchema = buildXosSchema(roleAst, roleModel, grants);
      const refusal: RoleRefusal = { roleName: role.name, role: role.def, ast, schema };
      const reads = (entity: string, field?: string) => grants.get(entity)?.read === true
        && (field === undefined || Object.hasOwn(roleAst.entities[entity].fields, field) || !Object.hasOwn(ast.entities[entity].fields, field));
      api = {
        ast: roleAst,
        run: createRunner(roleSchema, roleModel, options, (error) => asRefusal(error, refusal)),
        storage: (name) => roleStorage(storage, { role: role.name, person: name, model, rows: rowFilters(role.def), reads }),
      };
      roleApis.set(role.name, api);
    }
    return api;
  };

  return {
    ast, model, schema, storage,
    astFor: (person) => (person ? roleApi(person)?.ast ?? ast : ast),
    async visibleIds(person, entity, ids) {
      const role = roleOf(ast, person);
      if (!role?.def.rows?.[entity]) return undefined;
      const table = model.table(entity);
      const byNumber = (table.byName.get('id')?.key ?? 'int') === 'int';
      const values = ids.map((id) => (byNumber ? Number(id) : id)).filter((id) => typeof id === 'string' || Number.isSafeInteger(id));
      if (values.length === 0) return new Set();
      const rows = await roleApi(person)!.storage(person.name).select({ table: table.name, columns: [], where: { kind: 'in', column: 'id', values, negate: false } });
      return new Set(rows.map((row) => String(row.id)));
    },
    async run(request) {
      if (!request.person) return run(request, storage);
      let api: RoleApi | undefined;
      try {
        api = roleApi(request.person);
      } catch (error) {
        if (error instanceof RoleError) return { errors: [{ message: error.message, extensions: { code: 'FORBIDDEN' } }] };
        onInternalError(error);
        return { errors: [{ message: 'Internal error while applying the person\'s role; the server log has the details.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] };
      }
      if (!api) return run(request, storage);
      return api.run(request, api.storage(request.person.name));
    },
  };
}

interface RoleApi {
  readonly ast: Ast;
  readonly run: Runner;
  /** The storage as the named person of this role reaches it (own records, the audit trail it may read). */
  readonly storage: (person: string) => Storage;
}

/** Runs requests against one schema; `refine` may turn a client error into a clearer one (a role's refusal). */
function createRunner(schema: GraphQLSchema, model: Model, options: XosApiOptions, refine?: (error: GraphQLFormattedError) => GraphQLFormattedError): Runner {
  const rules = [...specifiedRules, depthLimitRule(options.maxDepth ?? DEFAULT_MAX_DEPTH)];
  const onInternalError = options.onInternalError ?? ((e: unknown) => console.error(e));
  const formatted = (error: GraphQLError) => {
    const out = format(error, onInternalError);
    return refine && out.extensions?.code !== 'INTERNAL_SERVER_ERROR' ? refine(out) : out;
  };

  // Agents repeat the same queries; parsing and validating once per text is enough.
  const prepared = new Map<string, { document: DocumentNode; errors: readonly GraphQLError[] } | { error: GraphQLError }>();
  const prepare = (query: string) => {
    let entry = prepared.get(query);
    if (!entry) {
      try {
        const document = parse(query);
        entry = { document, errors: validate(schema, document, rules).map((e) => withInputField(document, e)) };
      } catch (e) {
        const error = e as GraphQLError;
        entry = { error: new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }) };
      }
      if (query.length <= CACHEABLE_QUERY_LENGTH) {
        if (prepared.size >= DOCUMENT_CACHE_SIZE) prepared.delete(prepared.keys().next().value!);
        prepared.set(query, entry);
      }
    }
    return entry;
  };

  const requestError = (error: GraphQLError): FormattedExecutionResult => ({ errors: [formatted(error)] });

  return async (request, storage) => {
    if (typeof request.query !== 'string' || request.query.trim() === '') {
      return requestError(new GraphQLError('The request has no query: send {"query": "{ ... }"}.', { extensions: { code: 'BAD_USER_INPUT' } }));
    }
    const prepared = prepare(request.query);
    if ('error' in prepared) return requestError(prepared.error);
    if (prepared.errors.length) return { errors: prepared.errors.map(formatted) };
    const document = prepared.document;
    let audit;
    try {
      audit = withPerson(auditMetaOf(request.extensions), request.person);
    } catch (error) {
      return requestError(error as GraphQLError);
    }
    const variableValues = request.variables ? ownOnly(request.variables) as Record<string, unknown> : undefined;
    const operationName = request.operationName ?? undefined;
    if (options.fastPath !== false) {
      const fast = await tryFastPath(schema, model, document, variableValues, operationName, createRequestContext(storage, audit));
      if (fast) return fast.errors?.length ? { ...fast, errors: fast.errors.map((e) => (refine ? refine(e) : e)) } : fast;
    }
    const context = createRequestContext(storage, audit);
    const result = await execute({ schema, document, variableValues, operationName, contextValue: context, fieldResolver: ownFieldResolver });
    const data: FormattedExecutionResult = { data: result.data ?? (result.errors ? null : undefined) };
    if (result.errors?.length) return { errors: result.errors.map(formatted), ...data };
    // A batch write names its audit batch, so the writer need not ask the trail for it.
    return context.made.batch ? { ...data, extensions: { xos: { batch: context.made.batch } } } : data;
  };
}

/**
 * A request's variables with no object inheriting anything. graphql-js reads an input object's
 * fields as `value[name]`: a field the request leaves out whose name Object.prototype has
 * (`constructor`, `toString`, `hasOwnProperty`: columns of the person's tables) would otherwise
 * arrive as that function.
 */
export function ownOnly(value: unknown): unknown {
  const shell = (item: unknown): unknown => (Array.isArray(item) ? new Array<unknown>(item.length)
    : item !== null && typeof item === 'object' ? Object.create(null) as Record<string, unknown> : item);
  const top = shell(value);
  // An explicit list, not recursion: variables may nest as deep as the JSON parser let them,
  // far past the call stack (they are refused later, with a code, for their depth).
  const todo: Array<readonly [object, Record<string, unknown>]> = top === value ? [] : [[value as object, top as Record<string, unknown>]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [from, to] = next;
    for (const [key, item] of Object.entries(from)) {
      const made = shell(item);
      to[key] = made;
      if (made !== item) todo.push([item as object, made as Record<string, unknown>]);
    }
  }
  return top;
}

/** graphql-js's default resolver, reading only a row's own properties (a column named `constructor` that is not loaded stays absent). */
const ownFieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) =>
  (source !== null && typeof source === 'object' && Object.hasOwn(source, info.fieldName) ? defaultFieldResolver(source, args, context, info) : undefined);

/**
 * The audit meta with the request's person: proven over HTTP (their token), or named by an
 * in-process caller, which is trusted (the embedded backend runs in the person's own process).
 * Never taken from `extensions.xos`: a client cannot claim to be someone.
 */
function withPerson(meta: AuditMeta | undefined, person: Person | undefined): AuditMeta | undefined {
  if (!person) return meta;
  return { path: meta?.path ?? 'api', ...(meta?.approval !== undefined ? { approval: meta.approval } : {}), person: person.name };
}

/**
 * A value rejected by a scalar (`birthday: "2023-02-30"`) is reported by
 * graphql-js without the input field it was given for; name it, like the
 * write path's BAD_USER_INPUT errors do.
 */
function withInputField(document: DocumentNode, error: GraphQLError): GraphQLError {
  const node = error.nodes?.[0];
  if (error.extensions?.code !== 'BAD_USER_INPUT' || error.extensions.field || !node?.loc) return error;
  let field: string | undefined;
  visit(document, {
    ObjectField(objectField) {
      if (objectField.value.loc?.start === node.loc!.start) field = objectField.name.value;
    },
  });
  if (!field) return error;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { ...error.extensions, field } });
}

/** Gives every error a code; hides the text of unexpected ones. */
function format(error: GraphQLError, onInternalError: (e: unknown) => void): GraphQLFormattedError {
  if (!(error instanceof GraphQLError)) {
    onInternalError(error);
    return { message: 'Internal error while running the query; the server log has the details.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  const json = error.toJSON();
  if (error.extensions?.code) return json;
  if (!error.path) {
    const code = error.message.startsWith('Variable "') ? 'BAD_USER_INPUT' : 'GRAPHQL_VALIDATION_FAILED';
    return { ...json, extensions: { ...json.extensions, code } };
  }
  onInternalError(error.originalError ?? error);
  return { message: 'Internal error while running the query; the server log has the details.', path: json.path, locations: json.locations, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}
