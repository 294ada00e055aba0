// In-host suite: runs inside the real extension host (bundled to CommonJS, loaded as
// extensionTestsPath) and checks that the XOS extension activates and registers its command.
// The host's exit code alone is not trusted (a crashed host also reports 0), so the suite
// writes its own outcome file as well.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { runChecks, type Check } from './support/suite.ts';
import { resolveSqliteDsn } from '../../src/host/backendSetup.ts';

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

const checks: readonly Check[] = [
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
  ['a relative SQLite DSN names a file in the workspace, not in the host\'s working directory', async () => {
    assert.equal(resolveSqliteDsn('sqlite:data/shop.db', '/work/space'), 'sqlite:/work/space/data/shop.db');
    assert.equal(resolveSqliteDsn('sqlite:/abs/shop.db', '/work/space'), 'sqlite:/abs/shop.db');
    assert.equal(resolveSqliteDsn('sqlite::memory:', '/work/space'), 'sqlite::memory:');
    assert.equal(resolveSqliteDsn('postgres://db.example/shop', '/work/space'), 'postgres://db.example/shop');
    assert.equal(resolveSqliteDsn('sqlite:shop.db', undefined), 'sqlite:shop.db');
  }],
];

/** Entry point VS Code calls for extensionTestsPath; a rejection makes the host exit with 1. */
export async function run(): Promise<void> {
  await runChecks(checks, XOS_HOST_OUTCOME_PATH);
}
