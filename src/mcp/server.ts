// One MCP server per MCP session, with every XOS tool registered.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { BackendUnavailableError, unavailableReply } from '../core/unavailable.ts';
import type { XosDeps } from './ports.ts';
import { fail } from './result.ts';
import { XOS_TOOLS } from './registry.ts';
import type { McpSession } from './session.ts';

export const SERVER_INFO = { name: 'xos', title: 'XOS', version: '0.1.0' };

/** `deps` is read at each call, so a changed setting (mailer, locale) applies at once. */
export function createXosMcpServer(deps: () => XosDeps, session: McpSession): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: 'XOS: call xos_schema first in every session and follow its prompts. Data is shown on the Board; '
      + 'save or send only after the person said so (VS Code asks them to confirm).',
  });
  for (const tool of XOS_TOOLS) {
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { title: tool.title, ...tool.annotations },
    }, async (args: Record<string, unknown>, extra) => {
      try {
        return await tool.handler(args, deps(), session.forCall(extra._meta), extra.signal);
      } catch (error) {
        // An unreachable data source is expected and worth waiting out; anything else is a bug.
        if (error instanceof BackendUnavailableError) return fail(unavailableReply(tool.name, error));
        throw error;
      }
    });
  }
  return server;
}
