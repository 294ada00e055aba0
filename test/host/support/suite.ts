// What every in-host suite needs: waiting for conditions, calling XOS tools
// through VS Code's language model API, meeting the driving browser test at
// named steps, and running checks into the outcome file the test trusts
// together with the host's exit code (a crashed host also reports 0).
import * as vscode from 'vscode';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Check = readonly [name: string, run: () => Promise<void>];

export interface HostCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
}

/** Polls `check` until it returns something other than undefined/false, within a deadline. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The name VS Code gives an XOS tool (`mcp_<server>_<tool>`). */
export function lmToolName(tool: string): string {
  const found = vscode.lm.tools.find((t) => t.name.startsWith('mcp_') && t.name.endsWith(`_${tool}`));
  if (!found) throw new Error(`no language model tool for ${tool}; tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
  return found.name;
}

/** Calls a tool through VS Code's MCP client and returns its text. */
export async function invoke(tool: string, input: Record<string, unknown> = {}): Promise<string> {
  const result = await vscode.lm.invokeTool(lmToolName(tool), { input, toolInvocationToken: undefined });
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : JSON.stringify(part))).join('');
}

/**
 * Tells the driving test where we are (it takes screenshots, checks the page, clicks)
 * and, unless `wait` is false, waits until it wrote `.xos-e2e/<name>.done` into the workspace.
 */
export async function step(name: string, { wait = true, timeoutMs = 120_000 } = {}): Promise<void> {
  console.log(`xos-step: ${name}`);
  if (!wait) return;
  const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
  await until(`the driving test to finish step ${name}`, () => existsSync(join(root, '.xos-e2e', `${name}.done`)), timeoutMs);
}

/** Runs the checks in order, writes the outcome file, and rejects (host exit 1) if one failed. */
export async function runChecks(checks: readonly Check[], outcomePath: string, facts?: Record<string, unknown>): Promise<void> {
  const results: HostCheck[] = [];
  for (const [name, check] of checks) {
    try {
      await check();
      results.push({ name, ok: true });
      console.log(`ok - ${name}`);
    } catch (error) {
      results.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
      console.log(`not ok - ${name}: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }
  const outcome = { passed: results.every((r) => r.ok), checks: results, ...(facts ? { facts } : {}) };
  writeFileSync(outcomePath, `${JSON.stringify(outcome, null, 2)}\n`);
  if (!outcome.passed) throw new Error(`${results.filter((r) => !r.ok).length} in-host checks failed`);
}
