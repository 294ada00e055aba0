// The floors of the source (docs/architecture.md): every part of src/ stands on a floor and
// imports only parts on lower floors, so every arrow of the import graph points down. The
// webview runs in a browser and imports only the browser-safe modules named for it. Each part
// also lists the packages it may import (PACKAGES). eslint.config.js turns this table into the rule `xos/layers`; test/unit/architecture.test.ts
// checks the real import graph against it. A new folder under src/ needs a floor here.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Bottom to top. A part imports parts of lower floors only (never one beside it on its own floor). */
export const FLOORS = [
  { parts: ['src/ast', 'src/net', 'src/text', 'src/packageRoot.ts'], summary: 'the vocabulary: AST schema, lookups, value semantics, app model, field kinds; loopback helpers; the text door' },
  { parts: ['src/backend'], summary: 'the XOS reference backend (GraphQL server, storage)' },
  { parts: ['src/graphql'], summary: 'the client: embedded or remote backend, request building, query rules, its errors' },
  { parts: ['src/contacts', 'src/mail'], summary: 'contact providers; mail drafts, addresses, SMTP' },
  { parts: ['src/core'], summary: 'the use cases and the domain types (the agent\'s words are src/mcp/wording.ts, the person\'s src/board)' },
  { parts: ['src/board', 'src/mcp'], summary: 'the Board controller, state, protocol and texts; the MCP tools and server' },
  { parts: ['src/store'], summary: 'the front ends\' private storage: the approvals file (SQLite), the kept unsaved work and history' },
  { parts: ['src/app'], summary: 'one XOS app as every front end builds it: Board state and controller, questions, the tools\' dependencies, kept work' },
  { parts: ['src/host', 'src/standalone'], summary: 'VS Code (the only part that imports vscode); the xos-mcp CLI' },
  { parts: ['src/extension.ts'], summary: 'activate/deactivate' },
];

/**
 * The packages each part may import, as Playwright's DEPS.list names them per folder: exactly
 * these, nothing inherited from a lower floor. Node's built-ins (`node:…`) are every part of
 * src/'s; the webview runs in a browser and has none. `vscode` is the editor's own module, not a
 * package: that only src/host/ imports it is eslint.config.js's rule (it also sees require()).
 */
export const PACKAGES = {
  'src/ast': ['yaml', 'zod'],
  'src/net': [],
  'src/text': [],
  'src/packageRoot.ts': [],
  'src/backend': ['graphql', 'jose', 'pg', 'yaml'],
  'src/graphql': ['graphql', 'graphql-request'],
  'src/contacts': ['tsdav'],
  'src/mail': ['nodemailer'],
  'src/core': [],
  'src/board': [],
  'src/mcp': ['@modelcontextprotocol/ext-apps', '@modelcontextprotocol/node', '@modelcontextprotocol/server', 'zod'],
  'src/store': [],
  'src/app': ['yaml'],
  'src/host': [],
  'src/standalone': [],
  'src/extension.ts': [],
  webview: ['@lit/context', '@modelcontextprotocol/ext-apps', '@vscode-elements/elements', 'lit'],
};

/** The package a bare module specifier names: `lit/directives/live.js` → `lit`, `@scope/name/sub` → `@scope/name`. */
export function packageName(specifier) {
  const segments = specifier.split('/');
  return specifier.startsWith('@') ? segments.slice(0, 2).join('/') : segments[0];
}

/** Why `from` (a repository path) may not import the bare specifier `specifier` (a package or `node:…`), or undefined when it may. */
export function packageProblem(from, specifier) {
  const part = partOf(from);
  if (part === undefined) return undefined;
  if (specifier === 'vscode') return undefined;
  if (specifier.startsWith('node:')) {
    return part === 'webview' ? `webview/ runs in a browser: it may not import ${specifier}.` : undefined;
  }
  const allowed = PACKAGES[part];
  if (allowed === undefined) return `${part} lists no packages: add it to PACKAGES in scripts/lib/layers.mjs.`;
  const name = packageName(specifier);
  if (allowed.includes(name)) return undefined;
  const own = allowed.length ? `its packages are ${allowed.join(', ')}` : 'it imports no package';
  return `${part} may not import the package ${name}: ${own} (PACKAGES in scripts/lib/layers.mjs; a Node built-in is imported as node:${name}). Add it there if ${part} should depend on it.`;
}

/** What the webview (browser) may import from src/: folders or single files, all browser-safe. */
export const WEBVIEW_IMPORTS = [
  'src/ast',
  'src/text',
  'src/core/domain.ts',
  'src/board/protocol.ts',
  'src/board/viewTypes.ts',
  'src/board/recordHistory.ts',
  'src/board/jsonLines.ts',
  'src/mcp/apps/cardTypes.ts',
  'src/standalone/boardHandshake.ts',
];

const floorOf = new Map(FLOORS.flatMap((floor, index) => floor.parts.map((part) => [part, index])));

/** The part a repository path belongs to: `src/<folder>`, a file directly in src/, `webview`, or undefined (tests, scripts …). */
export function partOf(path) {
  const segments = path.split(/[\\/]/);
  if (segments[0] === 'webview') return 'webview';
  if (segments[0] !== 'src' || segments.length < 2) return undefined;
  return `src/${segments[1]}`;
}

/**
 * Why `from` (a repository path) may not import `to` (a repository path), or undefined when it may.
 * Only imports between parts of src/ and webview/ are judged; data files (l10n, media, package.json) are free.
 */
export function importProblem(from, to) {
  const source = partOf(from);
  const target = partOf(to);
  if (source === undefined || target === undefined || source === target) return undefined;
  if (source === 'webview') {
    const allowed = WEBVIEW_IMPORTS.some((entry) => to === entry || to.startsWith(`${entry}/`));
    return allowed ? undefined : `webview/ runs in a browser and imports only ${WEBVIEW_IMPORTS.join(', ')}; not ${to}.`;
  }
  if (target === 'webview') return `${source} may not import the webview (${to}); share a browser-safe module below both instead.`;
  const sourceFloor = floorOf.get(source);
  const targetFloor = floorOf.get(target);
  if (sourceFloor === undefined) return `${source} has no floor: add it to FLOORS in scripts/lib/layers.mjs (and docs/architecture.md).`;
  if (targetFloor === undefined) return `${target} has no floor: add it to FLOORS in scripts/lib/layers.mjs (and docs/architecture.md).`;
  if (targetFloor < sourceFloor) return undefined;
  const where = targetFloor === sourceFloor ? `beside it on floor ${sourceFloor}` : `above it (floor ${targetFloor} > ${sourceFloor})`;
  return `${source} may not import ${to}: ${target} is ${where}. Imports point down (docs/architecture.md): move what is shared down, or pass it in through an interface.`;
}

/** A repository path, with forward slashes, for an absolute one. */
export function repoPath(absolute) {
  return relative(repoRoot, absolute).split(sep).join('/');
}

/** The ESLint rule: every import, export … from and import() of src/ and webview/ files checked against the floors (relative) and the part's packages (bare). */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the floors of docs/architecture.md, and packages are the ones each part lists (scripts/lib/layers.mjs).' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = repoPath(file);
    if (partOf(from) === undefined) return {};
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const problem = source.value.startsWith('.')
        ? importProblem(from, repoPath(resolve(dirname(file), source.value)))
        : packageProblem(from, source.value);
      if (problem) context.report({ node: source, message: problem });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
