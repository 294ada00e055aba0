// `xos-server init` over an AST file that already exists: never overwritten (the person may have
// renamed, labelled and trimmed it), only compared. Entities and fields are matched by what
// they map (table and column), not by name, so renamed ones still match.
import type { Ast, FieldDef } from '../../ast/schema.ts';
import type { LeftOut } from './toAst.ts';

export interface AstComparison {
  /** What the database has that the file lacks. */
  readonly additions: string[];
  /** What the file names that the database no longer has (or XOS can no longer serve). */
  readonly removals: string[];
}

type Raw = Record<string, unknown>;

interface MappedEntity {
  readonly name: string;
  readonly table: string;
  /** column -> [field, definition] */
  readonly columns: Map<string, [string, Raw]>;
}

/**
 * How `existing` (the file's parsed content, valid or not) differs from `fresh` (made from the
 * database now). `leftOut` (from the same introspection) says why a table or column is gone.
 */
export function compareAst(
  fresh: Ast, existing: unknown,
  leftOut: { tables?: readonly LeftOut[]; columns?: readonly LeftOut[] } = {},
): AstComparison {
  const now = mappedEntities(fresh);
  const before = mappedEntities(existing);
  const additions: string[] = [];
  const removals: string[] = [];
  for (const [key, entity] of now) {
    const old = before.get(key);
    if (!old) {
      additions.push(`table "${entity.table}": the entity ${entity.name} (${entity.columns.size} ${entity.columns.size === 1 ? 'field' : 'fields'})`);
      continue;
    }
    for (const [column, [field, def]] of entity.columns) {
      const had = old.columns.get(column);
      if (!had) additions.push(`column "${entity.table}"."${column}": the field ${old.name}.${field} (${describe(def)})`);
      else if (def.type === 'ref' && had[1].type !== 'ref') {
        additions.push(`column "${entity.table}"."${column}": now a foreign key: the ref ${old.name}.${field} (to ${String(def.entity)}) in place of the field ${old.name}.${had[0]}`);
      }
    }
  }
  for (const [key, entity] of before) {
    const current = now.get(key);
    if (!current) {
      const why = leftOut.tables?.find((t) => t.table === entity.table)?.reason;
      removals.push(`entity ${entity.name}: ${why ? `XOS no longer serves the table "${entity.table}" (${why})` : `the database has no table "${entity.table}"`}`);
      continue;
    }
    for (const [column, [field, def]] of entity.columns) {
      const has = current.columns.get(column);
      if (!has) {
        const why = leftOut.columns?.find((c) => c.table === entity.table && c.column === column);
        removals.push(`field ${entity.name}.${field}: ${why ? `the column "${column}" is left out now (${why.reason})` : `the table "${entity.table}" has no column "${column}"`}`);
      } else if (def.type === 'ref' && has[1].type !== 'ref') {
        removals.push(`field ${entity.name}.${field}: the column "${column}" is no foreign key to a served table any more`);
      }
    }
  }
  return { additions, removals };
}

/** `schema.table` -> the entity mapping it; entities of XOS's own tables (no `table`) are not compared. */
function mappedEntities(ast: unknown): Map<string, MappedEntity> {
  const out = new Map<string, MappedEntity>();
  for (const [name, entity] of entries(isRecord(ast) ? ast.entities : undefined)) {
    if (!isRecord(entity) || typeof entity.table !== 'string') continue;
    const schema = typeof entity.schema === 'string' ? entity.schema : '';
    const columns = new Map<string, [string, Raw]>();
    for (const [field, def] of entries(entity.fields)) {
      if (isRecord(def)) columns.set(columnOf(field, def), [field, def]);
    }
    out.set(`${schema}\u0000${entity.table}`, { name, table: entity.table, columns });
  }
  return out;
}

/** The column a field maps: `column`, else a ref's `<field>_id`, else the field's name. */
function columnOf(field: string, def: Raw): string {
  if (typeof def.column === 'string') return def.column;
  return def.type === 'ref' ? `${field}_id` : field;
}

function describe(def: Raw): string {
  const type = String(def.type);
  if (type === 'ref') return `ref to ${String(def.entity)}`;
  const max = typeof def.max === 'number' && type === 'string' ? `, max ${def.max}` : '';
  return `${type}${max}${(def as FieldDef).read_only ? ', read-only' : ''}`;
}

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): [string, unknown][] {
  return isRecord(value) ? Object.entries(value) : [];
}
