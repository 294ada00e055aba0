// Per MCP session state and the workflow rules that depend on it. The schema rule holds per
// conversation where the client names one (VS Code sends `vscode.conversationId` in a tool
// call's `_meta`, one per chat, while it keeps one MCP session for all chats), else per session.
// Under protocol 2026-07-28 there is no MCP session: such a request's McpSession is `stateless`.
import { randomUUID } from 'node:crypto';

/** The `_meta` key VS Code's chat puts on every tool call: the chat's id. */
export const CONVERSATION_META_KEY = 'vscode.conversationId';
/** Conversations remembered per session; the oldest is forgotten past it (its next call needs the schema again). */
const MAX_CONVERSATIONS = 1_000;
const NO_CONVERSATION = '';

export class McpSession {
  readonly id: string;
  /** Names of the tools this session offers (for xos_system_status). */
  readonly tools: readonly string[];
  /** The conversation this call belongs to, when the client said. */
  readonly conversation: string | undefined;
  /** True when there is no MCP session (protocol 2026-07-28: every request stands alone); `id` is then the request's own. */
  readonly stateless: boolean;
  private readonly loaded: Set<string>;

  constructor(id: string, tools: readonly string[], conversation?: string, loaded: Set<string> = new Set(), stateless = false) {
    this.id = id;
    this.tools = tools;
    this.conversation = conversation;
    this.loaded = loaded;
    this.stateless = stateless;
  }

  /**
   * A request without an MCP session: a fresh id, and `loaded`, the conversations that loaded
   * the schema, shared by the whole server (a request's server lives only as long as the request).
   */
  static sessionless(tools: readonly string[], loaded: Set<string>): McpSession {
    return new McpSession(randomUUID(), tools, undefined, loaded, true);
  }

  /**
   * This session as one tool call sees it: scoped to the conversation its `_meta` names, if any,
   * offering `tools` (those the current settings allow).
   */
  forCall(meta: Readonly<Record<string, unknown>> | undefined, tools: readonly string[] = this.tools): McpSession {
    const named = meta?.[CONVERSATION_META_KEY];
    const conversation = typeof named === 'string' && named.length > 0 && named.length <= 512 ? named : undefined;
    return new McpSession(this.id, tools, conversation, this.loaded, this.stateless);
  }

  get schemaLoaded(): boolean {
    return this.loaded.has(this.conversation ?? NO_CONVERSATION);
  }

  markSchemaLoaded(): void {
    const key = this.conversation ?? NO_CONVERSATION;
    this.loaded.delete(key);
    this.loaded.add(key);
    if (this.loaded.size > MAX_CONVERSATIONS) this.loaded.delete(this.loaded.values().next().value!);
  }

  /** Why a data tool may not run yet, or undefined when it may. */
  schemaRequired(tool: string): string | undefined {
    if (this.schemaLoaded) return undefined;
    const scope = this.conversation ? 'this conversation' : this.stateless ? 'this client' : 'this session';
    return `Call xos_schema first: ${tool} needs the schema loaded in ${scope} (contexts, list_fields, prompts). Then call ${tool} again.`;
  }
}
