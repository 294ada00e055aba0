// npm start: XOS in VS Code. Packages the extension (production build included), serves the
// demo CRM on .xos/demo.db (printing its GraphQL URL and the example query's answer), then
// opens VS Code on .xos/workspace/ with the extension using that same database: a desktop
// `code` when there is one on PATH, else code-server (VS Code in the browser) on
// http://127.0.0.1:8080 (or a free port). Mail the extension sends goes to a local SMTP
// catcher that delivers nothing and keeps each message in .xos/mail/. Ctrl+C stops everything it started.
//   XOS_PORT=4000 (backend port), XOS_VSCODE_PORT=8080, XOS_VSCODE=web (code-server even with a desktop code)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { formatBytes } from './lib/format.mjs';
import { packageExtension } from './lib/package.mjs';
import { projectNode, repoRoot } from './lib/paths.mjs';
import { startSmtpCatcher } from './lib/smtp-catcher.mjs';
import { installExtension, provision, startCodeServer } from './lib/vscode-server.mjs';

const EXAMPLE = '{ person_list { id firstname lastname email city age net_worth } }';
const xosDir = join(repoRoot, '.xos');
const database = join(xosDir, 'demo.db');
const workspace = join(xosDir, 'workspace');
const mailDir = join(xosDir, 'mail');
const MAIL_FROM = 'XOS Demo <demo@xos.example>';
const profile = { extensionsDir: join(xosDir, 'vscode', 'extensions'), userDataDir: join(xosDir, 'vscode', 'user-data') };

/** Everything to stop on Ctrl+C, last started first. */
const running = [];

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
  const child = spawn(projectNode(), args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  running.push({ stop: () => child.kill('SIGINT') });
  return new Promise((resolve, reject) => {
    let printed = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      printed += chunk;
      const url = printed.match(/GraphQL\s+(http:\/\/\S+)\/graphql/)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code, signal) => {
      reject(new Error(`xos-server exited (${signal ?? code}):\n${printed}`));
      if (!stopping) shutdown(code ?? 1);
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
    onMail: (mail) => console.log(`Mail caught:  to ${mail.to.join(', ')}, ${JSON.stringify(mail.subject)} -> ${relative(repoRoot, mail.path)}`),
  });
  running.push({ stop: () => catcher.close() });
  return catcher;
}

/**
 * The demo workspace and its settings: the extension's embedded backend uses the demo
 * database too, and mail goes to the catcher (plain SMTP is allowed only on loopback).
 */
function prepareWorkspace(catcher) {
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  const readme = join(workspace, 'README.md');
  if (!existsSync(readme)) {
    writeFileSync(readme, [
      '# XOS demo workspace',
      '',
      'The XOS extension serves the demo CRM from `.xos/demo.db` (the same database `npm start` serves over GraphQL).',
      '',
      '- Run **XOS: Open Board** from the command palette (F1) to see the records.',
      '- In the chat, agent mode offers the XOS tools (`xos_schema`, `xos_query`, ...).',
      '- Mail that XOS sends is not delivered: `npm start` keeps each one as a `.eml` file in `.xos/mail/`.',
      '',
    ].join('\n'));
  }
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
  if (process.env.XOS_VSCODE === 'web') return undefined;
  return spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0 ? 'code' : undefined;
}

let stopping = false;
async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const item of running.reverse()) await item.stop();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void shutdown(0));

async function main() {
  process.stdout.write('Packaging the extension... ');
  const vsix = await packageExtension({ quiet: true });
  console.log(`${relative(repoRoot, vsix.path)} (${formatBytes(vsix.bytes)})`);

  mkdirSync(xosDir, { recursive: true });
  const url = await startBackend(await portOr0(Number(process.env.XOS_PORT ?? 4000), 'backend'));
  console.log(`XOS GraphQL:  ${url}/graphql   (demo CRM on ${relative(repoRoot, database)})`);
  console.log(`Example:      ${EXAMPLE}\n          ->  ${await exampleAnswer(url).catch((error) => `failed: ${error.message}`)}`);

  const catcher = await startMailCatcher();
  console.log(`Mail:         sent mails land in ${relative(repoRoot, mailDir)}/ as .eml files (SMTP ${catcher.host}:${catcher.port}, nothing is delivered)`);
  prepareWorkspace(catcher);
  const code = desktopCode();
  if (code) {
    spawnSync(code, ['--install-extension', vsix.path, '--force'], { stdio: 'ignore' });
    spawn(code, ['--new-window', workspace], { stdio: 'ignore', detached: true }).unref();
    console.log(`VS Code:      opened ${relative(repoRoot, workspace)} in your desktop VS Code with the XOS extension installed`);
  } else {
    process.stdout.write('Preparing VS Code (code-server)... ');
    const rows = await provision({ log: () => undefined });
    const installed = rows.filter((row) => row.action === 'installed').map((row) => row.name);
    await installExtension(vsix.path, profile);
    console.log(installed.length ? `installed ${installed.join(', ')}` : 'ready');
    const port = await portOr0(Number(process.env.XOS_VSCODE_PORT ?? 8080), 'VS Code');
    const server = await startCodeServer({
      workspace,
      ...profile,
      ...(port ? { port } : {}),
      // The workspace lives inside this repository; do not offer to open the repository's git.
      settings: { 'git.openRepositoryInParentFolders': 'never' },
      smokeTestDriver: false,
      timeoutMs: 120_000,
    });
    running.push({ stop: () => server.dispose() });
    console.log(`VS Code:      ${server.url}/?folder=${encodeURIComponent(workspace)}   (open it in a browser)`);
  }
  console.log('\nCtrl+C stops everything.');
}

main().catch(async (error) => {
  console.error(`\nnpm start failed: ${error instanceof Error ? error.message : error}`);
  await shutdown(1);
});
