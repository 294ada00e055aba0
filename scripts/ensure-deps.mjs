// Installs node_modules when it is missing or stale, then checks the pinned Node 24.
// Runs with whatever Node starts it (a fresh clone may only have the system Node),
// so it uses nothing but Node built-ins.
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { dependencyHash, lockfileMismatches, lockfilePath, readStamp, writeStamp } from './lib/deps.mjs';
import { checkPinnedNode } from './lib/node-version.mjs';
import { nodeModulesDir, pinnedNode, repoRoot } from './lib/paths.mjs';
import { withProgress } from './lib/progress.mjs';
import { run } from './lib/run.mjs';

/** npm as it was started (npm_execpath under `npm run`), else the npm on PATH. */
function npmCommand(args) {
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.[cm]?js$/.test(npmCli)) return [process.execPath, [npmCli, ...args]];
  return [process.platform === 'win32' ? 'npm.cmd' : 'npm', args];
}

/** Why an install is needed, or undefined when node_modules is current. */
function installReason(hash) {
  if (!existsSync(nodeModulesDir)) return 'node_modules is missing';
  if (!existsSync(pinnedNode)) return 'node_modules/.bin/node is missing';
  if (readStamp() === hash) return undefined;
  if (!existsSync(lockfilePath)) return 'package.json changed since the last install';
  const mismatches = lockfileMismatches();
  if (mismatches.length === 0) return undefined;
  const count = mismatches.length === 1 ? '1 package differs' : `${mismatches.length} packages differ`;
  return `node_modules does not match package-lock.json (${count}, e.g. ${mismatches[0]})`;
}

/**
 * npm links the bins of dependencies, not the project's own: link them too, so
 * `npx xos-server` inside the repository runs the built CLI.
 */
function linkOwnBins() {
  const { bin = {} } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const binDir = join(nodeModulesDir, '.bin');
  mkdirSync(binDir, { recursive: true });
  for (const [name, target] of Object.entries(bin)) {
    const link = join(binDir, name);
    const wanted = relative(binDir, join(repoRoot, target));
    let current;
    try { current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : undefined; } catch { /* not there yet */ }
    if (current === wanted) continue;
    rmSync(link, { force: true });
    symlinkSync(wanted, link);
  }
}

async function main() {
  const hash = dependencyHash();
  const stamped = readStamp() === hash;
  const reason = installReason(hash);
  let action;
  if (reason) {
    const npmArgs = existsSync(lockfilePath) ? ['ci'] : ['install'];
    const [command, args] = npmCommand([...npmArgs, '--no-audit', '--no-fund', '--loglevel=error']);
    // npm at --loglevel=error is silent for the minute it takes: say what runs, and that it still does.
    console.log(`ensure-deps: installing the dependencies (npm ${npmArgs[0]}) because ${reason}; about a minute on 2 cores …`);
    const code = await withProgress('installing the dependencies', () => run(command, args), { log: (line) => console.log(`ensure-deps: ${line}`) });
    if (code !== 0) throw new Error(`npm ${npmArgs[0]} failed with exit code ${code}`);
    action = `ran npm ${npmArgs[0]} because ${reason}`;
  } else {
    action = stamped ? 'dependencies up to date' : 'dependencies already match package-lock.json; stamped';
  }
  writeStamp(hash);
  linkOwnBins();
  const nodeVersion = checkPinnedNode();
  console.log(`ensure-deps: ${action} (node ${nodeVersion})`);
}

main().catch((error) => {
  console.error(`ensure-deps: ${error.message}`);
  process.exitCode = 1;
});
