// Packages the extension into dist/<name>-<version>.vsix with @vscode/vsce, LICENSE included
// (Open VSX publishes nothing without one). vsce runs the production build itself (the
// manifest's vscode:prepublish); esbuild bundles every dependency, so the package holds no
// node_modules (--no-dependencies).
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageBin, projectNode, repoRoot } from './paths.mjs';

export function manifest() {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
}

/** `dist/xos-vscode-<version>.vsix`, absolute. */
export function vsixPath() {
  const { name, version } = manifest();
  return join(repoRoot, 'dist', `${name}-${version}.vsix`);
}

/**
 * Builds and packages into `out` (default vsixPath()); resolves with `{ path, bytes }`.
 * `quiet` keeps vsce's file tree to itself unless packaging fails.
 */
export function packageExtension({ out = vsixPath(), quiet = false } = {}) {
  // vsce starts `npm run vscode:prepublish` through a shell: put Node 24 first for it.
  const env = { ...process.env, PATH: `${dirname(projectNode())}:${process.env.PATH ?? ''}` };
  const args = [packageBin('@vscode/vsce', 'vsce'), 'package', '--no-dependencies', '--out', out];
  return new Promise((resolve, reject) => {
    const child = spawn(projectNode(), args, { cwd: repoRoot, env, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk) => { output += chunk; });
    child.stderr?.on('data', (chunk) => { output += chunk; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve({ path: out, bytes: statSync(out).size });
      else reject(new Error(`vsce package failed with exit code ${code}${output ? `:\n${output}` : ''}`));
    });
  });
}
