// Brings a fresh VS Code profile to live MCP tools, inside the extension host.
// On a fresh profile the built-in chat starts disabled (and with it MCP tools);
// workbench.action.chat.manage re-enables it, sometimes only on a second try,
// and an extension's MCP server may register a moment after start-up, so both
// are nudged until the wanted tools appear, within a deadline.
import * as vscode from 'vscode';

const COPILOT_CHAT = 'GitHub.copilot-chat';
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until VS Code lists `mcp_<server>_<tool>` for every name; returns the full tool names. */
export async function liveMcpTools(tools: readonly string[], { timeoutMs = 90_000, nudgeEveryMs = 5_000 } = {}): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let nextNudge = 0;
  const find = () => tools.map((tool) => vscode.lm.tools.find((t) => t.name.startsWith('mcp_') && t.name.endsWith(`_${tool}`))?.name);
  for (;;) {
    const found = find();
    if (found.every((name) => name !== undefined)) return found as string[];
    if (Date.now() >= deadline) {
      const missing = tools.filter((_, i) => found[i] === undefined);
      throw new Error(`timed out after ${timeoutMs} ms waiting for the MCP tools ${missing.join(', ')}; chat active: ${vscode.extensions.getExtension(COPILOT_CHAT)?.isActive === true}`);
    }
    if (Date.now() >= nextNudge) {
      nextNudge = Date.now() + nudgeEveryMs;
      if (vscode.extensions.getExtension(COPILOT_CHAT)?.isActive !== true) {
        await Promise.resolve(vscode.commands.executeCommand('workbench.action.chat.manage')).catch(() => undefined);
        await Promise.resolve(vscode.commands.executeCommand('workbench.action.closeActiveEditor')).catch(() => undefined);
      }
      // Not awaited: with waitForLiveTools it can take long, and the loop checks anyway.
      void Promise.resolve(vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true })).catch(() => undefined);
    }
    await delay(250);
  }
}
