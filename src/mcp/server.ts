// One MCP server per MCP session (protocol 2025-11-25), or per request (2026-07-28, no
// session), with every XOS tool registered. One factory serves both revisions.
import { createHash, randomBytes } from 'node:crypto';
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import type { ClientCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { BackendUnavailableError, unavailableReply } from '../graphql/unavailable.ts';
import { registerCardResource } from './apps/card.ts';
import { configuredFor, unmetPrecondition } from './preconditions.ts';
import { registerPrompts } from './prompts.ts';
import type { ToolReply, XosDeps } from './ports.ts';
import { fail } from './result.ts';
import type { WorkflowHandles } from './handles.ts';
import { XOS_TOOLS, XOS_TOOL_NAMES } from './registry.ts';
import { McpSession, type CallRound } from './session.ts';

export const SERVER_INFO = { name: 'xos', title: 'XOS', version: packageJson.version };

/** Each tool's schemas as the SDK takes them, made once for every server (one per request under 2026-07-28). */
const SCHEMAS = new Map(XOS_TOOLS.map((tool) => [tool, {
  inputSchema: z.object(tool.inputSchema),
  ...(tool.outputSchema ? { outputSchema: z.object(tool.outputSchema) } : {}),
}]));

/**
 * Requests without an MCP session (protocol 2026-07-28) that one serving entry answers: they share
 * the entry's handle key; `via` names the transport in each caller's identity, `credential` the
 * credential they all came with (requesterCredential), by which what they may use up is bounded.
 */
export interface Sessionless {
  readonly handles: WorkflowHandles;
  readonly via: 'http' | 'stdio';
  readonly credential: string;
}

/**
 * How a serving entry names the credential its requests come with, never the secret itself: the
 * bearer token's SHA-256 (so it stays the same over a restart with the same token), or, on stdio,
 * the process (one client started it; a random name per process).
 */
export function requesterCredential(credential: { readonly token: string } | 'stdio'): string {
  if (credential === 'stdio') return `stdio process ${randomBytes(9).toString('base64url')}`;
  return `bearer token sha256:${createHash('sha256').update(credential.token).digest('base64url').slice(0, 22)}`;
}

/**
 * `deps` is read at each call, so a changed setting (mailer, locale) applies at once. `served` says
 * the era: the MCP session the server belongs to (the legacy era, 2025-11-25; tests also build a
 * sessionless McpSession), or the requests without a session it answers (the modern era, 2026-07-28).
 */
export function createXosMcpServer(deps: () => XosDeps, served: McpSession | Sessionless): McpServer {
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
    const handle = async (args: Record<string, unknown>, ctx: ServerContext): Promise<ToolReply> => {
      const current = deps();
      // The tools the current settings allow, for xos_system_status; the schema rule per conversation (or handle).
      const tools = XOS_TOOLS.filter((t) => configuredFor(t, current)).map((t) => t.name);
      const scoped = callerOf(served, ctx).forCall(ctx.mcpReq._meta, tools, args, served instanceof McpSession ? undefined : roundOf(ctx));
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
 * The factory the serving entries call (the HTTP endpoint for 2026-07-28 requests, stdio per
 * connection): for the modern era a server of `sessionless` requests, for the 2025 era one with
 * `legacySession()` (absent: the entry serves only 2026-07-28).
 */
export function xosServerFactory(deps: () => XosDeps, sessionless: Sessionless, legacySession?: () => McpSession): McpServerFactory {
  return ({ era }) => {
    if (era === 'modern') return createXosMcpServer(deps, sessionless);
    if (!legacySession) throw new Error('this entry serves protocol 2026-07-28 only');
    return createXosMcpServer(deps, legacySession());
  };
}

/** What a call of protocol 2026-07-28 brings for a multi-round-trip answer (see CallRound). */
function roundOf(ctx: ServerContext): CallRound {
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  // An empty `elicitation: {}` declares form mode (the spec's default).
  const canAsk = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  const state = ctx.mcpReq.requestState<unknown>();
  return {
    canAsk,
    ...(typeof state === 'string' ? { state } : {}),
    ...(ctx.mcpReq.inputResponses ? { responses: ctx.mcpReq.inputResponses } : {}),
  };
}

/**
 * Who makes this call. In a session: the session. Without one (2026-07-28): the client the
 * request envelope names (its clientInfo) on this transport, with the entry's handles.
 */
function callerOf(served: McpSession | Sessionless, ctx: ServerContext): McpSession {
  if (served instanceof McpSession) return served;
  const info = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  const name = typeof info?.name === 'string' && info.name.length > 0 ? info.name.slice(0, 200) : 'an unnamed client';
  return new McpSession({ handles: served.handles, client: `${name} via ${served.via}`, credential: served.credential }, XOS_TOOL_NAMES);
}
