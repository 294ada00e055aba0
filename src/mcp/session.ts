// The caller's workflow state and the rules that depend on it. The schema rule holds per
// conversation where the client names one (VS Code sends `vscode.conversationId` in a tool
// call's `_meta`, one per chat, while it keeps one MCP session for all chats), else per session.
// A request without an MCP session has nothing to remember it by: there the rule holds through
// the handle xos_schema returns (src/mcp/handles.ts, signed, kept nowhere), passed back as the argument `handle`, or
// through the conversation the request names.
import { SCHEMA_LOADED, WorkflowHandles, type HandleScope } from './handles.ts';

/** The `_meta` key VS Code's chat puts on every tool call: the chat's id. */
export const CONVERSATION_META_KEY = 'vscode.conversationId';
/** The tool argument that carries the handle xos_schema returned. */
export const HANDLE_ARGUMENT = 'handle';
/** Conversations remembered per session; the oldest is forgotten past it (its next call needs the schema again). */
const MAX_CONVERSATIONS = 1_000;
const NO_CONVERSATION = '';

/** A request without an MCP session: whom it comes from, and the serving entry's handle key. */
export interface WithoutSession {
  /** The serving entry's: one per endpoint (or stdio process), shared by every request it answers. */
  readonly handles: WorkflowHandles;
  /**
   * The caller: the client's name (clientInfo) and the transport's identity, e.g. `claude-ai via http`.
   * Handles minted for one caller are refused for another. The client chooses its name: it scopes
   * what a caller sees, never what it may use up.
   */
  readonly client: string;
  /**
   * The credential the request came with, as the serving entry names it: a hash of the endpoint's
   * bearer token, or the stdio process. What a caller may use up (pending approvals, their bytes)
   * is bounded per credential. Never a secret.
   */
  readonly credential: string;
}

/** Where a caller's facts are kept: in its MCP session, or (without one) in the shared store. */
type Memory =
  | { readonly kind: 'session'; readonly id: string; readonly loaded: Set<string>; readonly handles: WorkflowHandles }
  | ({ readonly kind: 'none' } & WithoutSession);

/**
 * A call of protocol 2026-07-28, where a tool may answer with a request for input and the client
 * calls it again with the answers (a multi-round-trip request). Everything here comes from the
 * client: untrusted.
 */
export interface CallRound {
  /** The client declared form elicitation for this request: it can be asked to wait with the person. */
  readonly canAsk: boolean;
  /** The state XOS gave the previous round, echoed back (absent on the first round). */
  readonly state?: string;
  /** The client's answers to the previous round's requests, by key. */
  readonly responses?: Readonly<Record<string, unknown>>;
}

/** One tool call's view: its conversation and handle, and the memory it shares with its session's other calls. */
interface CallView {
  readonly memory: Memory;
  readonly conversation?: string;
  readonly handle?: string;
  readonly round?: CallRound;
}

export class McpSession {
  /** The MCP session's id; undefined for a request without one. */
  readonly id: string | undefined;
  /** Names of the tools this session offers (for xos_system_status). */
  readonly tools: readonly string[];
  /** The conversation this call belongs to, when the client said. */
  readonly conversation: string | undefined;
  /** The handle this call passed, if any. */
  readonly handle: string | undefined;
  /** This call's round, for a call of protocol 2026-07-28 (see CallRound). */
  readonly round: CallRound | undefined;
  private readonly memory: Memory;

  /**
   * `owner`: the MCP session's id, or, for a request without an MCP session, who sent it and the
   * server's store of handles (then the schema rule holds through handles; see WithoutSession).
   */
  constructor(owner: string | WithoutSession, tools: readonly string[], call?: CallView) {
    this.id = typeof owner === 'string' ? owner : undefined;
    this.tools = tools;
    this.conversation = call?.conversation;
    this.handle = call?.handle;
    this.round = call?.round;
    this.memory = call?.memory ?? (typeof owner === 'string'
      // A session's own handles: xos_schema returns one there too, so an agent can always pass it.
      ? { kind: 'session', id: owner, loaded: new Set(), handles: new WorkflowHandles({ maxEntries: MAX_CONVERSATIONS }) }
      : { kind: 'none', handles: owner.handles, client: owner.client, credential: owner.credential });
  }

  /** True for a request without an MCP session. */
  get sessionless(): boolean {
    return this.memory.kind === 'none';
  }

  /**
   * This session as one tool call sees it: scoped to the conversation its `_meta` names, if any,
   * offering `tools` (those the current settings allow), with the `handle` its arguments pass.
   */
  forCall(meta: Readonly<Record<string, unknown>> | undefined, tools: readonly string[] = this.tools, args?: Readonly<Record<string, unknown>>, round?: CallRound): McpSession {
    const named = meta?.[CONVERSATION_META_KEY];
    const conversation = typeof named === 'string' && named.length > 0 && named.length <= 512 ? named : undefined;
    const passed = args?.[HANDLE_ARGUMENT];
    const handle = typeof passed === 'string' && passed.length > 0 ? passed : undefined;
    const owner = this.memory.kind === 'session' ? this.memory.id : this.memory;
    return new McpSession(owner, tools, { memory: this.memory, conversation, handle, ...(round ? { round } : {}) });
  }

  /** Who asks, for a request without an MCP session (its stored approvals are its own); undefined with a session. */
  get caller(): { readonly credential: string; readonly client: string; readonly conversation?: string } | undefined {
    if (this.memory.kind !== 'none') return undefined;
    return { credential: this.memory.credential, client: this.memory.client, ...(this.conversation === undefined ? {} : { conversation: this.conversation }) };
  }

  get schemaLoaded(): boolean {
    return this.schemaProof() === 'loaded';
  }

  /** Marks the schema loaded for this call's conversation (or session) and returns a handle that shows it. */
  markSchemaLoaded(): string {
    const memory = this.memory;
    if (memory.kind === 'session') {
      const key = this.conversation ?? NO_CONVERSATION;
      memory.loaded.delete(key);
      memory.loaded.add(key);
      if (memory.loaded.size > MAX_CONVERSATIONS) memory.loaded.delete(memory.loaded.values().next().value!);
    } else {
      memory.handles.markConversation(this.scope, SCHEMA_LOADED);
    }
    return memory.handles.mint(this.scope, SCHEMA_LOADED);
  }

  /** Why a data tool may not run yet, or undefined when it may. */
  schemaRequired(tool: string): string | undefined {
    const proof = this.schemaProof();
    if (proof === 'loaded') return undefined;
    if (this.memory.kind === 'session') {
      const scope = this.conversation ? 'this conversation' : 'this session';
      return `Call xos_schema first: ${tool} needs the schema loaded in ${scope} (contexts, list_fields, prompts). Then call ${tool} again.`;
    }
    const passOn = `pass the handle it returns as \`${HANDLE_ARGUMENT}\` to ${tool}`;
    const again = `Then call ${tool} again.`;
    switch (proof) {
      case 'missing':
        return `Call xos_schema first, then ${passOn} (this client has no MCP session, so XOS cannot remember the schema between calls). ${again}`;
      case 'unknown':
        return `XOS does not know this handle (XOS was restarted since, or the handle was changed): call xos_schema again and ${passOn}. ${again}`;
      case 'expired':
        return `This handle expired (it is older than XOS keeps handles): call xos_schema again and ${passOn}. ${again}`;
      case 'foreign':
        return `This handle belongs to another client or conversation: call xos_schema in this conversation and ${passOn}. ${again}`;
    }
  }

  /** Whether this call may count on the schema, or why not (looked up once: an expired handle is dropped when seen). */
  private schemaProof(): 'loaded' | 'missing' | 'unknown' | 'expired' | 'foreign' {
    const memory = this.memory;
    if (memory.kind === 'session') return memory.loaded.has(this.conversation ?? NO_CONVERSATION) ? 'loaded' : 'missing';
    if (memory.handles.conversationFacts(this.scope).schema) return 'loaded';
    if (this.handle === undefined) return 'missing';
    const check = memory.handles.check(this.handle, this.scope);
    if (check.status !== 'ok') return check.status;
    // A handle that shows other facts, not the schema, proves nothing here.
    return check.facts.schema ? 'loaded' : 'missing';
  }

  private get scope(): HandleScope {
    const memory = this.memory;
    const who = memory.kind === 'none' ? { credential: memory.credential, client: memory.client } : { client: memory.id };
    return this.conversation ? { ...who, conversation: this.conversation } : who;
  }
}
