// MCP over stdio (xos-mcp started by its client). The connection's opening exchange picks the
// protocol revision: a 2025 initialize gets one server with the session this connection is, a
// 2026-07-28 opening a server without a session (the schema rule through workflow handles).
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { XosDeps } from './ports.ts';
import { XOS_TOOL_NAMES } from './registry.ts';
import { WorkflowHandles } from './handles.ts';
import { requesterCredential, xosServerFactory } from './server.ts';
import { McpSession } from './session.ts';

export interface StdioStreams {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
}

/** Serves the XOS tools on `streams` (default: the process's own); `log` hears what went wrong with the connection. */
export function serveMcpStdio(deps: () => XosDeps, log: (line: string) => void, streams?: StdioStreams): StdioServerHandle {
  const transport = streams ? new StdioServerTransport(streams.stdin as never, streams.stdout as never) : new StdioServerTransport();
  return serveStdio(xosServerFactory(deps, { handles: new WorkflowHandles(), via: 'stdio', credential: requesterCredential('stdio') }, () => new McpSession('stdio', XOS_TOOL_NAMES)), {
    transport,
    onerror: (error) => log(`MCP: ${error.message}`),
  });
}
