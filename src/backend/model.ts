// The relational shape of an AST: one table per entity, one column per scalar
// field, `<field>_id` per ref, and the implicit `version`. Storage adapters and
// the GraphQL layer both read this, so identifiers come from the AST only.
// Rows use the logical names (`id`, `company_id`, `version`) everywhere; only
// SQL uses the real ones, which differ on the person's own tables (`table`,
// `column` in the AST): there the version is the row's state, not a column.
import type { Ast, FieldDef, FieldType } from '../ast/schema.ts';
import { keepsAudit, refColumnName } from '../ast/lookup.ts';

export type ColumnType = Exclude<FieldType, 'ref'> | 'ref' | 'version';
export type KeyKind = 'int' | 'text' | 'uuid';

export interface Column {
  /** The column's name in rows and requests: the field name, `<field>_id` for refs, `id`, `version`. */
  readonly name: string;
  /** Its name in the database: `name`, or the AST's `column` on the person's own tables. */
  readonly sql: string;
  /** The database computes or guards it: never written. */
  readonly readOnly: boolean;
  /** In XOS's own table (its types are XOS's); false in the person's, whose types are their own. */
  readonly owned: boolean;
  /** id and ref columns: what keys the records (the id's `key` in the AST); XOS's own tables: int. */
  readonly key?: KeyKind;
  /** The id of a table with a composite key: its columns, whose values joined by "|" are the id. */
  readonly parts?: readonly string[];
  /** The AST field this column stores (`company` for `company_id`). */
  readonly field: string;
  readonly type: ColumnType;
  readonly required: boolean;
  /** ref columns: the referenced table. */
  readonly references?: string;
  /**
   * enum columns of the person's table whose values the database spells otherwise (`column_values`
   * in the AST): value -> the database's spelling, and back. Storage converts, so every floor above
   * sees the AST's values only.
   */
  readonly spelling?: { readonly stored: ReadonlyMap<string, string>; readonly value: ReadonlyMap<string, string> };
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

/** Where a table is in the database: its real name, and its PostgreSQL schema when one is named. */
export interface TableLocation {
  readonly schema?: string;
  readonly name: string;
}

export interface Table {
  /** The entity's name, which requests and rows use. */
  readonly name: string;
  readonly sql: TableLocation;
  /**
   * XOS's own table (created and migrated by XOS, with a `version` column), or the person's own
   * (never created or altered; its version is read from the row's state).
   */
  readonly owned: boolean;
  /** Why its records can only be read; absent: they can be written. */
  readonly readOnly?: string;
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
  /** The audit trail is kept (DESIGN: on unless the app maps the person's own tables and says nothing). */
  readonly audit: boolean;
  /** Every table is XOS's own. */
  readonly owned: boolean;
}

export const ID_COLUMN = 'id';
export const VERSION_COLUMN = 'version';

export function buildModel(ast: Ast): Model {
  const tables = new Map<string, Table>();
  const inversesByTarget = new Map<string, Map<string, Relation>>();
  const pending: Array<{ name: string; entity: Ast['entities'][string]; columns: Column[]; refs: Relation[] }> = [];

  for (const [entityName, entity] of Object.entries(ast.entities)) {
    const owned = entity.table === undefined;
    const idDef = entity.fields.id;
    const columns: Column[] = [{
      name: ID_COLUMN, sql: idDef?.column ?? ID_COLUMN, field: ID_COLUMN, type: 'id', required: true, readOnly: false, owned, key: idDef?.key ?? 'int',
      ...(idDef?.columns ? { parts: idDef.columns } : {}),
    }];
    const refs: Relation[] = [];
    for (const [fieldName, def] of Object.entries(entity.fields)) {
      if (def.type === 'id') continue;
      const readOnly = def.read_only === true || entity.read_only !== undefined;
      if (def.type === 'ref') {
        const column = refColumnName(fieldName);
        const relation: Relation = { field: fieldName, column, from: entityName, to: def.entity!, inverse: def.inverse };
        refs.push(relation);
        columns.push({ name: column, sql: def.column ?? column, field: fieldName, type: 'ref', required: def.required ?? false, readOnly, owned, key: def.key ?? 'int', references: def.entity, def });
        if (def.inverse) {
          let inv = inversesByTarget.get(def.entity!);
          if (!inv) inversesByTarget.set(def.entity!, (inv = new Map()));
          inv.set(def.inverse, relation);
        }
        continue;
      }
      const spelled = def.type === 'enum' && !owned ? Object.entries(def.column_values ?? {}) : [];
      columns.push({
        name: fieldName, sql: def.column ?? fieldName, field: fieldName, type: def.type, required: def.required ?? false, readOnly, owned, def,
        ...(spelled.length ? { spelling: { stored: new Map(spelled), value: new Map(spelled.map(([value, stored]) => [stored, value])) } } : {}),
      });
    }
    // On the person's own tables the version is computed from the row (sql.ts), not stored.
    columns.push({ name: VERSION_COLUMN, sql: owned ? VERSION_COLUMN : '', field: VERSION_COLUMN, type: 'version', required: true, readOnly: true, owned });
    pending.push({ name: entityName, entity, columns, refs });
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

  for (const { name, entity, columns, refs } of pending) {
    const owned = entity.table === undefined;
    tables.set(name, {
      name,
      sql: owned ? { name } : { name: entity.table!, ...(entity.schema !== undefined ? { schema: entity.schema } : {}) },
      owned,
      ...(entity.read_only !== undefined ? { readOnly: entity.read_only } : {}),
      columns,
      byName: new Map(columns.map((c) => [c.name, c])),
      byField: new Map(columns.map((c) => [c.field, c])),
      refs,
      inverses: inversesByTarget.get(name) ?? new Map(),
      // In the order of the entity's fields, so migrations name them the same way every time.
      // XOS indexes only its own tables; on the person's it uses the indexes they have.
      sortColumns: owned ? columns.filter((c) => sortColumns.get(name)?.has(c.name)).map((c) => c.name) : [],
    });
  }

  const owned = [...tables.values()].every((t) => t.owned);
  return {
    tables,
    audit: keepsAudit(ast),
    owned,
    table(name: string): Table {
      const t = tables.get(name);
      if (!t) throw new Error(`unknown entity "${name}"`);
      return t;
    },
  };
}
