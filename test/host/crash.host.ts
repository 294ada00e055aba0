// In-host suite for test/e2e/crash.e2e.ts, run twice in one VS Code (code-server). First run:
// the agent loads a record and proposes a change; once XOS has kept that unsaved work on disk,
// the suite names its extension host's pid and waits — the driving test kills that process with
// SIGKILL and reloads the page. Second run (the test left a marker): the new extension host must
// offer the work back, and the Board must show the proposal again, nothing saved.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveMcpTools } from './support/liveTools.ts';
import { invoke, runChecks, step, until, type Check } from './support/suite.ts';

declare const XOS_HOST_OUTCOME_PATH: string;

interface BoardField { readonly field: string; readonly value: unknown; readonly pending?: { readonly from: string; readonly to: string } }
interface XosApi {
  ready(): Promise<void>;
  boardView(): { detail?: { readonly key: string; readonly fields: readonly BoardField[] } };
  keptDraftPath(): string;
  keptHistoryPath(): string;
}

const extensionId = 'xos.xos-vscode';
const PROPOSED = 'Nach-dem-Absturz';
const DETAIL = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';

async function xos(): Promise<XosApi> {
  const extension = vscode.extensions.getExtension<XosApi>(extensionId);
  assert.ok(extension, `${extensionId} not found`);
  await extension.activate();
  await extension.exports.ready();
  return extension.exports;
}

const afterCrash = existsSync(join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.xos-e2e', 'after-crash'));

const beforeCrash: Check[] = [
  ['the agent loads person 1 and proposes a new last name; XOS keeps it on disk; then the host is killed', async () => {
    const api = await xos();
    await liveMcpTools(['xos_schema', 'xos_query', 'xos_ui_change_required']);
    await invoke('xos_schema');
    // The list first: after the reload, Back leads to it.
    assert.match(await invoke('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }), /^All data was successfully displayed/);
    assert.match(await invoke('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL} } }` }), /^All data was successfully displayed/);
    assert.match(await invoke('xos_ui_change_required', { context: 'person_detail', changes: { lastname: PROPOSED } }), /^Preview on the Board/);
    // Kept means written: wait for the file, not for a time.
    await until('the unsaved work on disk', () => existsSync(api.keptDraftPath()) && readFileSync(api.keptDraftPath(), 'utf8').includes(PROPOSED), 10_000);
    await until('the history on disk', () => existsSync(api.keptHistoryPath()) && readFileSync(api.keptHistoryPath(), 'utf8').includes('person_detail'), 10_000);
    // The driving test kills this process now; the step never comes back.
    await step(`kill-${process.pid}`, { timeoutMs: 60_000 });
    throw new Error('the extension host was not killed');
  }],
];

const restored: Check[] = [
  ['after the crash and a reload, the Board shows the proposal again, and nothing was saved', async () => {
    const api = await xos();
    const field = await until('the restored proposal on the Board', () => api.boardView().detail?.fields.find((f) => f.field === 'lastname' && f.pending?.to === PROPOSED), 30_000);
    assert.equal(field.pending?.from, 'Mustermann', 'the stored value is unchanged');
    await step('restored', { wait: true });
  }],
];

export async function run(): Promise<void> {
  await runChecks(afterCrash ? restored : beforeCrash, XOS_HOST_OUTCOME_PATH);
}
