// In-host suite for test/e2e/boardReview.e2e.ts (bundled to CommonJS, loaded as extensionTestsPath):
// the agent's side of "many records, one review" through VS Code's MCP client. It proposes a
// change for 200 people in one xos_ui_change_required call on person_list, then a change for
// three; the driving test works the review grid like a person, clicks Save on the Board, answers
// VS Code's question and reads the stored records back from the SQLite file.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { liveMcpTools } from './support/liveTools.ts';
import { invoke, runChecks, step, until } from './support/suite.ts';

declare const XOS_HOST_OUTCOME_PATH: string;
/** Where the suite tells the driving test the database it may read (and write to, as someone else). */
declare const XOS_REVIEW_FACTS_PATH: string;

interface XosApi {
  ready(): Promise<void>;
  backend(): { mode: string; where: string } | undefined;
  boardView(): any;
  boardVisible(): boolean;
}

const facts: Record<string, unknown> = {};
const api = () => vscode.extensions.getExtension<XosApi>('xos.xos-vscode')!.exports;
const LIST_QUERY = '{ person_list { id firstname lastname email city age net_worth } }';

export async function run(): Promise<void> {
  await runChecks([
    ['the extension runs on its embedded backend and the agent\'s tools are live', async () => {
      const extension = vscode.extensions.getExtension<XosApi>('xos.xos-vscode');
      assert.ok(extension);
      await extension.activate();
      await extension.exports.ready();
      const backend = extension.exports.backend();
      assert.equal(backend?.mode, 'embedded');
      assert.match(backend!.where, /^sqlite:\/.+\.db$/);
      facts.dsn = backend!.where;
      writeFileSync(XOS_REVIEW_FACTS_PATH, JSON.stringify({ dsn: backend!.where }));
      await liveMcpTools(['xos_schema', 'xos_query', 'xos_ui_change_required']);
    }],
    ['one xos_ui_change_required proposes a city and an age for 200 people; the person reviews and saves on the Board', async () => {
      assert.match(await invoke('xos_schema'), /person_list/);
      assert.equal(await invoke('xos_query', { context: 'person_list', query: LIST_QUERY }), 'All data was successfully displayed in the UI. (240 records of person_list.)');
      await until('the Board to show the list', () => api().boardVisible() && api().boardView().list?.total === 240);
      facts.proposeReply = await invoke('xos_ui_change_required', {
        context: 'person_list', changes: { where: { id: { _lte: 200 } }, set: { city: 'Zzreview', age: { _add: 90 } } },
      });
      // The driving test rejects, edits, filters, saves and answers VS Code's question.
      await step('review-shown', { timeoutMs: 240_000 });
      // After the save the Board shows the list as stored now.
      assert.equal(api().boardView().list?.context, 'person_list');
    }],
    ['someone else changes one of three proposed rows: nothing is written, the row is marked; accepted again, it is saved', async () => {
      facts.conflictReply = await invoke('xos_ui_change_required', {
        context: 'person_list', changes: ['201', '202', '203'].map((id) => ({ id, city: 'Zzconflict' })),
      });
      await step('conflict-review', { timeoutMs: 240_000 });
      assert.equal(api().boardView().list?.context, 'person_list');
    }],
  ], XOS_HOST_OUTCOME_PATH, facts);
}
