// `<context>_aggregate`: counts, sums, averages, minimums and maximums of a list context's records,
// per group (fields, refs by their display name, dates by day, week, month, quarter or year),
// filtered by the list's own `where`, ordered by a group or a measure, limited, with the groups
// past the limit summed up as `others` where asked, and `having` on measures. The measures are
// those the query selects (and orders or filters by); one statement computes them all.
import {
  GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString,
  Kind,
  type GraphQLFieldConfig, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLOutputType, type GraphQLResolveInfo,
  type GraphQLScalarType, type SelectionSetNode,
} from 'graphql';
import type { Ast, FieldDef } from '../../ast/schema.ts';
import { displayFields, joinedName } from '../../ast/display.ts';
import { fieldType } from '../../ast/fieldTypes.ts';
import type { Model, Table } from '../model.ts';
import type {
  AggregateFn, AggregateGroup, AggregateHaving, AggregateMeasure, AggregateOrder, AggregateResult, DateBucket, RecordId, Scalar,
} from '../storage/types.ts';
import type { RequestContext } from './context.ts';
import { badInput } from './errors.ts';
import { whereToCondition } from './filters.ts';
import { scalarOfType } from './scalars.ts';
import { DEFAULT_DOCUMENT_LIMITS } from './limits.ts';

/** The names of the types an entity's aggregates add, after the entity's name (the introspection keeps them free). */
export const AGGREGATE_TYPE_SUFFIXES: readonly string[] = [
  '', '_key', '_group', '_others', '_counts', '_sums', '_averages', '_minimums', '_maximums', '_group_by', '_order_by', '_having', '_key_order_by',
  ...['count_distinct', 'sum', 'avg', 'min', 'max'].flatMap((fn) => [`_${fn}_order_by`, `_${fn}_having`]),
].map((suffix) => `_aggregate${suffix}`);

/** The types every entity's aggregates share. */
export const AGGREGATE_SHARED_TYPES: readonly string[] = ['date_bucket', 'aggregate_number_comparison_exp'];

/** Groups returned when the query gives no limit. */
export const DEFAULT_GROUP_LIMIT = 1000;

const DATE_BUCKETS: readonly DateBucket[] = ['day', 'week', 'month', 'quarter', 'year'];
/** What the field's type lets totals do with it (its row in src/ast/fieldTypes.ts). */
const summed = (def: FieldDef) => fieldType(def.type).aggregate?.sum === true;
const extreme = (def: FieldDef) => fieldType(def.type).aggregate?.extremes === true;
const bucketed = (def: FieldDef) => fieldType(def.type).aggregate?.buckets === true;
/** The measures a query names by field: `sum { net_worth }`. */
const FIELD_MEASURES = ['count_distinct', 'sum', 'avg', 'min', 'max'] as const;
type FieldMeasure = (typeof FIELD_MEASURES)[number];
const COMPARISONS = { _eq: 'eq', _neq: 'neq', _gt: 'gt', _gte: 'gte', _lt: 'lt', _lte: 'lte' } as const;

export interface AggregateSchemaParts {
  readonly ast: Ast;
  readonly model: Model;
  readonly orderDirection: GraphQLEnumType;
  scalarOf(entity: string, field: string, def: FieldDef): GraphQLScalarType | GraphQLEnumType;
  boolExp(entity: string): GraphQLInputObjectType;
  guard<T>(run: () => Promise<T>): Promise<T>;
}

type Args = Record<string, unknown>;
type Fields = [string, FieldDef][];

/** Makes `<context>_aggregate` fields; the types of an entity are made once, for all its contexts. */
export function aggregateFields(parts: AggregateSchemaParts): (context: string, entity: string) => GraphQLFieldConfig<unknown, RequestContext> {
  const { ast, model } = parts;
  const bucketType = new GraphQLEnumType({
    name: AGGREGATE_SHARED_TYPES[0],
    description: 'Groups dates by the first day (UTC) of their day, ISO week (Monday), month, quarter or year.',
    values: Object.fromEntries(DATE_BUCKETS.map((b) => [b, { value: b }])),
  });
  const numberComparison = new GraphQLInputObjectType({
    name: AGGREGATE_SHARED_TYPES[1],
    description: 'Compares a measure with a number.',
    fields: Object.fromEntries(Object.keys(COMPARISONS).map((op) => [op, { type: GraphQLFloat }])),
  });
  const byEntity = new Map<string, { type: GraphQLObjectType; args: Record<string, { type: GraphQLInputObjectType | GraphQLList<GraphQLNonNull<GraphQLInputObjectType>> | GraphQLScalarType }> }>();

  const typesOf = (entityName: string) => {
    const known = byEntity.get(entityName);
    if (known) return known;
    const fields: Fields = Object.entries(ast.entities[entityName].fields).filter(([, def]) => def.type !== 'id');
    const numbers = fields.filter(([, def]) => summed(def));
    const extremes = fields.filter(([, def]) => extreme(def));
    const objectOf = (suffix: string, of: Fields, type: (name: string, def: FieldDef) => GraphQLOutputType, description: string) =>
      of.length === 0 ? undefined : new GraphQLObjectType({ name: `${entityName}_aggregate_${suffix}`, description, fields: Object.fromEntries(of.map(([name, def]) => [name, { type: type(name, def) }])) });
    const decimal = scalarOfType('decimal');
    const ownScalar = (name: string, def: FieldDef) => parts.scalarOf(entityName, name, def);
    const measureTypes: Partial<Record<FieldMeasure, GraphQLObjectType>> = {};
    const counts = objectOf('counts', fields, () => GraphQLInt, 'Distinct values per field (a ref: distinct records).');
    if (counts) measureTypes.count_distinct = counts;
    const sums = objectOf('sums', numbers, () => decimal, 'Exact sums (decimal text).');
    if (sums) measureTypes.sum = sums;
    const averages = objectOf('averages', numbers, () => decimal, 'Averages: the field\'s scale plus two digits, rounded half away from zero.');
    if (averages) measureTypes.avg = averages;
    const minimums = objectOf('minimums', extremes, ownScalar, 'The smallest value per field.');
    const maximums = objectOf('maximums', extremes, ownScalar, 'The largest value per field.');
    if (minimums) measureTypes.min = minimums;
    if (maximums) measureTypes.max = maximums;

    const keyFields: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const [name, def] of fields) {
      if (def.type === 'ref') {
        keyFields[name] = { type: GraphQLString, description: `The ${def.entity} record's name.` };
        keyFields[`${name}_id`] = { type: GraphQLID };
      } else {
        keyFields[name] = bucketed(def) ? { type: scalarOfType('date'), description: 'The first day of the bucket.' } : { type: ownScalar(name, def) };
      }
    }
    const key = new GraphQLObjectType({ name: `${entityName}_aggregate_key`, description: 'The values the group has in common (only the fields grouped by are set).', fields: keyFields });
    const measureFields = (withDistinct: boolean): GraphQLFieldConfigMap<unknown, unknown> => Object.fromEntries(
      Object.entries(measureTypes).filter(([fn]) => withDistinct || fn !== 'count_distinct').map(([fn, type]) => [fn, { type }]),
    );
    const group = new GraphQLObjectType({
      name: `${entityName}_aggregate_group`,
      fields: { key: { type: new GraphQLNonNull(key) }, count: { type: new GraphQLNonNull(GraphQLInt), description: 'Records in the group.' }, ...measureFields(true) },
    });
    const others = new GraphQLObjectType({
      name: `${entityName}_aggregate_others`,
      description: 'The groups past the limit as one (no distinct counts: a value may be in several of them).',
      fields: { groups: { type: new GraphQLNonNull(GraphQLInt) }, count: { type: new GraphQLNonNull(GraphQLInt) }, ...measureFields(false) },
    });
    const type = new GraphQLObjectType({
      name: `${entityName}_aggregate`,
      fields: {
        groups: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(group))) },
        total_groups: { type: new GraphQLNonNull(GraphQLInt), description: 'All groups that pass having, past the limit too.' },
        others: { type: others, description: 'Set when others: true was asked and there are groups past the limit.' },
      },
    });

    const groupByFields: GraphQLInputFieldConfigMap = Object.fromEntries(fields.map(([name, def]) => [name, bucketed(def)
      ? { type: bucketType, description: 'Grouped by this bucket of the date.' }
      : { type: GraphQLBoolean, description: 'true: grouped by this field.' }]));
    const groupBy = new GraphQLInputObjectType({ name: `${entityName}_aggregate_group_by`, description: 'One field per item, in the order of the key.', fields: groupByFields });
    const orderInput = (suffix: string, of: Fields) => new GraphQLInputObjectType({ name: `${entityName}_aggregate_${suffix}_order_by`, fields: Object.fromEntries(of.map(([name]) => [name, { type: parts.orderDirection }])) });
    const orderFields: GraphQLInputFieldConfigMap = { key: { type: orderInput('key', fields) }, count: { type: parts.orderDirection } };
    const havingFields: GraphQLInputFieldConfigMap = { count: { type: numberComparison } };
    const measureOf: Record<FieldMeasure, Fields> = { count_distinct: fields, sum: numbers, avg: numbers, min: extremes, max: extremes };
    for (const fn of FIELD_MEASURES) {
      if (measureOf[fn].length === 0) continue;
      orderFields[fn] = { type: orderInput(fn, measureOf[fn]) };
      const comparable = fn === 'min' || fn === 'max' ? measureOf[fn].filter(([, def]) => summed(def)) : measureOf[fn];
      if (comparable.length) havingFields[fn] = { type: new GraphQLInputObjectType({ name: `${entityName}_aggregate_${fn}_having`, fields: Object.fromEntries(comparable.map(([name]) => [name, { type: numberComparison }])) }) };
    }
    const orderBy = new GraphQLInputObjectType({ name: `${entityName}_aggregate_order_by`, description: 'One of key, count or a measure per item.', fields: orderFields });
    const having = new GraphQLInputObjectType({ name: `${entityName}_aggregate_having`, description: 'Keeps the groups whose measures compare so (all of them).', fields: havingFields });
    const made = {
      type,
      args: {
        where: { type: parts.boolExp(entityName) },
        group_by: { type: new GraphQLList(new GraphQLNonNull(groupBy)) },
        order_by: { type: new GraphQLList(new GraphQLNonNull(orderBy)) },
        having: { type: having },
        limit: { type: GraphQLInt },
        others: { type: GraphQLBoolean, description: 'true: the groups past the limit summed up as others.' },
      },
    };
    byEntity.set(entityName, made);
    return made;
  };

  return (contextName, entityName) => {
    const { type, args } = typesOf(entityName);
    const table = model.table(entityName);
    return {
      type: new GraphQLNonNull(type),
      description: `Counts, sums, averages, minimums and maximums of the ${entityName} records in ${contextName}, per group.`,
      args,
      resolve: async (_root, values: Args, ctx, info) => {
        const query = readQuery(table, ast.entities[entityName].fields, values, info);
        const result = await parts.guard(() => ctx.storage.aggregate({
          table: table.name,
          where: whereToCondition(model, table, values.where as Args | undefined),
          groups: query.groups.map(({ group }) => group),
          measures: query.measures,
          having: query.having,
          orderBy: query.order,
          limit: query.limit,
          others: values.others === true,
        }));
        return shape(result, query, await refLabels(ctx, ast, model, query, result));
      },
    };
  };
}

interface GroupField {
  readonly field: string;
  readonly def: FieldDef;
  readonly group: AggregateGroup;
}

interface AggregateQuery {
  readonly groups: readonly GroupField[];
  readonly measures: AggregateMeasure[];
  /** The index of a measure by `fn:field` (`count`: `count:`). */
  readonly index: Map<string, number>;
  readonly having: AggregateHaving[];
  readonly order: AggregateOrder[];
  readonly limit: number;
}

/** The groups, measures, order and having of one `_aggregate` field, checked against the table. */
function readQuery(table: Table, fields: Readonly<Record<string, FieldDef>>, args: Args, info: GraphQLResolveInfo): AggregateQuery {
  const groups: GroupField[] = [];
  for (const item of (args.group_by as Args[] | null | undefined) ?? []) {
    const named = Object.entries(item).filter(([, v]) => v !== null && v !== undefined && v !== false);
    if (named.length !== 1) throw badInput(`each group_by item names exactly one field, like { city: true }; got ${named.length}`, 'group_by');
    const [field, value] = named[0];
    const def = fields[field];
    if (groups.some((g) => g.field === field)) throw badInput(`group_by names ${field} twice`, 'group_by');
    groups.push({ field, def, group: { column: columnOf(table, field), ...(bucketed(def) ? { bucket: value as DateBucket } : {}) } });
  }
  const measures: AggregateMeasure[] = [];
  const index = new Map<string, number>();
  const measure = (fn: AggregateFn, field?: string): number => {
    const name = `${fn}:${field ?? ''}`;
    let at = index.get(name);
    if (at === undefined) {
      index.set(name, (at = measures.length));
      measures.push(field === undefined ? { fn } : { fn, column: columnOf(table, field) });
    }
    return at;
  };
  // What the query selects under groups and others.
  for (const part of selected(info.fieldNodes.map((n) => n.selectionSet), info)) {
    if (part.name !== 'groups' && part.name !== 'others') continue;
    for (const item of selected([part.selectionSet], info)) {
      if (item.name === 'count') measure('count');
      else if ((FIELD_MEASURES as readonly string[]).includes(item.name)) {
        for (const field of selected([item.selectionSet], info)) if (field.name !== '__typename') measure(item.name as FieldMeasure, field.name);
      }
    }
  }
  const order: AggregateOrder[] = [];
  for (const item of (args.order_by as Args[] | null | undefined) ?? []) {
    const named = Object.entries(item).filter(([, v]) => v !== null && v !== undefined);
    if (named.length !== 1) throw badInput('each order_by item names one of key, count or a measure, like { count: desc }', 'order_by');
    const [what, value] = named[0];
    if (what === 'count') {
      order.push({ measure: measure('count'), desc: value === 'desc' });
      continue;
    }
    for (const [field, direction] of Object.entries(value as Args)) {
      if (direction === null || direction === undefined) continue;
      const desc = direction === 'desc';
      if (what === 'key') {
        const group = groups.findIndex((g) => g.field === field);
        if (group < 0) throw badInput(`order_by key.${field} needs ${field} in group_by`, 'order_by');
        order.push({ group, desc });
      } else {
        order.push({ measure: measure(what as FieldMeasure, field), desc });
      }
    }
  }
  const having: AggregateHaving[] = [];
  const compare = (at: number, comparison: Args) => {
    for (const [op, value] of Object.entries(comparison)) {
      if (value === null || value === undefined) continue;
      having.push({ measure: at, op: COMPARISONS[op as keyof typeof COMPARISONS], value: value as number });
    }
  };
  for (const [what, value] of Object.entries((args.having as Args | null | undefined) ?? {})) {
    if (value === null || value === undefined) continue;
    if (what === 'count') compare(measure('count'), value as Args);
    else for (const [field, comparison] of Object.entries(value as Args)) if (comparison) compare(measure(what as FieldMeasure, field), comparison as Args);
  }
  const limit = (args.limit as number | null | undefined) ?? DEFAULT_GROUP_LIMIT;
  const max = DEFAULT_DOCUMENT_LIMITS.maxLimit;
  if (limit < 1 || limit > max) throw badInput(`limit must be 1 to ${max} groups; for the rest ask others: true`, 'limit');
  return { groups, measures, index, having, order, limit };
}

function columnOf(table: Table, field: string): string {
  const column = table.byField.get(field);
  if (!column) throw badInput(`${table.name} has no field ${field}`, field);
  return column.name;
}

interface Selected {
  readonly name: string;
  readonly selectionSet?: SelectionSetNode;
}

/** The fields of selection sets, through fragments. */
function selected(sets: readonly (SelectionSetNode | undefined)[], info: GraphQLResolveInfo): Selected[] {
  const out: Selected[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    for (const node of set?.selections ?? []) {
      if (node.kind === Kind.FIELD) out.push({ name: node.name.value, selectionSet: node.selectionSet });
      else if (node.kind === Kind.INLINE_FRAGMENT) visit(node.selectionSet);
      else if (!seen.has(node.name.value)) {
        seen.add(node.name.value);
        visit(info.fragments[node.name.value]?.selectionSet);
      }
    }
  };
  for (const set of sets) visit(set);
  return out;
}

/** The names of the records the ref groups point at, by group index and id. */
async function refLabels(ctx: RequestContext, ast: Ast, model: Model, query: AggregateQuery, result: AggregateResult): Promise<Map<number, Map<string, string>>> {
  const labels = new Map<number, Map<string, string>>();
  await Promise.all(query.groups.map(async ({ def }, i) => {
    if (def.type !== 'ref') return;
    const target = model.table(def.entity!);
    const fields = displayFields(ast, target.name);
    const ids = [...new Set(result.groups.map((g) => g.key[i]).filter((id): id is RecordId => id !== null))];
    const names = new Map<string, string>();
    labels.set(i, names);
    if (ids.length === 0 || fields.length === 0) return;
    const columns = fields.map((field) => columnOf(target, field));
    const rows = await ctx.storage.select({ table: target.name, columns, where: { kind: 'in', column: 'id', values: ids, negate: false } });
    for (const row of rows) {
      const name = joinedName(columns.map((column) => row[column]));
      if (name !== undefined) names.set(String(row.id), name);
    }
  }));
  return labels;
}

/** The result as the GraphQL types hold it. */
function shape(result: AggregateResult, query: AggregateQuery, labels: Map<number, Map<string, string>>) {
  const measuresOf = (values: readonly Scalar[]) => {
    const out: Record<string, unknown> = {};
    for (const [name, at] of query.index) {
      const [fn, field] = name.split(':');
      if (fn === 'count') out.count = values[at];
      else ((out[fn] ??= {}) as Record<string, unknown>)[field] = values[at];
    }
    out.count ??= null;
    return out;
  };
  return {
    total_groups: result.totalGroups,
    groups: result.groups.map((row) => {
      const key: Record<string, unknown> = {};
      query.groups.forEach(({ field, def }, i) => {
        if (def.type === 'ref') {
          key[`${field}_id`] = row.key[i];
          key[field] = row.key[i] === null ? null : labels.get(i)?.get(String(row.key[i])) ?? null;
        } else {
          key[field] = row.key[i];
        }
      });
      return { key, ...measuresOf(row.values) };
    }),
    others: result.others ? { groups: result.others.groups, ...measuresOf(result.others.values) } : null,
  };
}
