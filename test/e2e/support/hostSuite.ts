// Runs an in-host suite the way @vscode/test-electron does, but in code-server: the suite is
// bundled to CommonJS exporting run(), and the workbench URL carries the test payload.
import { join } from 'node:path';
import * as esbuild from 'esbuild';

/** Bundles `entry` to `<outDir>/suite.cjs`; the suite writes its outcome to `outcomePath`. */
export async function bundleHostSuite(entry: string, outDir: string, outcomePath: string): Promise<string> {
  const outfile = join(outDir, 'suite.cjs');
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    define: { XOS_HOST_OUTCOME_PATH: JSON.stringify(outcomePath) },
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * `/?folder=<ws>&payload=<...>`: the workbench loads `extensionDevelopmentPath` as a development
 * extension and runs `extensionTestsPath` (needs --vscode-option enable-smoke-test-driver).
 */
export function hostSuiteUrl(serverUrl: string, folder: string, extensionDevelopmentPath: string, extensionTestsPath: string): string {
  const authority = new URL(serverUrl).host;
  const remote = (path: string) => `vscode-remote://${authority}${path}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionDevelopmentPath)],
    ['extensionTestsPath', remote(extensionTestsPath)],
    ['skipWelcome', 'true'],
  ];
  const query = new URLSearchParams({ folder, payload: JSON.stringify(payload) });
  return `${serverUrl}/?${query.toString()}`;
}
