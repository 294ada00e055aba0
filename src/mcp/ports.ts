// The dependencies every XOS tool receives as one object, and the tool declaration.
// The VS Code implementations live in src/host/; tests pass real or in-memory ones.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { McpSession } from './session.ts';
import type { Board, Confirmer, Contacts, Mailer, XosClient } from '../core/domain.ts';

// The domain types live in src/core/domain.ts; re-exported for the modules that import them from here.
export type {
  GraphQLErrorShape, GraphQLResult, DsnStatus, XosClient, BoardRecord, ListSort, ListQuery, ListWindow, ListSource, ListView, DetailView, MailDraft, BoardChange, BoardSnapshot, Board, SaveSummary, SaveAnswer, SendAnswer, Confirmer, Contact, ContactFailure, ContactSearch, Contacts, Mailer,
} from '../core/domain.ts';

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
}

export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One MCP tool: its declaration and its handler. */
export interface XosTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Shape;
  readonly annotations: ToolAnnotations;
  handler(args: z.infer<z.ZodObject<Shape>>, deps: XosDeps, session: McpSession, signal: AbortSignal): Promise<CallToolResult>;
}
