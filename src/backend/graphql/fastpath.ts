// A shortcut for the most common request: root list/detail/count fields that
// select only scalar columns (the seed's `{ person_list { id firstname ... } }`).
// It calls the same resolvers graphql-js would and serialises rows directly,
// skipping graphql-js's per-field machinery, which dominates large lists.
// Anything it is not sure about returns undefined and the full executor runs,
// so results are the same either way (the tests compare both paths).
import {
  getArgumentValues, getNamedType, getVariableValues, isEnumType, isLeafType, isNonNullType, Kind,
  type DocumentNode, type FieldNode, type FormattedExecutionResult, type GraphQLField, type GraphQLObjectType,
  type GraphQLResolveInfo, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import type { Model } from '../model.ts';
import type { Row } from '../storage/types.ts';
import type { RequestContext } from './context.ts';
import { cursorOf } from './cursor.ts';

interface LeafPlan {
  readonly key: string;
  readonly column: string;
  readonly nonNull: boolean;
  /** ID is the one scalar whose stored form (a number) differs from its serialised form. */
  readonly asString: boolean;
  readonly typename?: string;
  /** enum fields: the values graphql-js would serialise; others make it report an error. */
  readonly allowed?: ReadonlySet<string>;
  /** `_cursor`: the row's key in the order it was read in. */
  readonly cursor?: boolean;
}

type RootPlan =
  | { readonly kind: 'rows'; readonly key: string; readonly node: FieldNode; readonly field: GraphQLField<unknown, RequestContext>; readonly nonNull: boolean; readonly leaves: LeafPlan[] }
  | { readonly kind: 'value'; readonly key: string; readonly node: FieldNode; readonly field: GraphQLField<unknown, RequestContext> };

const NOT_HANDLED = undefined;

function plan(schema: GraphQLSchema, model: Model, operation: OperationDefinitionNode): RootPlan[] | undefined {
  const queryType = schema.getQueryType()!;
  const plans: RootPlan[] = [];
  const keys = new Set<string>();
  for (const sel of operation.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || sel.directives?.length) return NOT_HANDLED;
    const key = sel.alias?.value ?? sel.name.value;
    if (keys.has(key)) return NOT_HANDLED;
    keys.add(key);
    const field = queryType.getFields()[sel.name.value];
    if (!field) return NOT_HANDLED;
    const named = getNamedType(field.type);
    if (isLeafType(named)) {
      if (sel.selectionSet) return NOT_HANDLED;
      plans.push({ kind: 'value', key, node: sel, field });
      continue;
    }
    const object = named as GraphQLObjectType;
    const table = model.tables.get(object.name);
    if (!table || !sel.selectionSet) return NOT_HANDLED;
    const leaves: LeafPlan[] = [];
    const leafKeys = new Set<string>();
    for (const leaf of sel.selectionSet.selections) {
      if (leaf.kind !== Kind.FIELD || leaf.directives?.length || leaf.arguments?.length || leaf.selectionSet) return NOT_HANDLED;
      const leafKey = leaf.alias?.value ?? leaf.name.value;
      if (leafKeys.has(leafKey)) return NOT_HANDLED;
      leafKeys.add(leafKey);
      if (leaf.name.value === '__typename') {
        leaves.push({ key: leafKey, column: '', nonNull: true, asString: false, typename: object.name });
        continue;
      }
      if (leaf.name.value === '_cursor') {
        leaves.push({ key: leafKey, column: '', nonNull: false, asString: false, cursor: true });
        continue;
      }
      const column = table.byName.get(leaf.name.value);
      const def = object.getFields()[leaf.name.value];
      if (!column || !def || !isLeafType(getNamedType(def.type))) return NOT_HANDLED;
      const leafType = getNamedType(def.type);
      const allowed = isEnumType(leafType) ? new Set(leafType.getValues().map((v) => v.value as string)) : undefined;
      leaves.push({ key: leafKey, column: column.name, nonNull: isNonNullType(def.type), asString: column.type === 'id' || column.type === 'ref', allowed });
    }
    plans.push({ kind: 'rows', key, node: sel, field, nonNull: isNonNullType(field.type), leaves });
  }
  return plans;
}

function serialise(row: Row, leaves: readonly LeafPlan[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const leaf of leaves) {
    if (leaf.typename) { out[leaf.key] = leaf.typename; continue; }
    if (leaf.cursor) { out[leaf.key] = cursorOf(row); continue; }
    const value = row[leaf.column] ?? null;
    if (value === null) {
      if (leaf.nonNull) return undefined; // graphql-js would report an error: let it
      out[leaf.key] = null;
    } else {
      if (leaf.allowed && !leaf.allowed.has(value as string)) return undefined; // a stale enum value: let graphql-js report it
      out[leaf.key] = leaf.asString ? String(value) : value;
    }
  }
  return out;
}

export async function tryFastPath(
  schema: GraphQLSchema, model: Model, document: DocumentNode, variables: Record<string, unknown> | undefined,
  operationName: string | undefined, context: RequestContext,
): Promise<FormattedExecutionResult | undefined> {
  if (document.definitions.length !== 1) return NOT_HANDLED;
  const operation = document.definitions[0];
  if (operation.kind !== Kind.OPERATION_DEFINITION || operation.operation !== 'query' || operation.directives?.length) return NOT_HANDLED;
  if (operationName && operation.name?.value !== operationName) return NOT_HANDLED;
  const plans = plan(schema, model, operation);
  if (!plans) return NOT_HANDLED;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) return NOT_HANDLED;

  const data: Record<string, unknown> = {};
  try {
    const values = await Promise.all(plans.map((p) => {
      const args = getArgumentValues(p.field as GraphQLField<unknown, unknown>, p.node, coerced.coerced);
      const info = { fieldNodes: [p.node], fragments: {} } as unknown as GraphQLResolveInfo;
      return p.field.resolve!(undefined, args, context, info);
    }));
    for (let i = 0; i < plans.length; i++) {
      const p = plans[i];
      const value = values[i] as Row | Row[] | number | null;
      if (p.kind === 'value') { data[p.key] = value; continue; }
      if (value === null || value === undefined) {
        if (p.nonNull) return NOT_HANDLED;
        data[p.key] = null;
        continue;
      }
      if (Array.isArray(value)) {
        const rows = new Array(value.length);
        for (let r = 0; r < value.length; r++) {
          const obj = serialise(value[r], p.leaves);
          if (!obj) return NOT_HANDLED;
          rows[r] = obj;
        }
        data[p.key] = rows;
      } else {
        const obj = serialise(value as Row, p.leaves);
        if (!obj) return NOT_HANDLED;
        data[p.key] = obj;
      }
    }
  } catch {
    return NOT_HANDLED; // the full executor reports the error in the standard form
  }
  return { data };
}
