// The npm package @xos-app/server exactly as a person gets it: packed by
// scripts/package-server.mjs, installed into an empty folder with an empty npm cache and no
// clone on the PATH (only Node 24 and npm), then the package README's commands: init on the
// Chinook sample, the command init prints (GraphQL answers with the token), and xos-mcp started
// by an MCP client through npx, with its Board page in the browser answering.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MINIMUM_NODE } from '../../bin/run-bundle.mjs';
import type { Ast } from '../../src/ast/schema.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import { formatBytes, formatDuration } from '../../scripts/lib/format.mjs';
import { projectNode, repoRoot } from '../../scripts/lib/paths.mjs';
import { NOTICES, packageServer, RUNTIME_FILES, SERVER_PACKAGE, type PackagedServer } from '../../scripts/lib/server-package.mjs';
import { CHINOOK_ROW_COUNTS, createChinookSqlite } from '../support/sampleDatabases.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

const run = promisify(execFile);
const TOKEN = 'package-test-token-0123456789';
/** Generous: npm and npx start slowly on a busy machine. */
const LIMIT_MS = 60_000;

let dir: TempDir;
let project: string;
let packaged: PackagedServer;
/** A person's environment: a home and npm cache of their own, the project's Node 24 and npm on the PATH, nothing of the clone. */
let env: NodeJS.ProcessEnv;
const started: ChildProcess[] = [];

function personEnvironment(): NodeJS.ProcessEnv {
  const node24 = dirname(realpathSync(projectNode()));
  const system = (process.env.PATH ?? '').split(delimiter).filter((entry) => entry && !entry.includes('node_modules') && !entry.startsWith(repoRoot));
  return {
    PATH: [node24, ...system].join(delimiter),
    HOME: join(dir.path, 'home'),
    XDG_DATA_HOME: join(dir.path, 'home', '.local', 'share'),
    LANG: 'C.UTF-8',
    npm_config_cache: join(dir.path, 'npm-cache'),
    // The tarball has no dependencies: nothing is fetched, and the printed npx commands use the installed package.
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** Runs a command line in the person's shell, in the project folder. */
async function shell(commandLine: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  return run('sh', ['-c', commandLine], { cwd: project, env: { ...env, ...extraEnv }, timeout: LIMIT_MS });
}

/** Starts a long-running command line in its own process group, so it stops with everything it started. */
function startShell(commandLine: string, extraEnv: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  const child = spawn('sh', ['-c', commandLine], { cwd: project, env: { ...env, ...extraEnv }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  return { child, output: () => output };
}

function stopGroup(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Gone already.
    }
  }
}

before(async () => {
  dir = await tempDir('xos-server-package');
  project = join(dir.path, 'project');
  await run('mkdir', ['-p', project, join(dir.path, 'home')]);
  // An empty folder of the person's own: npm installs here, not into a folder above it.
  writeFileSync(join(project, 'package.json'), '{ "private": true }\n');
  env = personEnvironment();
  const packing = performance.now();
  packaged = await packageServer({ dir: join(dir.path, 'package') });
  console.log(`${SERVER_PACKAGE}@${packaged.version}: ${formatBytes(packaged.bytes)} (unpacked ${formatBytes(packaged.unpackedBytes)}), built and packed in ${formatDuration(performance.now() - packing)}`);
});

after(async () => {
  for (const child of started) stopGroup(child);
  await dir?.remove();
});

describe(`the npm package ${SERVER_PACKAGE}`, () => {
  test('holds the commands, their bundles, the Board page, README, LICENSE and the bundled packages\' notices, and needs nothing else', () => {
    assert.deepEqual(packaged.files, ['LICENSE', NOTICES, 'README.md', 'package.json', ...RUNTIME_FILES].sort());
    const notices = readFileSync(join(dir.path, 'package', NOTICES), 'utf8');
    for (const bundled of ['pg (MIT)', 'graphql (MIT)', 'yaml (ISC)', 'zod (MIT)', '@modelcontextprotocol/server (Apache-2.0)', 'lit-html (BSD-3-Clause)']) {
      assert.ok(notices.includes(`\n## ${bundled}\n`), `${bundled} in ${NOTICES}`);
    }
    const manifest = JSON.parse(readFileSync(join(dir.path, 'package', 'package.json'), 'utf8')) as Record<string, any>;
    assert.equal(manifest.name, SERVER_PACKAGE);
    assert.equal(manifest.version, JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version);
    assert.deepEqual(manifest.bin, { 'xos-mcp': 'bin/xos-mcp.mjs', 'xos-server': 'bin/xos-server.mjs' });
    assert.equal(manifest.engines.node, `>=${MINIMUM_NODE}`);
    assert.equal(manifest.dependencies, undefined, 'every dependency is in the bundles');
    assert.match(readFileSync(join(dir.path, 'package', 'README.md'), 'utf8'), /npx -p @xos-app\/server xos-server init --from sqlite:/);
  });

  test('installs into an empty folder with an empty npm cache in seconds', async () => {
    const installing = performance.now();
    await shell(`npm install --no-save ${packaged.path}`);
    const took = performance.now() - installing;
    console.log(`npm install: ${formatDuration(took)}`);
    assert.ok(existsSync(join(project, 'node_modules', '.bin', 'xos-server')));
    assert.ok(existsSync(join(project, 'node_modules', '.bin', 'xos-mcp')));
    assert.ok(took < 30_000, `npm install took ${formatDuration(took)}`);
  });

  test('init reads the Chinook sample and prints the command that serves it; that command, as printed, serves it with the token', async () => {
    await createChinookSqlite(join(project, 'chinook.db'));
    const { stdout } = await shell(`npx -p ${SERVER_PACKAGE} xos-server init --from sqlite:./chinook.db`);
    assert.match(stdout, /^Read sqlite:\.\/chinook\.db: 11 tables and views\nWrote xos\.json: app "Chinook"/);
    const next = /^Next: (.+)$/m.exec(stdout)?.[1];
    assert.equal(next, `npx -p ${SERVER_PACKAGE} xos-server --ast xos.json --dsn sqlite:./chinook.db`);

    // The printed words; a free port instead of 4000, and the token from the environment.
    const server = startShell(`${next} --port 0`, { XOS_TOKEN: TOKEN });
    const url = await until('the GraphQL line', () => /GraphQL {2}(http:\/\/127\.0\.0\.1:\d+)\/graphql/.exec(server.output())?.[1], { timeoutMs: LIMIT_MS });
    const example = await until('the example query', () => /-d '(\{.*\})'$/m.exec(server.output())?.[1], { timeoutMs: LIMIT_MS });
    const ask = (body: string, token?: string) => fetch(`${url}/graphql`, {
      method: 'POST', body, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    assert.equal((await ask(example)).status, 401, 'without the token');
    const answer = await ask(example, TOKEN);
    assert.equal(answer.status, 200);
    const { data, errors } = await answer.json() as { data: Record<string, unknown[]>; errors?: unknown };
    assert.equal(errors, undefined);
    const [[context, rows]] = Object.entries(data);
    assert.match(context, /_list$/);
    assert.ok(rows.length > 0, `the example query of ${context} answers records`);
    const counted = await (await ask(JSON.stringify({ query: '{ track_list_count invoice_line_list_count }' }), TOKEN)).json() as { data: Record<string, number> };
    assert.deepEqual(counted.data, { track_list_count: CHINOOK_ROW_COUNTS.Track, invoice_line_list_count: CHINOOK_ROW_COUNTS.InvoiceLine });
    stopGroup(server.child);
    await until('the server to stop', () => server.child.exitCode !== null || server.child.signalCode !== null, { timeoutMs: LIMIT_MS });
  });

  test('an MCP client starts xos-mcp through npx: xos_schema and xos_query answer on Chinook, the Board page it links to answers', async () => {
    const transport = new StdioClientTransport({
      command: 'npx', args: ['-y', '-p', SERVER_PACKAGE, 'xos-mcp', '--ast', 'xos.json', '--dsn', 'sqlite:./chinook.db'],
      cwd: project, env: env as Record<string, string>, stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => { stderr += chunk; });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    const linkFile = join(env.XDG_DATA_HOME!, 'xos-mcp', 'board-link');
    try {
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        const result = await client.callTool({ name, arguments: args });
        return { text: (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join(''), isError: result.isError === true };
      };
      const schema = await call('xos_schema');
      assert.equal(schema.isError, false, schema.text);
      assert.ok(schema.text.includes('track_list'), 'the schema names the Chinook contexts');
      const ast = JSON.parse(readFileSync(join(project, 'xos.json'), 'utf8')) as Ast;
      const tracks = await call('xos_query', { context: 'track_list', query: exampleQuery(ast, 'track_list') });
      assert.equal(tracks.isError, false, tracks.text);
      assert.match(tracks.text, new RegExp(`\\(${CHINOOK_ROW_COUNTS.Track} records of track_list\\.\\)`));

      // The link as printed on stderr, the same as in the board-link file; the page and its scripts come from the package.
      const link = await until('the Board link', () => /Open the XOS Board: (\S+)/.exec(stderr)?.[1], { timeoutMs: LIMIT_MS });
      assert.equal(readFileSync(linkFile, 'utf8').trim(), link);
      const page = await fetch(link);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const html = await page.text();
      assert.match(html, /src="\/board\.js"/);
      // The tab names the app init made, as the Board's tab in VS Code does.
      assert.match(html, /<title>XOS Board · Chinook<\/title>/);
      const script = await fetch(new URL('/board.js', link));
      assert.equal(script.status, 200);
      assert.equal(await script.text(), readFileSync(join(project, 'node_modules', SERVER_PACKAGE, 'dist', 'webview', 'board.js'), 'utf8'));
    } finally {
      await client.close();
    }
    // xos-mcp stops when its client goes, and takes its link away.
    await until('xos-mcp to stop and remove its Board link', () => !existsSync(linkFile), { timeoutMs: LIMIT_MS });
  });

  test(`on a Node.js older than ${MINIMUM_NODE}, the installed command says in one line what it needs`, async (t) => {
    const systemPath = (env.PATH ?? '').split(delimiter).slice(1).join(delimiter);
    const version = await run('node', ['--version'], { env: { ...env, PATH: systemPath } }).then(({ stdout }) => stdout.trim(), () => undefined);
    const [major, minor] = (version ?? 'v0.0').replace(/^v/, '').split('.').map(Number);
    const [needMajor, needMinor] = MINIMUM_NODE.split('.').map(Number);
    if (version === undefined || major > needMajor || (major === needMajor && minor >= needMinor)) {
      t.skip(`the machine's own Node is ${version ?? 'missing'}`);
      return;
    }
    const failed = await run(join(project, 'node_modules', '.bin', 'xos-server'), ['--help'], { cwd: project, env: { ...env, PATH: systemPath } })
      .then(() => undefined, (error: { code: number; stderr: string }) => error);
    assert.equal(failed?.code, 1);
    assert.equal(failed.stderr, `xos-server needs Node.js ${MINIMUM_NODE} or newer (for node:sqlite); this is Node.js ${version}. Install a newer Node.js (https://nodejs.org) and start it again.\n`);
  });
});
