// An SDK MCP client connected in-process to an XOS MCP server (the same server factory the
// loopback endpoint uses), for suites that make many calls: no HTTP in between.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { createXosMcpServer } from '../../src/mcp/server.ts';
import { McpSession } from '../../src/mcp/session.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';

export interface Reply { readonly text: string; readonly isError: boolean }

export interface InMemoryMcp {
  readonly client: Client;
  /** Calls a tool (with `_meta` when given) and returns its text and whether it is an error. */
  call(name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Reply>;
}

export async function connectInMemory(deps: XosDeps | (() => XosDeps), name = 'test'): Promise<InMemoryMcp> {
  const server = createXosMcpServer(typeof deps === 'function' ? deps : () => deps, new McpSession(name, XOS_TOOL_NAMES));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '1' });
  await client.connect(clientSide);
  return {
    client,
    async call(tool, args = {}, meta) {
      const result = await client.callTool({ name: tool, arguments: args, ...(meta ? { _meta: meta } : {}) });
      return { text: (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join(''), isError: result.isError === true };
    },
  };
}
