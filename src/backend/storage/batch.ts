// A batch write that met a changed row: thrown inside the transaction so that it rolls back, and
// caught outside it as the batch's answer (nothing written, every stale row named).
import type { BatchWriteResult, RowUpdate } from './types.ts';

export class BatchConflict extends Error {
  readonly result: Extract<BatchWriteResult, { status: 'conflict' }>;

  constructor(result: Extract<BatchWriteResult, { status: 'conflict' }>) {
    super(`${result.conflicts.length} rows changed since they were read; nothing was written`);
    this.result = result;
  }
}

/** A batch names each row once: a second change of one row would be checked against a version the first one moved on. */
export function checkOncePerRow(updates: readonly RowUpdate[]): void {
  const seen = new Set<string>();
  for (const update of updates) {
    const key = String(update.id);
    if (seen.has(key)) throw new Error(`a batch changes the row ${key} twice: give each row once, with all its changes`);
    seen.add(key);
  }
}

/** `items` in consecutive chunks of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** A batch's rows by the columns they set (each group one kind of statement), in first-seen order. */
export function groupedBySet(updates: readonly RowUpdate[]): RowUpdate[][] {
  const groups = new Map<string, RowUpdate[]>();
  for (const update of updates) {
    const key = JSON.stringify(Object.keys(update.set).sort());
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(update);
  }
  return [...groups.values()];
}
