// What the XOS commands (xos-server, xos-mcp) check before their bundled CLI runs: it needs
// node:sqlite (Node.js 22.5 or newer) and a build. Each problem is said in one line instead
// of a stack trace.
import { existsSync } from 'node:fs';

export async function runBundle(name) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 5)) {
    console.error(`${name} needs Node.js 22.5 or newer (for node:sqlite); this is Node.js ${process.version}.`
      + ` Inside the XOS repository, npx ${name} runs it with the project's own Node 24.`);
    process.exit(1);
  }
  const bundle = new URL(`../dist/${name}.mjs`, import.meta.url);
  if (!existsSync(bundle)) {
    console.error(`${name} is not built yet: run npm run build in the XOS repository first.`);
    process.exit(1);
  }
  await import(bundle.href);
}
