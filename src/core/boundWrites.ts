// The guarded writes as data. What the person approves is a prepared write: the exact values,
// the versions they were read at, and the summary the question shows; and exactly that payload
// is what gets written, version-checked. The question asked at once (save.ts, records.ts,
// batchSave.ts, mailSend.ts) and a stored approval decided later (approvals.ts) both commit
// through here. No MCP, no VS Code.
import { createHash } from 'node:crypto';
import type { Ast } from '../ast/schema.ts';
import type { AuditPath } from '../graphql/audit.ts';
import { buildDeleteMutation, buildInsertMutation, buildUpdateManyMutation, buildUpdateMutation, type RootedRequest } from '../graphql/requests.ts';
import { BackendUnavailableError } from '../graphql/unavailable.ts';
import type { DeleteSummary, MailDraft, SaveSummary, XosClient } from './domain.ts';
import type { ServerError } from './outcomes.ts';

/** An update of one loaded record: these fields to these values, against the version read. */
export interface SavePayload {
  readonly kind: 'save';
  readonly context: string;
  readonly entity: string;
  readonly id: string;
  readonly version: number;
  readonly set: Readonly<Record<string, unknown>>;
  /** How the audit trail names the write ("Save", "Undo of audit entry 12"). */
  readonly action: string;
}

/** A new record with these values. */
export interface CreatePayload {
  readonly kind: 'create';
  readonly context: string;
  readonly entity: string;
  readonly values: Readonly<Record<string, unknown>>;
}

/** A deletion of one record at the version read. */
export interface DeletePayload {
  readonly kind: 'delete';
  readonly context: string;
  readonly entity: string;
  readonly id: string;
  readonly version: number;
}

/** A reviewed batch: every row against the version read, in one transaction. */
export interface BatchPayload {
  readonly kind: 'batch';
  readonly context: string;
  readonly entity: string;
  readonly rows: ReadonlyArray<{ readonly id: string; readonly version: number; readonly set: Readonly<Record<string, unknown>> }>;
  /** The fields written, in the review's order. */
  readonly fields: readonly string[];
  /** How the audit trail names the write ("Save", "Undo of batch …"). */
  readonly action: string;
}

/** A mail exactly as the person sees it in the question. */
export interface SendPayload {
  readonly kind: 'send';
  readonly draft: MailDraft;
  /** The sender (the mail account's `from`) when it was prepared; a mail is sent from no other. */
  readonly from?: string;
}

export type RecordPayload = SavePayload | CreatePayload | DeletePayload | BatchPayload;
export type BoundPayload = RecordPayload | SendPayload;
export type WriteKind = BoundPayload['kind'];

/** A guarded write ready to be asked for: the payload and what the question shows. */
export type PreparedWrite =
  | { readonly kind: 'save'; readonly payload: SavePayload; readonly summary: SaveSummary }
  | { readonly kind: 'create'; readonly payload: CreatePayload; readonly summary: SaveSummary }
  | { readonly kind: 'delete'; readonly payload: DeletePayload; readonly summary: DeleteSummary }
  | { readonly kind: 'batch'; readonly payload: BatchPayload; readonly summary: SaveSummary }
  | { readonly kind: 'send'; readonly payload: SendPayload; readonly summary: MailDraft };

/** One record version a payload is bound to: a write is void once the record is at another. */
export interface BoundVersion {
  readonly entity: string;
  readonly id: string;
  readonly version: number;
}

export function boundVersions(payload: BoundPayload): BoundVersion[] {
  switch (payload.kind) {
    case 'save':
    case 'delete':
      return [{ entity: payload.entity, id: payload.id, version: payload.version }];
    case 'batch':
      return payload.rows.map((row) => ({ entity: payload.entity, id: row.id, version: row.version }));
    case 'create':
    case 'send':
      return [];
  }
}

/** SHA-256 (hex) of the payload's canonical JSON (keys sorted): equal payloads, equal hashes. */
export function payloadHash(payload: BoundPayload): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fields a record write changes, as the audit approval names them. */
export function writtenFields(payload: RecordPayload): string[] {
  switch (payload.kind) {
    case 'save': return Object.keys(payload.set);
    case 'create': return Object.keys(payload.values);
    case 'delete': return [];
    case 'batch': return [...payload.fields];
  }
}

/** How the audit trail names a record write (before "confirmed by the person" or "approved …"). */
export function auditAction(payload: RecordPayload): string {
  switch (payload.kind) {
    case 'save': return payload.action;
    case 'create': return 'Create';
    case 'delete': return 'Delete';
    case 'batch': return `${payload.action} of ${payload.rows.length} records`;
  }
}

/** What one record write came to. `written.data`: the mutation's root value; `batch`: a batch write's audit batch. */
export type RecordWrite =
  | { readonly kind: 'written'; readonly data: unknown; readonly batch?: string }
  /** A record is at another version (or, for a batch, gone): nothing was written. */
  | { readonly kind: 'conflict'; readonly error: ServerError }
  | { readonly kind: 'refused'; readonly error: ServerError }
  /** No answer: `certainlyNotProcessed` says nothing reached the backend; otherwise it may have been applied. Never retried. */
  | { readonly kind: 'no_answer'; readonly failure: unknown; readonly certainlyNotProcessed: boolean };

/** Writes exactly the payload, version-checked, with the audit path and approval text given. */
export async function writeRecords(client: XosClient, payload: RecordPayload, audit: { readonly path: AuditPath; readonly approval: string }): Promise<RecordWrite> {
  const request = recordRequest(client.ast(), payload);
  let result;
  try {
    result = await client.run(request.query, request.variables, audit);
  } catch (failure) {
    return { kind: 'no_answer', failure, certainlyNotProcessed: failure instanceof BackendUnavailableError && failure.certainlyNotProcessed };
  }
  const error = result.errors?.[0];
  if (error?.extensions?.code === 'CONFLICT') return { kind: 'conflict', error };
  if (error) return { kind: 'refused', error };
  const batch = (result.extensions?.xos as { batch?: unknown } | undefined)?.batch;
  return { kind: 'written', data: result.data?.[request.root], ...(typeof batch === 'string' ? { batch } : {}) };
}

function recordRequest(ast: Ast, payload: RecordPayload): RootedRequest {
  switch (payload.kind) {
    case 'save': return buildUpdateMutation(ast, payload.context, payload.id, payload.version, { ...payload.set });
    case 'create': return buildInsertMutation(ast, payload.context, { ...payload.values });
    case 'delete': return buildDeleteMutation(ast, payload.context, payload.id, payload.version);
    case 'batch': return buildUpdateManyMutation(ast, payload.entity, payload.rows.map((row) => ({ id: row.id, version: row.version, set: { ...row.set } })));
  }
}
