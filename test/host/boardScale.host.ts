// In-host suite for test/e2e/boardScale.e2e.ts (bundled to CommonJS, loaded as extensionTestsPath):
// the extension on a database of 100,000 people; xos_query through VS Code's MCP client
// shows them on the Board and answers with the count only. The driving test measures
// tool call -> first rows and works the grid like a person (Ctrl+End, sort, filter).
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { liveMcpTools } from './support/liveTools.ts';
import { invoke, runChecks, step, until } from './support/suite.ts';

declare const XOS_HOST_OUTCOME_PATH: string;
/** The database the driving test seeded, and how many people it holds. */
declare const XOS_SCALE_DSN: string;
declare const XOS_SCALE_ROWS: number;

interface XosApi {
  ready(): Promise<void>;
  backend(): { mode: string; where: string } | undefined;
  boardView(): any;
  boardVisible(): boolean;
}

const facts: Record<string, unknown> = {};
const api = () => vscode.extensions.getExtension<XosApi>('xos.xos-vscode')!.exports;

export async function run(): Promise<void> {
  await runChecks([
    ['the extension runs on the seeded database', async () => {
      const extension = vscode.extensions.getExtension<XosApi>('xos.xos-vscode');
      assert.ok(extension);
      await extension.activate();
      await extension.exports.ready();
      // xos.dsn is machine-overridable: a remote (code-server) extension host ignores it in the
      // browser's user settings, so the suite sets it for the workspace, as a person would there.
      await vscode.workspace.getConfiguration('xos').update('dsn', XOS_SCALE_DSN, vscode.ConfigurationTarget.Workspace);
      await until('the backend to open the seeded database', () => extension.exports.backend()?.where === XOS_SCALE_DSN, 60_000);
      await liveMcpTools(['xos_schema', 'xos_query']);
    }],
    [`xos_query of ${XOS_SCALE_ROWS} people answers with the count, and the Board shows them`, async () => {
      assert.match(await invoke('xos_schema'), /person_list/);
      await vscode.commands.executeCommand('xos.openBoard');
      await until('the Board panel to be visible', () => api().boardVisible());
      await step('scale-board-open');
      facts.queryStartedAt = Date.now();
      const text = await invoke('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' });
      facts.queryAnsweredAt = Date.now();
      assert.equal(text, `All data was successfully displayed in the UI. (${XOS_SCALE_ROWS} records of person_list.)`);
      assert.equal(api().boardView().list.total, XOS_SCALE_ROWS);
      await step('scale-list');
    }],
  ], XOS_HOST_OUTCOME_PATH, facts);
}
