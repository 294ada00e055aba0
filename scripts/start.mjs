// npm start: XOS in VS Code. Packages the extension (production build included), serves the
// demo CRM on .xos/demo.db (printing its GraphQL URL and the example query's answer), then
// opens VS Code on .xos/workspace/ with the extension using that same database: a desktop
// `code` when there is one on PATH, else code-server (VS Code in the browser) on
// http://127.0.0.1:8080 (or a free port). Mail the extension sends goes to a local SMTP
// catcher that delivers nothing and keeps each message in .xos/mail/.
//
// Every step is named: a failing one says which, why in one line and what to do, and
// everything started so far is stopped. Ctrl+C, SIGINT/SIGTERM/SIGHUP (to npm or to this
// process) and the end of the npm process that started it stop everything as well.
//
//   npm start -- --check   (or XOS_START_CHECK=1): VS Code in the browser, then headless
//                          Chromium opens it, runs "XOS: Open Board" and waits until the
//                          Board shows; then everything stops and the exit code says
//                          whether it worked (.xos/start-check.png shows the page).
//   XOS_PORT=4000 (backend port), XOS_VSCODE_PORT=8080 (0: any free port), XOS_VSCODE=web (code-server even
//   with a desktop code), XOS_START_DIR=.xos (where the database, VS Code profile, workspace and mail go)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatBytes, formatDuration } from './lib/format.mjs';
import { packageExtension } from './lib/package.mjs';
import { projectNode, repoRoot } from './lib/paths.mjs';
import { startSmtpCatcher } from './lib/smtp-catcher.mjs';
import { cacheRoot, installExtension, provision, startCodeServer, waitFor } from './lib/vscode-server.mjs';
import { frameWith, launchChromium, runCommandUntil, waitForWorkbench } from './lib/workbench.mjs';

const EXAMPLE = '{ person_list { id firstname lastname email city age net_worth } }';
// XOS_START_DIR moves everything npm start writes (database, profile, workspace, mail) elsewhere.
const xosDir = process.env.XOS_START_DIR || join(repoRoot, '.xos');
const database = join(xosDir, 'demo.db');
const workspace = join(xosDir, 'workspace');
const mailDir = join(xosDir, 'mail');
const checkScreenshot = join(xosDir, 'start-check.png');
const MAIL_FROM = 'XOS Demo <demo@xos.example>';
const profile = { extensionsDir: join(xosDir, 'vscode', 'extensions'), userDataDir: join(xosDir, 'vscode', 'user-data') };
const check = process.argv.includes('--check') || process.env.XOS_START_CHECK === '1';
// A reloaded page gets a new extension host; the old one waits this long for its page to come back.
const RECONNECTION_GRACE_SECONDS = 30;

/** A failed step: what went wrong in one line and what the person can do about it. */
class StepError extends Error {
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }
}

/** Everything to stop, last started first. */
const running = [];
let currentStep;

/** Runs one named step; a failure names the step and carries its hint (a text, or made from the error). */
async function step(name, hint, work) {
  currentStep = name;
  try {
    return await work();
  } catch (error) {
    if (error instanceof StepError) throw error;
    throw new StepError(firstLine(error), typeof hint === 'function' ? hint(error) : hint);
  }
}

/** The gist of an error in one line: its first line, and the first error line below when that one only leads in. */
function firstLine(error) {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message.split('\n').map((line) => line.trim()).filter(Boolean);
  const [first = message] = lines;
  const detail = first.endsWith(':') ? lines.slice(1).find((line) => /error|failed|cannot|not found/i.test(line)) : undefined;
  return detail ? `${first} ${detail}` : first;
}

/** A path as the person reads it: relative inside the repository, absolute elsewhere. */
function shown(path) {
  const inside = relative(repoRoot, path);
  return inside.startsWith('..') ? path : inside;
}

function isFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function portOr0(wanted, what) {
  if (await isFree(wanted)) return wanted;
  console.log(`${what}: port ${wanted} is busy; picking a free one.`);
  return 0;
}

/** Starts xos-server on the demo database; resolves with its base URL once it printed it. */
function startBackend(port) {
  const args = [join(repoRoot, 'dist', 'xos-server.mjs'), '--dsn', `sqlite:${database}`, '--seed', '--port', String(port)];
  const child = spawn(projectNode(), args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  running.push({
    name: 'backend',
    stop: async () => {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  });
  return new Promise((resolve, reject) => {
    let printed = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      printed += chunk;
      const url = printed.match(/GraphQL\s+(http:\/\/\S+)\/graphql/)?.[1];
      if (url) resolve(url);
    });
    child.stderr.on('data', (chunk) => {
      printed += chunk;
      process.stderr.write(chunk);
    });
    child.on('exit', (code, signal) => {
      reject(new Error(`xos-server exited (${signal ?? code}): ${printed.trim().split('\n').pop() ?? ''}`));
      if (!stopping) void shutdown(1, `the backend exited (${signal ?? code})`);
    });
  });
}

async function exampleAnswer(url) {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: EXAMPLE }) });
  const people = (await response.json()).data?.person_list ?? [];
  return `${people.length} people, first: ${JSON.stringify(people[0])}`;
}

/** The SMTP catcher; one line per caught mail. */
async function startMailCatcher() {
  const catcher = await startSmtpCatcher({
    dir: mailDir,
    onMail: (mail) => console.log(`Mail caught:  to ${mail.to.join(', ')}, ${JSON.stringify(mail.subject)} -> ${shown(mail.path)}`),
  });
  running.push({ name: 'mail catcher', stop: () => catcher.close() });
  return catcher;
}

/** What the demo workspace's README says: true with and without a signed-in Copilot. */
const workspaceReadme = [
  '# XOS demo workspace',
  '',
  'The XOS extension serves the demo CRM from `.xos/demo.db` (the same database `npm start` serves over GraphQL).',
  '',
  '## Without an AI account',
  '',
  '- **XOS: Open Board** (F1) opens the Board. It shows what the agent shows: it starts empty.',
  '- **XOS: Show Status** tells which app, data source and tools XOS offers.',
  '- The GraphQL API that `npm start` printed answers any query, e.g.',
  '  `{ person_list { id firstname lastname email city age net_worth } }`.',
  '',
  '## With agent mode',
  '',
  'The chat\'s agent mode needs a language model: sign in to GitHub Copilot (a free plan is enough),',
  'or add a model of your own (Chat: Manage Language Models). Then ask, for example,',
  '"Zeige mir alle Personen": the agent calls `xos_schema` and `xos_query`, and the people appear on the Board.',
  'Every change it proposes is saved only after you click **Save** in VS Code; every mail is sent only after **Send**.',
  '',
  'Mail that XOS sends is not delivered: `npm start` keeps each one as a `.eml` file in `.xos/mail/`.',
  '',
].join('\n');

/**
 * The demo workspace and its settings: the extension's embedded backend uses the demo
 * database too, and mail goes to the catcher (plain SMTP is allowed only on loopback).
 */
function prepareWorkspace(catcher) {
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(join(workspace, 'README.md'), workspaceReadme);
  const settings = {
    'xos.dsn': `sqlite:${database}`,
    'xos.mail.host': catcher.host,
    'xos.mail.port': catcher.port,
    'xos.mail.security': 'none',
    'xos.mail.from': MAIL_FROM,
  };
  writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

function desktopCode() {
  if (check || process.env.XOS_VSCODE === 'web') return undefined;
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0 ? 'code' : undefined;
}

/** Provisions code-server, installs the .vsix into the demo profile and starts it. */
async function startBrowserVscode(vsix) {
  await step('Preparing VS Code (code-server)', provisionHint, async () => {
    const started = performance.now();
    console.log(`Preparing VS Code (code-server, cache ${cacheRoot()})...`);
    const result = await provision({ log: (line) => console.log(`  ${line}`) });
    const installed = result.filter((row) => row.action === 'installed');
    console.log(installed.length
      ? `  installed ${installed.map((row) => `${row.name} (${formatDuration(row.seconds * 1000)})`).join(', ')}; first-run preparation took ${formatDuration(performance.now() - started)}`
      : '  ready (cached)');
  });
  await step('Installing XOS into VS Code', `delete ${shown(join(xosDir, 'vscode'))}/ and run npm start again`, () => installExtension(vsix.path, profile));
  const port = await portOr0(Number(process.env.XOS_VSCODE_PORT ?? 8080), 'VS Code');
  const server = await step('Starting VS Code (code-server)', 'the log above says why; XOS_VSCODE_PORT=<port> picks another port', () => startCodeServer({
    workspace,
    ...profile,
    ...(port ? { port } : {}),
    // The workspace lives inside this repository; do not offer to open the repository's git.
    settings: { 'git.openRepositoryInParentFolders': 'never' },
    smokeTestDriver: false,
    extraArgs: ['--reconnection-grace-time', String(RECONNECTION_GRACE_SECONDS)],
    timeoutMs: 120_000,
  }));
  running.push({ name: 'VS Code', stop: () => server.dispose() });
  return server;
}

function provisionHint(error) {
  if (['ENOTDIR', 'EACCES', 'EPERM', 'ENOSPC', 'EROFS', 'EEXIST'].includes(error?.code)) {
    return `make ${cacheRoot()} a writable folder with free space (XDG_CACHE_HOME moves it), then run npm start again`;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot
    ? 'check that the npm registry and Debian\'s package mirror are reachable (npm\'s or apt\'s error is above), then run npm start again'
    : 'install the Debian packages it names with sudo (or run npm start as root once), check that the npm registry is reachable, then run npm start again';
}

/** --check: a headless browser opens VS Code like a person, opens the Board and waits for it. */
async function checkBoard(url) {
  return step('Loading the Board in VS Code', `see ${shown(checkScreenshot)} and the code-server log`, async () => {
    const started = performance.now();
    const browser = await launchChromium();
    running.push({ name: 'browser', stop: () => browser.close() });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await waitForWorkbench(page);
      const board = await runCommandUntil(page, 'XOS: Open Board', () => frameWith(page, 'xos-board'), { timeoutMs: 90_000 });
      // Loaded means rendered: the Board's element has text (its title, or what the agent showed).
      const text = await waitFor(async () => {
        const shown = (await board.evaluate(boardText).catch(() => '')).trim();
        return shown ? shown : undefined;
      }, { timeoutMs: 30_000, describe: () => 'the Board stayed blank' });
      await page.screenshot({ path: checkScreenshot });
      return { seconds: (performance.now() - started) / 1000, text: text.slice(0, 80) };
    } catch (error) {
      await page.screenshot({ path: checkScreenshot }).catch(() => {});
      throw error;
    }
  });
}

/** Runs in the Board's frame: the text it renders, through its components' shadow roots. */
/* global document, Node -- evaluated in the page, not in Node.js */
function boardText() {
  const textOf = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || ['STYLE', 'SCRIPT'].includes(node.tagName)) return '';
    const children = [...(node.shadowRoot?.childNodes ?? []), ...node.childNodes];
    return children.map(textOf).join(' ');
  };
  const board = document.querySelector('xos-board');
  return board ? textOf(board).replace(/\s+/g, ' ') : '';
}

let stopping = false;
/** Stops everything started, last first, says so, and exits with `code`. */
async function shutdown(code, why) {
  if (stopping) return;
  stopping = true;
  if (why) console.log(`\n${why}.`);
  const stopped = [];
  for (const item of running.reverse()) {
    try {
      await item.stop();
      stopped.push(item.name);
    } catch (error) {
      console.error(`stopping the ${item.name} failed: ${firstLine(error)}`);
    }
  }
  if (stopped.length) console.log(`Stopped: ${stopped.join(', ')}.`);
  process.exit(code);
}

// A closed terminal makes writes fail; stopping must still finish.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(0, `${signal}: stopping XOS`));
// Whoever started us (npm) is gone without passing a signal on: stop as well.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) void shutdown(0, 'npm start was stopped: stopping XOS');
}, 1_000).unref();

async function main() {
  const vsix = await step('Packaging the extension', 'run npm run build to see the build errors', async () => {
    process.stdout.write('Packaging the extension... ');
    const packaged = await packageExtension({ quiet: true });
    console.log(`${shown(packaged.path)} (${formatBytes(packaged.bytes)})`);
    return packaged;
  });

  mkdirSync(xosDir, { recursive: true });
  const url = await step('Starting the demo backend', `XOS_PORT=<port> npm start picks another port; delete ${shown(database)} to start from fresh demo data`,
    async () => startBackend(await portOr0(Number(process.env.XOS_PORT ?? 4000), 'backend')));
  console.log(`XOS GraphQL:  ${url}/graphql   (demo CRM on ${shown(database)})`);
  const answer = await step('Running the example query', `delete ${shown(database)} to start from fresh demo data`, () => exampleAnswer(url));
  console.log(`Example:      ${EXAMPLE}\n          ->  ${answer}`);

  const catcher = await step('Starting the mail catcher', 'another program may hold the port; run npm start again', () => startMailCatcher());
  console.log(`Mail:         sent mails land in ${shown(mailDir)}/ as .eml files (SMTP ${catcher.host}:${catcher.port}, nothing is delivered)`);
  prepareWorkspace(catcher);

  const code = desktopCode();
  if (code) {
    await step('Opening your desktop VS Code', 'XOS_VSCODE=web npm start opens VS Code in the browser instead', () => {
      const installed = spawnSync(code, ['--install-extension', vsix.path, '--force'], { stdio: 'ignore' });
      if (installed.status !== 0) throw new Error(`code --install-extension ${shown(vsix.path)} failed (exit ${installed.status})`);
      spawn(code, ['--new-window', workspace], { stdio: 'ignore', detached: true }).unref();
    });
    console.log(`VS Code:      opened ${shown(workspace)} in your desktop VS Code with the XOS extension installed`);
  } else {
    const server = await startBrowserVscode(vsix);
    console.log(`VS Code:      ${server.url}/?folder=${encodeURIComponent(workspace)}   (open it in a browser)`);
    if (check) {
      const board = await checkBoard(server.url);
      console.log(`Board:        loaded in ${formatDuration(board.seconds * 1000)} ("${board.text}"); screenshot ${shown(checkScreenshot)}`);
      await shutdown(0, 'Check passed: stopping XOS');
      return;
    }
  }
  console.log('\nAgent mode in the chat needs a language model (a GitHub Copilot sign-in or a model of your own);');
  console.log('without one, "XOS: Open Board" and "XOS: Show Status" work, and so does the GraphQL API above.');
  console.log('Ctrl+C stops everything.');
}

main().catch(async (error) => {
  const failed = error instanceof StepError ? error : new StepError(firstLine(error), 'run npm start again; if it fails the same way, the lines above say more');
  console.error(`\nnpm start failed at "${currentStep ?? 'start-up'}": ${failed.message}`);
  if (failed.hint) console.error(`What to do: ${failed.hint}.`);
  await shutdown(1);
});
