// A small cache of answers that may change at any time (a revoked token, a new role): each answer
// is reused for at most `ttlMs`, requests that arrive together share one look-up, a failed look-up
// is not kept, and at most `size` answers are held.

export interface ShortCacheOptions<A> {
  readonly ttlMs: number;
  /** What an argument is kept under (default: itself); a token is kept by its hash, not in clear. */
  readonly keyOf?: (arg: A) => string;
  readonly size?: number;
  readonly now?: () => number;
}

const DEFAULT_SIZE = 1000;

export function shortCache<A extends string, T>(lookUp: (arg: A) => Promise<T>, { ttlMs, keyOf = (arg) => arg, size = DEFAULT_SIZE, now = Date.now }: ShortCacheOptions<A>): (arg: A) => Promise<T> {
  const answers = new Map<string, { readonly until: number; readonly answer: Promise<T> }>();
  return (arg) => {
    const key = keyOf(arg);
    const time = now();
    const cached = answers.get(key);
    if (cached && cached.until > time) return cached.answer;
    if (answers.size >= size) {
      for (const [k, v] of answers) if (v.until <= time) answers.delete(k);
      if (answers.size >= size) answers.delete(answers.keys().next().value!);
    }
    const answer = lookUp(arg);
    answers.set(key, { until: time + ttlMs, answer });
    answer.catch(() => answers.delete(key));
    return answer;
  };
}
