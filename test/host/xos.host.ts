// In-host suite (bundled to CommonJS, loaded as extensionTestsPath): the XOS
// extension inside the real extension host. VS Code's own MCP client finds the
// server and its nine tools; tools called through vscode.lm.invokeTool show
// data on the Board; with XOS_HOST_WORKFLOW the seed's save workflow runs and
// waits for the person (the driving Playwright test) to click Save / Discard.
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { liveMcpTools } from './support/liveTools.ts';
import { invoke, lmToolName, runChecks, step, until, type Check } from './support/suite.ts';

declare const XOS_HOST_OUTCOME_PATH: string;
/** 'board': discovery and Board checks; 'workflow': the save workflow with the person's answers. */
declare const XOS_HOST_MODE: string;


interface XosApi {
  ready(): Promise<void>;
  backend(): { mode: string; where: string; astSource: string } | undefined;
  mcpPort(): number | undefined;
  boardView(): any;
  boardVisible(): boolean;
  locale(): string;
}

const extensionId = 'xos.xos-vscode';
const TOOL_NAMES = ['xos_schema', 'xos_query', 'xos_render', 'xos_ui_change_required', 'xos_ui_save', 'xos_system_status', 'xos_contacts', 'xos_mail_compose', 'xos_mail_send'];
const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';
const facts: Record<string, unknown> = {};

function api(): XosApi {
  return vscode.extensions.getExtension<XosApi>(extensionId)!.exports;
}


const common: Check[] = [
  ['extension activates with the embedded backend on a SQLite file in global storage', async () => {
    const extension = vscode.extensions.getExtension<XosApi>(extensionId);
    assert.ok(extension, `${extensionId} not found`);
    await extension.activate();
    await extension.exports.ready();
    const backend = extension.exports.backend();
    assert.equal(backend?.mode, 'embedded');
    assert.equal(backend?.astSource, 'demo');
    assert.match(backend!.where, /^sqlite:\/.+\/xos\.db$/);
    facts.dsn = backend!.where;
  }],
  ['the XOS commands are registered', async () => {
    const commands = await vscode.commands.getCommands(true);
    const missing = ['xos.openBoard', 'xos.showStatus', 'xos.showOutput'].filter((c) => !commands.includes(c));
    assert.deepEqual(missing, []);
  }],
  ['VS Code\'s MCP client lists the XOS server with all nine tools', async () => {
    const live = await liveMcpTools(TOOL_NAMES);
    assert.equal(live.length, TOOL_NAMES.length);
    assert.ok(live.every((name) => /^mcp_.*xos.*_xos_/.test(name)), live.join(', '));
    facts.toolNames = TOOL_NAMES.map(lmToolName);
  }],
];

const boardChecks: Check[] = [
  ['xos.showStatus reports the same as xos_system_status', async () => {
    const status = await vscode.commands.executeCommand<Record<string, any>>('xos.showStatus');
    assert.equal(status.tools.length, 9);
    assert.equal(status.dsn.ok, true);
    assert.equal(status.dsn.kind, 'sqlite');
    assert.equal(`sqlite:${status.dsn.description.replace(/^sqlite:/, '')}`, facts.dsn);
    const fromTool = JSON.parse(await invoke('xos_system_status'));
    assert.deepEqual(fromTool.dsn.description, status.dsn.description);
    assert.deepEqual(fromTool.app, { name: 'crm', label: 'XOS CRM', version: '1.0.0' });
  }],
  ['xos_query before xos_schema is refused by the server', async () => {
    const text = await invoke('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' });
    assert.match(text, /^Call xos_schema first/);
  }],
  ['xos_query person_list opens the Board and shows the list', async () => {
    assert.match(await invoke('xos_schema'), /person_list/);
    const text = await invoke('xos_query', { context: 'person_list', query: '{ person_list(limit: 5) { id firstname lastname email city age net_worth } }' });
    assert.equal(text, 'All data was successfully displayed in the UI. (5 records of person_list.)');
    await until('the Board panel to be visible', () => api().boardVisible());
    const list = api().boardView().list;
    assert.equal(list.context, 'person_list');
    assert.equal(list.rows.length, 5);
    assert.equal(list.navigable, true);
    await step('board-list');
  }],
  ['a detail with a proposal shows old -> new, and hiding the Board loses nothing', async () => {
    await invoke('xos_query', { context: 'person_detail', query: `{ person_detail(id: "2") { ${DETAIL_FIELDS} } }` });
    const before = api().boardView().detail;
    const lastname = before.fields.find((f: any) => f.field === 'lastname');
    const text = await invoke('xos_ui_change_required', { context: 'person_detail', changes: { lastname: 'Schmidt' } });
    assert.match(text, /lastname/);
    const after = api().boardView().detail.fields.find((f: any) => f.field === 'lastname');
    assert.deepEqual(after.pending, { from: lastname.value, to: 'Schmidt' });
    await step('board-preview');
    // Another editor in front: the webview is discarded; the state stays in the host.
    await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
    await until('the Board to be hidden', () => !api().boardVisible());
    await vscode.commands.executeCommand('xos.openBoard');
    await until('the Board to be visible again', () => api().boardVisible());
    assert.deepEqual(api().boardView().detail.fields.find((f: any) => f.field === 'lastname').pending, { from: lastname.value, to: 'Schmidt' });
    await step('board-reshown');
  }],
];

/** The seed's workflow; the driving test clicks Save on the first question and Discard on the second. */
const workflowChecks: Check[] = [
  ['the seed workflow: schema, list, detail, change lastname, save (Save clicked)', async () => {
    const schema = JSON.parse(await invoke('xos_schema'));
    assert.ok(schema.contexts.person_detail);
    await step('workflow-schema');
    assert.equal(await invoke('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }),
      'All data was successfully displayed in the UI. (240 records of person_list.)');
    await until('the Board to show the list', () => api().boardVisible() && api().boardView().list?.total === 240);
    await step('workflow-list');
    assert.equal(await invoke('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` }),
      'All data was successfully displayed in the UI. (1 record of person_detail.)');
    facts.lastnameBefore = api().boardView().detail.fields.find((f: any) => f.field === 'lastname').value;
    await step('workflow-detail');
    await invoke('xos_ui_change_required', { context: 'person_detail', changes: { lastname: 'Schmidt' } });
    await step('workflow-preview');
    await step('workflow-save-asking', { wait: false });
    const saved = await invoke('xos_ui_save');
    facts.saveReply = saved;
    assert.match(saved, /^Saved person 1 "Max Schmidt" \(version \d+ -> \d+\)\. Stored: lastname: "Schmidt"\.$/);
    await step('workflow-saved');
  }],
  ['the same with Discard leaves the record untouched', async () => {
    await invoke('xos_ui_change_required', { context: 'person_detail', changes: { lastname: 'Meier' } });
    await step('workflow-discard-asking', { wait: false });
    const reply = await invoke('xos_ui_save');
    facts.discardReply = reply;
    assert.equal(reply, 'Not saved: the person chose Discard. Nothing was written; the preview stays on the Board.');
    const read = await invoke('xos_query', { context: 'person_detail', query: `{ person_detail(id: "1") { ${DETAIL_FIELDS} } }` });
    assert.match(read, /^All data was successfully displayed/);
    assert.equal(api().boardView().detail.fields.find((f: any) => f.field === 'lastname').value, 'Schmidt');
    await step('workflow-discarded');
  }],
  ['the person undoes the save from the Board\'s History (asked, Save clicked)', async () => {
    // The driving test opens the History, clicks Undo on the agent's save and answers the save question.
    await step('workflow-undo');
    const lastname = () => api().boardView().detail?.fields.find((f: any) => f.field === 'lastname');
    await until('the old last name to be stored again', () => lastname()?.value === facts.lastnameBefore && !lastname()?.edited && api().boardView().detail?.summary === '#1' && api().boardView().detail?.version === 3);
    await step('workflow-undone');
  }],
];

export async function run(): Promise<void> {
  await runChecks([...common, ...(XOS_HOST_MODE === 'workflow' ? workflowChecks : boardChecks)], XOS_HOST_OUTCOME_PATH, facts);
}
