// The xos.* settings as one typed snapshot.
import * as vscode from 'vscode';

export interface XosSettings {
  readonly endpoint: string;
  readonly ast: string;
  readonly dsn: string;
  readonly locale: string;
  readonly mcpPort: number;
  readonly confirmTimeoutSeconds: number;
}

export function readSettings(): XosSettings {
  const config = vscode.workspace.getConfiguration('xos');
  return {
    endpoint: config.get<string>('endpoint', '').trim(),
    ast: config.get<string>('ast', '').trim(),
    dsn: config.get<string>('dsn', '').trim(),
    locale: config.get<string>('locale', '').trim(),
    mcpPort: config.get<number>('mcp.port', 0),
    confirmTimeoutSeconds: config.get<number>('confirm.timeoutSeconds', 300),
  };
}

/** Settings whose change needs a new backend. */
export const backendSettings = ['xos.endpoint', 'xos.ast', 'xos.dsn'] as const;
/** Settings whose change needs a new MCP server. */
export const mcpSettings = ['xos.mcp.port', 'xos.locale'] as const;
