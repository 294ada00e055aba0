// The rules an agent's xos_query must follow: exactly one query operation,
// whose only root field is the context, selecting exactly the context's
// list_fields. The Board and the save question show fields by their names, so
// nothing may rename (aliases) or drop (@skip/@include) what is selected, at
// any depth; relations nest only a little, so a query cannot fan out without
// end inside the extension host. Each refusal names what was wrong (`QueryRefusal`).
//
// XOS never runs the agent's text. The check takes the document apart, lets
// through only what the agent may know of (an allow-list of fields, relations,
// operators and arguments per entity, after the AST's agent policy), and
// builds a new query from those checked pieces (`buildCheckedQuery` in
// requests.ts): the root's arguments go in GraphQL variables, nested relation
// arguments are printed from the checked values. Hidden names and names that do
// not exist are refused in the same words, so a refusal is no oracle for what exists.
//
// A refusal is data (`QueryRefusal`: what was wrong, with the facts), never a sentence: the
// MCP layer words it for the agent (src/mcp/wording.ts, with what to send instead), the Board
// for the person. The data of a hidden name and of one that does not exist is the same too:
// it holds the name as sent and where it was sent, never why the name is not allowed.
import {
  BREAK, Kind, parse, print, visit,
  type ArgumentNode, type DirectiveNode, type DocumentNode, type FieldNode, type ObjectFieldNode, type OperationDefinitionNode,
  type SelectionNode, type SelectionSetNode, type ValueNode, type VariableNode,
} from 'graphql';
import type { Ast } from '../ast/schema.ts';
import { exampleQuery } from '../ast/view.ts';
import { agentFilterKey, agentListFields, agentSelectable, FILTER_OPERATORS } from '../ast/agentPolicy.ts';

/**
 * The checked arguments of the context's root field: where, order_by and id as JSON values for
 * GraphQL variables; limit and offset as rebuilt literals, so the API's own checks of literal
 * limits (and their words) apply as before.
 */
export interface CheckedArguments {
  readonly where?: unknown;
  readonly order_by?: unknown;
  readonly id?: string;
  readonly limit?: ValueNode;
  readonly offset?: ValueNode;
}

/** An agent's query after the check: only what was checked, rebuilt. */
export interface CheckedQuery {
  readonly context: string;
  readonly entity: string;
  readonly kind: 'list' | 'detail';
  readonly args: CheckedArguments;
  /** The root field's selections, rebuilt from the checked fields (nested arguments as checked literals). */
  readonly selections: readonly FieldNode[];
}

/** A selection at the root of the query, as the refusal names it: a field by its name, or a fragment. */
export type RootSelection = { readonly kind: 'field'; readonly name: string } | { readonly kind: 'fragment' };

/**
 * Where in the query a refusal points: the fields from the context's root field down
 * (`['company', 'deals']`); empty for the root field itself (the context).
 */
export type QueryPath = readonly string[];

/** What a refusal of a query to a known context carries besides its kind: the context and a query that passes. */
interface Asked {
  readonly context: string;
  /** A query of the context that passes the check (`exampleQuery`). */
  readonly example: string;
}

/**
 * Why an agent's query was refused, as data. Names the agent sent are echoed cut to 64
 * characters (`cut`); a hidden name and one that does not exist give the same refusal.
 */
export type QueryRefusal =
  | { readonly kind: 'unknown_context'; readonly context: string; readonly known: readonly string[] }
  | Asked & (
    /** The parser's own message (graphql-js, English). */
    | { readonly kind: 'not_graphql'; readonly detail: string }
    /** Definitions other than operations (fragments). */
    | { readonly kind: 'not_only_operations' }
    | { readonly kind: 'operation_count'; readonly count: number }
    | { readonly kind: 'not_a_query'; readonly operation: 'mutation' | 'subscription' }
    | { readonly kind: 'directive'; readonly directive: string }
    | { readonly kind: 'variable'; readonly variable: string; readonly contextKind: 'list' | 'detail' }
    | { readonly kind: 'root_field'; readonly got: readonly RootSelection[] }
    | { readonly kind: 'root_alias' }
    | { readonly kind: 'no_selection' }
    /** A fragment among the fields at `path` (empty: the context's own fields). */
    | { readonly kind: 'fragment'; readonly path: QueryPath }
    /** An alias `alias: field` among the fields at `path` (empty: the context's own fields). */
    | { readonly kind: 'alias'; readonly path: QueryPath; readonly alias: string; readonly field: string }
    | { readonly kind: 'too_deep'; readonly path: QueryPath; readonly max: number }
    /** The context's list_fields the agent knows of (`wanted`), those not selected, and the other fields selected. */
    | { readonly kind: 'list_fields'; readonly wanted: readonly string[]; readonly missing: readonly string[]; readonly extra: readonly string[] }
    | { readonly kind: 'not_selectable'; readonly entity: string; readonly field: string }
    | { readonly kind: 'takes_no_arguments'; readonly path: QueryPath; readonly argument: string }
    | { readonly kind: 'not_a_relation'; readonly path: QueryPath }
    | { readonly kind: 'needs_selection'; readonly path: QueryPath }
    /** An argument other than where, order_by, limit and offset of the list at `path`. */
    | { readonly kind: 'list_argument'; readonly path: QueryPath; readonly argument: string }
    | { readonly kind: 'repeated_argument'; readonly path: QueryPath; readonly argument: string }
    /** An argument other than id of a detail context's root field. */
    | { readonly kind: 'detail_argument'; readonly argument: string }
    | { readonly kind: 'detail_id' }
    | { readonly kind: 'count'; readonly argument: 'limit' | 'offset' }
    | { readonly kind: 'not_filterable'; readonly entity: string; readonly field: string }
    | { readonly kind: 'where_depth'; readonly max: number }
    | { readonly kind: 'where_not_object'; readonly entity: string }
    | { readonly kind: 'no_operator'; readonly entity: string; readonly field: string }
    | { readonly kind: 'unknown_operator'; readonly operator: string; readonly operators: readonly string[] }
    | { readonly kind: 'not_scalar'; readonly entity: string; readonly field: string; readonly operator: string }
    | { readonly kind: 'order_by_shape' }
    | { readonly kind: 'order_by_relation'; readonly entity: string; readonly relation: string }
    | { readonly kind: 'sort_direction'; readonly entity: string; readonly field: string }
  );

/** Each refusal of a known context without what they all carry (context and example). */
type Without<R> = R extends Asked ? Omit<R, keyof Asked> : never;
type Shape = Without<QueryRefusal>;

export type QueryCheck =
  | { readonly ok: true; readonly kind: 'list' | 'detail'; readonly query: CheckedQuery }
  | { readonly ok: false; readonly refusal: QueryRefusal };

/** Selections the model may add without breaking the list_fields rule. */
const TOLERATED = new Set(['version', '__typename']);
/** How deep relations may nest below the context's own fields: `company { employees { id } }` is 2. */
export const MAX_RELATION_DEPTH = 2;
/** How deep a `where` may nest (_and, _or, _not, relations); the backend refuses deeper ones anyway. */
export const MAX_WHERE_DEPTH = 32;
/** The arguments of a list (a list context's root field and an inverse list). */
const LIST_ARGUMENTS = ['where', 'order_by', 'limit', 'offset'];
const SCALAR_KINDS = new Set<string>([Kind.STRING, Kind.INT, Kind.FLOAT, Kind.BOOLEAN, Kind.NULL, Kind.ENUM]);

/** A refusal found deep inside the check. */
class Refusal extends Error {
  readonly refusal: QueryRefusal;

  constructor(refusal: QueryRefusal) {
    super(refusal.kind);
    this.refusal = refusal;
  }
}

export function checkContextQuery(ast: Ast, contextName: string, query: string): QueryCheck {
  const context = Object.hasOwn(ast.contexts, contextName) ? ast.contexts[contextName] : undefined;
  if (!context) return { ok: false, refusal: { kind: 'unknown_context', context: contextName, known: Object.keys(ast.contexts) } };
  const example = exampleQuery(ast, contextName);
  const refuse = (shape: Shape): QueryCheck => ({ ok: false, refusal: { ...shape, context: contextName, example } });
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (e) {
    return refuse({ kind: 'not_graphql', detail: (e as Error).message });
  }

  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== document.definitions.length) return refuse({ kind: 'not_only_operations' });
  if (operations.length !== 1) return refuse({ kind: 'operation_count', count: operations.length });
  const operation = operations[0];
  if (operation.operation !== 'query') return refuse({ kind: 'not_a_query', operation: operation.operation === 'mutation' ? 'mutation' : 'subscription' });
  const directive = firstDirective(document);
  if (directive) return refuse({ kind: 'directive', directive: directive.name.value });
  const variable = operation.variableDefinitions?.[0]?.variable ?? firstVariable(document);
  if (variable) return refuse({ kind: 'variable', variable: cut(variable.name.value), contextKind: context.kind });

  const roots = operation.selectionSet.selections;
  const root = roots.length === 1 ? asField(roots[0]) : undefined;
  if (!root || root.name.value !== contextName) return refuse({ kind: 'root_field', got: roots.map(describeSelection) });
  if (root.alias) return refuse({ kind: 'root_alias' });
  if (!root.selectionSet) return refuse({ kind: 'no_selection' });

  const selected: string[] = [];
  for (const selection of root.selectionSet.selections) {
    const field = asField(selection);
    if (!field) return refuse({ kind: 'fragment', path: [] });
    if (field.alias) return refuse({ kind: 'alias', path: [], alias: field.alias.value, field: field.name.value });
    selected.push(field.name.value);
    const nested = field.selectionSet ? checkNested(field.selectionSet, [field.name.value]) : undefined;
    if (nested) return refuse(nested);
  }
  const wanted = agentListFields(ast, contextName);
  const missing = wanted.filter((f) => !selected.includes(f));
  const extra = [...new Set(selected.filter((f) => !wanted.includes(f) && !TOLERATED.has(f)))];
  if (missing.length || extra.length) return refuse({ kind: 'list_fields', wanted, missing, extra });

  try {
    const rules = new Rules(ast, contextName, example);
    const selections = root.selectionSet.selections.map((s) => rules.field(context.entity, s as FieldNode, []));
    const args: CheckedArguments = context.kind === 'list'
      ? Object.fromEntries(Object.entries(rules.listArguments(context.entity, [], root.arguments ?? []))
        .map(([name, value]) => [name, name === 'where' || name === 'order_by' ? toJson(value) : value]))
      : rules.detailArguments(root.arguments ?? []);
    return { ok: true, kind: context.kind, query: { context: contextName, entity: context.entity, kind: context.kind, args, selections } };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, refusal: e.refusal };
    throw e;
  }
}

/** The allow-list checks of names, arguments and values, each returning the rebuilt piece. */
class Rules {
  private readonly ast: Ast;
  private readonly context: string;
  private readonly example: string;

  constructor(ast: Ast, context: string, example: string) {
    this.ast = ast;
    this.context = context;
    this.example = example;
  }

  private refusal(shape: Shape): Refusal {
    return new Refusal({ ...shape, context: this.context, example: this.example });
  }

  /** A selected field of `entity` (structure already checked), rebuilt with its checked arguments and sub-selection. */
  field(entity: string, node: FieldNode, path: readonly string[]): FieldNode {
    const name = node.name.value;
    const at = [...path, name];
    const selectable = agentSelectable(this.ast, entity, name);
    if (!selectable) throw this.refusal({ kind: 'not_selectable', entity, field: cut(name) });
    const args = node.arguments ?? [];
    let checkedArgs: ArgumentNode[] = [];
    if (selectable.relation && selectable.list) {
      const checked = this.listArguments(selectable.relation, at, args);
      checkedArgs = Object.entries(checked).map(([arg, value]) => ({ kind: Kind.ARGUMENT, name: nameNode(arg), value }));
    } else if (args.length) {
      throw this.refusal({ kind: 'takes_no_arguments', path: at, argument: cut(args[0].name.value) });
    }
    if (!selectable.relation) {
      if (node.selectionSet) throw this.refusal({ kind: 'not_a_relation', path: at });
      return { kind: Kind.FIELD, name: nameNode(name) };
    }
    if (!node.selectionSet) throw this.refusal({ kind: 'needs_selection', path: at });
    const selections = node.selectionSet.selections.map((s) => this.field(selectable.relation!, s as FieldNode, [...path, name]));
    return {
      kind: Kind.FIELD, name: nameNode(name), ...(checkedArgs.length ? { arguments: checkedArgs } : {}),
      selectionSet: { kind: Kind.SELECTION_SET, selections },
    };
  }

  /** where, order_by, limit and offset of a list of `entity` (at `path`; empty: the context), rebuilt from the checked literals. */
  listArguments(entity: string, path: QueryPath, args: readonly ArgumentNode[]): Record<string, ValueNode> {
    const out: Record<string, ValueNode> = {};
    for (const arg of args) {
      const name = arg.name.value;
      if (!LIST_ARGUMENTS.includes(name)) throw this.refusal({ kind: 'list_argument', path, argument: cut(name) });
      if (Object.hasOwn(out, name)) throw this.refusal({ kind: 'repeated_argument', path, argument: name });
      if (name === 'where') out.where = this.whereValue(entity, arg.value, 0);
      else if (name === 'order_by') out.order_by = this.orderBy(entity, arg.value);
      else out[name] = this.count(name as 'limit' | 'offset', arg.value);
    }
    return out;
  }

  /** The id of the detail context's record. */
  detailArguments(args: readonly ArgumentNode[]): CheckedArguments {
    const unknown = args.find((a) => a.name.value !== 'id');
    if (unknown) throw this.refusal({ kind: 'detail_argument', argument: cut(unknown.name.value) });
    if (args.length > 1) throw this.refusal({ kind: 'repeated_argument', path: [], argument: 'id' });
    const value = args[0]?.value;
    if (!value || (value.kind !== Kind.STRING && value.kind !== Kind.INT)) throw this.refusal({ kind: 'detail_id' });
    return { id: value.value };
  }

  /** limit or offset: a scalar literal (the API says what is wrong with one that is no count). */
  private count(name: 'limit' | 'offset', value: ValueNode): ValueNode {
    if (!SCALAR_KINDS.has(value.kind)) throw this.refusal({ kind: 'count', argument: name });
    return rebuildScalar(value);
  }

  private notFilterable(key: string, entity: string): Refusal {
    return this.refusal({ kind: 'not_filterable', entity, field: cut(key) });
  }

  /** A `<entity>_bool_exp`: keys from the allow-list, relations recursing into their entity. */
  private whereValue(entity: string, value: ValueNode, depth: number): ValueNode {
    if (depth > MAX_WHERE_DEPTH) throw this.refusal({ kind: 'where_depth', max: MAX_WHERE_DEPTH });
    if (value.kind !== Kind.OBJECT) throw this.refusal({ kind: 'where_not_object', entity });
    const fields: ObjectFieldNode[] = [];
    for (const field of value.fields) {
      const key = field.name.value;
      let checked: ValueNode;
      if (key === '_and' || key === '_or') {
        const items = field.value.kind === Kind.LIST ? field.value.values : [field.value];
        checked = { kind: Kind.LIST, values: items.map((item) => this.whereValue(entity, item, depth + 1)) };
      } else if (key === '_not') {
        checked = this.whereValue(entity, field.value, depth + 1);
      } else {
        const allowed = agentFilterKey(this.ast, entity, key);
        if (!allowed) throw this.notFilterable(key, entity);
        checked = allowed.kind === 'relation' ? this.whereValue(allowed.entity, field.value, depth + 1) : this.comparison(entity, key, field.value);
      }
      fields.push({ kind: Kind.OBJECT_FIELD, name: nameNode(key), value: checked });
    }
    return { kind: Kind.OBJECT, fields };
  }

  /** `{ _eq: … }`: known operators with scalar values (lists of scalars for _in and _nin). */
  private comparison(entity: string, key: string, value: ValueNode): ValueNode {
    if (value.kind !== Kind.OBJECT) throw this.refusal({ kind: 'no_operator', entity, field: key });
    const fields: ObjectFieldNode[] = [];
    for (const field of value.fields) {
      const op = field.name.value;
      if (!FILTER_OPERATORS.has(op)) throw this.refusal({ kind: 'unknown_operator', operator: cut(op), operators: [...FILTER_OPERATORS] });
      let checked: ValueNode;
      if (op === '_in' || op === '_nin') {
        const items = field.value.kind === Kind.LIST ? field.value.values : [field.value];
        checked = { kind: Kind.LIST, values: items.map((item) => this.scalar(entity, key, op, item)) };
      } else {
        checked = this.scalar(entity, key, op, field.value);
      }
      fields.push({ kind: Kind.OBJECT_FIELD, name: nameNode(op), value: checked });
    }
    return { kind: Kind.OBJECT, fields };
  }

  private scalar(entity: string, key: string, op: string, value: ValueNode): ValueNode {
    if (!SCALAR_KINDS.has(value.kind)) throw this.refusal({ kind: 'not_scalar', entity, field: key, operator: op });
    return rebuildScalar(value);
  }

  /** `[<entity>_order_by!]`: columns from the allow-list, each asc or desc. */
  private orderBy(entity: string, value: ValueNode): ValueNode {
    const items = value.kind === Kind.LIST ? value.values : [value];
    return {
      kind: Kind.LIST,
      values: items.map((item) => {
        if (item.kind !== Kind.OBJECT) throw this.refusal({ kind: 'order_by_shape' });
        return {
          kind: Kind.OBJECT,
          fields: item.fields.map((field): ObjectFieldNode => {
            const key = field.name.value;
            const allowed = agentFilterKey(this.ast, entity, key);
            if (!allowed) throw this.notFilterable(key, entity);
            if (allowed.kind === 'relation') throw this.refusal({ kind: 'order_by_relation', entity, relation: key });
            if (field.value.kind !== Kind.ENUM || (field.value.value !== 'asc' && field.value.value !== 'desc')) {
              throw this.refusal({ kind: 'sort_direction', entity, field: key });
            }
            return { kind: Kind.OBJECT_FIELD, name: nameNode(key), value: { kind: Kind.ENUM, value: field.value.value } };
          }),
        };
      }),
    };
  }
}

/** The root field's selection set as GraphQL text: the checked fields, `id`, `version` and the Board's own selections. */
export function checkedSelection(checked: CheckedQuery, boardSelections: readonly string[] = []): string {
  const names = new Set(checked.selections.map((s) => s.name.value));
  const boardOnly = boardSelections.length ? rootSelections(`{ board { ${boardSelections.join(' ')} } }`) : [];
  const added = [...['id', 'version'].filter((name) => !names.has(name)).map((name) => ({ kind: Kind.FIELD, name: nameNode(name) }) as FieldNode),
    ...boardOnly.filter((f) => !names.has(f.name.value))];
  return print({ kind: Kind.SELECTION_SET, selections: [...checked.selections, ...added] });
}

/** The first directive anywhere in the document (operation, field, variable). */
function firstDirective(document: DocumentNode): DirectiveNode | undefined {
  return firstNode<DirectiveNode>(document, 'Directive');
}

/** The first variable used anywhere in the document. */
function firstVariable(document: DocumentNode): VariableNode | undefined {
  return firstNode<VariableNode>(document, 'Variable');
}

/** The first node of `kind` anywhere in the document. */
function firstNode<T>(document: DocumentNode, kind: 'Directive' | 'Variable'): T | undefined {
  let found: T | undefined;
  visit(document, {
    [kind](node: T) {
      found = node;
      return BREAK;
    },
  });
  return found;
}

/** Why a relation's sub-selection is not allowed (fragments, aliases, too deep), or undefined. */
function checkNested(set: SelectionSetNode, path: QueryPath): Shape | undefined {
  if (path.length > MAX_RELATION_DEPTH) return { kind: 'too_deep', path, max: MAX_RELATION_DEPTH };
  for (const selection of set.selections) {
    const field = asField(selection);
    if (!field) return { kind: 'fragment', path };
    if (field.alias) return { kind: 'alias', path, alias: field.alias.value, field: field.name.value };
    if (field.selectionSet) {
      const problem = checkNested(field.selectionSet, [...path, field.name.value]);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** A checked scalar literal as a new node (nothing of the agent's node but its kind and value). */
function rebuildScalar(value: ValueNode): ValueNode {
  switch (value.kind) {
    case Kind.STRING: return { kind: Kind.STRING, value: value.value };
    case Kind.INT: return { kind: Kind.INT, value: value.value };
    case Kind.FLOAT: return { kind: Kind.FLOAT, value: value.value };
    case Kind.BOOLEAN: return { kind: Kind.BOOLEAN, value: value.value };
    case Kind.ENUM: return { kind: Kind.ENUM, value: value.value };
    default: return { kind: Kind.NULL };
  }
}

/**
 * A checked value as JSON for a variable. Numbers keep their digits: an integer beyond the safe
 * range and a float go as strings (exact for Decimal; an Int refuses them as a literal would).
 */
function toJson(value: ValueNode): unknown {
  switch (value.kind) {
    case Kind.OBJECT: return Object.fromEntries(value.fields.map((f) => [f.name.value, toJson(f.value)]));
    case Kind.LIST: return value.values.map(toJson);
    case Kind.INT: return Number.isSafeInteger(Number(value.value)) ? Number(value.value) : value.value;
    case Kind.FLOAT: return value.value;
    case Kind.STRING: case Kind.ENUM: return value.value;
    case Kind.BOOLEAN: return value.value;
    default: return null;
  }
}

function rootSelections(query: string): FieldNode[] {
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  return (operation.selectionSet.selections[0] as FieldNode).selectionSet!.selections as FieldNode[];
}

function nameNode(value: string) {
  return { kind: Kind.NAME, value } as const;
}

/** A name the agent sent, short enough to echo. */
function cut(name: string): string {
  return name.length > 64 ? `${name.slice(0, 63)}…` : name;
}

function asField(selection: SelectionNode): FieldNode | undefined {
  return selection.kind === Kind.FIELD ? selection : undefined;
}

function describeSelection(selection: SelectionNode): RootSelection {
  return selection.kind === Kind.FIELD ? { kind: 'field', name: selection.name.value } : { kind: 'fragment' };
}
