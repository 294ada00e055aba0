// One MCP server per MCP session, with every XOS tool registered.
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json' with { type: 'json' };
import { BackendUnavailableError, unavailableReply } from '../graphql/unavailable.ts';
import { registerCardResource } from './apps/card.ts';
import { configuredFor, unmetPrecondition } from './preconditions.ts';
import { registerPrompts } from './prompts.ts';
import type { XosDeps } from './ports.ts';
import { fail } from './result.ts';
import { XOS_TOOLS } from './registry.ts';
import type { McpSession } from './session.ts';

export const SERVER_INFO = { name: 'xos', title: 'XOS', version: packageJson.version };

/** `deps` is read at each call, so a changed setting (mailer, locale) applies at once. */
export function createXosMcpServer(deps: () => XosDeps, session: McpSession): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: 'XOS: call xos_schema first in every conversation and follow its prompts. Data is shown on the Board; '
      + 'save or send only after the person said so (XOS asks them to confirm: in VS Code, or on the XOS Board page).',
  });
  for (const tool of XOS_TOOLS) {
    const config = {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: { title: tool.title, ...tool.annotations },
    };
    const handle = async (args: Record<string, unknown>, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<CallToolResult> => {
      const current = deps();
      // The tools the current settings allow, for xos_system_status; the schema rule per conversation (or handle).
      const scoped = session.forCall(extra._meta, XOS_TOOLS.filter((t) => configuredFor(t, current)).map((t) => t.name), args);
      const unmet = unmetPrecondition(tool, current, scoped);
      if (unmet) return fail(unmet);
      try {
        return await tool.handler(args, current, scoped, extra.signal);
      } catch (error) {
        // An unreachable data source is expected and worth waiting out; anything else is a bug.
        if (error instanceof BackendUnavailableError) return fail(unavailableReply(tool.name, error));
        throw error;
      }
    };
    // A tool that shows something links the inline card (MCP Apps): `_meta.ui.resourceUri`, and the legacy key for older hosts.
    if (tool.appResource) registerAppTool(server, tool.name, { ...config, _meta: { ui: { resourceUri: tool.appResource } } }, handle);
    else server.registerTool(tool.name, config, handle);
  }
  registerCardResource(server);
  // The app's prompts, when the backend (and so the AST) is there when the session starts.
  const ast = (() => {
    try {
      return deps().client.ast();
    } catch {
      return undefined;
    }
  })();
  if (ast) registerPrompts(server, ast);
  return server;
}
