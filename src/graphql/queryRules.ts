// The rules an agent's xos_query must follow: exactly one query operation,
// whose only root field is the context, selecting exactly the context's
// list_fields. The Board and the save question show fields by their names, so
// nothing may rename (aliases) or drop (@skip/@include) what is selected, at
// any depth; relations nest only a little, so a query cannot fan out without
// end inside the extension host. Each refusal says what to send instead.
import {
  BREAK, Kind, parse, print, valueFromASTUntyped, visit,
  type DirectiveNode, type DocumentNode, type FieldNode, type OperationDefinitionNode, type SelectionNode, type SelectionSetNode,
} from 'graphql';
import type { Ast } from '../ast/schema.ts';
import { exampleQuery } from '../ast/view.ts';
import { agentListFields, relatedEntity, withheldArgumentField } from '../ast/agentPolicy.ts';

export type QueryCheck =
  | { readonly ok: true; readonly document: DocumentNode; readonly kind: 'list' | 'detail' }
  | { readonly ok: false; readonly message: string };

/** Selections the model may add without breaking the list_fields rule. */
const TOLERATED = new Set(['version', '__typename']);
/** How deep relations may nest below the context's own fields: `company { employees { id } }` is 2. */
export const MAX_RELATION_DEPTH = 2;

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
  const withheld = withheldArgument(ast, context.entity, root);
  if (withheld) {
    return refuse(`${withheld} cannot be used in where or order_by: its value is kept from the agent. Filter and sort by the fields xos_schema lists. For example: ${example}`);
  }
  return { ok: true, document, kind: context.kind };
}

/** A field that the field's or a nested relation's where/order_by names and the agent may not use. */
function withheldArgument(ast: Ast, entity: string, field: FieldNode): string | undefined {
  for (const argument of field.arguments ?? []) {
    if (argument.name.value !== 'where' && argument.name.value !== 'order_by') continue;
    const found = withheldArgumentField(ast, entity, valueFromASTUntyped(argument.value));
    if (found) return found;
  }
  for (const selection of field.selectionSet?.selections ?? []) {
    const child = asField(selection);
    const related = child && relatedEntity(ast, entity, child.name.value);
    const found = related ? withheldArgument(ast, related, child) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * The same query with `id` and `version` selected on the root field, so the Board can edit what
 * it shows, and with the given selections the agent does not make (the hidden list_fields).
 */
export function withIdAndVersion(document: DocumentNode, boardSelections: readonly string[] = []): string {
  const operation = document.definitions[0] as OperationDefinitionNode;
  const root = operation.selectionSet.selections[0] as FieldNode;
  const names = new Set(root.selectionSet!.selections.map((s) => (s as FieldNode).name.value));
  const boardOnly = boardSelections.length ? rootSelections(`{ board { ${boardSelections.join(' ')} } }`) : [];
  const added = [...['id', 'version'].filter((name) => !names.has(name)).map(fieldNode), ...boardOnly.filter((f) => !names.has(f.name.value))];
  const newRoot: FieldNode = { ...root, selectionSet: { ...root.selectionSet!, selections: [...root.selectionSet!.selections, ...added] } };
  const newOperation: OperationDefinitionNode = { ...operation, selectionSet: { ...operation.selectionSet, selections: [newRoot] } };
  return print({ ...document, definitions: [newOperation] });
}

/** The first directive anywhere in the document (operation, field, variable). */
function firstDirective(document: DocumentNode): DirectiveNode | undefined {
  let found: DirectiveNode | undefined;
  visit(document, {
    Directive(node) {
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

function rootSelections(query: string): FieldNode[] {
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  return (operation.selectionSet.selections[0] as FieldNode).selectionSet!.selections as FieldNode[];
}

function fieldNode(name: string): FieldNode {
  return { kind: Kind.FIELD, name: { kind: Kind.NAME, value: name } };
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
