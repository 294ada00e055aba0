// A long first-run step is never silent: it says what it does when it starts, and every 15 s that
// it still does and for how long (npm and apt-get print nothing for minutes at their quiet levels).

/**
 * Runs `task`, logging `still <what> (N s) …` every `everyMs` until it settles.
 * @template T
 * @param {string} what  e.g. "installing code-server 4.139.1"
 * @param {() => Promise<T>} task
 * @param {{ log?: (line: string) => void, everyMs?: number }} [options]
 * @returns {Promise<T>}
 */
export async function withProgress(what, task, { log = console.log, everyMs = 15_000 } = {}) {
  const started = Date.now();
  const ticker = setInterval(() => log(`still ${what} (${Math.round((Date.now() - started) / 1000)} s) …`), everyMs);
  try {
    return await task();
  } finally {
    clearInterval(ticker);
  }
}
