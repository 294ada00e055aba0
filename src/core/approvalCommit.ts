// Writing an approved approval: exactly its bound payload, version-checked, with an audit
// approval text that names the approval — so that after a crash the audit trail tells whether the
// write landed — and what it came to as data. Never touches a Board. No MCP, no VS Code.
import { fieldDef, ownValue } from '../ast/lookup.ts';
import { canonicalValue } from '../ast/values.ts';
import { approvalText } from '../graphql/audit.ts';
import { buildAuditQuery } from '../graphql/requests.ts';
import { MailSendError } from '../mail/errors.ts';
import type { ApprovalDeps, ApprovalOutcome, PendingApproval } from './approvalTypes.ts';
import { auditAction, writeRecords, writtenFields, type RecordPayload } from './boundWrites.ts';
import type { BoardRecord } from './domain.ts';
import { recordSent } from './mailSend.ts';
import type { ServerError } from './outcomes.ts';

/** Audit entries read when looking for an approval's write. */
const AUDIT_LOOKUP = 500;

/** The audit trail's approval text of an approved write: names the approval, so a restart can find the write. */
export function approvedText(action: string, id: string, fields: readonly string[]): string {
  return approvalText(`${action} approved by the person ${approvalMarker(id)}`, fields);
}

/** How an audit text names the stored approval a write carried out (a sweep finds the write by it). */
export const approvalMarker = (id: string) => `[approval ${id}]`;

export type CommitResult =
  | { readonly kind: 'done'; readonly state: 'approved' | 'void' | 'failed'; readonly outcome: ApprovalOutcome }
  | { readonly kind: 'not_sent'; readonly reason: string }
  | { readonly kind: 'unsettled'; readonly reason: string };

/** Writes (or sends) exactly the bound payload; never touches a Board. */
export async function commit(deps: ApprovalDeps, approval: PendingApproval): Promise<CommitResult> {
  const path = deps.path ?? 'agent';
  const { payload } = approval;
  if (payload.kind === 'send') {
    const draft = payload.draft;
    try {
      const { messageId } = await deps.mailer!.send(draft);
      await recordSent(deps.client, draft, messageId, path, approvedText('Send', approval.id, []));
      return { kind: 'done', state: 'approved', outcome: { kind: 'sent', ok: true, to: draft.to.email, messageId } };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // A refused message was not sent; any other failure may have sent it, and it is never sent again.
      const outcome: ApprovalOutcome = error instanceof MailSendError && error.accepted === 'no'
        ? { kind: 'mail_refused', ok: false, reason } : { kind: 'transfer_broke', ok: false, reason };
      return { kind: 'done', state: 'failed', outcome };
    }
  }
  const write = await writeRecords(deps.client, payload, { path, approval: approvedText(auditAction(payload), approval.id, writtenFields(payload)) });
  switch (write.kind) {
    case 'no_answer': {
      const reason = write.failure instanceof Error ? write.failure.message : String(write.failure);
      return write.certainlyNotProcessed ? { kind: 'not_sent', reason } : { kind: 'unsettled', reason };
    }
    case 'conflict':
      return { kind: 'done', state: 'void', outcome: conflictOutcome(payload, write.error) };
    case 'refused':
      if (write.error.extensions?.code === 'NOT_FOUND' && 'id' in payload) {
        return { kind: 'done', state: 'void', outcome: { kind: 'record_gone', ok: false, entity: payload.entity, ids: [payload.id] } };
      }
      return { kind: 'done', state: 'failed', outcome: { kind: 'server_refused', ok: false, entity: payload.entity, error: write.error } };
    case 'written':
      return { kind: 'done', state: 'approved', outcome: await writtenOutcome(deps, approval, payload, write.data) };
  }
}

/** A version check failed: which bound records were changed or are gone. */
function conflictOutcome(payload: RecordPayload, error: ServerError): ApprovalOutcome {
  if (payload.kind === 'batch') {
    const conflicts = (error.extensions?.conflicts ?? []) as Array<{ id: string; current: Record<string, unknown> | null }>;
    const changed = conflicts.filter((c) => c.current).map((c) => String(c.id));
    if (changed.length === 0 && conflicts.length) return { kind: 'record_gone', ok: false, entity: payload.entity, ids: conflicts.map((c) => String(c.id)) };
    return { kind: 'record_changed', ok: false, entity: payload.entity, ids: changed };
  }
  const current = error.extensions?.current as { version?: unknown } | undefined;
  const id = 'id' in payload ? payload.id : '';
  return { kind: 'record_changed', ok: false, entity: payload.entity, ids: [id], ...(typeof current?.version === 'number' ? { versionNow: current.version } : {}) };
}

async function writtenOutcome(deps: ApprovalDeps, approval: PendingApproval, payload: RecordPayload, data: unknown): Promise<ApprovalOutcome> {
  const ast = deps.client.ast();
  const stored = (record: BoardRecord, fields: readonly string[]) => fields.map((field) => {
    const def = fieldDef(ast, payload.entity, field);
    let value: unknown = ownValue(record, field) ?? null;
    try {
      if (def) value = canonicalValue(payload.entity, field, def, value);
    } catch {
      // a stored value the AST no longer accepts is told as stored
    }
    return { field, value };
  });
  switch (payload.kind) {
    case 'save': {
      const row = data as BoardRecord;
      return { kind: 'saved', ok: true, entity: payload.entity, id: payload.id, versionFrom: payload.version, versionTo: Number(row.version), stored: stored(row, Object.keys(payload.set)) };
    }
    case 'create': {
      const row = data as BoardRecord;
      return { kind: 'created', ok: true, entity: payload.entity, id: String(row.id), version: Number(row.version), stored: stored(row, Object.keys(payload.values)) };
    }
    case 'delete':
      return { kind: 'deleted', ok: true, entity: payload.entity, id: payload.id };
    case 'batch': {
      // The audit batch names the write for an undo of the whole batch; the write stands without it.
      const batch = (await auditEntryOf(deps, approval).catch(() => undefined))?.batch;
      return {
        kind: 'batch_saved', ok: true, entity: payload.entity, records: payload.rows.length,
        cells: payload.rows.reduce((n, row) => n + Object.keys(row.set).length, 0), fields: [...payload.fields], ...(batch ? { batch } : {}),
      };
    }
  }
}

interface AuditedWrite {
  readonly record_id: string | null;
  readonly version_to: number | null;
  readonly approval: string | null;
  readonly batch: string | null;
  readonly changes: ReadonlyArray<{ readonly field: string; readonly from: unknown; readonly to: unknown }>;
}

/** The audit entry of the approval's write (found by the approval id its approval text carries), if it is there. Throws when the trail cannot be read. */
async function auditEntryOf(deps: ApprovalDeps, approval: PendingApproval): Promise<AuditedWrite | undefined> {
  const { payload } = approval;
  const filter = payload.kind === 'save' || payload.kind === 'delete' ? { entity: payload.entity, id: payload.id }
    : payload.kind === 'batch' ? { entity: payload.entity, id: payload.rows[0]?.id }
      : payload.kind === 'create' ? { entity: payload.entity } : {};
  const request = buildAuditQuery(filter, AUDIT_LOOKUP);
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(`reading the audit trail failed: ${result.errors[0].message}`);
  const rows = (result.data?.[request.root] ?? []) as AuditedWrite[];
  return rows.find((row) => row.approval?.includes(approvalMarker(approval.id)));
}

/** What the approval's write came to, read from the audit trail; undefined when it is not there. Throws when the trail cannot be read. */
export async function auditedOutcome(deps: ApprovalDeps, approval: PendingApproval, lostAnswer: string): Promise<ApprovalOutcome | undefined> {
  const { payload } = approval;
  const entry = await auditEntryOf(deps, approval);
  if (!entry) return undefined;
  switch (payload.kind) {
    case 'save':
      return {
        kind: 'saved', ok: true, entity: payload.entity, id: payload.id, versionFrom: payload.version, versionTo: entry.version_to ?? payload.version + 1,
        stored: Object.entries(payload.set).map(([field, value]) => ({ field, value })), lostAnswer,
      };
    case 'create':
      return { kind: 'created', ok: true, entity: payload.entity, id: String(entry.record_id), version: entry.version_to ?? 1, stored: Object.entries(payload.values).map(([field, value]) => ({ field, value })) };
    case 'delete':
      return { kind: 'deleted', ok: true, entity: payload.entity, id: payload.id };
    case 'batch':
      return {
        kind: 'batch_saved', ok: true, entity: payload.entity, records: payload.rows.length, cells: payload.rows.reduce((n, row) => n + Object.keys(row.set).length, 0),
        fields: [...payload.fields], lostAnswer, ...(entry.batch ? { batch: entry.batch } : {}),
      };
    case 'send':
    {
      const messageId = entry.changes.find((c) => c.field === 'message_id')?.to;
      return { kind: 'sent', ok: true, to: payload.draft.to.email, messageId: typeof messageId === 'string' ? messageId : '' };
    }
  }
}
