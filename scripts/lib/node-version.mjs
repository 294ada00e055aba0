// The project runs on the Node 24 installed as the `node` devDependency (node:sqlite, type stripping).
import { existsSync } from 'node:fs';
import { capture } from './run.mjs';
import { pinnedNode } from './paths.mjs';

export const requiredNodeMajor = 24;

/** Returns the version string of node_modules/.bin/node, or throws saying what is wrong. */
export function checkPinnedNode() {
  if (!existsSync(pinnedNode)) {
    throw new Error('node_modules/.bin/node is missing: the "node" devDependency did not install; run npm ci.');
  }
  const version = capture(pinnedNode, ['--version']);
  if (!version) throw new Error('node_modules/.bin/node --version failed; reinstall with npm ci.');
  const major = Number(/^v(\d+)\./.exec(version)?.[1]);
  if (!(major >= requiredNodeMajor)) {
    throw new Error(`node_modules/.bin/node is ${version}; XOS needs Node >= ${requiredNodeMajor} (the "node" devDependency).`);
  }
  return version;
}
