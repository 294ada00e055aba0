// Bundles the extension host (activation and host), the Board webview (and its browser transport), the xos-mcp and xos-server CLIs into dist/
//   node esbuild.mjs [--production] [--watch]
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';
import { cardBundle } from './scripts/lib/card-bundle.mjs';
import { formatBytes } from './scripts/lib/format.mjs';
import { repoRoot } from './scripts/lib/paths.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// Bundled CommonJS dependencies call require(); an ES module has none unless we make one.
const esmRequireBanner = "import { createRequire as __xosCreateRequire } from 'node:module';\nconst require = __xosCreateRequire(import.meta.url);";

function hasHashbang(entry) {
  return readFileSync(join(repoRoot, entry), 'utf8').startsWith('#!');
}

// The two bundles of the extension host: what activation loads, and the rest.
const extensionHostOptions = {
  format: 'cjs',
  platform: 'node',
  target: 'node20', // the Node inside VS Code's Electron
  external: ['vscode'],
  // src/packageRoot.ts finds the package root, src/host/shell.ts the host bundle, from the bundle's folder.
  define: { 'import.meta.dirname': '__dirname' },
};

const bundles = [
  {
    // Activation only (package.json's main): the contributions' stand-ins, src/host/shell.ts.
    name: 'extension activation',
    entry: 'src/extension.ts',
    options: () => ({ outfile: 'dist/extension.cjs', ...extensionHostOptions }),
  },
  {
    // Backend, GraphQL, MCP server, mail, contacts, Board: required by dist/extension.cjs on
    // first use (src/host/shell.ts), and right after activation.
    name: 'extension host',
    entry: 'src/host/xosHost.ts',
    options: () => ({ outfile: 'dist/host.cjs', ...extensionHostOptions }),
  },
  {
    // The embedded backend's own thread (src/graphql/workerBackend.ts starts it): the extension
    // host and xos-mcp load it from dist/ next to their bundle.
    name: 'backend worker',
    entry: 'src/backend/worker/main.ts',
    options: () => ({
      outfile: 'dist/backendWorker.mjs',
      format: 'esm',
      platform: 'node',
      target: 'node20', // it runs inside VS Code's Node too
      external: ['pg-native'],
      banner: { js: esmRequireBanner },
    }),
  },
  {
    name: 'board webview',
    entry: 'webview/main.ts',
    options: () => ({
      outfile: 'dist/webview/board.js',
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    }),
  },
  {
    // The same Board in a browser (xos-mcp): its transport runs before board.js.
    name: 'browser Board transport',
    entry: 'webview/browser.ts',
    options: () => ({
      outfile: 'dist/webview/browser.js',
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
    }),
  },
  {
    name: 'MCP CLI',
    entry: 'src/standalone/cli.ts',
    executable: true,
    options: (entry) => ({
      outfile: 'dist/xos-mcp.mjs',
      format: 'esm',
      platform: 'node',
      target: 'node24',
      external: ['pg-native'],
      banner: { js: hasHashbang(entry) ? esmRequireBanner : `#!/usr/bin/env node\n${esmRequireBanner}` },
    }),
  },
  {
    // The inline card (MCP Apps): a classic script, inlined into the card's HTML by src/mcp/apps/card.ts.
    name: 'chat card',
    entry: cardBundle.entry,
    options: () => ({ outfile: cardBundle.outfile, ...cardBundle.options }),
  },
  {
    name: 'server CLI',
    entry: 'src/backend/cli.ts',
    executable: true,
    options: (entry) => ({
      outfile: 'dist/xos-server.mjs',
      format: 'esm',
      platform: 'node',
      target: 'node24',
      external: ['pg-native'], // optional native binding of pg, never installed
      // esbuild keeps an entry's own hashbang; add one only when the source has none.
      banner: { js: hasHashbang(entry) ? esmRequireBanner : `#!/usr/bin/env node\n${esmRequireBanner}` },
    }),
  },
];

/** Prints the size of every JavaScript file a build wrote. */
function reportSizes(name, metafile) {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (file.endsWith('.map')) continue;
    console.log(`  ${file.padEnd(26)} ${formatBytes(output.bytes).padStart(10)}  (${name})`);
  }
}

const sizeReporter = (name) => ({
  name: 'xos-size-report',
  setup(build) {
    build.onEnd((result) => {
      if (result.metafile && result.errors.length === 0) reportSizes(name, result.metafile);
    });
  },
});

// The CLI is the package's `bin`; make it runnable straight from dist/ too.
const markExecutable = {
  name: 'xos-executable',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length === 0) chmodSync(join(repoRoot, build.initialOptions.outfile), 0o755);
    });
  },
};

/**
 * Writes a bundle under a temporary name and renames it into place: a process that starts
 * dist/xos-mcp.mjs while a build runs (tests run side by side) reads the old file or the new
 * one, never half of one.
 */
function writeWhole(file, contents, executable) {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  if (executable) chmodSync(temporary, 0o755);
  renameSync(temporary, file);
}

function buildOptions(bundle) {
  return {
    absWorkingDir: repoRoot,
    entryPoints: [bundle.entry],
    bundle: true,
    sourcemap: 'linked',
    minify: production,
    metafile: true,
    logLevel: 'warning',
    ...bundle.options(bundle.entry),
    plugins: [...(bundle.options(bundle.entry).plugins ?? []), ...(watch ? [sizeReporter(bundle.name)] : []), ...(bundle.executable ? [markExecutable] : [])],
  };
}

async function main() {
  const present = bundles.filter((bundle) => {
    if (existsSync(join(repoRoot, bundle.entry))) return true;
    console.warn(`warning: skipping the ${bundle.name} bundle: ${bundle.entry} does not exist`);
    return false;
  });
  if (watch) {
    for (const bundle of present) {
      const context = await esbuild.context(buildOptions(bundle));
      await context.watch();
    }
    console.log(`watching ${present.map((bundle) => bundle.entry).join(', ')} (Ctrl+C to stop)`);
    return;
  }
  console.log(`building ${production ? 'production' : 'development'} bundles:`);
  // Build every bundle even when one fails, so each reports its own errors.
  const results = await Promise.allSettled(present.map(async (bundle) => {
    const result = await esbuild.build({ ...buildOptions(bundle), plugins: bundle.options(bundle.entry).plugins ?? [], write: false });
    for (const output of result.outputFiles) writeWhole(output.path, output.contents, bundle.executable && !output.path.endsWith('.map'));
    return result;
  }));
  const failed = [];
  results.forEach((result, index) => {
    if (result.status === 'fulfilled') reportSizes(present[index].name, result.value.metafile);
    else failed.push(present[index]);
  });
  if (failed.length) {
    for (const bundle of failed) console.error(`error: the ${bundle.name} bundle (${bundle.entry}) failed`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  // esbuild prints its own diagnostics; anything else is a bug in this script.
  if (!error.errors) console.error(error);
  process.exitCode = 1;
});
