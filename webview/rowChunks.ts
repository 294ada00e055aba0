// The rows of a long grid the page holds: chunks of CHUNK_ROWS asked of the host as the person
// scrolls, at most MAX_CHUNKS kept (the least recently seen go first), at most MAX_PENDING asked
// at once. One cache serves both grids (the list's rows, the review's rows); what a chunk is
// read from (a list and its query, a review's revision and filter) is the reader's.

/** Rows per request and per cache entry. */
export const CHUNK_ROWS = 100;
/** Chunks kept (about 50 screens); older ones are asked for again when scrolled back to. */
const MAX_CHUNKS = 60;
/** Requests in flight at once; the grid asks again on its next frame. */
const MAX_PENDING = 4;

/** A window of rows as the host answered, or undefined when the answer is for something else now. */
export type ChunkRead<Row> = (offset: number, limit: number) => Promise<{ readonly offset: number; readonly rows: readonly Row[]; readonly total: number } | undefined>;

export class RowChunks<Row extends { readonly key: string }> {
  /** Rows in all; undefined until the host said. */
  total: number | undefined;
  /** Why the last read failed, until one succeeds. */
  error: string | undefined;
  private readonly chunks = new Map<number, readonly Row[]>();
  private readonly pending = new Set<number>();
  /** Bumped on every reset; answers to an earlier ask are dropped. */
  private generation = 0;
  private readonly changed: () => void;

  /** `changed`: told whenever rows arrived or a read failed. */
  constructor(changed: () => void) {
    this.changed = changed;
  }

  /** Forgets every row (a new list, query, review, revision or filter). */
  reset(): void {
    this.generation++;
    this.chunks.clear();
    this.pending.clear();
    this.total = undefined;
    this.error = undefined;
  }

  /** Keeps rows from `offset` on; windows start at chunk boundaries, and a first window may hold several chunks. */
  store(offset: number, rows: readonly Row[]): void {
    for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
      const chunk = Math.floor((offset + i) / CHUNK_ROWS);
      this.chunks.delete(chunk);
      this.chunks.set(chunk, rows.slice(i, i + CHUNK_ROWS));
    }
    for (const chunk of this.chunks.keys()) {
      if (this.chunks.size <= MAX_CHUNKS) break;
      this.chunks.delete(chunk);
    }
  }

  /** The row at a 0-based index, if loaded. */
  row(index: number): Row | undefined {
    return this.chunks.get(Math.floor(index / CHUNK_ROWS))?.[index % CHUNK_ROWS];
  }

  /** Where the row with this key is among the loaded rows, if loaded. */
  indexOfKey(key: string): number | undefined {
    for (const [chunk, rows] of this.chunks) {
      const at = rows.findIndex((row) => row.key === key);
      if (at >= 0) return chunk * CHUNK_ROWS + at;
    }
    return undefined;
  }

  /** Rows changed in place: each swapped by its key where it is cached (`change` makes the new row from the cached one). */
  swap(rows: readonly Row[]): void;
  swap(key: string, change: (row: Row) => Row): void;
  swap(rowsOrKey: readonly Row[] | string, change?: (row: Row) => Row): void {
    const next: (row: Row) => Row | undefined = typeof rowsOrKey === 'string'
      ? (row) => (row.key === rowsOrKey ? change!(row) : undefined)
      : ((byKey) => (row: Row) => byKey.get(row.key))(new Map(rowsOrKey.map((row) => [row.key, row])));
    for (const [chunk, cached] of this.chunks) {
      let swapped = false;
      const rows = cached.map((row) => {
        const replaced = next(row);
        if (replaced === undefined) return row;
        swapped = true;
        return replaced;
      });
      if (swapped) this.chunks.set(chunk, rows);
    }
  }

  /** Asks `read` for the chunks of rows first..last that are missing (and keeps the visible ones fresh in the cache). */
  ensure(first: number, last: number, read: ChunkRead<Row>): void {
    const end = this.total === undefined ? first : Math.min(last, this.total - 1);
    for (let chunk = Math.floor(first / CHUNK_ROWS); chunk <= Math.floor(Math.max(first, end) / CHUNK_ROWS); chunk++) {
      const cached = this.chunks.get(chunk);
      if (cached) {
        this.chunks.delete(chunk);
        this.chunks.set(chunk, cached);
        continue;
      }
      if (this.pending.has(chunk) || this.pending.size >= MAX_PENDING) continue;
      this.request(chunk, read);
    }
  }

  private request(chunk: number, read: ChunkRead<Row>): void {
    const generation = this.generation;
    this.pending.add(chunk);
    read(chunk * CHUNK_ROWS, CHUNK_ROWS).then((result) => {
      if (generation !== this.generation || !result) return;
      this.pending.delete(chunk);
      this.total = result.total;
      this.error = undefined;
      this.store(result.offset, result.rows);
      this.changed();
    }, (error: unknown) => {
      if (generation !== this.generation) return;
      this.pending.delete(chunk);
      this.error = error instanceof Error ? error.message : String(error);
      this.changed();
    });
  }
}
