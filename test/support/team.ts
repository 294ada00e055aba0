// A team on one database, as team.test.ts and bench/live.bench.ts run it: xos-server instances
// over one PostgreSQL, Boards (remote clients whose feed keeps a copy of every record up to date
// by reading changed records again) and agents doing version-checked updates on the same records,
// on XOS's own tables (the demo CRM's people) or on a table of the person's (`app`).
import type { Ast } from '../../src/ast/schema.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import type { ChangeFeedEvent, XosClient } from '../../src/graphql/types.ts';
import { until } from './until.ts';

/** The records the agents change: an entity's list and detail contexts and the text field they write. */
export interface TeamApp {
  readonly ast: Ast;
  readonly entity: string;
  readonly list: string;
  readonly detail: string;
  readonly field: string;
  /**
   * XOS's own tables count versions up (a change with a version the copy has is old news); the
   * person's own tables have the row's state as version (any other one is news).
   */
  readonly countedVersions: boolean;
}

/** The demo CRM's people, on XOS's own tables, seeded with `records` people. */
const DEMO_PEOPLE: Omit<TeamApp, 'ast'> = { entity: 'person', list: 'person_list', detail: 'person_detail', field: 'city', countedVersions: true };

export interface TeamOptions {
  readonly dsn: string;
  readonly instances: number;
  readonly boards: number;
  readonly agents: number;
  /** How many records the agents change (the first by id; the demo app is seeded with as many). */
  readonly records: number;
  readonly durationMs: number;
  /** Absent: the demo CRM's people. */
  readonly app?: TeamApp;
  /** Runs beside the agents (other writers, a forger) on the same instances; awaited before the Boards settle. */
  readonly during?: (servers: readonly RunningHttpServer[]) => Promise<void>;
}

/** One successful update: the version it was checked against, the one it made, the value it wrote. */
export interface TeamWrite {
  readonly from: number;
  readonly to: number;
  readonly value: string;
}

export interface TeamResult {
  /** Successful updates per record id. */
  readonly successes: Map<string, number>;
  /** Each record's successful updates. */
  readonly writes: Map<string, TeamWrite[]>;
  readonly conflicts: number;
  /** Per written version: the time from sending the update until the last Board heard it (ms; commit lies between). */
  readonly delays: number[];
  /** The same from the update's answer (commit before it): a lower bound; negative when the feed was faster than the answer. */
  readonly delaysFromAnswer: number[];
  /** Each Board's copy: id -> version and the field's value. */
  readonly copies: Map<string, { version: number; city: string | null }>[];
  /** Changes of the agents' entity a Board heard that no agent made, and presence entries of anyone: no one here opens a record, so each is forged or foreign. */
  readonly unexpected: { readonly changes: number; readonly presence: number };
  /** Times a Board's feed could not tell what changed, over all Boards. */
  readonly resets: number;
  readonly backends: Backend[];
  close(): Promise<void>;
}

/**
 * Updates lost on a record: two successes checked against the same version (the second wrote
 * over the first without seeing it), or a stored value no success left last.
 */
export function lostUpdates(writes: readonly TeamWrite[], stored: { version: number; value: string | null } | undefined): number {
  const from = new Set(writes.map((write) => write.from));
  if (stored === undefined) return writes.length - from.size;
  const last = writes.find((write) => write.to === stored.version);
  const storedIsLast = writes.length === 0 || (last !== undefined && last.value === stored.value && !from.has(stored.version));
  return (writes.length - from.size) + (storedIsLast ? 0 : 1);
}

type Copy = Map<string, { version: number; city: string | null }>;
type Row = { id: string | number; version: number } & Record<string, unknown>;

/** A Board: its copy of every record, read again where the feed says a record changed (one read at a time, ids gathered meanwhile). */
class Board {
  readonly copy: Copy = new Map();
  readonly #client: XosClient;
  readonly #app: Omit<TeamApp, 'ast'>;
  readonly #dirty = new Set<string>();
  #reading = false;
  #reset = false;
  #stopped = false;
  /** How many records the Board keeps (all it reads again after a reset). */
  #records = 0;
  #stop: (() => void) | undefined;
  live = false;
  failedReads = 0;
  /** Times the feed said it could not tell what changed (the Board then read everything again). */
  resets = 0;
  lastError: string | undefined;

  constructor(client: XosClient, app: Omit<TeamApp, 'ast'>, onChange: (id: string, version: number | null) => void, onPresence: (entries: number) => void) {
    this.#client = client;
    this.#app = app;
    this.#stop = client.feed!.subscribe((event: ChangeFeedEvent) => {
      if (event.kind === 'connection') this.live = event.live;
      if (event.kind === 'presence') onPresence(event.presence.length);
      if (event.kind === 'reset') {
        this.resets++;
        this.#reset = true;
        this.#drainLater();
      }
      if (event.kind !== 'changes') return;
      for (const change of event.changes) {
        // The agents write one entity; other entities' changes (another writer's) are not theirs to time.
        if (change.entity !== app.entity) continue;
        onChange(change.id, change.version);
        const known = this.copy.get(change.id);
        if (known && change.version !== null && (app.countedVersions ? known.version >= change.version : known.version === change.version)) continue;
        this.#dirty.add(change.id);
      }
      this.#drainLater();
    });
  }

  #query(some: boolean): string {
    const { list, field } = this.#app;
    return some
      ? `query($ids: [ID!], $limit: Int) { ${list}(where: { id: { _in: $ids } }, limit: $limit, order_by: { id: asc }) { id version ${field} } }`
      : `query($limit: Int) { ${list}(limit: $limit, order_by: { id: asc }) { id version ${field} } }`;
  }

  #take(rows: readonly Row[]): void {
    for (const row of rows) {
      const known = this.copy.get(String(row.id));
      // Reads are one at a time, so the last one read is the newest (a row's state has no order).
      if (!known || !this.#app.countedVersions || known.version <= row.version) this.copy.set(String(row.id), { version: row.version, city: row[this.#app.field] as string | null });
    }
  }

  async load(limit: number): Promise<void> {
    this.#records = limit;
    const answer = await this.#client.run(this.#query(false), { limit });
    this.#take((answer.data as Record<string, Row[]>)[this.#app.list]);
  }

  get busy(): boolean {
    return this.#reading || this.#dirty.size > 0;
  }

  #drainLater(): void {
    void this.#drain();
  }

  async #drain(): Promise<void> {
    if (this.#reading) return;
    this.#reading = true;
    try {
      // A stopped Board reads nothing more (its server may be gone: it would retry for ever).
      while ((this.#dirty.size > 0 || this.#reset) && !this.#stopped) {
        const ids = this.#reset ? null : [...this.#dirty];
        this.#reset = false;
        this.#dirty.clear();
        const answer = await (ids ? this.#client.run(this.#query(true), { ids, limit: ids.length }) : this.#client.run(this.#query(false), { limit: this.#records }))
          .catch((error: unknown) => ({ errors: [{ message: String(error) }] }));
        if ('errors' in answer && answer.errors?.length) {
          // Read again next round; a copy that never converges fails the test.
          this.failedReads++;
          this.lastError = JSON.stringify((answer as { errors: unknown }).errors).slice(0, 300);
          for (const id of ids ?? []) this.#dirty.add(id);
          if (!ids) this.#reset = true;
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        this.#take(((answer as { data: unknown }).data as Record<string, Row[]>)[this.#app.list]);
      }
    } finally {
      this.#reading = false;
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#stop?.();
  }
}

export async function runTeam(options: TeamOptions): Promise<TeamResult> {
  const { ast, ...app } = options.app ?? { ast: demoApp(), ...DEMO_PEOPLE };
  const backends: Backend[] = [];
  const servers: RunningHttpServer[] = [];
  for (let i = 0; i < options.instances; i++) {
    const backend = await startBackend({ ast: structuredClone(ast), dsn: options.dsn, ...(options.app ? {} : { seed: options.records }) });
    backends.push(backend);
    servers.push(await startHttpServer(backend.api, { changes: { maxStreams: 1_000 } }));
  }
  const close = async () => {
    for (const server of servers) await server.close();
    for (const backend of backends) await backend.close();
  };
  try {
    const reader = await connectRemoteClient({ endpoint: servers[0].url });
    const first = await reader.run(`query($limit: Int) { ${app.list}(limit: $limit, order_by: { id: asc }) { id } }`, { limit: options.records });
    if (first.errors?.length) throw new Error(`the records could not be read: ${JSON.stringify(first.errors)}`);
    const ids = (first.data as Record<string, Row[]>)[app.list].map((row) => String(row.id));
    /** When the update that made a version was sent and answered, by `id:version` (known once answered). */
    const sent = new Map<string, number>();
    const answered = new Map<string, number>();
    /** How many Boards heard a version, and when the last of them did. */
    const heard = new Map<string, { boards: number; last: number }>();
    const boards: Board[] = [];
    const unexpected = { changes: 0, presence: 0 };
    for (let i = 0; i < options.boards; i++) {
      const client = await connectRemoteClient({ endpoint: servers[i % servers.length].url });
      boards.push(new Board(client, app, (id, version) => {
        const key = `${id}:${version}`;
        const known = heard.get(key);
        heard.set(key, { boards: (known?.boards ?? 0) + 1, last: performance.now() });
      }, (entries) => { unexpected.presence += entries; }));
    }
    await until('every Board live', () => boards.every((board) => board.live), { timeoutMs: 30_000 });
    for (const board of boards) await board.load(ids.length);
    if (boards.some((board) => [...ids].some((id) => !board.copy.has(id)))) throw new Error('a Board could not read every record');

    const successes = new Map<string, number>();
    const writes = new Map<string, TeamWrite[]>();
    let conflicts = 0;
    const deadline = Date.now() + options.durationMs;
    const agent = async (n: number) => {
      const client = await connectRemoteClient({ endpoint: servers[n % servers.length].url });
      let round = 0;
      while (Date.now() < deadline) {
        const id = ids[Math.floor(Math.random() * ids.length)];
        const read = await client.run(`query($id: ID!) { ${app.detail}(id: $id) { version } }`, { id });
        const version = (read.data as Record<string, { version: number }>)[app.detail].version;
        const value = `agent ${n} round ${round++}`;
        const started = performance.now();
        const answer = await client.run(`mutation($id: ID!, $version: Int!, $value: String) { update_${app.entity}(id: $id, version: $version, set: { ${app.field}: $value }) { version } }`,
          { id, version, value });
        if (answer.errors?.length) {
          if (!/conflict|changed|version/i.test(JSON.stringify(answer.errors))) throw new Error(`agent ${n}: ${JSON.stringify(answer.errors)}`);
          conflicts++;
        } else {
          const made = (answer.data as Record<string, { version: number }>)[`update_${app.entity}`].version;
          successes.set(id, (successes.get(id) ?? 0) + 1);
          writes.set(id, [...(writes.get(id) ?? []), { from: version, to: made, value }]);
          sent.set(`${id}:${made}`, started);
          answered.set(`${id}:${made}`, performance.now());
        }
      }
    };
    await Promise.all([...Array.from({ length: options.agents }, (_, n) => agent(n)), options.during?.(servers)]);
    await until('every Board settled', () => boards.every((board) => !board.busy), { timeoutMs: 60_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}; failed reads per Board: ${boards.map((board) => board.failedReads).join(', ')}; last error: ${boards.map((board) => board.lastError).find(Boolean) ?? 'none'}`);
    });
    const delays: number[] = [];
    const delaysFromAnswer: number[] = [];
    for (const [key, { boards: by, last }] of heard) {
      const at = sent.get(key);
      // A version no agent made: forged, or another writer's (which the feed names with no agent's version).
      if (at === undefined) {
        unexpected.changes += by;
        continue;
      }
      if (by < options.boards) continue;
      delays.push(last - at);
      delaysFromAnswer.push(last - answered.get(key)!);
    }
    return { successes, writes, conflicts, delays, delaysFromAnswer, copies: boards.map((board) => board.copy), unexpected, resets: boards.reduce((sum, board) => sum + board.resets, 0), backends, close: async () => { for (const board of boards) board.stop(); await close(); } };
  } catch (error) {
    await close();
    throw error;
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
