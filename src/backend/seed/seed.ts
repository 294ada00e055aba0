// Loads records in the AST `data` format into empty tables. Every record is
// checked first, so a bad record leaves the database untouched.
import type { Ast, FieldDef } from '../../ast/schema.ts';
import type { Model } from '../model.ts';
import { ID_COLUMN, VERSION_COLUMN } from '../model.ts';
import type { InsertBatch, Row, Scalar, Storage } from '../storage/types.ts';
import { checkRequired, coerceFieldValue, FieldValueError } from '../../ast/values.ts';

export interface SeedBatch {
  readonly entity: string;
  readonly table: string;
  /** complete rows (every column but `version`), ids filled in */
  readonly rows: readonly Row[];
}

const ID_DEF: FieldDef = { type: 'id' };

/** Field name -> definition, with the table's `id` column always known. */
function fieldsOf(ast: Ast, entity: string): Map<string, FieldDef> {
  const fields = new Map<string, FieldDef>([[ID_COLUMN, ID_DEF]]);
  for (const [name, def] of Object.entries(ast.entities[entity].fields)) fields.set(def.type === 'id' ? ID_COLUMN : name, def);
  return fields;
}

/** Referenced entities first where the references allow it (cycles keep the AST order). */
function seedOrder(model: Model, entities: readonly string[]): string[] {
  const wanted = new Set(entities);
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (entity: string): void => {
    if (state.has(entity)) return;
    state.set(entity, 'visiting');
    for (const ref of model.table(entity).refs) {
      if (wanted.has(ref.to)) visit(ref.to);
    }
    state.set(entity, 'done');
    order.push(entity);
  };
  entities.forEach(visit);
  return order;
}

/** Checks every record and turns it into rows keyed by column; throws the first problem found. */
export function prepareSeedRows(model: Model, ast: Ast, data: Record<string, Record<string, unknown>[]>): SeedBatch[] {
  const unknown = Object.keys(data).filter((entity) => !Object.hasOwn(ast.entities, entity));
  if (unknown.length > 0) {
    throw new Error(`data: unknown entity "${unknown[0]}"; entities are ${Object.keys(ast.entities).join(', ')}`);
  }
  const entities = Object.keys(ast.entities).filter((entity) => Object.hasOwn(data, entity));

  const coerced = new Map<string, Array<Map<string, Scalar>>>();
  for (const entity of entities) coerced.set(entity, coerceRecords(ast, entity, data[entity]));

  const idsByEntity = new Map<string, Set<number>>();
  for (const [entity, records] of coerced) idsByEntity.set(entity, new Set(records.map((r) => r.get(ID_COLUMN) as number)));
  for (const [entity, records] of coerced) checkRefsExist(ast, entity, records, idsByEntity);

  return seedOrder(model, entities).map((entity) => {
    const table = model.table(entity);
    const rows = coerced.get(entity)!.map((values) => {
      const row: Row = {};
      for (const column of table.columns) {
        if (column.name !== VERSION_COLUMN) row[column.name] = values.get(column.field) ?? null;
      }
      return row;
    });
    return { entity, table: table.name, rows };
  });
}

/** Coerces each record's values by field name; records without an id get one after the largest given id. */
function coerceRecords(ast: Ast, entity: string, records: readonly Record<string, unknown>[]): Array<Map<string, Scalar>> {
  const fields = fieldsOf(ast, entity);
  const fieldDefs = ast.entities[entity].fields;
  const firstIndexOfId = new Map<number, number>();
  const result = records.map((record, index) => {
    const values = new Map<string, Scalar>();
    for (const [key, raw] of Object.entries(record)) {
      const def = fields.get(key);
      if (!def) {
        const names = [...fields.keys()].join(', ');
        throw new FieldValueError(entity, key, `is not a field of ${entity}; use one of ${names}`, index);
      }
      try {
        values.set(key, coerceFieldValue(entity, key, def, raw));
      } catch (error) {
        throw error instanceof FieldValueError ? error.atRecord(index) : error;
      }
    }
    const missing = checkRequired(entity, fieldDefs, record);
    if (missing.length > 0) throw missing[0].atRecord(index);
    const id = values.get(ID_COLUMN);
    if (typeof id === 'number') {
      const earlier = firstIndexOfId.get(id);
      if (earlier !== undefined) {
        throw new FieldValueError(entity, ID_COLUMN, `repeats the id ${id} of ${entity}[${earlier}]; ids must be unique`, index);
      }
      firstIndexOfId.set(id, index);
    }
    return values;
  });
  // A loop, not Math.max(...ids): spreading a million ids overflows the call stack.
  let nextId = 1;
  for (const id of firstIndexOfId.keys()) if (id >= nextId) nextId = id + 1;
  for (const values of result) {
    if (typeof values.get(ID_COLUMN) !== 'number') values.set(ID_COLUMN, nextId++);
  }
  return result;
}

/** A ref into an entity that is part of the data must name one of its records. */
function checkRefsExist(ast: Ast, entity: string, records: ReadonlyArray<Map<string, Scalar>>, idsByEntity: Map<string, Set<number>>): void {
  const refs = Object.entries(ast.entities[entity].fields).filter(([, def]) => def.type === 'ref');
  records.forEach((values, index) => {
    for (const [field, def] of refs) {
      const target = values.get(field);
      const ids = idsByEntity.get(def.entity!);
      if (typeof target === 'number' && ids && !ids.has(target)) {
        throw new FieldValueError(entity, field, `refers to ${def.entity} ${target}, which is not in the data`, index);
      }
    }
  });
}

/**
 * Inserts the records of each entity whose table is empty; tables with rows are left alone.
 * Returns the number of inserted rows per entity of `data`.
 */
export async function seedStorage(
  storage: Storage,
  model: Model,
  ast: Ast,
  data: Record<string, Record<string, unknown>[]>,
): Promise<Record<string, number>> {
  const batches = prepareSeedRows(model, ast, data);
  const inserted: Record<string, number> = {};
  const toInsert: Array<InsertBatch & { readonly entity: string }> = [];
  for (const { entity, table, rows } of batches) {
    inserted[entity] = 0;
    if (rows.length === 0 || (await storage.count(table)) !== 0) continue;
    toInsert.push({ entity, table, rows });
  }
  // One transaction for all tables: a seed is stored whole or not at all. The emptiness is
  // checked again inside it: another process on the same database may have seeded meanwhile.
  if (toInsert.length && await storage.insertMany(toInsert, { onlyIntoEmptyTables: true })) {
    for (const { entity, rows } of toInsert) inserted[entity] = rows.length;
  }
  return inserted;
}
