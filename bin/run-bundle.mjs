// What the XOS commands (xos-server, xos-mcp) check before their bundled CLI runs, in a clone
// of the repository and in the npm package @xos-app/server alike (scripts/package-server.mjs
// copies this folder): a Node.js with node:sqlite as XOS uses it, and a build. Each problem is
// said in one line instead of a stack trace.
import { existsSync } from 'node:fs';

/**
 * The oldest Node.js XOS runs on: node:sqlite without a flag (22.13) with the busy timeout
 * and `isOpen` XOS's SQLite storage relies on (22.16). The package's engines.node says the same.
 */
export const MINIMUM_NODE = '22.16.0';

function older(version, than) {
  const [a, b] = [version, than].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

export async function runBundle(name) {
  if (older(process.versions.node, MINIMUM_NODE)) {
    // A clone has its own Node 24 (the "node" devDependency), which npx puts first on the PATH.
    const inClone = existsSync(new URL('../node_modules/.bin/node', import.meta.url));
    console.error(`${name} needs Node.js ${MINIMUM_NODE} or newer (for node:sqlite); this is Node.js ${process.version}.`
      + (inClone ? ` Inside the XOS repository, npx ${name} runs it with the project's own Node 24.` : ' Install a newer Node.js (https://nodejs.org) and start it again.'));
    process.exit(1);
  }
  const bundle = new URL(`../dist/${name}.mjs`, import.meta.url);
  if (!existsSync(bundle)) {
    console.error(`${name} is not built yet: run npm run build in the XOS repository first.`);
    process.exit(1);
  }
  await import(bundle.href);
}
