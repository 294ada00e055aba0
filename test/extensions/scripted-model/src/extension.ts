// Test-only extension: a language model chat provider (vendor "xos-test") that answers from a
// JSON script, optionally a tiny stdio MCP server, and start-up steps that make a fresh
// code-server profile ready for agent mode. Every request is logged next to the script.
import * as vscode from 'vscode';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nextReply, type Reply, type Script, type Turn } from './script.ts';

const VENDOR = 'xos-test';

function scriptPath(): string | undefined {
  const configured = vscode.workspace.getConfiguration('xosTest').get<string>('script');
  if (configured) return configured;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? join(folder.uri.fsPath, '.xos-test', 'script.json') : undefined;
}

/** Read on every request, so a test may write the script after start-up. */
function readScript(path: string | undefined): Script {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Script;
  } catch {
    return {};
  }
}

function record(path: string | undefined, file: string, entry: unknown): void {
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(join(dirname(path), file), `${JSON.stringify(entry)}\n`);
}

const isToolResult = (part: unknown): part is { callId: string; content: readonly unknown[] } =>
  typeof part === 'object' && part !== null && 'callId' in part && Array.isArray((part as { content?: unknown }).content);

const textOf = (parts: readonly unknown[]): string => parts
  .map((part) => (typeof part === 'object' && part !== null && typeof (part as { value?: unknown }).value === 'string' ? (part as { value: string }).value : ''))
  .join('');

/** The last user message that is not a tool result, and the tool results after it. */
function currentTurn(messages: readonly vscode.LanguageModelChatRequestMessage[]): Turn {
  let promptIndex = -1;
  messages.forEach((message, index) => {
    if (message.role === vscode.LanguageModelChatMessageRole.User && !message.content.some(isToolResult) && textOf(message.content)) promptIndex = index;
  });
  const toolResults: string[] = [];
  for (const message of messages.slice(promptIndex + 1)) {
    for (const part of message.content) if (isToolResult(part)) toolResults.push(textOf(part.content));
  }
  return { prompt: promptIndex >= 0 ? textOf(messages[promptIndex].content) : '', toolResults };
}

let callCount = 0;

const provider: vscode.LanguageModelChatProvider = {
  provideLanguageModelChatInformation: () => [{
    id: 'scripted',
    name: 'XOS Scripted Model',
    family: 'scripted',
    version: '1',
    maxInputTokens: 128_000,
    maxOutputTokens: 4_096,
    capabilities: { toolCalling: true },
  }],
  provideLanguageModelChatResponse: async (_model, messages, options, progress) => {
    const path = scriptPath();
    const offered = (options.tools ?? []).map((tool) => tool.name);
    const turn = currentTurn(messages);
    const reply: Reply = nextReply(readScript(path), turn, offered);
    record(path, 'requests.jsonl', { offered, prompt: turn.prompt.slice(-400), toolResults: turn.toolResults, reply });
    if (reply.kind === 'tool') progress.report(new vscode.LanguageModelToolCallPart(`xos-test-call-${++callCount}`, reply.name, reply.input));
    else progress.report(new vscode.LanguageModelTextPart(reply.text));
  },
  provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text.content)).length / 4),
};

function testMcpServers(context: vscode.ExtensionContext): vscode.McpServerDefinitionProvider {
  return {
    provideMcpServerDefinitions: () => {
      if (!vscode.workspace.getConfiguration('xosTest').get<boolean>('mcpServer')) return [];
      return [new vscode.McpStdioServerDefinition('XOS Test MCP', process.execPath, [join(context.extensionPath, 'dist', 'mcp-server.mjs')], {}, '0.0.1')];
    },
  };
}

const COPILOT_CHAT = 'GitHub.copilot-chat';
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true, re-running `nudge` every `nudgeEveryMs`; false at the deadline. */
async function until(check: () => boolean, nudge: () => Thenable<unknown>, { timeoutMs = 60_000, nudgeEveryMs = 10_000 } = {}): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let nextNudge = 0;
  while (Date.now() < deadline) {
    if (check()) return true;
    if (Date.now() >= nextNudge) {
      nextNudge = Date.now() + nudgeEveryMs;
      await Promise.resolve(nudge()).catch(() => undefined);
    }
    await delay(250);
  }
  return check();
}

const mcpTools = () => vscode.lm.tools.map((tool) => tool.name).filter((name) => name.startsWith('mcp_'));

/**
 * Brings a fresh profile to a usable agent mode and reports what it found in ready.json:
 * the built-in chat starts disabled (chat setup not done) until workbench.action.chat.manage
 * runs, and MCP tools appear only once their servers were started.
 */
async function prepare(): Promise<void> {
  const config = vscode.workspace.getConfiguration('xosTest');
  const path = scriptPath();
  const steps: string[] = [];
  try {
    if (config.get<boolean>('prepareChat')) {
      const active = await until(
        () => vscode.extensions.getExtension(COPILOT_CHAT)?.isActive === true,
        () => vscode.commands.executeCommand('workbench.action.chat.manage'),
      );
      if (!active) throw new Error(`${COPILOT_CHAT} did not become active after workbench.action.chat.manage`);
      steps.push('chat.manage');
    }
    if (config.get<boolean>('startMcpServers')) {
      // Extension-provided servers (XOS among them) may register a moment after start-up.
      const expected = config.get<boolean>('mcpServer') ? 'mcp_xos-test-mcp_' : 'mcp_';
      await until(
        () => mcpTools().some((name) => name.startsWith(expected)),
        () => vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true }),
        { timeoutMs: 60_000, nudgeEveryMs: 5_000 },
      );
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
      steps.push('mcp.startServer');
    }
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    writeReady(path, { ok: true, steps, models: models.map((model) => model.id), tools: mcpTools() });
  } catch (error) {
    writeReady(path, { ok: false, steps, error: error instanceof Error ? error.message : String(error), tools: mcpTools() });
  }
}

function writeReady(path: string | undefined, value: unknown): void {
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(join(dirname(path), 'ready.json'), `${JSON.stringify(value, null, 2)}\n`);
}

export function activate(context: vscode.ExtensionContext): void {
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    vscode.lm.registerLanguageModelChatProvider(VENDOR, { ...provider, onDidChangeLanguageModelChatInformation: changed.event }),
    vscode.lm.registerMcpServerDefinitionProvider('xos-test-mcp', testMcpServers(context)),
    vscode.commands.registerCommand('xosTest.prepare', prepare),
  );
  changed.fire();
  void prepare();
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
