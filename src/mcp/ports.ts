// The dependencies every XOS tool receives as one object. The VS Code
// implementations live in src/host/; tests pass real or in-memory ones.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Ast } from '../ast/schema.ts';
import type { McpSession } from './session.ts';

export interface GraphQLErrorShape {
  readonly message: string;
  readonly extensions?: Record<string, unknown>;
}

export interface GraphQLResult {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly GraphQLErrorShape[];
}

export interface DsnStatus {
  readonly kind: string;
  readonly description: string;
  readonly ok: boolean;
  readonly latency_ms: number | null;
}

/** The XOS backend, embedded or remote. */
export interface XosClient {
  run(query: string, variables?: Record<string, unknown>): Promise<GraphQLResult>;
  ast(): Ast;
  status(): Promise<DsnStatus>;
}

export type BoardRecord = Record<string, unknown>;

export interface ListView {
  readonly context: string;
  readonly records: readonly BoardRecord[];
}

export interface DetailView {
  readonly context: string;
  readonly record: BoardRecord;
  /** The stored version; absent for rendered data that did not come from the backend. */
  readonly version?: number;
}

export interface MailDraft {
  readonly to: { readonly name?: string; readonly email: string };
  readonly subject: string;
  readonly body: string;
}

export type BoardChange = 'list' | 'detail' | 'form' | 'mail';

/** What the Board currently shows, as the tools need to know it. */
export interface BoardSnapshot {
  readonly context: string | undefined;
  readonly kind: 'list' | 'detail' | 'mail' | undefined;
  /** The loaded detail record (present only for detail views). */
  readonly detail: DetailView | undefined;
  /** Pending preview changes proposed by the agent: field -> new value. */
  readonly pending: Readonly<Record<string, unknown>>;
  readonly mail: MailDraft | undefined;
}

export interface Board {
  showList(view: ListView): void;
  showDetail(view: DetailView): void;
  showMail(draft: MailDraft): void;
  /** Removes the mail draft (after it was sent). */
  clearMail(): void;
  /** Merges agent changes into the form as a preview; nothing is saved. */
  preview(changes: Readonly<Record<string, unknown>>): void;
  /** The person's current form values of the detail view (their own edits included). */
  formData(): Promise<Record<string, unknown>>;
  snapshot(): BoardSnapshot;
  onChange(listener: (change: BoardChange) => void): { dispose(): void };
}

export interface SaveSummary {
  readonly entity: string;
  readonly id: string;
  readonly changes: ReadonlyArray<{ readonly field: string; readonly label: string; readonly from: unknown; readonly to: unknown }>;
}

export type SaveAnswer = 'save' | 'discard' | 'timeout';
export type SendAnswer = 'send' | 'cancel' | 'timeout';

/** Asks the person; the signal aborts the question (the answer is then void anyway). */
export interface Confirmer {
  confirmSave(summary: SaveSummary, signal: AbortSignal): Promise<SaveAnswer>;
  confirmSend(draft: MailDraft, signal: AbortSignal): Promise<SendAnswer>;
}

export interface Contact {
  readonly name: string;
  /** The first email address; all of them are in `emails`. */
  readonly email?: string;
  /** The first phone number; all of them are in `phones`. */
  readonly phone?: string;
  readonly emails?: readonly string[];
  readonly phones?: readonly string[];
  readonly organization?: string;
  /** Where the contact was found (e.g. "carddav:Work", "google", "xos:person"), one entry per provider. */
  readonly sources?: readonly string[];
}

/** A provider that could not be searched, named so the person knows which. */
export interface ContactFailure {
  readonly source: string;
  readonly message: string;
}

export interface ContactSearch {
  readonly contacts: Contact[];
  readonly failures: readonly ContactFailure[];
}

export interface Contacts {
  search(query: string): Promise<Contact[]>;
  /** Like `search`, with the providers that failed reported next to the results. */
  searchAll?(query: string): Promise<ContactSearch>;
}

export interface Mailer {
  send(draft: MailDraft): Promise<{ messageId: string }>;
}

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
