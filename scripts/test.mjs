// npm test: lint, typecheck, build, unit and integration tests, in order, stopping at
// the first failure. XOS_TEST_STAGES=lint,unit runs a subset (still in this order).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findFiles } from './lib/files.mjs';
import { formatDuration, formatTable } from './lib/format.mjs';
import { packageBin, projectNode } from './lib/paths.mjs';
import { ensurePostgres } from './lib/postgres.mjs';
import { run } from './lib/run.mjs';

const node = projectNode();

/** Outcome of a stage: 'passed', 'failed', or 'no tests' when its glob matched nothing. */
const passedIf = (code) => (code === 0 ? 'passed' : 'failed');

/** Test counts over all stages, for the closing line. */
const totals = { passed: 0, failed: 0, skipped: 0 };

/** Adds the summary counts of a TAP report (`# pass N`, `# fail N`, `# skipped N`). */
function countTap(file) {
  const text = readFileSync(file, 'utf8');
  const count = (name) => Number(text.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  totals.passed += count('pass');
  totals.failed += count('fail') + count('cancelled');
  totals.skipped += count('skipped') + count('todo');
}

async function nodeTests(dir, extraArgs, env) {
  const files = findFiles(dir, '.test.ts');
  if (files.length === 0) return { outcome: 'no tests', detail: `no ${dir}/**/*.test.ts` };
  const reportDir = mkdtempSync(join(tmpdir(), 'xos-test-'));
  const tap = join(reportDir, 'report.tap');
  try {
    const code = await run(node, [
      '--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...extraArgs, ...files,
    ], { env });
    countTap(tap);
    return { outcome: passedIf(code), detail: `${files.length} files` };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

const stages = [
  {
    name: 'lint',
    run: async () => ({ outcome: passedIf(await run(node, [packageBin('eslint', 'bin/eslint.js'), '.'])) }),
  },
  {
    name: 'typecheck',
    run: async () => ({ outcome: passedIf(await run(node, [packageBin('typescript', 'bin/tsc'), '-p', 'tsconfig.json'])) }),
  },
  {
    name: 'build',
    run: async () => ({ outcome: passedIf(await run(node, ['esbuild.mjs'])) }),
  },
  {
    name: 'unit',
    run: () => nodeTests('test/unit', []),
  },
  {
    name: 'integration',
    run: async () => {
      if (findFiles('test/integration', '.test.ts').length === 0) return nodeTests('test/integration', []);
      const postgresBin = await ensurePostgres();
      // Tells the PostgreSQL tests where initdb and postgres are.
      return nodeTests('test/integration', ['--test-concurrency=1'], { ...process.env, XOS_PG_BINDIR: postgresBin });
    },
  },
];

/** The stages XOS_TEST_STAGES asks for (all when unset); throws on an unknown name. */
function selectedStages() {
  const requested = process.env.XOS_TEST_STAGES?.split(',').map((name) => name.trim()).filter(Boolean);
  if (!requested?.length) return stages;
  const unknown = requested.filter((name) => !stages.some((stage) => stage.name === name));
  if (unknown.length) {
    throw new Error(`XOS_TEST_STAGES: unknown stage ${unknown.join(', ')}; known: ${stages.map((stage) => stage.name).join(', ')}`);
  }
  return stages.filter((stage) => requested.includes(stage.name));
}

async function main() {
  const selected = selectedStages();
  const results = [];
  let failed = false;
  const started = performance.now();
  for (const stage of selected) {
    if (failed) {
      results.push([stage.name, 'not run', '', '']);
      continue;
    }
    console.log(`\n=== ${stage.name}`);
    const stageStart = performance.now();
    let result;
    try {
      result = await stage.run();
    } catch (error) {
      console.error(`${stage.name}: ${error.message}`);
      result = { outcome: 'failed' };
    }
    const duration = formatDuration(performance.now() - stageStart);
    console.log(`=== ${stage.name}: ${result.outcome} in ${duration}`);
    results.push([stage.name, result.outcome, duration, result.detail ?? '']);
    failed = result.outcome === 'failed';
  }
  console.log(`\n${formatTable([['stage', 'result', 'time', 'detail'], ...results])}`);
  console.log(`\n${failed ? 'FAILED' : 'OK'} in ${formatDuration(performance.now() - started)}`);
  const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`test: ${error.message}`);
  process.exitCode = 2;
});
