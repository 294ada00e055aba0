// Real VS Code for tests: code-server (the VS Code workbench and Node extension host,
// served over HTTP), Playwright and Debian's Chromium, provisioned into a cache outside
// the repository, plus helpers that start and stop a private code-server instance.
import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nodeModulesDir, projectNode } from './paths.mjs';
import { aptInstall } from './apt.mjs';
import { withProgress } from './progress.mjs';
import { run } from './run.mjs';

// Pinned: the in-host payload route and the agent-mode behaviour rely on this build.
export const CODE_SERVER_VERSION = '4.139.1';
export const PLAYWRIGHT_CORE_VERSION = '1.65.1';
// Chromium's headless shell (the old headless mode, Debian's chromium-headless-shell): the same
// Blink and V8 without the browser's own UI, which Playwright also takes for headless runs. Every
// browser XOS starts is headless; the shell spends about a tenth to a fifth less CPU on a VS
// Code window than the full browser in its new headless mode.
export const CHROMIUM_PATH = '/usr/bin/chromium-headless-shell';

/** Flags that keep headless Chromium quiet, offline and free of first-run UI. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Workbench settings that keep a fresh profile free of welcome pages, trust prompts and telemetry. */
export const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  // There is no extension gallery offline; do not keep asking it.
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
};

/** `${XDG_CACHE_HOME:-~/.cache}/xos-vscode`: survives between runs on one machine. */
export function cacheRoot() {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'xos-vscode');
}

export const codeServerDir = () => join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
export const playwrightDir = () => join(cacheRoot(), 'playwright');
/** The code-server entry script; run it with the project's Node 24. */
export const codeServerEntry = () => join(codeServerDir(), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
/** playwright-core's package.json, for `createRequire(...)('playwright-core')`. */
export const playwrightPackageJson = () => join(playwrightDir(), 'node_modules', 'playwright-core', 'package.json');

/** Version of the project's pinned Node (the `node` devDependency), e.g. `24.21.0`. */
function projectNodeVersion() {
  try {
    return JSON.parse(readFileSync(join(nodeModulesDir, 'node', 'package.json'), 'utf8')).version;
  } catch {
    return process.versions.node;
  }
}

/** Where provision() puts the headers when the repository's `node` package has none. */
export const nodeHeadersCacheDir = () => join(cacheRoot(), `node-headers-${projectNodeVersion()}`);

function nodeHeaderCandidates() {
  const platformPackage = `node-${process.platform}-${process.arch}`;
  return [
    join(nodeModulesDir, 'node', 'node_modules', platformPackage),
    join(nodeModulesDir, platformPackage),
    join(nodeHeadersCacheDir(), 'node_modules', platformPackage),
  ];
}

/**
 * The Node 24 headers native modules (argon2, kerberos, ...) must be built against: the
 * `node` devDependency's platform package ships them, but npm may prune it (it is installed
 * by a preinstall script), so provision() can also fetch that package into the cache.
 */
export function nodeHeadersDir() {
  return nodeHeaderCandidates().find((dir) => existsSync(join(dir, 'include', 'node', 'common.gypi')));
}

/**
 * Variables an outer `npm start`/`npm test` sets for its own run. Passed down, they make the
 * inner npm describe the outer one: code-server's install script reads the Node version from
 * npm_config_user_agent and refused to install under "node v20" although the inner npm runs
 * on the project's Node 24.
 */
const outerNpmVariable = /^(npm_config_(user_agent|npm_version|node_version|local_prefix|node_gyp)|npm_(node_)?execpath|npm_package_.*|npm_lifecycle_.*|INIT_CWD)$/;

/** The environment without what an outer npm run describes of itself. */
export function withoutOuterNpm(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !outerNpmVariable.test(name)));
}

/** PATH with the project's Node 24 first, so npm and install scripts run on it (and build against its headers). */
export function envWithProjectNode() {
  const headers = nodeHeadersDir();
  return {
    ...withoutOuterNpm(),
    PATH: `${dirname(projectNode())}:${process.env.PATH ?? ''}`,
    ...(headers ? { npm_config_nodedir: headers } : {}),
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };
}

const stampPath = (dir) => join(dir, '.xos-provisioned.json');

function readStampFile(dir) {
  try {
    return JSON.parse(readFileSync(stampPath(dir), 'utf8'));
  } catch {
    return undefined;
  }
}

async function npmInstallInto(dir, spec, env = {}) {
  mkdirSync(dir, { recursive: true });
  // A package.json of its own keeps npm from walking up into some other project.
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const code = await run('npm', ['install', '--no-save', '--prefix', dir, spec], { env: { ...envWithProjectNode(), ...env }, cwd: dir });
  if (code !== 0) throw new Error(`npm install ${spec} into ${dir} failed with exit code ${code}`);
}

/**
 * code-server's install compiles VS Code's native modules (SQLite, spdlog, kerberos, ...) from
 * source. Unoptimised, they build in about a third of the CPU time (SQLite alone: 27 s → 4 s),
 * and nothing they do in a test or a demo VS Code is noticeably slower. The flags come after
 * node-gyp's own -O3, so they win.
 */
const NATIVE_BUILD_ENV = { CFLAGS: '-O0', CXXFLAGS: '-O0' };

/**
 * The components, each with a check that it is present and an install step.
 * libkrb5-dev and the Node headers come first: code-server's native modules compile against them.
 */
function components() {
  return [
    {
      name: 'debian packages (chromium-headless-shell, libkrb5-dev)',
      where: CHROMIUM_PATH,
      present: () => existsSync(CHROMIUM_PATH) && existsSync('/usr/include/gssapi/gssapi.h'),
      install: () => aptInstall(['chromium-headless-shell', 'libkrb5-dev']),
    },
    {
      name: `node ${projectNodeVersion()} headers`,
      where: nodeHeadersCacheDir(),
      present: () => nodeHeadersDir() !== undefined,
      install: () => npmInstallInto(nodeHeadersCacheDir(), `node-${process.platform}-${process.arch}@${projectNodeVersion()}`),
    },
    {
      name: `code-server ${CODE_SERVER_VERSION}`,
      where: codeServerDir(),
      present: () => readStampFile(codeServerDir())?.version === CODE_SERVER_VERSION && existsSync(codeServerEntry()),
      install: async () => {
        await npmInstallInto(codeServerDir(), `code-server@${CODE_SERVER_VERSION}`, NATIVE_BUILD_ENV);
        writeFileSync(stampPath(codeServerDir()), `${JSON.stringify({ version: CODE_SERVER_VERSION })}\n`);
      },
    },
    {
      name: `playwright-core ${PLAYWRIGHT_CORE_VERSION}`,
      where: playwrightDir(),
      present: () => readStampFile(playwrightDir())?.version === PLAYWRIGHT_CORE_VERSION && existsSync(playwrightPackageJson()),
      install: async () => {
        await npmInstallInto(playwrightDir(), `playwright-core@${PLAYWRIGHT_CORE_VERSION}`);
        writeFileSync(stampPath(playwrightDir()), `${JSON.stringify({ version: PLAYWRIGHT_CORE_VERSION })}\n`);
      },
    },
  ];
}

/**
 * Installs whatever is missing, idempotently. Returns one row per component:
 * `{ name, where, action: 'installed' | 'present', seconds }`.
 */
export async function provision({ log = console.log } = {}) {
  const rows = [];
  for (const component of components()) {
    const started = performance.now();
    let action = 'present';
    if (!component.present()) {
      log(`installing ${component.name} into ${component.where}`);
      await withProgress(`installing ${component.name}`, () => component.install(), { log });
      if (!component.present()) throw new Error(`${component.name} is still missing after installing it`);
      action = 'installed';
    }
    rows.push({ name: component.name, where: component.where, action, seconds: (performance.now() - started) / 1000 });
  }
  return rows;
}

/** Throws with the command to run when something provision() installs is missing. */
export function assertProvisioned() {
  const missing = components().filter((component) => !component.present()).map((component) => component.name);
  if (missing.length) throw new Error(`not provisioned: ${missing.join(', ')}; run: node scripts/provision-vscode.mjs`);
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns a value other than undefined; throws `describe()` at the deadline. */
export async function waitFor(check, { timeoutMs, intervalMs = 200, describe }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * The profile's settings. code-server's extension host is a remote one: settings of `machine`
 * scope (xos.endpoint, xos.dsn, ...) count only from the remote's Machine settings there, so the
 * same settings go into both files, as a person would set them in the "Remote" settings tab.
 */
function writeUserSettings(userDataDir, settings) {
  const text = `${JSON.stringify({ ...DEFAULT_SETTINGS, ...settings }, null, 2)}\n`;
  for (const scope of ['User', 'Machine']) {
    const dir = join(userDataDir, scope);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), text);
  }
}

/**
 * Runs the code-server CLI once (e.g. --install-extension) and resolves with its output;
 * rejects on a non-zero exit. A private --config keeps it from writing ~/.config/code-server.
 */
function codeServerCommand(args, { timeoutMs = 120_000 } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'xos-code-server-cli-'));
  const configPath = join(home, 'config.yaml');
  writeFileSync(configPath, 'auth: none\ncert: false\n');
  return new Promise((resolve, reject) => {
    const child = spawn(projectNode(), [codeServerEntry(), '--config', configPath, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: envWithProjectNode(),
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      // The CLI exits 0 when an extension id is unknown; its output says so.
      if (code === 0 && !/Failed Installing Extensions/.test(output)) resolve(output);
      else reject(new Error(`code-server ${args.join(' ')} failed (exit ${code ?? signal}):\n${output}`));
    });
  });
}

// Never part of an installed extension.
const notCopied = new Set(['node_modules', '.git', '.xos', '.vscode-test', 'test-results']);

/**
 * Installs an extension into `extensionsDir`: a packaged `.vsix` through
 * `code-server --install-extension`, an unpacked extension folder (package.json plus its
 * built files) by copying it to `<publisher>.<name>-<version>`. Either way, do it before the
 * first start on that extensions dir: code-server scans a folder only while it has no
 * extensions.json, so later copies are ignored (and this refuses them).
 * listExtensions() shows what is installed.
 */
export async function installExtension(vsixOrDir, { extensionsDir, userDataDir }) {
  assertProvisioned();
  if (statSync(vsixOrDir).isDirectory()) {
    const manifest = JSON.parse(readFileSync(join(vsixOrDir, 'package.json'), 'utf8'));
    if (existsSync(join(extensionsDir, 'extensions.json'))) {
      throw new Error(`${extensionsDir} was already scanned (extensions.json exists); copy folders in before the first start, or install a .vsix`);
    }
    const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
    cpSync(vsixOrDir, target, { recursive: true, filter: (source) => !notCopied.has(basename(source)) });
    return;
  }
  await codeServerCommand(['--install-extension', vsixOrDir, '--force', '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir]);
}

/** `publisher.name@version` of every extension code-server finds in `extensionsDir`. */
export async function listExtensions({ extensionsDir, userDataDir }) {
  const output = await codeServerCommand(['--list-extensions', '--show-versions', '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir]);
  return output.split('\n').map((line) => line.trim()).filter((line) => /^[\w-]+\.[\w-]+@/.test(line));
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts a private code-server on 127.0.0.1 and resolves once /healthz answers.
 * Everything it writes (profile, extensions, config, log) lives under a fresh temp
 * directory unless `userDataDir` / `extensionsDir` are given.
 * `smokeTestDriver` (default true) passes `--vscode-option enable-smoke-test-driver`, without
 * which a release build ignores the extensionTestsPath payload.
 * `env` adds variables for code-server and its extension hosts (e.g. NODE_EXTRA_CA_CERTS).
 * Resolves with `{ url, port, logPath, userDataDir, extensionsDir, log(), stop() }`.
 */
export async function startCodeServer({
  workspace,
  settings = {},
  extensionsDir,
  userDataDir,
  port,
  smokeTestDriver = true,
  extraArgs = [],
  env = {},
  timeoutMs = 60_000,
} = {}) {
  assertProvisioned();
  const home = mkdtempSync(join(tmpdir(), 'xos-code-server-'));
  const profile = userDataDir ?? join(home, 'user-data');
  const extensions = extensionsDir ?? join(home, 'extensions');
  mkdirSync(extensions, { recursive: true });
  writeUserSettings(profile, settings);
  const chosenPort = port ?? await freePort();
  const configPath = join(home, 'config.yaml');
  writeFileSync(configPath, `bind-addr: 127.0.0.1:${chosenPort}\nauth: none\ncert: false\n`);
  const logPath = join(home, 'code-server.log');
  const logStream = createWriteStream(logPath);

  const args = [
    codeServerEntry(),
    '--bind-addr', `127.0.0.1:${chosenPort}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-workspace-trust',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--config', configPath,
    '--user-data-dir', profile,
    '--extensions-dir', extensions,
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...extraArgs,
    ...(workspace ? [workspace] : []),
  ];
  // Its own process group, so stop() also ends code-server's child processes (wrapper, extension hosts).
  const child = spawn(projectNode(), args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...envWithProjectNode(), ...env } });
  let logText = '';
  const record = (chunk) => {
    logText += chunk;
    logStream.write(chunk);
  };
  child.stdout.on('data', record);
  child.stderr.on('data', record);
  let exited;
  const exitedPromise = new Promise((resolve) => child.on('close', (code, signal) => {
    exited = { code, signal };
    resolve(exited);
  }));

  const url = `http://127.0.0.1:${chosenPort}`;
  const stop = async () => {
    if (!exited) {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exitedPromise;
      clearTimeout(timer);
    }
    // Children that outlived the wrapper still belong to the group.
    killGroup(child, 'SIGKILL');
    await new Promise((resolve) => logStream.end(resolve));
  };

  try {
    await waitFor(async () => {
      if (exited) throw new Error(`code-server exited with ${exited.code ?? exited.signal} before it was healthy:\n${logText}`);
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
        return response.ok ? true : undefined;
      } catch {
        return undefined;
      }
    }, { timeoutMs, describe: () => `code-server did not answer ${url}/healthz; log:\n${logText}` });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    port: chosenPort,
    home,
    logPath,
    userDataDir: profile,
    extensionsDir: extensions,
    log: () => logText,
    stop,
    /** Stops and deletes the temp directory (keep it when a test failed, to read the log). */
    dispose: async () => {
      await stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
