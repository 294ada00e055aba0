// Where things are, independent of the directory a script is started from.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nodeModulesDir = join(repoRoot, 'node_modules');
export const pinnedNode = join(nodeModulesDir, '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');

/** The Node 24 the project pins as a devDependency; falls back to the running Node. */
export function projectNode() {
  return existsSync(pinnedNode) ? pinnedNode : process.execPath;
}

/** The JavaScript entry of an installed package's CLI, run with projectNode(). */
export function packageBin(pkg, relativePath) {
  return join(nodeModulesDir, pkg, relativePath);
}
