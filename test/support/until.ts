// Waiting for a condition, never for a fixed time: polls `probe` until it gives something other
// than undefined or false and returns that; after `timeoutMs` it fails, naming what it waited for.
// The default limit is generous (a loaded 2-core machine running two test files at once): a
// passing test never waits for it, only a failing one.

export interface UntilOptions {
  readonly timeoutMs?: number;
  /** The pause between two probes. */
  readonly everyMs?: number;
}

export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, { timeoutMs = 30_000, everyMs = 10 }: UntilOptions = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
