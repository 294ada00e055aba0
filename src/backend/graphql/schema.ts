// Generates the XOS GraphQL API (DESIGN §4) from any valid AST: object, enum,
// filter, order and input types per entity; list, count and detail fields per
// context; insert/update/delete per entity.
import {
  GraphQLBoolean, GraphQLEnumType, GraphQLError, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLList,
  GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString,
  type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLInputType,
  type GraphQLResolveInfo, type GraphQLScalarType,
} from 'graphql';
import type { Ast, FieldDef } from '../../ast/schema.ts';
import type { Model, Relation, Table } from '../model.ts';
import type { RecordId, Row } from '../storage/types.ts';
import { StorageError } from '../storage/errors.ts';
import { coerceFieldValue, checkRequired, FieldValueError } from '../../ast/values.ts';
import { RowLoader } from './rowLoader.ts';
import type { RequestContext } from './context.ts';
import { apiError, badInput } from './errors.ts';
import { orderByToSpec, toRecordId, whereToCondition } from './filters.ts';
import { scalarOfType } from './scalars.ts';
import { selectedColumns } from './selection.ts';
import { DEFAULT_DOCUMENT_LIMITS } from './limits.ts';
import { auditFields } from './audit.ts';
import { sortHintFields } from './sortHint.ts';
import { cursorFor, cursorOf, keyOfCursor, markReadOrder } from './cursor.ts';
import { orderTerms, reversedTerms } from '../storage/seek.ts';
import { aggregateFields } from './aggregates.ts';

type Args = Record<string, unknown>;

/** `<context>_cursors`: the most cursors one request returns, and the smallest step between them. */
const MAX_LIST_CURSORS = 10_000;
const MIN_CURSOR_STEP = 100;
/** The most records one batch (`update_<entity>_many`) changes. */
export const MAX_BATCH_ROWS = 10_000;

/** What may be written per entity (a role's grants); absent: everything the AST allows. */
export interface EntityWrites {
  readonly edit: boolean;
  readonly create: boolean;
  readonly delete: boolean;
}

/** Builds the executable schema; `model` must come from the same AST. */
export function buildXosSchema(ast: Ast, model: Model, writes?: ReadonlyMap<string, EntityWrites>): GraphQLSchema {
  const orderDirection = new GraphQLEnumType({
    name: 'order_by',
    description: 'Sort direction.',
    values: { asc: { value: 'asc' }, desc: { value: 'desc' } },
  });

  const enums = new Map<string, GraphQLEnumType>();
  const comparisons = new Map<string, GraphQLInputObjectType>();
  const objects = new Map<string, GraphQLObjectType>();
  const boolExps = new Map<string, GraphQLInputObjectType>();
  const orderBys = new Map<string, GraphQLInputObjectType>();

  function enumType(entity: string, field: string, def: FieldDef): GraphQLEnumType {
    const name = `${entity}_${field}`;
    let t = enums.get(name);
    if (!t) {
      t = new GraphQLEnumType({ name, values: Object.fromEntries((def.values ?? []).map((v) => [v, { value: v }])) });
      enums.set(name, t);
    }
    return t;
  }

  function scalarOf(entity: string, field: string, def: FieldDef): GraphQLScalarType | GraphQLEnumType {
    return def.type === 'enum' ? enumType(entity, field, def) : scalarOfType(def.type);
  }

  function comparisonType(type: GraphQLScalarType | GraphQLEnumType): GraphQLInputObjectType {
    const name = `${type.name}_comparison_exp`;
    let t = comparisons.get(name);
    if (!t) {
      const list = new GraphQLList(new GraphQLNonNull(type));
      const fields: GraphQLInputFieldConfigMap = {
        _eq: { type }, _neq: { type }, _lt: { type }, _lte: { type }, _gt: { type }, _gte: { type },
        _in: { type: list }, _nin: { type: list }, _is_null: { type: GraphQLBoolean },
      };
      if (type === GraphQLString) {
        fields._like = { type, description: 'SQL LIKE, case-sensitive (% and _ are wildcards).' };
        fields._ilike = { type, description: 'SQL LIKE, case-insensitive.' };
      }
      t = new GraphQLInputObjectType({ name, fields });
      comparisons.set(name, t);
    }
    return t;
  }

  const entityNames = Object.keys(ast.entities);

  for (const entityName of entityNames) {
    const table = model.table(entityName);
    const entity = ast.entities[entityName];

    boolExps.set(entityName, new GraphQLInputObjectType({
      name: `${entityName}_bool_exp`,
      description: `Filter for ${entityName} (Hasura-style operators).`,
      fields: () => {
        const self = boolExps.get(entityName)!;
        const fields: GraphQLInputFieldConfigMap = {
          _and: { type: new GraphQLList(new GraphQLNonNull(self)) },
          _or: { type: new GraphQLList(new GraphQLNonNull(self)) },
          _not: { type: self },
          id: { type: comparisonType(GraphQLID) },
          version: { type: comparisonType(GraphQLInt) },
        };
        for (const [fieldName, def] of Object.entries(entity.fields)) {
          if (def.type === 'id') continue;
          if (def.type === 'ref') {
            fields[fieldName] = { type: boolExps.get(def.entity!)! };
            fields[`${fieldName}_id`] = { type: comparisonType(GraphQLID) };
          } else {
            fields[fieldName] = { type: comparisonType(scalarOf(entityName, fieldName, def)) };
          }
        }
        for (const [inverseName, relation] of table.inverses) {
          fields[inverseName] = { type: boolExps.get(relation.from)!, description: `Some ${relation.from} of this list matches.` };
        }
        return fields;
      },
    }));

    orderBys.set(entityName, new GraphQLInputObjectType({
      name: `${entityName}_order_by`,
      description: 'One or more fields with asc or desc, applied in the order given.',
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const column of table.columns) fields[column.name] = { type: orderDirection };
        return fields;
      },
    }));

    objects.set(entityName, new GraphQLObjectType({
      name: entityName,
      fields: () => {
        const fields: GraphQLFieldConfigMap<Row, RequestContext> = {
          id: { type: new GraphQLNonNull(GraphQLID) },
        };
        for (const [fieldName, def] of Object.entries(entity.fields)) {
          if (def.type === 'id') continue;
          if (def.type === 'ref') {
            const relation = table.refs.find((r) => r.field === fieldName)!;
            fields[fieldName] = { type: objects.get(def.entity!)!, resolve: (row, _args, ctx) => loadRef(ctx, relation, row) };
            fields[`${fieldName}_id`] = { type: GraphQLID };
            continue;
          }
          const base = scalarOf(entityName, fieldName, def);
          fields[fieldName] = { type: def.required ? new GraphQLNonNull(base) : base };
        }
        fields.version = { type: new GraphQLNonNull(GraphQLInt), description: 'Optimistic concurrency: pass it back to update or delete.' };
        fields._cursor = {
          type: GraphQLString,
          description: 'This record\'s place in the list context it was read from, in that order_by: pass it as after or before to read on from here by key. Null outside a list context.',
          resolve: (row) => cursorOf(row),
        };
        for (const [inverseName, relation] of table.inverses) {
          fields[inverseName] = {
            type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(objects.get(relation.from)!))),
            args: listArgs(relation.from),
            resolve: (row, args, ctx, info) => loadInverse(ctx, relation, row, args, info),
          };
        }
        return fields;
      },
    }));
  }

  function listArgs(entityName: string) {
    return {
      where: { type: boolExps.get(entityName)! },
      order_by: { type: new GraphQLList(new GraphQLNonNull(orderBys.get(entityName)!)) },
      limit: { type: GraphQLInt },
      offset: { type: GraphQLInt },
    };
  }

  function pagingArgs(args: Args): { limit?: number; offset?: number } {
    const limit = args.limit as number | null | undefined;
    const offset = args.offset as number | null | undefined;
    if (limit != null && limit < 0) throw badInput('limit must not be negative', 'limit');
    // Validation caps literal limits; a limit given through a variable is only seen here.
    const max = DEFAULT_DOCUMENT_LIMITS.maxLimit;
    if (limit != null && limit > max) throw badInput(`limit ${limit} is over the cap of ${max} records per list. Page with limit (at most ${max}) and offset.`, 'limit');
    if (offset != null && offset < 0) throw badInput('offset must not be negative', 'offset');
    return { limit: limit ?? undefined, offset: offset ?? undefined };
  }

  async function loadRef(ctx: RequestContext, relation: Relation, row: Row): Promise<Row | null> {
    const id = row[relation.column];
    if (id === null || id === undefined) return null;
    const target = model.table(relation.to);
    const loader = ctx.loaders.get<number, Row | null>(`ref:${target.name}`, () => new RowLoader(async (ids) => {
      const rows = await guard(() => ctx.storage.select({
        table: target.name, columns: target.columns.map((c) => c.name), where: { kind: 'in', column: 'id', values: ids, negate: false },
      }));
      return new Map(rows.map((r) => [r.id as number, r]));
    }, null));
    return loader.load(id as number);
  }

  async function loadInverse(ctx: RequestContext, relation: Relation, row: Row, args: Args, info: GraphQLResolveInfo): Promise<Row[]> {
    const source = model.table(relation.from);
    const where = whereToCondition(model, source, args.where as Args | undefined);
    const orderBy = orderByToSpec(source, args.order_by);
    const { limit, offset } = pagingArgs(args);
    const columns = selectedColumns(source, info);
    // One batch per distinct argument set: same filter, same order, many parents.
    const key = `inverse:${source.name}.${relation.column}:${JSON.stringify([args.where, args.order_by, columns])}`;
    const loader = ctx.loaders.get<number, Row[]>(key, () => new RowLoader(async (ids) => {
      const inParents = { kind: 'in' as const, column: relation.column, values: ids, negate: false };
      const rows = await guard(() => ctx.storage.select({
        table: source.name, columns: [...columns, relation.column],
        where: where ? { kind: 'and', items: [inParents, where] } : inParents, orderBy,
      }));
      const byParent = new Map<number, Row[]>();
      for (const r of rows) {
        const parent = r[relation.column] as number;
        let list = byParent.get(parent);
        if (!list) byParent.set(parent, (list = []));
        list.push(r);
      }
      return byParent;
    }, []));
    const all = await loader.load(row.id as number);
    const start = offset ?? 0;
    return limit === undefined ? all.slice(start) : all.slice(start, start + limit);
  }

  // ---- root fields -------------------------------------------------------

  const queryFields: GraphQLFieldConfigMap<unknown, RequestContext> = {};
  const aggregateField = aggregateFields({ ast, model, orderDirection, scalarOf, boolExp: (entity) => boolExps.get(entity)!, guard });
  for (const [contextName, context] of Object.entries(ast.contexts)) {
    const table = model.table(context.entity);
    const object = objects.get(context.entity)!;
    const label = typeof context.label === 'string' ? context.label : contextName;
    if (context.kind === 'list') {
      queryFields[contextName] = {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(object))),
        description: `List context ${label}: ${context.entity} records.`,
        args: {
          ...listArgs(context.entity),
          after: { type: GraphQLString, description: 'Only records after this _cursor (read with the same order_by); offset then skips from there.' },
          before: { type: GraphQLString, description: 'Only records before this _cursor (read with the same order_by), nearest last; offset then skips back from there.' },
        },
        resolve: async (_root, args, ctx, info) => {
          const { limit, offset } = pagingArgs(args);
          const terms = orderTerms(orderByToSpec(table, args.order_by));
          const where = whereToCondition(model, table, args.where as Args | undefined);
          const after = args.after as string | null | undefined;
          const before = args.before as string | null | undefined;
          if (after != null && before != null) throw badInput('give after or before, not both', 'before');
          const key = after != null ? keyOfCursor(table, terms, after, 'after') : before != null ? keyOfCursor(table, terms, before, 'before') : undefined;
          // Before a key is after it the other way round; the rows come back in the asked order.
          const rows = await guard(() => ctx.storage.select({
            table: table.name, columns: [...selectedColumns(table, info), ...terms.map((t) => t.column)],
            where, orderBy: before != null ? reversedTerms(terms) : terms, limit, offset, ...(key ? { after: key } : {}),
          }));
          if (before != null) rows.reverse();
          return markReadOrder(rows, terms);
        },
      };
      queryFields[`${contextName}_cursors`] = {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))),
        description: `The _cursor of every \`every\`-th ${context.entity} record in ${contextName} (the records at 0-based positions every-1, 2·every-1, …; at most ${MAX_LIST_CURSORS}), to jump into a long list by key: read after the nearest one, with offset for the rest.`,
        args: {
          where: { type: boolExps.get(context.entity)! },
          order_by: { type: new GraphQLList(new GraphQLNonNull(orderBys.get(context.entity)!)) },
          every: { type: new GraphQLNonNull(GraphQLInt) },
        },
        resolve: async (_root, args, ctx) => {
          const every = args.every as number;
          if (every < MIN_CURSOR_STEP) throw badInput(`every must be at least ${MIN_CURSOR_STEP}; for fewer rows read the list itself`, 'every');
          const terms = orderTerms(orderByToSpec(table, args.order_by));
          const where = whereToCondition(model, table, args.where as Args | undefined);
          const keys = await guard(() => ctx.storage.keys({ table: table.name, columns: [], where, orderBy: terms }, every, MAX_LIST_CURSORS));
          return keys.map(({ key }) => cursorFor(terms, key));
        },
      };
      queryFields[`${contextName}_aggregate`] = aggregateField(contextName, context.entity);
      queryFields[`${contextName}_count`] = {
        type: new GraphQLNonNull(GraphQLInt),
        description: `Number of ${context.entity} records in ${contextName} that match the filter.`,
        args: { where: { type: boolExps.get(context.entity)! } },
        resolve: (_root, args, ctx) => guard(() => ctx.storage.count(table.name, whereToCondition(model, table, args.where as Args | undefined))),
      };
    } else {
      queryFields[contextName] = {
        type: object,
        description: `Detail context ${label}: one ${context.entity} by id.`,
        args: { id: { type: new GraphQLNonNull(GraphQLID) } },
        resolve: async (_root, args, ctx, info) => {
          const rows = await guard(() => ctx.storage.select({
            table: table.name, columns: selectedColumns(table, info),
            where: { kind: 'compare', column: 'id', op: 'eq', value: toRecordId(table.byName.get('id')!, args.id, 'id') }, limit: 1,
          }));
          return rows[0] ?? null;
        },
      };
    }
  }

  const mutationFields: GraphQLFieldConfigMap<unknown, RequestContext> = {};
  for (const entityName of entityNames) {
    const table = model.table(entityName);
    const entity = ast.entities[entityName];
    const object = objects.get(entityName)!;
    // A view or a table without one key is only read; a read-only field (the database computes it) is never written.
    const writable = Object.entries(entity.fields).filter(([, def]) => def.type !== 'id' && def.read_only !== true);
    if (table.readOnly !== undefined || writable.length === 0) continue;
    const inputFields = (): GraphQLInputFieldConfigMap => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const [fieldName, def] of writable) {
        const type: GraphQLInputType = def.type === 'ref' ? GraphQLID : scalarOf(entityName, fieldName, def);
        fields[def.type === 'ref' ? `${fieldName}_id` : fieldName] = { type };
      }
      return fields;
    };
    const insertInput = new GraphQLInputObjectType({ name: `${entityName}_insert_input`, fields: inputFields });
    const setInput = new GraphQLInputObjectType({ name: `${entityName}_set_input`, fields: inputFields });
    const version = { type: new GraphQLNonNull(GraphQLInt) };
    const idArg = { type: new GraphQLNonNull(GraphQLID) };

    const may = writes?.get(entityName) ?? { edit: true, create: true, delete: true };
    if (may.create) mutationFields[`insert_${entityName}`] = {
      type: new GraphQLNonNull(object),
      description: `Creates one ${entityName}; required fields must be given.`,
      args: { object: { type: new GraphQLNonNull(insertInput) } },
      resolve: async (_root, args, ctx) => {
        const input = args.object as Args;
        const missing = checkRequired(entityName, entity.fields, inputToFields(table, input));
        if (missing.length) throw fieldError(missing[0]);
        const row = inputToRow(table, input);
        await checkRefsExist(ctx, table, row);
        return guard(() => ctx.storage.insert(table.name, row, ctx.audit));
      },
    };
    if (may.edit) mutationFields[`update_${entityName}`] = {
      type: new GraphQLNonNull(object),
      description: `Changes fields of one ${entityName}; fails with CONFLICT when version is not the stored one.`,
      args: { id: idArg, version, set: { type: new GraphQLNonNull(setInput) } },
      resolve: async (_root, args, ctx) => {
        const id = toRecordId(table.byName.get('id')!, args.id, 'id');
        const set = inputToRow(table, args.set as Args);
        if (Object.keys(set).length === 0) throw badInput('set must name at least one field', 'set');
        await checkRefsExist(ctx, table, set);
        const result = await guard(() => ctx.storage.update(table.name, id, args.version as number, set, ctx.audit));
        if (result.status === 'ok') return result.row;
        if (result.status === 'conflict') throw conflict(table, result.current, args.version as number);
        throw notFound(entityName, id);
      },
    };
    const manyInput = new GraphQLInputObjectType({
      name: `${entityName}_many_update_input`,
      fields: () => ({ id: idArg, version, set: { type: new GraphQLNonNull(setInput) } }),
    });
    if (may.edit) mutationFields[`update_${entityName}_many`] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(object))),
      description: `Changes many ${entityName} records (at most ${MAX_BATCH_ROWS}) in ONE transaction, each checked against its version: all are written, or — when any changed meanwhile or is gone — none, and the error (CONFLICT) names every such record.`,
      args: { updates: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(manyInput))) } },
      resolve: async (_root, args, ctx) => {
        const given = args.updates as Array<{ id: unknown; version: number; set: Args }>;
        if (given.length > MAX_BATCH_ROWS) throw badInput(`at most ${MAX_BATCH_ROWS} records change in one batch (got ${given.length}); split it`, 'updates');
        const idColumn = table.byName.get('id')!;
        // Every row checked before anything is written; the first bad value names its row.
        const updates = given.map((u, i) => {
          const where = `updates[${i}]`;
          const set = inputToRowAt(table, u.set, where);
          if (Object.keys(set).length === 0) throw badInput(`${where}.set must name at least one field`, `${where}.set`);
          return { id: toRecordId(idColumn, u.id, `${where}.id`), version: u.version, set };
        });
        await checkRefsExistMany(ctx, table, updates.map((u) => u.set));
        const result = await guard(() => ctx.storage.updateMany(table.name, updates, ctx.audit));
        if (result.status === 'ok') {
          if (result.batch) ctx.made.batch = result.batch;
          return result.rows;
        }
        throw apiError('CONFLICT',
          `${result.conflicts.length} of the ${updates.length} ${entityName} records changed since they were read or are gone; nothing was written. Read them again and apply the changes again.`,
          { conflicts: result.conflicts.map((c) => ({ id: String(c.id), current: c.current ? rowToApi(table, c.current) : null })) });
      },
    };
    if (may.delete) mutationFields[`delete_${entityName}`] = {
      type: new GraphQLNonNull(GraphQLBoolean),
      description: `Deletes one ${entityName}; fails with CONFLICT when version is not the stored one.`,
      args: { id: idArg, version },
      resolve: async (_root, args, ctx) => {
        const id = toRecordId(table.byName.get('id')!, args.id, 'id');
        const result = await guard(() => ctx.storage.delete(table.name, id, args.version as number, ctx.audit));
        if (result.status === 'ok') return true;
        if (result.status === 'conflict') throw conflict(table, result.current, args.version as number);
        throw notFound(entityName, id);
      },
    };
  }

  const audit = auditFields();
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ...queryFields, ...audit.query, ...sortHintFields(ast, model) } }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: { ...mutationFields, ...audit.mutation } }),
  });
}

/** Input object (field names, `<ref>_id`) -> values keyed by AST field name. */
function inputToFields(table: Table, input: Args): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const column = table.byName.get(key);
    if (column) out[column.field] = value;
  }
  return out;
}

/** Checks every given value with the AST's rules and maps it to its column. */
function inputToRow(table: Table, input: Args): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const column = table.byName.get(key);
    if (!column?.def) throw badInput(`${table.name} has no writable field "${key}"`, key);
    try {
      row[column.name] = coerceFieldValue(table.name, column.field, column.def, value);
    } catch (e) {
      if (e instanceof FieldValueError) throw fieldError(e, key);
      throw e;
    }
  }
  return row;
}

/** inputToRow for one row of a batch: an error names the row (`updates[12].set.age`). */
function inputToRowAt(table: Table, input: Args, where: string): Row {
  try {
    return inputToRow(table, input);
  } catch (error) {
    if (error instanceof GraphQLError) {
      const field = typeof error.extensions.field === 'string' ? error.extensions.field : undefined;
      throw badInput(`${where}: ${error.message}`, field ? `${where}.set.${field}` : `${where}.set`);
    }
    throw error;
  }
}

/** checkRefsExist for a batch: one query per relation for all the ids its rows name. */
async function checkRefsExistMany(ctx: RequestContext, table: Table, rows: readonly Row[]): Promise<void> {
  for (const relation of table.refs) {
    const ids = [...new Set(rows.map((row) => row[relation.column]).filter((id) => id !== null && id !== undefined))];
    if (ids.length === 0) continue;
    const found = await guard(() => ctx.storage.select({ table: relation.to, columns: [], where: { kind: 'in', column: 'id', values: ids, negate: false } }));
    const known = new Set(found.map((row) => String(row.id)));
    const missing = ids.find((id) => !known.has(String(id)));
    if (missing !== undefined) throw badInput(`${table.name}.${relation.column}: ${relation.to} ${String(missing)} does not exist; pick an existing ${relation.to} id`, relation.column);
  }
}

/** A clear error for a ref to a missing record; the foreign key stays the final guard. */
async function checkRefsExist(ctx: RequestContext, table: Table, row: Row): Promise<void> {
  for (const relation of table.refs) {
    const id = row[relation.column];
    if (id === null || id === undefined) continue;
    const found = await guard(() => ctx.storage.count(relation.to, { kind: 'compare', column: 'id', op: 'eq', value: id }));
    if (found === 0) throw badInput(`${table.name}.${relation.column}: ${relation.to} ${id} does not exist; pick an existing ${relation.to} id`, relation.column);
  }
}

function fieldError(e: FieldValueError, field = e.field) {
  return badInput(e.message, field);
}

/** A stored row as the API shows it (ids as strings), for `extensions.current`. */
export function rowToApi(table: Table, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of table.columns) {
    const value = row[column.name] ?? null;
    out[column.name] = value !== null && (column.type === 'id' || column.type === 'ref') ? String(value) : value;
  }
  return out;
}

function conflict(table: Table, current: Row, given: number) {
  return apiError('CONFLICT',
    `${table.name} ${current.id} was changed by someone else: you sent version ${given}, the stored version is ${current.version}. Reload it and apply your change again.`,
    { current: rowToApi(table, current) });
}

function notFound(entity: string, id: RecordId) {
  return apiError('NOT_FOUND', `${entity} ${id} does not exist (it may have been deleted).`);
}

/** Maps storage failures the caller can act on to API errors; bugs pass through. */
async function guard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof StorageError) {
      switch (e.code) {
        case 'foreign_key':
          throw badInput(`a referenced record does not exist, or this record is still referenced by others${e.column ? ` (${e.column})` : ''}`, e.column);
        case 'unique':
          throw badInput(`a record with this value already exists${e.column ? ` (${e.column})` : ''}`, e.column);
        case 'check':
        case 'not_null':
        case 'choice':
          // The storage names the field and what the database's rule allows.
          throw badInput(e.message, e.column);
        case 'timeout':
          throw apiError('UNAVAILABLE', 'the database took too long to answer; narrow the query (where, limit) and try again');
        case 'unavailable':
          throw apiError('UNAVAILABLE', 'the database is not reachable right now; try again later');
      }
    }
    throw e;
  }
}
