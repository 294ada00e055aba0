// Runs test files with node:test in the order given (the `node --test` command line sorts them by
// name), N at a time, each in a process of its own, the spec reporter on stdout. Writes the counts
// and each file's time as JSON to --summary. npm test gives the files longest first, so a run does
// not end with one long file alone on a machine of two cores.
//   node scripts/lib/test-files.mjs --concurrency=2 --summary=out.json -- a.test.ts b.test.ts
import { writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { repoRoot } from './paths.mjs';

const separator = process.argv.indexOf('--');
const options = process.argv.slice(2, separator === -1 ? undefined : separator);
const files = separator === -1 ? [] : process.argv.slice(separator + 1);
const option = (name) => options.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const concurrency = Math.max(1, Number(option('concurrency')) || 1);
const summaryFile = option('summary');

const counts = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
/** Seconds per file, by repo-relative path. */
const durations = {};
let success = true;

const stream = run({ files, concurrency });
stream.on('test:summary', (summary) => {
  if (summary.file === undefined) {
    // The run's own summary: every file's tests.
    for (const key of Object.keys(counts)) counts[key] = summary.counts[key] ?? 0;
    success = summary.success;
  } else {
    durations[relative(repoRoot, summary.file).split(sep).join('/')] = Math.round(summary.duration_ms / 100) / 10;
  }
});
stream.compose(spec).pipe(process.stdout);
stream.on('end', () => {
  if (summaryFile) writeFileSync(summaryFile, `${JSON.stringify({ counts, durations }, null, 2)}\n`);
  if (!success || counts.failed > 0 || counts.cancelled > 0) process.exitCode = 1;
});
