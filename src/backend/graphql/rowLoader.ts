// Request-scoped loading: every ref and inverse-list field of one GraphQL
// request that asks for the same kind of rows shares one `IN (...)` query,
// so nested selections cost one query per level, not one per row.

const resolved = Promise.resolve();

/** Runs `fn` after the current wave of resolvers has queued its keys. */
function afterCurrentWave(fn: () => void): void {
  // Like DataLoader: wait for pending promise jobs, then one more tick.
  resolved.then(() => process.nextTick(fn));
}

export class RowLoader<K, V> {
  private queue = new Map<K, Array<{ resolve: (v: V) => void; reject: (e: unknown) => void }>>();
  private scheduled = false;
  private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>;
  private readonly missing: V;

  constructor(loadMany: (keys: K[]) => Promise<Map<K, V>>, missing: V) {
    this.loadMany = loadMany;
    this.missing = missing;
  }

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      let waiters = this.queue.get(key);
      if (!waiters) this.queue.set(key, (waiters = []));
      waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        afterCurrentWave(() => this.flush());
      }
    });
  }

  private flush(): void {
    const wave = this.queue;
    this.queue = new Map();
    this.scheduled = false;
    this.loadMany([...wave.keys()]).then(
      (values) => {
        for (const [key, waiters] of wave) {
          const value = values.has(key) ? values.get(key)! : this.missing;
          for (const w of waiters) w.resolve(value);
        }
      },
      (error: unknown) => {
        for (const waiters of wave.values()) for (const w of waiters) w.reject(error);
      },
    );
  }
}

/** Loaders of one request, created on first use and keyed by what they load. */
export class RowLoaders {
  private readonly loaders = new Map<string, RowLoader<never, unknown>>();

  get<K, V>(key: string, create: () => RowLoader<K, V>): RowLoader<K, V> {
    let b = this.loaders.get(key);
    if (!b) this.loaders.set(key, (b = create() as unknown as RowLoader<never, unknown>));
    return b as unknown as RowLoader<K, V>;
  }
}
