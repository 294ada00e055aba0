// The storage as one person in one role reaches it: "own records" (the role's `rows`) are the
// only rows of their table that are read, counted, keyed or written, wherever the table is
// reached (lists, details, refs, inverse lists, filters through them); a write outside them is
// refused before anything is written. The audit trail shows only what the role may read (its
// approval texts name only the fields the role reads).
import type { Model, Table } from './model.ts';
import { approvalShownTo, type AuditEntry, type AuditFilter } from './storage/audit.ts';
import type { Condition, RecordId, Row, SelectSpec, Storage } from './storage/types.ts';
import { apiError } from './graphql/errors.ts';
import type { RowFilter } from './roles.ts';

export interface RoleView {
  readonly role: string;
  /** The person's name: what an own record's field holds. */
  readonly person: string;
  /** The full model (the storage's). */
  readonly model: Model;
  readonly rows: ReadonlyMap<string, RowFilter>;
  /** Whether the role reads the entity at all, and the field of it. */
  readonly reads: (entity: string, field?: string) => boolean;
}

const AUDIT_SCAN_PAGE = 500;

export function roleStorage(storage: Storage, view: RoleView): Storage {
  const ownerColumn = (table: string): string | undefined => {
    const filter = view.rows.get(table);
    return filter && view.model.table(table).byField.get(filter.field)?.name;
  };
  const own = (table: string, where: Condition | undefined): Condition | undefined => {
    const scoped = where && scope(where);
    const column = ownerColumn(table);
    if (column === undefined) return scoped;
    const mine: Condition = { kind: 'compare', column, op: 'eq', value: view.person };
    return scoped ? { kind: 'and', items: [mine, scoped] } : mine;
  };
  // A filter through a ref or an inverse list sees only own records of that table too.
  const scope = (condition: Condition): Condition => {
    switch (condition.kind) {
      case 'and': case 'or': return { ...condition, items: condition.items.map(scope) };
      case 'not': return { ...condition, item: scope(condition.item) };
      case 'ref': case 'inverse': return { ...condition, where: own(condition.table, condition.where)! };
      default: return condition;
    }
  };
  const spec = (s: SelectSpec): SelectSpec => {
    const where = own(s.table, s.where);
    return where ? { ...s, where } : s;
  };
  const refuse = (what: string, table: string) => apiError('FORBIDDEN',
    `Your role "${view.role}" may ${what} only its own ${table} records (${view.rows.get(table)!.field} = "${view.person}"); nothing was written.`);
  const checkOwnerSet = (table: string, set: Row) => {
    const column = ownerColumn(table);
    if (column !== undefined && Object.hasOwn(set, column) && set[column] !== view.person) throw refuse('give records to others: it keeps', table);
  };
  /** Refuses when any of the rows exists and is not the person's; missing rows are the storage's to report. */
  const checkOwned = async (table: string, ids: readonly RecordId[], what: string) => {
    const column = ownerColumn(table);
    if (column === undefined || ids.length === 0) return;
    const rows = await storage.select({ table, columns: [column], where: { kind: 'in', column: 'id', values: [...ids], negate: false } });
    if (rows.some((row) => row[column] !== view.person)) throw refuse(what, table);
  };

  const visibleEntries = async (entries: readonly AuditEntry[]): Promise<AuditEntry[]> => {
    const readable = entries.filter((e) => e.entity !== null && view.reads(e.entity));
    const owned = new Map<string, Set<string>>();
    for (const [table, filter] of view.rows) {
      const ids = readable.filter((e) => e.entity === table && e.recordId !== null).map((e) => recordKey(view.model.table(table), e.recordId!));
      if (ids.length === 0) continue;
      const column = ownerColumn(table)!;
      const rows = await storage.select({ table, columns: [], where: { kind: 'and', items: [
        { kind: 'in', column: 'id', values: [...new Set(ids)], negate: false },
        { kind: 'compare', column, op: 'eq', value: view.person },
      ] } });
      owned.set(filter.entity, new Set(rows.map((row) => String(row.id))));
    }
    return readable.filter((e) => {
      const filter = view.rows.get(e.entity!);
      if (!filter) return true;
      const change = e.changes[filter.field];
      return owned.get(e.entity!)?.has(String(e.recordId)) === true || change?.from === view.person || change?.to === view.person;
    }).map((e) => {
      const reads = (field: string) => view.reads(e.entity!, field);
      // The approval text names the fields written: only those the role reads stay named.
      const fields = view.model.table(e.entity!).columns.map((column) => column.field);
      return {
        ...e,
        changes: Object.fromEntries(Object.entries(e.changes).filter(([field]) => reads(field))),
        approval: e.approval === null ? null : approvalShownTo(e.approval, fields, reads),
      };
    });
  };
  // Entries the role may not see are left out before paging, so the trail is read in pages until enough are found.
  const scanAudit = async (filter: Omit<AuditFilter, 'limit' | 'offset'>, wanted: number): Promise<AuditEntry[]> => {
    if (filter.entity !== undefined && !view.reads(filter.entity)) return [];
    const found: AuditEntry[] = [];
    for (let offset = 0; found.length < wanted; offset += AUDIT_SCAN_PAGE) {
      const page = await storage.auditEntries({ ...filter, limit: AUDIT_SCAN_PAGE, offset });
      found.push(...await visibleEntries(page));
      if (page.length < AUDIT_SCAN_PAGE) break;
    }
    return found;
  };

  return {
    ...bound(storage),
    select: (s) => storage.select(spec(s)),
    count: (table, where) => storage.count(table, own(table, where)),
    aggregate: (aggregate) => storage.aggregate({ ...aggregate, where: own(aggregate.table, aggregate.where) }),
    keys: (s, every, max) => storage.keys(spec(s), every, max),
    // The table's size is not the role's to know where it reads own records only: their count.
    async sortHint(table, column) {
      const hint = await storage.sortHint(table, column);
      return view.rows.has(table) ? { ...hint, rows: await storage.count(table, own(table, undefined)) } : hint;
    },
    async insert(table, values, audit) {
      const column = ownerColumn(table);
      if (column === undefined) return storage.insert(table, values, audit);
      checkOwnerSet(table, values);
      return storage.insert(table, { ...values, [column]: view.person }, audit);
    },
    async update(table, id, version, set, audit) {
      checkOwnerSet(table, set);
      await checkOwned(table, [id], 'change');
      return storage.update(table, id, version, set, audit);
    },
    async updateMany(table, updates, audit) {
      for (const update of updates) checkOwnerSet(table, update.set);
      await checkOwned(table, updates.map((u) => u.id), 'change');
      return storage.updateMany(table, updates, audit);
    },
    async delete(table, id, version, audit) {
      await checkOwned(table, [id], 'delete');
      return storage.delete(table, id, version, audit);
    },
    async auditEntries(filter) {
      const entries = await scanAudit(filter, filter.offset + filter.limit);
      return entries.slice(filter.offset, filter.offset + filter.limit);
    },
    auditCount: async (filter) => (await scanAudit(filter, Infinity)).length,
  };
}

/** The storage's methods bound to it, so the wrapper can pass on what it leaves as it is. */
function bound(storage: Storage): Storage {
  return {
    kind: storage.kind,
    description: storage.description,
    migrate: (model) => storage.migrate(model),
    select: (s) => storage.select(s),
    count: (table, where) => storage.count(table, where),
    aggregate: (aggregate) => storage.aggregate(aggregate),
    keys: (s, every, max) => storage.keys(s, every, max),
    insert: (table, values, audit) => storage.insert(table, values, audit),
    insertMany: (batches, options) => storage.insertMany(batches, options),
    update: (table, id, version, set, audit) => storage.update(table, id, version, set, audit),
    delete: (table, id, version, audit) => storage.delete(table, id, version, audit),
    updateMany: (table, updates, audit) => storage.updateMany(table, updates, audit),
    recordAudit: (entry) => storage.recordAudit(entry),
    auditEntries: (filter) => storage.auditEntries(filter),
    auditCount: (filter) => storage.auditCount(filter),
    rights: (model) => storage.rights(model),
    sortHint: (table, column) => storage.sortHint(table, column),
    ping: () => storage.ping(),
    close: () => storage.close(),
  };
}

/** An audit entry's record id as the table keys it. */
function recordKey(table: Table, recordId: string): RecordId {
  return (table.byName.get('id')?.key ?? 'int') === 'int' ? Number(recordId) : recordId;
}
