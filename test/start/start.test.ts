// `npm start` as a newcomer runs it: from a plain shell (the machine's own Node and npm first
// on PATH, no npm variables), on whatever cache there is (CI gives it an empty one, so this is
// the first-run path). It must open VS Code with XOS and load the Board, fail a broken step
// with its name and a hint, and leave nothing running however it is stopped.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const startTimeoutMs = 600_000;

/** The environment of a person's shell: no npm run variables, the repository's Node not first on PATH. */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_|^INIT_CWD$/i.test(name)) continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules')).join(delimiter);
  return { ...env, XOS_VSCODE: 'web', XOS_PORT: '0', XOS_VSCODE_PORT: '0', ...extra };
}

interface Started {
  readonly child: ChildProcess;
  /** Its private .xos directory (XOS_START_DIR): every process it starts names it. */
  readonly dir: string;
  output(): string;
  /** Resolves when the output matches. */
  printed(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const dirs: string[] = [];
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

/** `npm start [args]` in its own process group (as a terminal runs it), with a private .xos directory. */
function npmStart(args: string[], extra: Record<string, string> = {}): Started {
  const dir = mkdtempSync(join(tmpdir(), 'xos-start-'));
  dirs.push(dir);
  const child = spawn('npm', ['start', ...(args.length ? ['--', ...args] : [])], {
    cwd: repoRoot, env: shellEnv({ XOS_START_DIR: dir, ...extra }), detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let echoed = 0;
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    // Complete lines only, indented, so a long run shows where it is.
    const end = text.lastIndexOf('\n') + 1;
    if (end > echoed) process.stdout.write(text.slice(echoed, end).replace(/^/gm, '    | '));
    echoed = Math.max(echoed, end);
    for (const wake of [...waiters]) wake();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => {
    for (const wake of [...waiters]) wake();
    resolve({ code, signal });
  }));
  let done = false;
  void exited.then(() => { done = true; });
  return {
    child,
    dir,
    output: () => text,
    exited,
    printed: (pattern, timeoutMs) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`npm start did not print ${pattern} within ${timeoutMs} ms:\n${text}`)); }, timeoutMs);
      const check = () => {
        const match = text.match(pattern);
        if (match) { clearTimeout(timer); waiters.delete(check); resolve(match); } else if (done) { clearTimeout(timer); waiters.delete(check); reject(new Error(`npm start exited without printing ${pattern}:\n${text}`)); }
      };
      waiters.add(check);
      check();
    }),
  };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** The ports npm start printed: backend, mail catcher and (in the browser) VS Code. */
function printedPorts(output: string): number[] {
  const patterns = [/XOS GraphQL:\s+http:\/\/127\.0\.0\.1:(\d+)/, /SMTP 127\.0\.0\.1:(\d+)/, /VS Code:\s+http:\/\/127\.0\.0\.1:(\d+)/];
  return patterns.map((pattern) => Number(output.match(pattern)?.[1])).filter((port) => port > 0);
}

/** Nothing of this start answers any more, and no process of it is left. */
async function assertAllGone(started: Started): Promise<void> {
  for (const port of printedPorts(started.output())) assert.equal(await portAnswers(port), false, `port ${port} still answers after npm start ended`);
  const left = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(started.dir));
  assert.deepEqual(left, [], 'processes of this npm start are still running');
}

describe('npm start', { timeout: startTimeoutMs * 2 }, () => {
  test('--check: from a plain shell, VS Code opens with XOS and the Board loads; then everything stops', async () => {
    const started = npmStart(['--check']);
    const { code } = await started.exited;
    const output = started.output();
    assert.equal(code, 0, `npm start --check failed:\n${output}`);
    assert.match(output, /Example: .*\n\s+->\s+240 people/);
    // The Board's start page, headed by the app's name.
    assert.match(output, /Board:\s+loaded in .*\("XOS CRM /);
    assert.match(output, /Stopped: browser, VS Code, mail catcher, backend\./);
    const preparation = output.match(/first-run preparation took (.+)$/m)?.[1];
    console.log(`first-run path: ${preparation ? `VS Code prepared in ${preparation}` : 'VS Code was already prepared (cached)'}`);
    await assertAllGone(started);
  });

  for (const [how, stop] of [
    ['Ctrl+C (SIGINT to the process group)', (child: ChildProcess) => process.kill(-child.pid!, 'SIGINT')],
    ['SIGINT to the npm process', (child: ChildProcess) => child.kill('SIGINT')],
    ['SIGTERM to the npm process', (child: ChildProcess) => child.kill('SIGTERM')],
    ['closing the terminal (SIGHUP to the process group)', (child: ChildProcess) => process.kill(-child.pid!, 'SIGHUP')],
  ] as const) {
    test(`${how} stops everything and says so`, async () => {
      const started = npmStart([]);
      await started.printed(/Ctrl\+C stops everything/, startTimeoutMs);
      stop(started.child);
      await started.exited;
      assert.match(started.output(), /stopping XOS\.\nStopped: VS Code, mail catcher, backend\./);
      await assertAllGone(started);
    });
  }

  test('a failing step is named with its reason and what to do, and what had started is stopped', async () => {
    // A file where the cache directory should be: preparing VS Code cannot create its folders.
    const blocker = mkdtempSync(join(tmpdir(), 'xos-start-cache-'));
    dirs.push(blocker);
    writeFileSync(join(blocker, 'xos-vscode'), 'not a directory\n');
    const started = npmStart([], { XDG_CACHE_HOME: blocker });
    const { code } = await started.exited;
    const output = started.output();
    assert.notEqual(code, 0);
    assert.match(output, /npm start failed at "Preparing VS Code \(code-server\)": .*(ENOTDIR|EEXIST|not a directory)/);
    assert.match(output, /What to do: make .*xos-vscode a writable folder/);
    assert.match(output, /Stopped: mail catcher, backend\./);
    await assertAllGone(started);
  });
});
