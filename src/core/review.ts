// A review of many proposed changes to one entity: the rows a proposal touches, each cell
// stored -> proposed, what the person accepted, rejected or typed themselves, rows that are
// invalid or that someone else changed meanwhile. It knows nothing of the AST: values come
// checked (canonical) with their problems, from the use cases in batch.ts. The Board holds
// one; Save writes exactly `accepted()` in one transaction. No MCP, no VS Code.
import type { BoardRecord } from './boardRecord.ts';
import { ownValue } from '../ast/lookup.ts';
import type { FieldProblem } from './outcomes.ts';

/** One row of a proposal: the record as read and the values proposed for it (canonical, each different from the stored one). */
export interface ProposedRow {
  readonly id: string;
  readonly version: number;
  /** The record as read: the identifying fields and the changed ones (refs as `{ id, name }` or ids). */
  readonly record: BoardRecord;
  /** Field -> proposed value; only fields whose value changes. */
  readonly proposed: Readonly<Record<string, unknown>>;
  /** Field -> why the proposed value cannot be saved. */
  readonly problems?: Readonly<Record<string, FieldProblem>>;
}

/** A proposal ready for review. */
export interface ReviewSource {
  /** The list context the rows belong to. */
  readonly context: string;
  readonly entity: string;
  /** The fields the proposal changes, in order. */
  readonly fields: readonly string[];
  /** Fields that tell the rows apart besides the id (their values are in each row's record). */
  readonly shown?: readonly string[];
  /** Rows the proposal matched but would leave as they are. */
  readonly unchanged: number;
  readonly rows: readonly ProposedRow[];
  /** The audit batch this review undoes, and how many records it changed. */
  readonly undoOf?: { readonly batch: string; readonly records: number };
}

export type ReviewFilterKind = 'changed' | 'invalid' | 'conflicts' | 'all';

export interface ReviewCellState {
  readonly from: unknown;
  readonly to: unknown;
  readonly accepted: boolean;
  readonly by: 'agent' | 'person';
  readonly problem?: FieldProblem;
}

export interface ReviewRowState {
  readonly id: string;
  readonly version: number;
  readonly record: BoardRecord;
  /** Per changed field of the review (ReviewSource.fields): the cell, or undefined where the row keeps it. */
  readonly cells: ReadonlyMap<string, ReviewCellState>;
  /** Someone else changed the record since it was read (`record` and `version` are theirs now); the person decides. */
  readonly conflict: boolean;
  /** The record is gone (deleted meanwhile). */
  readonly gone: boolean;
}

/** One record's accepted changes: what Save writes, against the version read. */
export interface BatchChange {
  readonly id: string;
  readonly version: number;
  readonly set: Readonly<Record<string, unknown>>;
}

/** How many rows and cells a review holds. */
export interface ReviewTally {
  /** Rows the proposal touches (shown in the grid). */
  readonly rows: number;
  /** Rows written on Save: valid, at least one accepted cell, no open conflict. */
  readonly accepted: number;
  /** Valid rows the person rejected whole (no accepted cell). */
  readonly rejected: number;
  readonly invalid: number;
  /** Rows someone else changed meanwhile that wait for the person's decision. */
  readonly conflicts: number;
  /** Rows the proposal matched but would leave as they are (not shown). */
  readonly unchanged: number;
  /** Cells written on Save. */
  readonly cells: number;
}

/** Someone else's version of a conflicting record, or null when it is gone. */
export interface CurrentRecord {
  readonly id: string;
  readonly current: { readonly record: BoardRecord; readonly version: number } | null;
}

interface MutableCell {
  from: unknown;
  to: unknown;
  accepted: boolean;
  by: 'agent' | 'person';
  problem?: FieldProblem;
}

interface MutableRow {
  readonly id: string;
  version: number;
  record: BoardRecord;
  readonly cells: Map<string, MutableCell>;
  conflict: boolean;
  gone: boolean;
}

export class Review {
  readonly context: string;
  readonly entity: string;
  readonly fields: readonly string[];
  readonly shown: readonly string[];
  readonly unchanged: number;
  readonly undoOf: ReviewSource['undoOf'];
  /** Bumped when rows enter or leave a filter; the Board then sends the whole review again. */
  revision = 0;
  /** The filter the person chose last (kept while the Board is hidden). */
  filter: ReviewFilterKind = 'changed';
  /** The person is being asked to save this review: a second Save waits for that answer. */
  asking = false;
  private readonly rows: MutableRow[];
  private readonly byId = new Map<string, MutableRow>();
  /** Rows changed in place since the Board last took them (`takeTouched`). */
  private readonly touched = new Set<string>();
  /** Rows per filter, built on demand and dropped with each revision. */
  private readonly filtered = new Map<ReviewFilterKind, MutableRow[]>();

  constructor(source: ReviewSource) {
    this.context = source.context;
    this.entity = source.entity;
    this.fields = [...source.fields];
    this.shown = [...(source.shown ?? [])];
    this.unchanged = source.unchanged;
    this.undoOf = source.undoOf;
    this.rows = source.rows.map((row) => ({
      id: row.id,
      version: row.version,
      record: structuredClone(row.record),
      cells: new Map(Object.entries(row.proposed).map(([field, to]) => {
        const problem = row.problems?.[field];
        return [field, { from: ownValue(row.record, field) ?? null, to: structuredClone(to), accepted: true, by: 'agent' as const, ...(problem ? { problem } : {}) }];
      })),
      conflict: false,
      gone: false,
    }));
    for (const row of this.rows) this.byId.set(row.id, row);
  }

  get size(): number {
    return this.rows.length;
  }

  /** Accepts or rejects one cell, one row (its every cell) or every row. Returns whether anything changed. */
  decide(accept: boolean, id?: string, field?: string): boolean {
    const targets = id === undefined ? this.rows : [this.byId.get(id)].filter((r): r is MutableRow => r !== undefined);
    let changed = false;
    let membership = false;
    for (const row of targets) {
      const wasInvalid = this.invalid(row);
      for (const [name, cell] of row.cells) {
        if (field !== undefined && name !== field) continue;
        if (cell.accepted !== accept) {
          cell.accepted = accept;
          changed = true;
        }
      }
      // Any decision on a conflicting row settles it (accepted cells are written over the version stored
      // now); the row stays where the person sees it until the filter is chosen again.
      if (row.conflict) {
        row.conflict = false;
        changed = true;
      }
      if (this.invalid(row) !== wasInvalid) membership = true;
      this.touched.add(row.id);
    }
    if (id === undefined || membership) this.bump();
    return changed;
  }

  /** The person's own value for a cell (checked by the caller: `problem` when it cannot be saved). */
  edit(id: string, field: string, value: unknown, problem?: FieldProblem): boolean {
    const row = this.byId.get(id);
    if (!row || !this.fields.includes(field)) return false;
    const wasInvalid = this.invalid(row);
    const cell = row.cells.get(field) ?? { from: ownValue(row.record, field) ?? null, to: null, accepted: true, by: 'person' as const };
    cell.to = structuredClone(value);
    cell.by = 'person';
    cell.accepted = true;
    if (problem) cell.problem = problem;
    else delete cell.problem;
    row.cells.set(field, cell);
    this.touched.add(id);
    if (this.invalid(row) !== wasInvalid) this.bump();
    return true;
  }

  /** A record the person started to edit (the list grid's edits grow row by row); nothing when it is in already. */
  addRow(row: ProposedRow): void {
    if (this.byId.has(row.id)) return;
    const added: MutableRow = { id: row.id, version: row.version, record: structuredClone(row.record), cells: new Map(), conflict: false, gone: false };
    this.rows.push(added);
    this.byId.set(row.id, added);
    for (const [field, to] of Object.entries(row.proposed)) this.edit(row.id, field, to, row.problems?.[field]);
    this.bump();
  }

  /** The person's value for a cell is the stored one again: the cell goes, and a row with no cell left with it. Returns whether anything changed. */
  clear(id: string, field: string): boolean {
    const row = this.byId.get(id);
    if (!row?.cells.delete(field)) return false;
    if (row.cells.size === 0) {
      this.rows.splice(this.rows.indexOf(row), 1);
      this.byId.delete(id);
      this.touched.delete(id);
    } else this.touched.add(id);
    this.bump();
    return true;
  }

  /** Every cell the person or the agent changed, row by row in the order they came. */
  cells(): Array<{ readonly id: string; readonly field: string; readonly cell: ReviewCellState }> {
    return this.rows.flatMap((row) => [...row.cells].map(([field, cell]) => ({ id: row.id, field, cell })));
  }

  /** A save met newer versions: those rows show what is stored now and wait for the person; gone ones are excluded. */
  markConflicts(current: readonly CurrentRecord[]): void {
    for (const { id, current: now } of current) {
      const row = this.byId.get(id);
      if (!row) continue;
      if (!now) {
        row.gone = true;
        continue;
      }
      row.version = now.version;
      row.record = { ...row.record, ...structuredClone(now.record) };
      // Undecided until the person says: its box is empty, one click (accept) settles it.
      for (const [field, cell] of row.cells) {
        cell.from = ownValue(row.record, field) ?? null;
        cell.accepted = false;
      }
      row.conflict = true;
    }
    this.bump();
  }

  /** Exactly what Save writes: valid rows without an open conflict, with their accepted cells. */
  accepted(): BatchChange[] {
    const out: BatchChange[] = [];
    for (const row of this.rows) {
      if (!this.writable(row)) continue;
      const set: Record<string, unknown> = {};
      for (const [field, cell] of row.cells) if (cell.accepted) set[field] = structuredClone(cell.to);
      out.push({ id: row.id, version: row.version, set });
    }
    return out;
  }

  tally(): ReviewTally {
    let accepted = 0;
    let rejected = 0;
    let invalid = 0;
    let conflicts = 0;
    let cells = 0;
    for (const row of this.rows) {
      if (this.invalid(row)) invalid++;
      else if (row.conflict) conflicts++;
      else if (this.writable(row)) {
        accepted++;
        for (const cell of row.cells.values()) if (cell.accepted) cells++;
      } else rejected++;
    }
    return { rows: this.rows.length, accepted, rejected, invalid, conflicts, unchanged: this.unchanged, cells };
  }

  /** The rows of a filter, in the proposal's order. */
  inFilter(filter: ReviewFilterKind): readonly ReviewRowState[] {
    let rows = this.filtered.get(filter);
    if (!rows) {
      rows = this.rows.filter((row) => {
        switch (filter) {
          case 'all': return true;
          case 'invalid': return this.invalid(row);
          case 'conflicts': return row.conflict && !this.invalid(row);
          case 'changed': return !this.invalid(row);
        }
      });
      this.filtered.set(filter, rows);
    }
    return rows;
  }

  row(id: string): ReviewRowState | undefined {
    return this.byId.get(id);
  }

  /** The rows changed in place since the last call (the Board swaps just these). */
  takeTouched(): ReviewRowState[] {
    const rows = [...this.touched].map((id) => this.byId.get(id)).filter((r): r is MutableRow => r !== undefined);
    this.touched.clear();
    return rows;
  }

  /** Why a row cannot be written: an accepted cell's problem, or the record is gone. */
  rowProblem(row: ReviewRowState): FieldProblem | 'gone' | undefined {
    if (row.gone) return 'gone';
    for (const cell of row.cells.values()) if (cell.accepted && cell.problem) return cell.problem;
    return undefined;
  }

  private invalid(row: ReviewRowState): boolean {
    return this.rowProblem(row) !== undefined;
  }

  private writable(row: ReviewRowState): boolean {
    if (row.conflict || this.invalid(row)) return false;
    for (const cell of row.cells.values()) if (cell.accepted) return true;
    return false;
  }

  private bump(): void {
    this.revision++;
    this.filtered.clear();
  }
}
