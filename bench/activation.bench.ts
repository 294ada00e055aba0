// bench:activation — XOS's activation in real VS Code (code-server), as VS Code itself measures
// it, against the built-in Git extension's in the same windows. Two builds of XOS, both as the
// packaged .vsix a person installs:
//   - split: this tree (dist/extension.cjs activates, dist/host.cjs loads right after);
//   - one bundle: the last commit before the split (XOS_BENCH_BASELINE=<rev> names another),
//     exported with `git archive` into a temp folder and packaged there.
// Per window: a fresh code-server with a fresh profile and workspace, one page; once the
// workbench is up, "Developer: Show Running Extensions" (through the command palette) shows each
// extension's activation time (VS Code's own number: loading its main file plus the activate()
// call), read from the XOS and Git rows. Windows alternate between the builds (the order flips
// every round). The split build also logs how long loading and starting the host took right
// after activation (its XOS output channel), printed beside. Medians and the ratio XOS / Git
// per build; nothing is asserted on time.
//   npm run provision:vscode && npm run bench:activation    (XOS_BENCH_WINDOWS=5)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, type Browser, type Page } from '../test/e2e/support/browser.ts';
import { repoRoot, vscodeServer, type ExtensionDirs } from '../test/e2e/support/codeServer.ts';
import { runCommandUntil, waitForWorkbench } from '../test/e2e/support/workbench.ts';

const WINDOWS = Number(process.env.XOS_BENCH_WINDOWS ?? 5);
const XOS_ROW = 'XOS';
const GIT_ROW = 'Git';

interface Build {
  readonly name: string;
  readonly vsix: string;
  readonly dirs: ExtensionDirs;
}

interface WindowTimes {
  readonly xos: number;
  readonly git: number;
  /** The split build's "XOS host loaded in … ms, started in … ms" (after activation), if logged. */
  readonly hostLoad?: { readonly loadMs: number; readonly startMs: number };
}

type PackageLib = { packageExtension(options: { out: string; quiet: boolean }): Promise<{ path: string; bytes: number }> };

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
}

/** The commit before the one that split the bundle (or HEAD while the split is not committed). */
function baselineRevision(): string {
  const given = process.env.XOS_BENCH_BASELINE;
  if (given) return given;
  const split = git(['log', '--format=%H', '--reverse', '-S', 'dist/host.cjs', '--', 'esbuild.mjs']).split('\n')[0];
  return split ? `${split}^` : 'HEAD';
}

/** Packages this tree (production build, vsce) into `out`. */
async function packageTree(root: string, out: string): Promise<string> {
  const lib = await import(pathToFileURL(join(root, 'scripts', 'lib', 'package.mjs')).href) as PackageLib;
  return (await lib.packageExtension({ out, quiet: true })).path;
}

/** The one-bundle build: `revision` exported into a temp tree (this node_modules linked in) and packaged there. */
async function packageBaseline(revision: string, work: string): Promise<{ vsix: string; commit: string }> {
  const commit = git(['rev-parse', '--short', revision]);
  if (git(['show', `${commit}:esbuild.mjs`]).includes('dist/host.cjs')) {
    throw new Error(`${revision} (${commit}) already builds dist/host.cjs; set XOS_BENCH_BASELINE to a commit with one bundle`);
  }
  const tree = join(work, `tree-${commit}`);
  mkdirSync(tree, { recursive: true });
  execFileSync('sh', ['-c', `git archive --format=tar ${commit} | tar -x -C "${tree}"`], { cwd: repoRoot });
  symlinkSync(join(repoRoot, 'node_modules'), join(tree, 'node_modules'), 'dir');
  return { vsix: await packageTree(tree, join(work, `one-bundle-${commit}.vsix`)), commit };
}

/** Every file named `name` under `dir`. */
function findFiles(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name === name)
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The rows of "Running Extensions": name and activation time in ms (undefined while activating). */
async function runningExtensions(page: Page): Promise<Map<string, number | undefined>> {
  const texts = await page.locator('.runtime-extensions-editor .monaco-list-row').allInnerTexts();
  return new Map(texts.map((text) => {
    const time = /Activation: (\d+)\s*ms/.exec(text);
    return [text.split('\n')[0].trim(), time ? Number(time[1]) : undefined];
  }));
}

/** One fresh window of `build`: XOS's and Git's activation times as VS Code shows them. */
async function measureWindow(browser: Browser, build: Build, label: string): Promise<WindowTimes> {
  const workspace = mkdtempSync(join(tmpdir(), 'xos-bench-ws-'));
  writeFileSync(join(workspace, 'README.md'), '# XOS activation bench\n');
  // A fresh profile per window (global storage, logs, caches); the build's installed extensions.
  const server = await vscodeServer.startCodeServer({ workspace, extensionsDir: build.dirs.extensionsDir });
  // Tall, so that the rows of every activated extension are rendered.
  const page = await browser.newPage({ viewport: { width: 1280, height: 2400 } });
  try {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
    await waitForWorkbench(page);
    // XOS activates on onStartupFinished, a few seconds after the workbench shows: reopen until both have a time.
    const times = await runCommandUntil(page, 'Developer: Show Running Extensions', async () => {
      const rows = await runningExtensions(page).catch(() => undefined);
      const xos = rows?.get(XOS_ROW);
      const git = rows?.get(GIT_ROW);
      return xos !== undefined && git !== undefined ? { xos, git } : undefined;
    }, { timeoutMs: 120_000, attemptMs: 10_000 });
    await page.keyboard.press('Escape');
    const hostLoad = await vscodeServer.waitFor(() => {
      const log = findFiles(server.userDataDir, 'XOS.log').map((file) => readFileSync(file, 'utf8')).join('\n');
      const loaded = /XOS host loaded in (\d+) ms, started in (\d+) ms/.exec(log);
      if (loaded) return { loadMs: Number(loaded[1]), startMs: Number(loaded[2]) };
      // The one-bundle build logs no such line.
      return /XOS \S+ activated/.test(log) && build.name === 'one bundle' ? null : undefined;
    }, { timeoutMs: 30_000, describe: () => `no XOS log in ${server.userDataDir}` }).catch(() => null);
    console.log(`  ${label.padEnd(18)} XOS ${String(times.xos).padStart(5)} ms   Git ${String(times.git).padStart(5)} ms${hostLoad ? `   (host after activation: loaded in ${hostLoad.loadMs} ms, started in ${hostLoad.startMs} ms)` : ''}`);
    return { ...times, ...(hostLoad ? { hostLoad } : {}) };
  } finally {
    await page.close();
    await server.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main(): Promise<void> {
  vscodeServer.assertProvisioned();
  const work = mkdtempSync(join(tmpdir(), 'xos-bench-activation-'));
  try {
    const revision = baselineRevision();
    console.log(`packaging the split build (this tree) and the one-bundle build (${revision}) …`);
    const baseline = await packageBaseline(revision, work);
    const split = await packageTree(repoRoot, join(work, 'split.vsix'));
    const builds: Build[] = [
      { name: 'one bundle', vsix: baseline.vsix, dirs: { extensionsDir: join(work, 'one-bundle', 'extensions'), userDataDir: join(work, 'one-bundle', 'user-data') } },
      { name: 'split', vsix: split, dirs: { extensionsDir: join(work, 'split', 'extensions'), userDataDir: join(work, 'split', 'user-data') } },
    ];
    for (const build of builds) await vscodeServer.installExtension(build.vsix, build.dirs);

    const browser = await launchChromium();
    const results = new Map<string, WindowTimes[]>(builds.map((build) => [build.name, []]));
    try {
      console.log(`\n${WINDOWS} fresh windows per build, alternating (Developer: Show Running Extensions):`);
      for (let round = 0; round < WINDOWS; round++) {
        const order = round % 2 === 0 ? builds : [...builds].reverse();
        for (const build of order) {
          results.get(build.name)!.push(await measureWindow(browser, build, `${build.name} #${round + 1}`));
        }
      }
    } finally {
      await browser.close();
    }

    console.log(`\nactivation as VS Code measures it (loading the main file + the activate() call), median of ${WINDOWS} windows:`);
    console.log(`  ${'build'.padEnd(24)} ${'XOS'.padStart(8)} ${'Git'.padStart(8)} ${'XOS/Git'.padStart(8)}`);
    for (const build of builds) {
      const windows = results.get(build.name)!;
      const xos = median(windows.map((window) => window.xos));
      const git = median(windows.map((window) => window.git));
      const name = build.name === 'one bundle' ? `one bundle (${baseline.commit})` : build.name;
      console.log(`  ${name.padEnd(24)} ${`${xos} ms`.padStart(8)} ${`${git} ms`.padStart(8)} ${(xos / git).toFixed(2).padStart(8)}`);
    }
    const loads = results.get('split')!.flatMap((window) => (window.hostLoad ? [window.hostLoad] : []));
    if (loads.length) {
      console.log(`  split: the host (dist/host.cjs) right after activation: loaded in ${median(loads.map((load) => load.loadMs))} ms, started in ${median(loads.map((load) => load.startMs))} ms (median)`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
