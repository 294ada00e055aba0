// The relational shape of an AST: one table per entity, one column per scalar
// field, `<field>_id` per ref, and the implicit `version`. Storage adapters and
// the GraphQL layer both read this, so identifiers come from the AST only.
import type { Ast, FieldDef, FieldType } from '../ast/schema.ts';
import { refColumnName } from '../ast/lookup.ts';

export type ColumnType = Exclude<FieldType, 'ref'> | 'ref' | 'version';

export interface Column {
  /** SQL column name: the field name, `<field>_id` for refs, `id`, `version`. */
  readonly name: string;
  /** The AST field this column stores (`company` for `company_id`). */
  readonly field: string;
  readonly type: ColumnType;
  readonly required: boolean;
  /** ref columns: the referenced table. */
  readonly references?: string;
  readonly def?: FieldDef;
}

export interface Relation {
  /** ref field name on the owning entity (`company`). */
  readonly field: string;
  readonly column: string;
  readonly from: string;
  readonly to: string;
  /** inverse list name on `to` (`employees`), if declared. */
  readonly inverse?: string;
}

export interface Table {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly byName: ReadonlyMap<string, Column>;
  /** AST field name -> column (the ref field `company` -> `company_id`). */
  readonly byField: ReadonlyMap<string, Column>;
  /** many-to-one relations owned by this table. */
  readonly refs: readonly Relation[];
  /** one-to-many lists pointing at this table, by inverse name. */
  readonly inverses: ReadonlyMap<string, Relation>;
  /**
   * Scalar columns a list context shows, which the person may sort by: each gets an index
   * (ref columns have theirs already), so a sort reads its first and last window by key.
   */
  readonly sortColumns: readonly string[];
}

export interface Model {
  readonly tables: ReadonlyMap<string, Table>;
  table(name: string): Table;
}

export const ID_COLUMN = 'id';
export const VERSION_COLUMN = 'version';

export function buildModel(ast: Ast): Model {
  const tables = new Map<string, Table>();
  const inversesByTarget = new Map<string, Map<string, Relation>>();
  const pending: Array<{ name: string; columns: Column[]; refs: Relation[] }> = [];

  for (const [entityName, entity] of Object.entries(ast.entities)) {
    const columns: Column[] = [{ name: ID_COLUMN, field: ID_COLUMN, type: 'id', required: true }];
    const refs: Relation[] = [];
    for (const [fieldName, def] of Object.entries(entity.fields)) {
      if (def.type === 'id') continue;
      if (def.type === 'ref') {
        const column = refColumnName(fieldName);
        const relation: Relation = { field: fieldName, column, from: entityName, to: def.entity!, inverse: def.inverse };
        refs.push(relation);
        columns.push({ name: column, field: fieldName, type: 'ref', required: def.required ?? false, references: def.entity, def });
        if (def.inverse) {
          let inv = inversesByTarget.get(def.entity!);
          if (!inv) inversesByTarget.set(def.entity!, (inv = new Map()));
          inv.set(def.inverse, relation);
        }
        continue;
      }
      columns.push({ name: fieldName, field: fieldName, type: def.type, required: def.required ?? false, def });
    }
    columns.push({ name: VERSION_COLUMN, field: VERSION_COLUMN, type: 'version', required: true });
    pending.push({ name: entityName, columns, refs });
  }

  const sortColumns = new Map<string, Set<string>>();
  for (const context of Object.values(ast.contexts)) {
    if (context.kind !== 'list') continue;
    const fields = ast.entities[context.entity]?.fields ?? {};
    for (const field of context.list_fields) {
      const type = fields[field]?.type;
      if (type === undefined || type === 'id' || type === 'ref') continue;
      let set = sortColumns.get(context.entity);
      if (!set) sortColumns.set(context.entity, (set = new Set()));
      set.add(field);
    }
  }

  for (const { name, columns, refs } of pending) {
    tables.set(name, {
      name,
      columns,
      byName: new Map(columns.map((c) => [c.name, c])),
      byField: new Map(columns.map((c) => [c.field, c])),
      refs,
      inverses: inversesByTarget.get(name) ?? new Map(),
      // In the order of the entity's fields, so migrations name them the same way every time.
      sortColumns: columns.filter((c) => sortColumns.get(name)?.has(c.name)).map((c) => c.name),
    });
  }

  return {
    tables,
    table(name: string): Table {
      const t = tables.get(name);
      if (!t) throw new Error(`unknown entity "${name}"`);
      return t;
    },
  };
}
