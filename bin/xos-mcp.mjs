#!/usr/bin/env node
// xos-mcp's command: the bundled CLI needs node:sqlite (Node.js 22.5 or newer). Under an
// older Node this says so in one line instead of failing with a stack trace.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 5)) {
  console.error(`xos-mcp needs Node.js 22.5 or newer (for node:sqlite); this is Node.js ${process.version}.`
    + ' Inside the XOS repository, npx xos-mcp runs it with the project\'s own Node 24.');
  process.exit(1);
}
const bundle = new URL('../dist/xos-mcp.mjs', import.meta.url);
const { existsSync } = await import('node:fs');
if (!existsSync(bundle)) {
  console.error('xos-mcp is not built yet: run npm run build in the XOS repository first.');
  process.exit(1);
}
await import(bundle.href);
