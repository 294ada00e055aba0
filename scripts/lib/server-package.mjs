// The npm package @xos-app/server: XOS's standalone servers (xos-server, xos-mcp) without a
// clone. Made from the production build: the bundles hold every JavaScript dependency (pg's
// optional native binding, pg-native, stays out: pg loads it only when asked for pg.native,
// which XOS never does), so the package has no dependencies and installs in seconds.
// The commands are the repository's own bin/ files, unchanged.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';
import { MINIMUM_NODE } from '../../bin/run-bundle.mjs';
import { cardBundle } from './card-bundle.mjs';
import { formatBytes } from './format.mjs';
import { manifest } from './package.mjs';
import { projectNode, repoRoot } from './paths.mjs';
import { run } from './run.mjs';

export const SERVER_PACKAGE = '@xos-app/server';

/** The folder the package is written to, and the tarball next to it. */
export const defaultPackageDir = join(repoRoot, 'dist', 'server-package');

/**
 * What the package may weigh: the .tgz a person downloads and what it unpacks to. A new
 * dependency that doubles a bundle fails here instead of slowing every npx.
 */
export const SIZE_BUDGET = { packed: 1.4 * 1024 * 1024, unpacked: 5 * 1024 * 1024 };

/** What the commands need at run time, relative to the repository (and to the package). */
export const RUNTIME_FILES = [
  'bin/run-bundle.mjs',
  'bin/xos-mcp.mjs',
  'bin/xos-server.mjs',
  'dist/xos-server.mjs',
  'dist/xos-mcp.mjs',
  // The embedded backend's thread (src/graphql/workerBackend.ts).
  'dist/backendWorker.mjs',
  // The Board page xos-mcp serves, and the chat card it inlines (src/mcp/apps/card.ts).
  'dist/webview/board.js',
  'dist/webview/browser.js',
  'dist/webview/card.js',
];

const README = join(repoRoot, 'scripts', 'lib', 'server-package-readme.md');

/** The licenses of the packages whose code the bundles hold (their notices travel with the code). */
export const NOTICES = 'THIRD-PARTY-NOTICES.md';

/**
 * The folder of the package a file in node_modules belongs to, or undefined for XOS's own files.
 * A path from another package's own source map (a dependency it bundled when it was built) is
 * not on this disk: the package of that name installed here stands for it.
 */
function packageDirOf(file) {
  const at = file.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return undefined;
  const [scope, name] = file.slice(at + `${sep}node_modules${sep}`.length).split(sep);
  const packageName = scope.startsWith('@') ? join(scope, name) : scope;
  const dir = file.slice(0, at + `${sep}node_modules${sep}`.length) + packageName;
  return existsSync(join(dir, 'package.json')) ? dir : join(repoRoot, 'node_modules', packageName);
}

/**
 * The package folders whose code the shipped bundles hold: from each bundle's source map, and
 * for the chat card, which has none, from an esbuild metafile of its build. A source that is
 * no file on disk came in through another package's own source map; that package is listed.
 */
async function bundledPackageDirs() {
  const files = [];
  for (const file of RUNTIME_FILES.filter((name) => name.startsWith('dist/'))) {
    const map = join(repoRoot, `${file}.map`);
    if (!existsSync(map)) continue;
    const { sources } = JSON.parse(readFileSync(map, 'utf8'));
    files.push(...sources.map((source) => resolve(dirname(map), source)));
  }
  const card = await esbuild.build({ absWorkingDir: repoRoot, entryPoints: [cardBundle.entry], bundle: true, write: false, metafile: true, logLevel: 'silent', outfile: cardBundle.outfile, ...cardBundle.options });
  files.push(...Object.keys(card.metafile.inputs).map((input) => resolve(repoRoot, input.replace(/^[\w-]+:/, ''))));
  const dirs = new Set(files.map(packageDirOf).filter((dir) => dir !== undefined && existsSync(join(dir, 'package.json'))));
  return [...dirs];
}

/** THIRD-PARTY-NOTICES.md: every bundled package with its license and license text. */
async function noticesText() {
  const entries = new Map();
  for (const dir of await bundledPackageDirs()) {
    const { name, license, author } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenseFile = readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(file));
    const noticeFile = readdirSync(dir).find((file) => /^notice(\.(md|txt))?$/i.test(file));
    const by = typeof author === 'string' ? author : author?.name;
    const text = licenseFile
      ? readFileSync(join(dir, licenseFile), 'utf8').trim()
      : `${license} license${by ? `, ${by}` : ''} (the package has no license file; see https://spdx.org/licenses/${license}.html)`;
    entries.set(name, `## ${name} (${license})\n\n\`\`\`\n${text}\n${noticeFile ? `\n${readFileSync(join(dir, noticeFile), 'utf8').trim()}\n` : ''}\`\`\`\n`);
  }
  const sorted = [...entries.keys()].sort().map((key) => entries.get(key));
  return `# Third-party notices\n\nThe bundles in dist/ hold the code of these packages, under their licenses:\n\n${sorted.join('\n')}`;
}

function packageManifest() {
  const root = manifest();
  const repository = typeof root.repository === 'object' && root.repository !== null ? root.repository : undefined;
  const repositoryUrl = typeof repository?.url === 'string' ? repository.url : undefined;
  const web = repositoryUrl?.replace(/^git\+/, '').replace(/\.git$/, '');
  return {
    name: SERVER_PACKAGE,
    version: root.version,
    description: 'XOS without VS Code: xos-mcp gives any MCP client the XOS tools, with the XOS Board in your browser to confirm every save and send; xos-server serves an XOS app (or your own SQLite or PostgreSQL database) over GraphQL.',
    license: root.license,
    ...(repository ? { repository } : {}),
    ...(web ? { homepage: `${web}#readme`, bugs: { url: `${web}/issues` } } : {}),
    keywords: ['xos', 'mcp', 'mcp-server', 'graphql', 'sqlite', 'postgresql', 'agent', 'business app'],
    type: 'module',
    engines: { node: `>=${MINIMUM_NODE}` },
    bin: { 'xos-mcp': 'bin/xos-mcp.mjs', 'xos-server': 'bin/xos-server.mjs' },
    files: ['bin/', 'dist/', NOTICES],
    // A scoped package is private on npm unless published as public.
    publishConfig: { access: 'public' },
  };
}

function licenseText(license) {
  const own = join(repoRoot, 'LICENSE');
  if (existsSync(own)) return readFileSync(own, 'utf8');
  if (license !== 'MIT') throw new Error(`the package needs a LICENSE file: add one to the repository (package.json says "${license}")`);
  return `MIT License

Copyright (c) the XOS authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;
}

/** Runs a command quietly; resolves with its stdout, rejects with its output when it fails. */
function captureOutput(command, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} failed with exit code ${code}:\n${stderr || stdout}`))));
  });
}

/** The environment for npm: the project's Node 24 first on the PATH, so npm runs on it. */
function npmEnvironment() {
  return { ...process.env, PATH: `${dirname(projectNode())}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}` };
}

/**
 * Builds (production, unless `build` is false), writes the package into `dir` and packs it
 * next to it with npm pack. Resolves with the tarball's path, its size, what it unpacks to and
 * its files; rejects when a runtime file is missing or the package is over SIZE_BUDGET.
 */
export async function packageServer({ dir = defaultPackageDir, build = true } = {}) {
  if (build) {
    const code = await run(projectNode(), [join(repoRoot, 'esbuild.mjs'), '--production']);
    if (code !== 0) throw new Error(`the production build failed (exit code ${code})`);
  }
  const missing = RUNTIME_FILES.filter((file) => !existsSync(join(repoRoot, file)));
  if (missing.length) throw new Error(`not built: ${missing.join(', ')}; run node esbuild.mjs --production`);

  rmSync(dir, { recursive: true, force: true });
  for (const file of RUNTIME_FILES) {
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(repoRoot, file), target);
  }
  const pkg = packageManifest();
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(dir, 'README.md'), readFileSync(README, 'utf8'));
  writeFileSync(join(dir, 'LICENSE'), licenseText(pkg.license));
  writeFileSync(join(dir, NOTICES), await noticesText());

  const destination = dirname(dir);
  const [packed] = JSON.parse(await captureOutput('npm', ['pack', '--json', '--pack-destination', destination], { cwd: dir, env: npmEnvironment() }));
  const path = join(destination, packed.filename);
  const result = { path, bytes: statSync(path).size, unpackedBytes: packed.unpackedSize, files: packed.files.map((file) => file.path).sort(), version: pkg.version };
  const over = [];
  if (result.bytes > SIZE_BUDGET.packed) over.push(`the tarball is ${formatBytes(result.bytes)}, over its budget of ${formatBytes(SIZE_BUDGET.packed)}`);
  if (result.unpackedBytes > SIZE_BUDGET.unpacked) over.push(`it unpacks to ${formatBytes(result.unpackedBytes)}, over its budget of ${formatBytes(SIZE_BUDGET.unpacked)}`);
  if (over.length) throw new Error(`${SERVER_PACKAGE}: ${over.join('; ')} (SIZE_BUDGET in scripts/lib/server-package.mjs)`);
  return result;
}
