// The rules an agent's xos_query must follow: exactly one query operation,
// whose only root field is the context, selecting exactly the context's
// list_fields. The Board and the save question show fields by their names, so
// nothing may rename (aliases) or drop (@skip/@include) what is selected, at
// any depth; relations nest only a little, so a query cannot fan out without
// end inside the extension host. Each refusal says what to send instead.
//
// XOS never runs the agent's text. The check takes the document apart, lets
// through only what the agent may know of (an allow-list of fields, relations,
// operators and arguments per entity, after the AST's agent policy), and
// builds a new query from those checked pieces (`buildCheckedQuery` in
// requests.ts): the root's arguments go in GraphQL variables, nested relation
// arguments are printed from the checked values. Hidden names and names that do
// not exist are refused in the same words, so a refusal is no oracle for what exists.
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

export type QueryCheck =
  | { readonly ok: true; readonly kind: 'list' | 'detail'; readonly query: CheckedQuery }
  | { readonly ok: false; readonly message: string };

/** Selections the model may add without breaking the list_fields rule. */
const TOLERATED = new Set(['version', '__typename']);
/** How deep relations may nest below the context's own fields: `company { employees { id } }` is 2. */
export const MAX_RELATION_DEPTH = 2;
/** How deep a `where` may nest (_and, _or, _not, relations); the backend refuses deeper ones anyway. */
export const MAX_WHERE_DEPTH = 32;
/** The arguments of a list (a list context's root field and an inverse list). */
const LIST_ARGUMENTS = ['where', 'order_by', 'limit', 'offset'];
const SCALAR_KINDS = new Set<string>([Kind.STRING, Kind.INT, Kind.FLOAT, Kind.BOOLEAN, Kind.NULL, Kind.ENUM]);

/** A refusal found deep inside the check; its message is the reply's first part. */
class Refusal extends Error {}

export function checkContextQuery(ast: Ast, contextName: string, query: string): QueryCheck {
  const context = Object.hasOwn(ast.contexts, contextName) ? ast.contexts[contextName] : undefined;
  if (!context) {
    return refuse(`Unknown context "${contextName}". Known contexts: ${Object.keys(ast.contexts).join(', ')}. Call xos_schema to see their fields.`);
  }
  const example = exampleQuery(ast, contextName);
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (e) {
    return refuse(`The query is not valid GraphQL: ${(e as Error).message.replace(/\.$/, '')}. For example: ${example}`);
  }

  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== document.definitions.length) {
    return refuse(`Send one query operation without fragments, for example: ${example}`);
  }
  if (operations.length !== 1) {
    return refuse(`Send exactly one query operation (got ${operations.length}), for example: ${example}`);
  }
  const operation = operations[0];
  if (operation.operation !== 'query') {
    return refuse(`xos_query only reads data: a ${operation.operation} is not allowed. Changes go through xos_ui_change_required and xos_ui_save.`);
  }
  const directive = firstDirective(document);
  if (directive) {
    return refuse(`Remove the directive @${directive.name.value}: xos_query shows exactly the fields it selects, so leave a field out instead of skipping it. For example: ${example}`);
  }
  const variable = operation.variableDefinitions?.[0]?.variable ?? firstVariable(document);
  if (variable) {
    return refuse(`xos_query takes no variables ($${cut(variable.name.value)}): write each value inline in the query, `
      + `e.g. ${contextName}${context.kind === 'detail' ? '(id: "1")' : '(where: { id: { _eq: "1" } })'}. For example: ${example}`);
  }

  const roots = operation.selectionSet.selections;
  const root = roots.length === 1 ? asField(roots[0]) : undefined;
  if (!root || root.name.value !== contextName) {
    const got = roots.map(describeSelection).join(', ');
    return refuse(`The query must select exactly one root field, ${contextName} (got ${got}). For example: ${example}`);
  }
  if (root.alias) return refuse(`Do not alias ${contextName}. For example: ${example}`);
  if (!root.selectionSet) return refuse(`Select the list_fields of ${contextName}: ${example}`);

  const selected: string[] = [];
  for (const selection of root.selectionSet.selections) {
    const field = asField(selection);
    if (!field) return refuse(`Write the fields of ${contextName} out instead of fragments: ${example}`);
    if (field.alias) return refuse(`Do not alias fields (${field.alias.value}: ${field.name.value}). For example: ${example}`);
    selected.push(field.name.value);
    const nested = field.selectionSet ? checkNested(field.selectionSet, [field.name.value], example) : undefined;
    if (nested) return refuse(nested);
  }
  const wanted = agentListFields(ast, contextName);
  const missing = wanted.filter((f) => !selected.includes(f));
  const extra = [...new Set(selected.filter((f) => !wanted.includes(f) && !TOLERATED.has(f)))];
  if (missing.length || extra.length) {
    const parts = [
      ...(missing.length ? [`missing: ${missing.join(', ')}`] : []),
      ...(extra.length ? [`not in list_fields: ${extra.join(', ')}`] : []),
    ];
    return refuse(`Select exactly the list_fields of ${contextName} (${wanted.join(', ')}); ${parts.join('; ')}. For example: ${example}`);
  }

  try {
    const rules = new Rules(ast, example);
    const selections = root.selectionSet.selections.map((s) => rules.field(context.entity, s as FieldNode, []));
    const args: CheckedArguments = context.kind === 'list'
      ? Object.fromEntries(Object.entries(rules.listArguments(context.entity, contextName, root.arguments ?? []))
        .map(([name, value]) => [name, name === 'where' || name === 'order_by' ? toJson(value) : value]))
      : rules.detailArguments(contextName, root.arguments ?? []);
    return { ok: true, kind: context.kind, query: { context: contextName, entity: context.entity, kind: context.kind, args, selections } };
  } catch (e) {
    if (e instanceof Refusal) return refuse(e.message);
    throw e;
  }
}

/** The allow-list checks of names, arguments and values, each returning the rebuilt piece. */
class Rules {
  private readonly ast: Ast;
  private readonly example: string;

  constructor(ast: Ast, example: string) {
    this.ast = ast;
    this.example = example;
  }

  private refusal(text: string): Refusal {
    return new Refusal(`${text} For example: ${this.example}`);
  }

  /** A selected field of `entity` (structure already checked), rebuilt with its checked arguments and sub-selection. */
  field(entity: string, node: FieldNode, path: readonly string[]): FieldNode {
    const name = node.name.value;
    const where = [...path, name].join('.');
    const selectable = agentSelectable(this.ast, entity, name);
    if (!selectable) throw this.refusal(`${cut(name)} is not a field of ${entity} you can select; select the fields xos_schema lists.`);
    const args = node.arguments ?? [];
    let checkedArgs: ArgumentNode[] = [];
    if (selectable.relation && selectable.list) {
      const checked = this.listArguments(selectable.relation, where, args);
      checkedArgs = Object.entries(checked).map(([arg, value]) => ({ kind: Kind.ARGUMENT, name: nameNode(arg), value }));
    } else if (args.length) {
      throw this.refusal(`${where} takes no arguments (got ${cut(args[0].name.value)}); only lists (a list context, an inverse list) take where, order_by, limit and offset.`);
    }
    if (!selectable.relation) {
      if (node.selectionSet) throw this.refusal(`${where} is a value, not a relation: select it without braces.`);
      return { kind: Kind.FIELD, name: nameNode(name) };
    }
    if (!node.selectionSet) throw this.refusal(`${where} is a relation: select its fields in braces, e.g. ${name} { id }.`);
    const selections = node.selectionSet.selections.map((s) => this.field(selectable.relation!, s as FieldNode, [...path, name]));
    return {
      kind: Kind.FIELD, name: nameNode(name), ...(checkedArgs.length ? { arguments: checkedArgs } : {}),
      selectionSet: { kind: Kind.SELECTION_SET, selections },
    };
  }

  /** where, order_by, limit and offset of a list of `entity`, rebuilt from the checked literals. */
  listArguments(entity: string, where: string, args: readonly ArgumentNode[]): Record<string, ValueNode> {
    const out: Record<string, ValueNode> = {};
    for (const arg of args) {
      const name = arg.name.value;
      if (!LIST_ARGUMENTS.includes(name)) {
        throw this.refusal(`${where} takes where, order_by, limit and offset, not ${cut(name)}.`);
      }
      if (Object.hasOwn(out, name)) throw this.refusal(`Give ${name} of ${where} once.`);
      if (name === 'where') out.where = this.whereValue(entity, arg.value, 0);
      else if (name === 'order_by') out.order_by = this.orderBy(entity, arg.value);
      else out[name] = this.count(name, arg.value);
    }
    return out;
  }

  /** The id of a detail context's record. */
  detailArguments(contextName: string, args: readonly ArgumentNode[]): CheckedArguments {
    const unknown = args.find((a) => a.name.value !== 'id');
    if (unknown) throw this.refusal(`${contextName} takes only id, not ${cut(unknown.name.value)}.`);
    if (args.length > 1) throw this.refusal(`Give id of ${contextName} once.`);
    const value = args[0]?.value;
    if (!value || (value.kind !== Kind.STRING && value.kind !== Kind.INT)) {
      throw this.refusal(`${contextName} needs the id of one record, e.g. ${contextName}(id: "1").`);
    }
    return { id: value.value };
  }

  /** limit or offset: a scalar literal (the API says what is wrong with one that is no count). */
  private count(name: string, value: ValueNode): ValueNode {
    if (!SCALAR_KINDS.has(value.kind)) throw this.refusal(`${name} is a whole number, e.g. ${name}: 10.`);
    return rebuildScalar(value);
  }

  private notFilterable(key: string, entity: string): Refusal {
    return this.refusal(`${cut(key)} is not a field of ${entity} you can filter or sort by; use the fields xos_schema lists (values kept from the agent cannot be used).`);
  }

  /** A `<entity>_bool_exp`: keys from the allow-list, relations recursing into their entity. */
  private whereValue(entity: string, value: ValueNode, depth: number): ValueNode {
    if (depth > MAX_WHERE_DEPTH) throw this.refusal(`where is nested more than ${MAX_WHERE_DEPTH} levels deep; write the filter flatter.`);
    if (value.kind !== Kind.OBJECT) {
      throw this.refusal(`A filter of ${entity} is an object of fields and operators, e.g. where: { id: { _eq: "1" } }.`);
    }
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
    if (value.kind !== Kind.OBJECT) throw this.refusal(`Compare ${entity}.${key} with an operator, e.g. ${key}: { _eq: … }.`);
    const fields: ObjectFieldNode[] = [];
    for (const field of value.fields) {
      const op = field.name.value;
      if (!FILTER_OPERATORS.has(op)) {
        throw this.refusal(`${cut(op)} is not an operator of where; use ${[...FILTER_OPERATORS].join(' ')}.`);
      }
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
    if (!SCALAR_KINDS.has(value.kind)) throw this.refusal(`${entity}.${key}.${op} takes a single value such as "Berlin", 42 or true.`);
    return rebuildScalar(value);
  }

  /** `[<entity>_order_by!]`: columns from the allow-list, each asc or desc. */
  private orderBy(entity: string, value: ValueNode): ValueNode {
    const items = value.kind === Kind.LIST ? value.values : [value];
    return {
      kind: Kind.LIST,
      values: items.map((item) => {
        if (item.kind !== Kind.OBJECT) throw this.refusal(`order_by is a list of { field: asc | desc }, e.g. order_by: [{ id: desc }].`);
        return {
          kind: Kind.OBJECT,
          fields: item.fields.map((field): ObjectFieldNode => {
            const key = field.name.value;
            const allowed = agentFilterKey(this.ast, entity, key);
            if (!allowed) throw this.notFilterable(key, entity);
            if (allowed.kind === 'relation') {
              throw this.refusal(`order_by sorts by the fields of ${entity} itself, not by the relation ${key}; sort by ${key}_id or filter with where.`);
            }
            if (field.value.kind !== Kind.ENUM || (field.value.value !== 'asc' && field.value.value !== 'desc')) {
              throw this.refusal(`Sort ${entity}.${key} with asc or desc (without quotes), e.g. order_by: [{ ${key}: desc }].`);
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
function checkNested(set: SelectionSetNode, path: readonly string[], example: string): string | undefined {
  const where = path.join('.');
  if (path.length > MAX_RELATION_DEPTH) {
    return `Relations may nest at most ${MAX_RELATION_DEPTH} levels below the context's fields (${where} is ${path.length} deep). `
      + `Select the related record's own fields, e.g. ${path[0]} { id name }, and open its context with another xos_query for more. For example: ${example}`;
  }
  for (const selection of set.selections) {
    const field = asField(selection);
    if (!field) return `Write the fields of ${where} out instead of fragments. For example: ${example}`;
    if (field.alias) return `Do not alias fields (${field.alias.value}: ${field.name.value} in ${where}); select ${field.name.value} under its own name. For example: ${example}`;
    if (field.selectionSet) {
      const problem = checkNested(field.selectionSet, [...path, field.name.value], example);
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

function describeSelection(selection: SelectionNode): string {
  return selection.kind === Kind.FIELD ? selection.name.value : 'a fragment';
}

/** A refusal says what was wrong and ends with the call to make next. */
function refuse(message: string): QueryCheck {
  return { ok: false, message: `${message} Then call xos_query again.` };
}
