// One MCP server per MCP session (protocol 2025-11-25), or per request (2026-07-28, no
// session), with every XOS tool registered. One factory serves both revisions.
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { CLIENT_INFO_META_KEY, McpServer, type McpServerFactory, type ProtocolEra } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { BackendUnavailableError, unavailableReply } from '../graphql/unavailable.ts';
import { registerCardResource } from './apps/card.ts';
import { configuredFor, unmetPrecondition } from './preconditions.ts';
import { registerPrompts } from './prompts.ts';
import type { XosDeps } from './ports.ts';
import { fail } from './result.ts';
import { XOS_TOOLS, XOS_TOOL_NAMES } from './registry.ts';
import { CONVERSATION_META_KEY, McpSession } from './session.ts';

export type { ProtocolEra };

export const SERVER_INFO = { name: 'xos', title: 'XOS', version: packageJson.version };

/** Each tool's schemas as the SDK takes them, made once for every server (one per request under 2026-07-28). */
const SCHEMAS = new Map(XOS_TOOLS.map((tool) => [tool, {
  inputSchema: z.object(tool.inputSchema),
  ...(tool.outputSchema ? { outputSchema: z.object(tool.outputSchema) } : {}),
}]));

/**
 * `deps` is read at each call, so a changed setting (mailer, locale) applies at once. `era`: the
 * protocol revision the server speaks; `modern` (2026-07-28) has no MCP session, so `session` is
 * then a sessionless one (McpSession.sessionless).
 */
export function createXosMcpServer(deps: () => XosDeps, session: McpSession, era: ProtocolEra = 'legacy'): McpServer {
  if ((era === 'modern') !== session.stateless) throw new Error(`an MCP server of the ${era} era needs a ${era === 'modern' ? 'sessionless' : 'session\'s'} McpSession`);
  const server = new McpServer(SERVER_INFO, {
    instructions: 'XOS: call xos_schema first in every conversation and follow its prompts. Data is shown on the Board; '
      + 'save or send only after the person said so (XOS asks them to confirm: in VS Code, or on the XOS Board page).',
  });
  for (const tool of XOS_TOOLS) {
    const config = {
      title: tool.title,
      description: tool.description,
      ...SCHEMAS.get(tool)!,
      annotations: { title: tool.title, ...tool.annotations },
    };
    const handle = async (args: Record<string, unknown>, ctx: ServerContext): Promise<CallToolResult> => {
      const current = deps();
      // The tools the current settings allow, for xos_system_status; the schema rule per conversation.
      const scoped = session.forCall(callScope(ctx, session), XOS_TOOLS.filter((t) => configuredFor(t, current)).map((t) => t.name));
      const unmet = unmetPrecondition(tool, current, scoped);
      if (unmet) return fail(unmet);
      try {
        return await tool.handler(args, current, scoped, ctx.mcpReq.signal);
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

/**
 * Without an MCP session (2026-07-28), the schema rule is kept per conversation id where `_meta`
 * names one, else per client: the request envelope names the client (its clientInfo), nothing
 * finer. Conversations that loaded the schema live in one bounded set for the whole server.
 */
export class SessionlessScopes {
  private readonly loaded = new Set<string>();

  session(): McpSession {
    return McpSession.sessionless(XOS_TOOL_NAMES, this.loaded);
  }
}

/**
 * The factory the serving entries call (the HTTP endpoint for 2026-07-28 requests, stdio per
 * connection): a sessionless server for the modern era, one with `legacySession()` for the
 * 2025 era (absent: the entry serves only 2026-07-28).
 */
export function xosServerFactory(deps: () => XosDeps, scopes: SessionlessScopes, legacySession?: () => McpSession): McpServerFactory {
  return ({ era }) => {
    if (era === 'modern') return createXosMcpServer(deps, scopes.session(), era);
    if (!legacySession) throw new Error('this entry serves protocol 2026-07-28 only');
    return createXosMcpServer(deps, legacySession(), era);
  };
}

/** The `_meta` a call is scoped by: as sent, or, without a session and a conversation id, naming the client. */
function callScope(ctx: ServerContext, session: McpSession): Readonly<Record<string, unknown>> | undefined {
  const meta = ctx.mcpReq._meta;
  if (!session.stateless || typeof meta?.[CONVERSATION_META_KEY] === 'string') return meta;
  const client = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
  if (typeof client?.name !== 'string') return meta;
  return { ...meta, [CONVERSATION_META_KEY]: `client ${client.name} ${String(client.version ?? '')}`.slice(0, 512) };
}
