// The real chat agent mode in code-server, offline: the scripted-model extension plays the
// model, the chat calls an MCP tool (the test extension's own `ping`, then the packaged XOS
// extension's `xos_system_status`) and the final answer quotes the tool's reply.
//   node scripts/provision-vscode.mjs && node_modules/.bin/node --test test/e2e/agent.e2e.ts
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, type Browser, type Page } from './support/browser.ts';
import { vscodeServer, type CodeServer } from './support/codeServer.ts';
import { screenshot } from './support/artifacts.ts';
import { confirmTool, lastAnswer, openWorkbenchChat, saveChatFailure, sendPrompt, waitForTurnEnd } from './support/chat.ts';
import { scriptedAgentProfile, readRequests, scriptedModelSettings, writeScript, type ReadyReport } from './support/scriptedModel.ts';

const TEST_PROMPT = 'Ping the test server';
const XOS_PROMPT = 'What is the XOS status?';
const CARD_PROMPT = 'Stamp the card';

let browser: Browser;
let server: CodeServer;
let page: Page;
let workspace: string;
let profile: string;
let ready: ReadyReport;
let failed = false;

before(async () => {
  vscodeServer.assertProvisioned();
  const created = await scriptedAgentProfile('xos-agent');
  profile = created.profile;
  const dirs = created.dirs;
  assert.deepEqual(await vscodeServer.listExtensions(dirs), ['xos-test.scripted-model@0.0.1', 'xos.xos-vscode@0.1.0']);

  workspace = mkdtempSync(join(tmpdir(), 'xos-agent-ws-'));
  writeFileSync(join(workspace, 'README.md'), '# XOS agent e2e workspace\n');
  writeScript(workspace, {
    [TEST_PROMPT]: [{ tool: 'ping', input: { text: 'agent' } }, { say: 'Result: {{lastResult}}' }],
    [XOS_PROMPT]: [{ tool: 'xos_system_status' }, { say: 'Status: {{lastResult}}' }],
    [CARD_PROMPT]: [{ tool: 'stamp', input: { text: 'card' } }, { say: 'Stamped: {{lastResult}}' }],
  });
  server = await vscodeServer.startCodeServer({ workspace, settings: scriptedModelSettings({ testMcpServer: true }), ...dirs });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  ready = await openWorkbenchChat(page, server, workspace);
});

after(async () => {
  if (failed) await saveChatFailure('agent', page, server, workspace);
  await browser?.close();
  if (failed) {
    await server?.stop();
    console.log(`agent e2e: kept ${workspace} (script, requests.jsonl) and ${server?.home} (code-server log)`);
  } else {
    await server?.dispose();
    rmSync(workspace, { recursive: true, force: true });
  }
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Marks the file as failed (for the artifacts) when `body` throws. */
async function recording(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    failed = true;
    throw error;
  }
}

test('the scripted model is selected and the chat sees the MCP tools', () => recording(async () => {
  assert.deepEqual(ready.models, ['scripted']);
  assert.ok(ready.tools?.includes('mcp_xos-test-mcp_ping'), `live MCP tools: ${ready.tools?.join(', ')}`);
}));

test('agent mode calls the test MCP tool and the answer quotes its reply', { timeout: 180_000 }, () => recording(async () => {
  await sendPrompt(page, TEST_PROMPT);
  await waitForTurnEnd(page, workspace, TEST_PROMPT);
  await screenshot(page, 'agent-test-tool');
  assert.equal(await lastAnswer(page), 'Result: pong agent from the XOS test MCP server');
  const turn = readRequests(workspace).filter((request) => request.prompt.includes(TEST_PROMPT) && request.offered.length > 0);
  assert.deepEqual(turn.map((request) => request.reply), [
    { kind: 'tool', name: 'mcp_xos-test-mcp_ping', input: { text: 'agent' } },
    { kind: 'text', text: 'Result: pong agent from the XOS test MCP server' },
  ]);
}));

test('agent mode calls xos_system_status on the XOS MCP server and quotes it', { timeout: 180_000 }, () => recording(async () => {
  const tool = ready.tools?.find((name) => name.endsWith('_xos_system_status'));
  assert.ok(tool, `no *_xos_system_status among the live MCP tools: ${ready.tools?.join(', ')}`);
  await sendPrompt(page, XOS_PROMPT);
  await waitForTurnEnd(page, workspace, XOS_PROMPT);
  await screenshot(page, 'agent-xos-status');
  const turn = readRequests(workspace).filter((request) => request.prompt.includes(XOS_PROMPT) && request.offered.length > 0);
  assert.deepEqual(turn.map((request) => request.reply.kind), ['tool', 'text']);
  assert.equal(turn[0].reply.kind === 'tool' && turn[0].reply.name, tool);
  const status = turn[1].toolResults.at(-1) ?? '';
  const parsed = JSON.parse(status);
  assert.deepEqual({ app: parsed.app, hasTool: parsed.tools.includes('xos_system_status') }, { app: { name: 'crm', label: 'XOS CRM', version: '1.0.0' }, hasTool: true });
  assert.equal(await lastAnswer(page), `Status: ${status}`);
}));

test('a tool that changes something asks first; "Allow in this Session" runs it', { timeout: 180_000 }, () => recording(async () => {
  await sendPrompt(page, CARD_PROMPT);
  await confirmTool(page, 'Allow in this Session');
  await waitForTurnEnd(page, workspace, CARD_PROMPT);
  await screenshot(page, 'agent-confirmed');
  assert.equal(await lastAnswer(page), 'Stamped: stamped card');
}));
