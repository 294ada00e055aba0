// Tells VS Code where the XOS MCP server is: the loopback Streamable HTTP
// endpoint this extension runs, with a bearer token that lives only as long
// as this activation. The definition's version follows the tool set.
import { createHash, randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { startMcpHttpServer, type McpHttpServer } from '../mcp/http.ts';
import type { XosDeps } from '../mcp/ports.ts';
import { XOS_TOOLS } from '../mcp/registry.ts';
import { notify } from './notify.ts';

export const mcpServerLabel = 'XOS';

/** Changes whenever a tool is added, removed, renamed or described differently. */
export function toolSetVersion(tools: ReadonlyArray<{ readonly name: string; readonly description: string }> = XOS_TOOLS): string {
  const hash = createHash('sha256');
  for (const tool of tools) hash.update(`${tool.name}\n${tool.description}\n\0`);
  return hash.digest('hex').slice(0, 16);
}

export class XosMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly output: vscode.LogOutputChannel;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private server: McpHttpServer | undefined;
  private token = '';
  private running: Promise<void> = Promise.resolve();

  constructor(output: vscode.LogOutputChannel) {
    this.output = output;
  }

  get port(): number | undefined {
    return this.server?.port;
  }

  get sessionCount(): number {
    return this.server?.sessionCount() ?? 0;
  }

  /** Starts (or restarts) the loopback server; VS Code is told to pick up the new definition. */
  start(deps: () => XosDeps, port: number): Promise<void> {
    this.running = this.running.then(async () => {
      const previous = this.server;
      this.server = undefined;
      await previous?.close();
      this.token = randomBytes(32).toString('base64url');
      try {
        this.server = await startMcpHttpServer(deps, { token: this.token, port });
        this.output.info(`XOS MCP server listening on ${this.server.url}`);
      } catch (error) {
        this.output.error(`XOS MCP server did not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
        void notify('error', vscode.l10n.t('The XOS MCP server did not start on port {0}. Change the setting xos.mcp.port (0 picks a free port).', port));
      }
      this.changed.fire();
    });
    return this.running;
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    if (!this.server) return [];
    return [new vscode.McpHttpServerDefinition(mcpServerLabel, vscode.Uri.parse(this.server.url), { Authorization: `Bearer ${this.token}` }, toolSetVersion())];
  }

  resolveMcpServerDefinition(definition: vscode.McpHttpServerDefinition): vscode.McpHttpServerDefinition {
    return definition;
  }

  async close(): Promise<void> {
    await this.running;
    const server = this.server;
    this.server = undefined;
    await server?.close();
  }

  dispose(): void {
    void this.close();
    this.changed.dispose();
  }
}
