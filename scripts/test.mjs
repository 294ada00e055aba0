// npm test: typecheck with lint alongside, build, unit and integration tests with npm start itself
// (start) alongside, then the suites in real VS Code (code-server): in-host suites (host) and
// browser tests (e2e), in order, stopping at the first failure. XOS_TEST_STAGES=lint,unit runs a
// subset (still in this order).
// --changed[=<rev>] (npm run test:changed) is the fast local path: lint on the changed files,
// typecheck, build, and the unit and integration files the change reaches through their imports.
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { existsSync } from 'node:fs';
import { affectedTests, changedFiles } from './lib/affected.mjs';
import { findFiles } from './lib/files.mjs';
import { formatBytes, formatDuration, formatTable } from './lib/format.mjs';
import { packageExtension } from './lib/package.mjs';
import { packageBin, projectNode, repoRoot } from './lib/paths.mjs';
import { ensurePostgres } from './lib/postgres.mjs';
import { run } from './lib/run.mjs';
import { cacheRoot, provision } from './lib/vscode-server.mjs';
import { launchBrowserServer } from './lib/workbench.mjs';

const node = projectNode();

// Every Node process of the run (test files, the servers and children they start, code-server's
// extension host) keeps the code it compiled, TypeScript stripped included, for the next one:
// a process that loads the backend starts in about half the CPU time. A cache entry is keyed by
// the file's content and Node's version, so an old one is never used for a changed file.
if (!process.env.NODE_COMPILE_CACHE && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  process.env.NODE_COMPILE_CACHE = join(tmpdir(), `xos-node-compile-cache-${process.getuid?.() ?? 'user'}`);
}
/**
 * Integration files side by side (XOS_TEST_CONCURRENCY overrides; 1 runs them one by one): three
 * on two cores, as many of them wait on servers (Radicale, SMTP, PostgreSQL, child processes).
 */
const INTEGRATION_CONCURRENCY = Math.max(1, Number(process.env.XOS_TEST_CONCURRENCY) || 3);
/** E2E files side by side, each with its own code-server and Chromium: most of their time is waiting on the UI (XOS_E2E_CONCURRENCY overrides). */
const E2E_CONCURRENCY = Math.max(1, Number(process.env.XOS_E2E_CONCURRENCY) || 2);

/** --changed[=<rev>]: the files changed against <rev> (default HEAD, i.e. not committed yet); undefined: everything. */
const changedArgument = process.argv.slice(2).find((arg) => arg === '--changed' || arg.startsWith('--changed='));
const changed = changedArgument === undefined ? undefined : changedFiles(repoRoot, changedArgument.split('=')[1] || 'HEAD');
/** Stages the fast local path runs unless XOS_TEST_STAGES names others. */
const CHANGED_STAGES = ['lint', 'typecheck', 'build', 'unit', 'integration'];

/** Of a stage's test files, those the change reaches (all without --changed). */
const selectFiles = (files) => (changed === undefined ? files : affectedTests(repoRoot, files, changed));

/** Outcome of a stage: 'passed', 'failed', or 'no tests' when its glob matched nothing. */
const passedIf = (code) => (code === 0 ? 'passed' : 'failed');

/** Test counts over all stages, for the closing line. */
const totals = { passed: 0, failed: 0, skipped: 0 };

/**
 * Seconds per test file as measured by a whole run (test/durations.json; npm test writes this run's
 * to test-results/durations.json, copy it over to refresh). Files run longest first, so a run does
 * not end with one long file alone; a file not listed yet counts as long, so it starts early.
 */
const knownDurations = JSON.parse(readFileSync(join(repoRoot, 'test/durations.json'), 'utf8'));
const UNKNOWN_SECONDS = 60;
const longestFirst = (files) => [...files].sort((a, b) => (knownDurations[b] ?? UNKNOWN_SECONDS) - (knownDurations[a] ?? UNKNOWN_SECONDS) || a.localeCompare(b));
/** This run's seconds per file, written to test-results/durations.json at the end. */
const measuredDurations = {};

async function nodeTests(dir, options) {
  const all = findFiles(dir, '.test.ts');
  const files = selectFiles(all);
  if (all.length === 0) return { outcome: 'no tests', detail: `no ${dir}/**/*.test.ts` };
  if (files.length === 0) return { outcome: 'no tests', detail: 'none reached by the change' };
  return nodeTestFiles(files, options);
}

/**
 * Runs test files (scripts/lib/test-files.mjs: node:test, each file in its own process,
 * `concurrency` at a time, longest first) with the spec reporter, and adds up their counts.
 */
async function nodeTestFiles(files, { concurrency = 1, env, output } = {}) {
  const reportDir = mkdtempSync(join(tmpdir(), 'xos-test-'));
  const summaryFile = join(reportDir, 'summary.json');
  try {
    const code = await run(node, [
      join(repoRoot, 'scripts/lib/test-files.mjs'), `--concurrency=${concurrency}`, `--summary=${summaryFile}`, '--', ...longestFirst(files),
    ], { env, output });
    if (existsSync(summaryFile)) {
      const { counts, durations } = JSON.parse(readFileSync(summaryFile, 'utf8'));
      totals.passed += counts.passed;
      totals.failed += counts.failed + counts.cancelled;
      totals.skipped += counts.skipped + counts.todo;
      Object.assign(measuredDurations, durations);
    }
    return { outcome: passedIf(code), detail: `${files.length} file${files.length === 1 ? '' : 's'}` };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** Where failing host and e2e tests leave screenshots and code-server logs. */
const artifactsDir = 'test-results/e2e';

/** Installs code-server, playwright-core and Chromium when missing (cached, idempotent). */
async function provisionVscode() {
  for (const row of await provision({ log: (line) => console.log(line) })) {
    if (row.action === 'installed') console.log(`${row.name}: installed in ${formatDuration(row.seconds * 1000)}`);
  }
}

/** A failed run names the folder with its screenshots and logs. */
function withArtifacts(result) {
  if (result.outcome === 'failed') console.error(`screenshots and code-server logs: ${join(repoRoot, artifactsDir)}/`);
  return result;
}

const stages = [
  {
    name: 'typecheck',
    // The whole tree, then the webview on its own (DOM, no Node types: what it imports must run in a browser).
    run: async () => {
      const tsc = packageBin('typescript', 'bin/tsc');
      const code = await run(node, [tsc, '-p', 'tsconfig.json']);
      return { outcome: passedIf(code === 0 ? await run(node, [tsc, '-p', 'webview/tsconfig.json']) : code) };
    },
  },
  {
    name: 'lint',
    // One core each: lint and typecheck side by side.
    alongside: 'typecheck',
    run: async ({ output } = {}) => {
      const targets = changed === undefined ? ['.'] : changed.filter((file) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(file) && existsSync(join(repoRoot, file)));
      if (targets.length === 0) return { outcome: 'no tests', detail: 'no changed source file' };
      return { outcome: passedIf(await run(node, [packageBin('eslint', 'bin/eslint.js'), ...targets], { output })), ...(changed ? { detail: `${targets.length} changed file${targets.length === 1 ? '' : 's'}` } : {}) };
    },
  },
  {
    name: 'build',
    run: async () => {
      const outcome = passedIf(await run(node, ['esbuild.mjs']));
      // The suites that need dist/ as built use it as it is, instead of building it again each (and
      // rewriting it under another file's code-server meanwhile).
      if (outcome === 'passed') process.env.XOS_BUILT = '1';
      return { outcome };
    },
  },
  {
    name: 'unit',
    // Two files at a time: a file is one process, mostly one core.
    run: () => nodeTests('test/unit', { concurrency: 2 }),
  },
  {
    name: 'integration',
    run: async () => {
      if (findFiles('test/integration', '.test.ts').length === 0) return nodeTests('test/integration');
      const postgresBin = await ensurePostgres();
      // Tells the PostgreSQL tests where initdb and postgres are. Each file has its own servers,
      // ports and folders. Many files start Node processes from the sources (the CLIs, killed
      // savers and editors): Node's compile cache spares each the same parsing (≈ 40 % of their CPU).
      const compileCache = process.env.NODE_COMPILE_CACHE || join(cacheRoot(), 'node-compile-cache');
      return nodeTests('test/integration', { concurrency: INTEGRATION_CONCURRENCY, env: { ...process.env, XOS_PG_BINDIR: postgresBin, NODE_COMPILE_CACHE: compileCache } });
    },
  },
  {
    // npm start as a newcomer runs it (plain shell, the machine's npm): the first-run path when
    // the cache is empty (as .ci/run makes it), then Board check, stopping, a failing step.
    name: 'start',
    // Mostly waiting on npm and the network (the first-run path): it runs alongside integration,
    // its output told when it is done.
    alongside: 'integration',
    run: ({ output } = {}) => nodeTests('test/start', { output }),
  },
  {
    // test/host/*.host.ts inside the real extension host, this repository as the development extension.
    name: 'host',
    run: async () => {
      if (findFiles('test/host', '.host.ts').length === 0) return { outcome: 'no tests', detail: 'no test/host/*.host.ts' };
      await provisionVscode();
      return withArtifacts(await nodeTestFiles(['test/e2e/support/hostStage.ts']));
    },
  },
  {
    // test/e2e/*.e2e.ts in headless Chromium against code-server, with the packaged .vsix installed.
    name: 'e2e',
    run: async () => {
      const all = findFiles('test/e2e', '.e2e.ts');
      const files = selectFiles(all);
      if (all.length === 0) return { outcome: 'no tests', detail: 'no test/e2e/*.e2e.ts' };
      if (files.length === 0) return { outcome: 'no tests', detail: 'none reached by the change' };
      await provisionVscode();
      const vsix = await packageExtension({ quiet: true });
      console.log(`packaged ${vsix.path} (${formatBytes(vsix.bytes)})`);
      // Packaging left its production build in dist/: the development build again, once for every file.
      if (process.env.XOS_BUILT === '1' && passedIf(await run(node, ['esbuild.mjs'])) !== 'passed') return { outcome: 'failed', detail: 'the development build after packaging failed' };
      // Each file runs its own code-server, its pages in one Chromium shared by the run; XOS_E2E_CONCURRENCY files at a time.
      // (XOS_E2E_SHARED_BROWSER=0: a Chromium per file, as a file run alone has.)
      const browser = process.env.XOS_E2E_SHARED_BROWSER === '0' ? undefined : await launchBrowserServer();
      try {
        return withArtifacts(await nodeTestFiles(files, { concurrency: E2E_CONCURRENCY, env: { ...process.env, XOS_E2E_VSIX: vsix.path, ...(browser ? { XOS_E2E_BROWSER: browser.wsEndpoint() } : {}) } }));
      } finally {
        await browser?.close();
      }
    },
  },
];

/** The object with its keys in order (a stable file to compare and copy). */
function sortedByKey(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}

/** The stages XOS_TEST_STAGES asks for (all when unset); throws on an unknown name. */
function selectedStages() {
  const requested = process.env.XOS_TEST_STAGES?.split(',').map((name) => name.trim()).filter(Boolean);
  if (!requested?.length) return changed === undefined ? stages : stages.filter((stage) => CHANGED_STAGES.includes(stage.name));
  const unknown = requested.filter((name) => !stages.some((stage) => stage.name === name));
  if (unknown.length) {
    throw new Error(`XOS_TEST_STAGES: unknown stage ${unknown.join(', ')}; known: ${stages.map((stage) => stage.name).join(', ')}`);
  }
  return stages.filter((stage) => requested.includes(stage.name));
}

async function main() {
  const selected = selectedStages();
  if (changed !== undefined) {
    console.log(`changed against ${changedArgument.split('=')[1] || 'HEAD'}: ${changed.length === 0 ? 'nothing' : changed.join(', ')}`);
    if (!selected.some((stage) => ['host', 'e2e'].includes(stage.name))) console.log('the packaged extension in VS Code (stages host, e2e) is not run: XOS_TEST_STAGES=host,e2e npm test before a push');
  }
  // Artifacts of this run only.
  if (selected.some((stage) => ['start', 'host', 'e2e'].includes(stage.name))) rmSync(join(repoRoot, artifactsDir), { recursive: true, force: true });
  const results = [];
  let failed = false;
  const started = performance.now();
  /** Stages running alongside another (started with it), by name. */
  const alongside = new Map();
  const runStage = async (stage, options) => {
    const stageStart = performance.now();
    let result;
    try {
      result = await stage.run(options);
    } catch (error) {
      console.error(`${stage.name}: ${error.message}`);
      result = { outcome: 'failed' };
    }
    return { result, duration: formatDuration(performance.now() - stageStart) };
  };
  for (const stage of selected) {
    if (failed && !alongside.has(stage.name)) {
      results.push([stage.name, 'not run', '', '']);
      continue;
    }
    let outcome;
    if (alongside.has(stage.name)) {
      // Started with its partner; its output, kept in a file meanwhile, is told now.
      const { done, logFile, logDir } = alongside.get(stage.name);
      console.log(`\n=== ${stage.name} (ran alongside ${stage.alongside})`);
      outcome = await done;
      console.log(readFileSync(logFile, 'utf8').trimEnd());
      rmSync(logDir, { recursive: true, force: true });
    } else {
      for (const companion of selected.filter((other) => other.alongside === stage.name)) {
        const logDir = mkdtempSync(join(tmpdir(), `xos-${companion.name}-`));
        const logFile = join(logDir, 'output.log');
        const fd = openSync(logFile, 'w');
        console.log(`(${companion.name} runs alongside ${stage.name}; its output follows when it is done)`);
        const done = runStage(companion, { output: fd }).finally(() => closeSync(fd));
        alongside.set(companion.name, { done, logFile, logDir });
      }
      console.log(`\n=== ${stage.name}`);
      outcome = await runStage(stage);
    }
    const { result, duration } = outcome;
    console.log(`=== ${stage.name}: ${result.outcome} in ${duration}`);
    results.push([stage.name, result.outcome, duration, result.detail ?? '']);
    failed = failed || result.outcome === 'failed';
  }
  if (Object.keys(measuredDurations).length > 0) {
    mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
    writeFileSync(join(repoRoot, 'test-results/durations.json'), `${JSON.stringify(sortedByKey(measuredDurations), null, 2)}\n`);
  }
  console.log(`\n${formatTable([['stage', 'result', 'time', 'detail'], ...results])}`);
  console.log(`\n${failed ? 'FAILED' : 'OK'} in ${formatDuration(performance.now() - started)}`);
  // A stage that failed before any test could fail (e.g. provisioning) still counts as a failure.
  if (failed && totals.failed === 0) totals.failed = 1;
  const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`test: ${error.message}`);
  process.exitCode = 2;
});
