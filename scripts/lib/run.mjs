// Child processes with inherited output and no standard input (CI has none).
import { spawn, spawnSync } from 'node:child_process';
import { repoRoot } from './paths.mjs';

/**
 * Runs a command to completion and resolves with its exit code (1 when it could not start).
 * `output`: a file descriptor that takes its stdout and stderr instead of ours.
 */
export function run(command, args, { env = process.env, cwd = repoRoot, output } = {}) {
  return new Promise((resolve) => {
    const out = output ?? 'inherit';
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', out, out] });
    child.on('error', (error) => {
      console.error(`cannot start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Runs a command quietly and returns its trimmed stdout, or undefined when it fails. */
export function capture(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return result.status === 0 ? result.stdout.trim() : undefined;
}
