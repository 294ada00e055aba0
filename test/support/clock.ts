// A clock the test turns: code that takes `now` reads it, so whether something has been quiet
// long enough never depends on how fast a loaded machine runs the test.

export interface TestClock {
  readonly now: () => number;
  advance(ms: number): void;
}

export function testClock(start = 1_000_000): TestClock {
  let time = start;
  return { now: () => time, advance: (ms) => { time += ms; } };
}
