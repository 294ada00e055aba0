// The test-only scripted-model extension (test/extensions/scripted-model): built with esbuild
// into out/test-extensions/scripted-model/ (manifest + dist/), installed by copying that
// folder, steered by files in the workspace.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot, vscodeServer } from './codeServer.ts';
import { packagedExtension } from './packaged.ts';

export const scriptedModelSource = join(repoRoot, 'test', 'extensions', 'scripted-model');
/** The built extension folder (out/ is neither linted nor committed). */
export const scriptedModelDir = join(repoRoot, 'out', 'test-extensions', 'scripted-model');

/** One script step: a tool call (suffix of `mcp_<server>_<tool>`) or a final text quoting `{{lastResult}}`. */
export type ScriptStep = { readonly tool: string; readonly input?: Record<string, unknown> } | { readonly say: string };

/** Bundles the extension (dist/extension.cjs) and its stdio MCP server (dist/mcp-server.mjs); returns the folder. */
export async function buildScriptedModel(): Promise<string> {
  rmSync(scriptedModelDir, { recursive: true, force: true });
  mkdirSync(scriptedModelDir, { recursive: true });
  copyFileSync(join(scriptedModelSource, 'package.json'), join(scriptedModelDir, 'package.json'));
  const common = { absWorkingDir: repoRoot, bundle: true, platform: 'node', logLevel: 'warning' } as const;
  await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(scriptedModelSource, 'src', 'extension.ts')], outfile: join(scriptedModelDir, 'dist', 'extension.cjs'), format: 'cjs', target: 'node20', external: ['vscode'] }),
    esbuild.build({
      ...common,
      entryPoints: [join(scriptedModelSource, 'src', 'mcpServer.ts')],
      outfile: join(scriptedModelDir, 'dist', 'mcp-server.mjs'),
      format: 'esm',
      target: 'node22',
      banner: { js: "import { createRequire as __xosCreateRequire } from 'node:module';\nconst require = __xosCreateRequire(import.meta.url);" },
    }),
  ]);
  return scriptedModelDir;
}

/** Settings that make the extension prepare a fresh profile for agent mode on start-up. */
export function scriptedModelSettings({ testMcpServer = false } = {}): Record<string, unknown> {
  return { 'xosTest.prepareChat': true, 'xosTest.startMcpServers': true, 'xosTest.mcpServer': testMcpServer };
}

const testDir = (workspace: string) => join(workspace, '.xos-test');

/** Writes `.xos-test/script.json`: steps keyed by (a part of) the user prompt. */
export function writeScript(workspace: string, script: Record<string, readonly ScriptStep[]>): void {
  mkdirSync(testDir(workspace), { recursive: true });
  writeFileSync(join(testDir(workspace), 'script.json'), `${JSON.stringify(script, null, 2)}\n`);
}

export interface ReadyReport {
  readonly ok: boolean;
  readonly steps: readonly string[];
  readonly models?: readonly string[];
  /** Names of the `mcp_*` tools in `vscode.lm.tools` once the servers were started. */
  readonly tools?: readonly string[];
  readonly error?: string;
}

/** `.xos-test/ready.json`, written once the extension prepared the chat; undefined before. */
export function readReady(workspace: string): ReadyReport | undefined {
  const path = join(testDir(workspace), 'ready.json');
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) as ReadyReport : undefined;
}

export interface ModelRequest {
  readonly offered: readonly string[];
  readonly prompt: string;
  readonly toolResults: readonly string[];
  readonly reply: { kind: 'text'; text: string } | { kind: 'tool'; name: string; input: Record<string, unknown> };
}

/** Every request the scripted model answered, oldest first. */
export function readRequests(workspace: string): ModelRequest[] {
  const path = join(testDir(workspace), 'requests.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as ModelRequest);
}

/**
 * A fresh VS Code profile with the scripted model and the packaged XOS extension installed.
 * Installing must come before anything scans the extensions dir (a folder copy is ignored after).
 */
export async function scriptedAgentProfile(prefix: string): Promise<{ profile: string; dirs: { extensionsDir: string; userDataDir: string } }> {
  const profile = mkdtempSync(join(tmpdir(), `${prefix}-profile-`));
  const dirs = { extensionsDir: join(profile, 'extensions'), userDataDir: join(profile, 'user-data') };
  await vscodeServer.installExtension(await buildScriptedModel(), dirs);
  await vscodeServer.installExtension(await packagedExtension(), dirs);
  return { profile, dirs };
}
