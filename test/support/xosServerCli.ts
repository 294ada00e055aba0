// xos-server started the way a person starts it: a CLI script (the built bundle or the source)
// in its own process. `start` waits (with a deadline) until it prints its GraphQL URL; `run`
// waits for it to end (for arguments it must refuse, and for `users`); `stop` sends Ctrl+C; `killAll` ends
// whatever a failed test left running.
import { spawn, type ChildProcess } from 'node:child_process';

export interface StartedServer {
  readonly child: ChildProcess;
  readonly url: string;
  stdout(): string;
  stderr(): string;
}

export class XosServerCli {
  private readonly script: string;
  /** Variables every start gets before the test's own (e.g. empty tokens, so the machine's do not leak in). */
  private readonly baseEnv: Record<string, string>;
  private readonly running = new Set<ChildProcess>();

  constructor(script: string, baseEnv: Record<string, string> = {}) {
    this.script = script;
    this.baseEnv = baseEnv;
  }

  start(args: string[], env: Record<string, string> = {}): Promise<StartedServer> {
    const child = this.spawn(args, env, ['ignore', 'pipe', 'pipe']);
    let out = '';
    let err = '';
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no URL within 20 s; stdout: ${out} stderr: ${err}`)), 20_000);
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        const url = out.match(/GraphQL\s+(http:\/\/\S+)\/graphql/)?.[1];
        if (url) { clearTimeout(deadline); resolve({ child, url, stdout: () => out, stderr: () => err }); }
      });
      child.stderr!.on('data', (chunk) => { err += chunk; });
      child.on('exit', (code) => { clearTimeout(deadline); reject(new Error(`exited with ${code} before serving; stderr: ${err}`)); });
    });
  }

  run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = this.spawn(args, env, ['ignore', 'pipe', 'pipe']);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => { stdout += chunk; });
    child.stderr!.on('data', (chunk) => { stderr += chunk; });
    // 'close', not 'exit': the output is complete only once both pipes ended.
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  }

  stop(child: ChildProcess): Promise<number | null> {
    return new Promise((resolve) => {
      child.on('exit', (code) => resolve(code));
      child.kill('SIGINT');
    });
  }

  killAll(): void {
    for (const child of this.running) child.kill('SIGKILL');
  }

  private spawn(args: string[], env: Record<string, string>, stdio: ['ignore', 'pipe' | 'ignore', 'pipe']): ChildProcess {
    const child = spawn(process.execPath, [this.script, ...args], { env: { ...process.env, ...this.baseEnv, ...env }, stdio });
    this.running.add(child);
    child.on('exit', () => this.running.delete(child));
    return child;
  }
}
