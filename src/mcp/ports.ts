// The dependencies every XOS tool receives as one object, and the tool declaration.
// The VS Code implementations live in src/host/; tests pass real or in-memory ones.
import type { z } from 'zod';
import type { AgentReply } from './result.ts';
import type { McpSession } from './session.ts';
import type { Board, Confirmer, Contacts, Mailer, XosClient } from '../core/domain.ts';
import type { CoreDeps } from '../core/base.ts';
import type { SendWindow } from '../core/mailSend.ts';
import type { ApprovalDeps } from '../core/approvals.ts';

export interface XosDeps {
  readonly client: XosClient;
  readonly board: Board;
  readonly confirmer: Confirmer;
  /** Absent: no contact provider configured. */
  readonly contacts?: Contacts;
  /** Absent: no mail server configured. */
  readonly mailer?: Mailer;
  /** Open MCP sessions, when the transport knows them. */
  readonly sessionCount?: () => number;
  /** Board locale for the schema's texts; the AST's default when absent. */
  readonly locale?: string;
  /** Told after a save was stored (the host's "saved" notification offers Undo). */
  readonly onSaved?: CoreDeps['onSaved'];
  readonly onBatchSaved?: CoreDeps['onBatchSaved'];
  /** The Board's own Save decides the pending approvals asked from what it writes (CoreDeps.boardWriting). */
  readonly boardWriting?: CoreDeps['boardWriting'];
  /** The Board's own send takes the stored approvals of exactly that mail (CoreDeps.boardSending). */
  readonly boardSending?: CoreDeps['boardSending'];
  /** The undo window of a confirmed mail (absent: it goes out at once). */
  readonly mailWindow?: SendWindow;
  /** The browser Board's address when there is one (the standalone server); inline cards open it. */
  readonly boardUrl?: () => string | undefined;
  /**
   * Stored approvals, where the front end keeps them: a request without an MCP session stores its
   * write there for the person to decide later (tools use only requestApproval and approvalStatus).
   */
  readonly approvals?: ApprovalDeps;
  /** The person at this front end, whom the agent asks for (named with its stored approvals). */
  readonly person?: string;
}

export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * What must hold before a tool runs, checked in one place (src/mcp/preconditions.ts) for every
 * tool that declares it: `schema` — xos_schema was called in this conversation (without an MCP
 * session: its handle is passed, or the conversation is known to have called it); `mailer` — a
 * mail server is configured; `contacts` — a contact provider is configured.
 */
export type Precondition = 'schema' | 'mailer' | 'contacts';

/**
 * What a tool answers: its result, or (protocol 2026-07-28, a client that can be asked) a request
 * for input after which the client calls the tool again (an approval the person decides on the Board).
 * Made only by the door in result.ts.
 */
export type ToolReply = AgentReply;

/** One MCP tool: its declaration and its handler. */
export interface XosTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Shape;
  /** The shape of `structuredContent` for tools that return data; every successful result then carries it. */
  readonly outputSchema?: z.ZodRawShape;
  readonly annotations: ToolAnnotations;
  /** Checked before the handler runs; an unmet one is answered with what to do. */
  readonly requires?: readonly Precondition[];
  /**
   * The ui:// resource (MCP Apps) a host may show inline with this tool's results; the data it
   * shows travels in the result's `_meta`, never in the text the model reads. A card only views.
   */
  readonly appResource?: string;
  handler(args: z.infer<z.ZodObject<Shape>>, deps: XosDeps, session: McpSession, signal: AbortSignal): Promise<ToolReply>;
}

/** Declares a tool; the handler's argument types follow from `inputSchema`. */
export function defineTool<Shape extends z.ZodRawShape>(tool: XosTool<Shape>): XosTool<Shape> {
  return tool;
}
