// A team on one database, as team.test.ts and bench/live.bench.ts run it: xos-server instances
// over one PostgreSQL, Boards (remote clients whose feed keeps a copy of every record up to date
// by reading changed records again) and agents doing version-checked updates on the same records.
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import type { ChangeFeedEvent, XosClient } from '../../src/graphql/types.ts';
import { until } from './until.ts';

export interface TeamOptions {
  readonly dsn: string;
  readonly instances: number;
  readonly boards: number;
  readonly agents: number;
  readonly records: number;
  readonly durationMs: number;
  /** Runs beside the agents (other writers, a forger) on the same instances; awaited before the Boards settle. */
  readonly during?: (servers: readonly RunningHttpServer[]) => Promise<void>;
}

export interface TeamResult {
  /** Successful updates per record id. */
  readonly successes: Map<string, number>;
  readonly conflicts: number;
  /** Per written version: the time from sending the update until the last Board heard it (ms; commit lies between). */
  readonly delays: number[];
  /** The same from the update's answer (commit before it): a lower bound; negative when the feed was faster than the answer. */
  readonly delaysFromAnswer: number[];
  /** Each Board's copy: id -> version and city. */
  readonly copies: Map<string, { version: number; city: string | null }>[];
  /** Changes of a person a Board heard that no agent sent, and presence entries of anyone: no one here opens a record, so each is forged or foreign. */
  readonly unexpected: { readonly changes: number; readonly presence: number };
  readonly backends: Backend[];
  close(): Promise<void>;
}

type Copy = Map<string, { version: number; city: string | null }>;

const LIST = 'query($ids: [ID!], $limit: Int) { person_list(where: { id: { _in: $ids } }, limit: $limit, order_by: { id: asc }) { id version city } }';
const LIST_ALL = 'query($limit: Int) { person_list(limit: $limit, order_by: { id: asc }) { id version city } }';

/** A Board: its copy of every record, read again where the feed says a record changed (one read at a time, ids gathered meanwhile). */
class Board {
  readonly copy: Copy = new Map();
  readonly #client: XosClient;
  readonly #dirty = new Set<string>();
  #reading = false;
  #reset = false;
  #stop: (() => void) | undefined;
  live = false;
  failedReads = 0;

  constructor(client: XosClient, onChange: (id: string, version: number | null) => void, onPresence: (entries: number) => void) {
    this.#client = client;
    this.#stop = client.feed!.subscribe((event: ChangeFeedEvent) => {
      if (event.kind === 'connection') this.live = event.live;
      if (event.kind === 'presence') onPresence(event.presence.length);
      if (event.kind === 'reset') {
        this.#reset = true;
        this.#drainLater();
      }
      if (event.kind !== 'changes') return;
      for (const change of event.changes) {
        // The agents write people; other entities' changes (another writer's) are not theirs to time.
        if (change.entity !== 'person') continue;
        onChange(change.id, change.version);
        const known = this.copy.get(change.id);
        if (known && change.version !== null && known.version >= change.version) continue;
        this.#dirty.add(change.id);
      }
      this.#drainLater();
    });
  }

  async load(limit: number): Promise<void> {
    const answer = await this.#client.run(LIST_ALL, { limit });
    for (const row of (answer.data as { person_list: { id: string; version: number; city: string | null }[] }).person_list) this.copy.set(String(row.id), { version: row.version, city: row.city });
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
      while (this.#dirty.size > 0 || this.#reset) {
        const ids = this.#reset ? null : [...this.#dirty];
        this.#reset = false;
        this.#dirty.clear();
        const answer = await (ids ? this.#client.run(LIST, { ids, limit: ids.length }) : this.#client.run(LIST_ALL, { limit: 100_000 }))
          .catch((error: unknown) => ({ errors: [{ message: String(error) }] }));
        if ('errors' in answer && answer.errors?.length) {
          // Read again next round; a copy that never converges fails the test.
          this.failedReads++;
          for (const id of ids ?? []) this.#dirty.add(id);
          if (!ids) this.#reset = true;
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        for (const row of ((answer as { data: unknown }).data as { person_list: { id: string; version: number; city: string | null }[] }).person_list) {
          const known = this.copy.get(String(row.id));
          if (!known || known.version <= row.version) this.copy.set(String(row.id), { version: row.version, city: row.city });
        }
      }
    } finally {
      this.#reading = false;
    }
  }

  stop(): void {
    this.#stop?.();
  }
}

export async function runTeam(options: TeamOptions): Promise<TeamResult> {
  const backends: Backend[] = [];
  const servers: RunningHttpServer[] = [];
  for (let i = 0; i < options.instances; i++) {
    const backend = await startBackend({ ast: demoApp(), dsn: options.dsn, seed: options.records });
    backends.push(backend);
    servers.push(await startHttpServer(backend.api, { changes: { maxStreams: 1_000 } }));
  }
  const close = async () => {
    for (const server of servers) await server.close();
    for (const backend of backends) await backend.close();
  };
  try {
    const ids = (await backends[0].api.storage.select({ table: 'person', columns: [], orderBy: [{ column: 'id', desc: false }] })).map((row) => String(row.id));
    const sent = new Map<string, number>();
    const heardBy = new Map<string, number>();
    const delays: number[] = [];
    const delaysFromAnswer: number[] = [];
    const answered = new Map<string, number>();
    const lastHeard = new Map<string, number>();
    const boards: Board[] = [];
    const unexpected = { changes: 0, presence: 0 };
    for (let i = 0; i < options.boards; i++) {
      const client = await connectRemoteClient({ endpoint: servers[i % servers.length].url });
      boards.push(new Board(client, (id, version) => {
        const key = `${id}:${version}`;
        const heard = (heardBy.get(key) ?? 0) + 1;
        heardBy.set(key, heard);
        const at = sent.get(key);
        if (at === undefined) unexpected.changes++;
        if (heard === options.boards && at !== undefined) {
          delays.push(performance.now() - at);
          lastHeard.set(key, performance.now());
        }
      }, (entries) => { unexpected.presence += entries; }));
    }
    await until('every Board live', () => boards.every((board) => board.live), { timeoutMs: 30_000 });
    for (const board of boards) await board.load(ids.length);
    if (boards.some((board) => board.copy.size !== ids.length)) throw new Error('a Board could not read every record');

    const successes = new Map<string, number>();
    let conflicts = 0;
    const deadline = Date.now() + options.durationMs;
    const agent = async (n: number) => {
      const client = await connectRemoteClient({ endpoint: servers[n % servers.length].url });
      let round = 0;
      while (Date.now() < deadline) {
        const id = ids[Math.floor(Math.random() * ids.length)];
        const read = await client.run('query($id: ID!) { person_detail(id: $id) { version } }', { id });
        const version = (read.data as { person_detail: { version: number } }).person_detail.version;
        const started = performance.now();
        sent.set(`${id}:${version + 1}`, started);
        const answer = await client.run('mutation($id: ID!, $version: Int!, $city: String) { update_person(id: $id, version: $version, set: { city: $city }) { version } }',
          { id, version, city: `agent ${n} round ${round++}` });
        if (answer.errors?.length) {
          if (!/conflict|changed|version/i.test(JSON.stringify(answer.errors))) throw new Error(`agent ${n}: ${JSON.stringify(answer.errors)}`);
          conflicts++;
        } else {
          successes.set(id, (successes.get(id) ?? 0) + 1);
          answered.set(`${id}:${version + 1}`, performance.now());
        }
      }
    };
    await Promise.all([...Array.from({ length: options.agents }, (_, n) => agent(n)), options.during?.(servers)]);
    await until('every Board settled', () => boards.every((board) => !board.busy), { timeoutMs: 60_000 });
    for (const [key, at] of lastHeard) {
      const answer = answered.get(key);
      if (answer !== undefined) delaysFromAnswer.push(at - answer);
    }
    return { successes, conflicts, delays, delaysFromAnswer, copies: boards.map((board) => board.copy), unexpected, backends, close: async () => { for (const board of boards) board.stop(); await close(); } };
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
