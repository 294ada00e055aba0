// A batch write that met a changed row: thrown inside the transaction so that it rolls back, and
// caught outside it as the batch's answer (nothing written, every stale row named).
import type { BatchWriteResult } from './types.ts';

export class BatchConflict extends Error {
  readonly result: Extract<BatchWriteResult, { status: 'conflict' }>;

  constructor(result: Extract<BatchWriteResult, { status: 'conflict' }>) {
    super(`${result.conflicts.length} rows changed since they were read; nothing was written`);
    this.result = result;
  }
}
