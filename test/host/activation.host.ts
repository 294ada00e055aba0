// In-host suite: runs inside the real extension host (bundled to CommonJS, loaded as
// extensionTestsPath) and checks that the XOS extension activates and registers its command.
// The host's exit code alone is not trusted (a crashed host also reports 0), so the suite
// writes its own outcome file as well.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';

// Replaced at bundle time with the path the driving test reads.
declare const XOS_HOST_OUTCOME_PATH: string;

export interface HostCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly error?: string;
}

export interface HostOutcome {
  readonly passed: boolean;
  readonly checks: readonly HostCheck[];
}

const extensionId = 'xos.xos-vscode';

const checks: ReadonlyArray<readonly [string, () => Promise<void>]> = [
  ['extension is installed', async () => {
    assert.ok(vscode.extensions.getExtension(extensionId), `${extensionId} not found`);
  }],
  ['extension activates', async () => {
    const extension = vscode.extensions.getExtension(extensionId)!;
    await extension.activate();
    assert.equal(extension.isActive, true);
  }],
  ['command xos.showOutput is registered', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('xos.showOutput'), 'xos.showOutput missing from vscode.commands.getCommands()');
  }],
  ['command xos.showOutput runs', async () => {
    await vscode.commands.executeCommand('xos.showOutput');
  }],
];

/** Entry point VS Code calls for extensionTestsPath; a rejection makes the host exit with 1. */
export async function run(): Promise<void> {
  const results: HostCheck[] = [];
  for (const [name, check] of checks) {
    try {
      await check();
      results.push({ name, ok: true });
      console.log(`ok - ${name}`);
    } catch (error) {
      results.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
      console.log(`not ok - ${name}: ${String(error)}`);
    }
  }
  const outcome: HostOutcome = { passed: results.every((result) => result.ok), checks: results };
  writeFileSync(XOS_HOST_OUTCOME_PATH, `${JSON.stringify(outcome, null, 2)}\n`);
  if (!outcome.passed) throw new Error(`${results.filter((result) => !result.ok).length} in-host checks failed`);
}
