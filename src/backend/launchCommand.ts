// How the person starts XOS's commands (xos-server, xos-mcp), so a command XOS prints for them
// to run next starts the same way: from the npm package @xos-app/server through npx, from an
// installed package on the PATH, or from a clone of the repository with npx in its folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../packageRoot.ts';

/** The npm package of the standalone servers (scripts/package-server.mjs makes it). */
export const SERVER_PACKAGE = '@xos-app/server';

export type XosCommand = 'xos-server' | 'xos-mcp';

/**
 * The words that start `command` as the person started this process:
 * - from the package through npx (npm sets npm_command=exec): `npx -p @xos-app/server xos-server`
 *   (npx cannot pick one of the package's two commands from the package name alone), with the
 *   package as they named it to `npx -p` (npm passes it on as npm_config_package), say a version
 *   or a tarball;
 * - from the package installed on the PATH (npm install -g): `xos-server`;
 * - from a clone of the repository: `npx xos-server`, which runs in the clone's folder.
 */
export function launchCommand(command: XosCommand, env: NodeJS.ProcessEnv = process.env, root: string = packageRoot()): string {
  if (packageName(root) !== SERVER_PACKAGE) return `npx ${command}`;
  if (env.npm_command !== 'exec') return command;
  const named = env.npm_config_package;
  return `npx -p ${shellWord(named && /^\S+$/.test(named) ? named : SERVER_PACKAGE)} ${command}`;
}

function packageName(root: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown }).name as string | undefined;
  } catch {
    return undefined;
  }
}

/** One word of a POSIX shell command line: as it is when the shell leaves it alone, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
