// The audit trail as the front ends read it: the API's `xos_audit` rows as `AuditEntry`, one
// mapping for every reader (a record's History, the last save, a batch's entries, the batch a
// write made), and the trail's words the front ends write with a save (the path, the approval
// text). The backend writes the trail and owns these types; the use cases take them from the
// client, their side of the API, not from the backend's storage.
import type { AuditEntry } from '../backend/storage/audit.ts';
import { buildAuditQuery } from './requests.ts';
import type { XosClient } from './types.ts';

export type { AuditEntry, AuditPath } from '../backend/storage/audit.ts';
export { approvalText } from '../backend/storage/audit.ts';

/** An entry as the API sends it. */
interface ApiAuditEntry {
  readonly id: string;
  readonly at: string;
  readonly path: AuditEntry['path'];
  readonly action: AuditEntry['action'];
  readonly entity: string | null;
  readonly record_id: string | null;
  readonly version_from: number | null;
  readonly version_to: number | null;
  readonly approval: string | null;
  readonly batch?: string | null;
  readonly person?: string | null;
  readonly changes: ReadonlyArray<{ readonly field: string; readonly from: unknown; readonly to: unknown }>;
}

export interface AuditFilter {
  readonly entity?: string;
  readonly id?: string;
  readonly batch?: string;
}

/** One page of the trail's entries that match, newest first (as the API gives them). */
export async function readAudit(client: Pick<XosClient, 'run'>, filter: AuditFilter, limit: number, offset = 0): Promise<AuditEntry[]> {
  const request = buildAuditQuery(filter, limit, offset);
  const result = await client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(`reading the audit trail failed: ${result.errors[0].message}`);
  return ((result.data?.[request.root] ?? []) as ApiAuditEntry[]).map(auditEntry);
}

function auditEntry(row: ApiAuditEntry): AuditEntry {
  return {
    id: Number(row.id), at: row.at, path: row.path, action: row.action, entity: row.entity, recordId: row.record_id,
    versionFrom: row.version_from, versionTo: row.version_to, approval: row.approval,
    ...(row.batch ? { batch: row.batch } : {}),
    ...(row.person ? { person: row.person } : {}),
    changes: Object.fromEntries(row.changes.map((c) => [c.field, { from: c.from, to: c.to }])) as AuditEntry['changes'],
  };
}
