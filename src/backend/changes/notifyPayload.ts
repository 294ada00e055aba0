// The NOTIFY payloads of the change feed on PostgreSQL: a write's changes as JSON, split so each
// payload stays under PostgreSQL's 8,000-byte limit, each with the audit cursor it reaches.
import type { RecordChange } from './types.ts';
import { AUDIT_PATHS } from '../storage/audit.ts';
import type { Statement } from '../storage/sql.ts';

export const CHANGES_CHANNEL = 'xos_changes';
export const PRESENCE_CHANNEL = 'xos_presence';
/** PostgreSQL refuses payloads of 8,000 bytes or more; the envelope gets the rest. */
const MAX_PAYLOAD_BYTES = 7_800;

/** A change with the audit id that records it (absent: the app keeps no audit trail). */
export interface NotifiedChange {
  readonly change: RecordChange;
  readonly auditId?: number;
}

export interface ChangesPayload {
  readonly changes: RecordChange[];
  readonly cursor?: number;
}

export function changesPayloads(items: readonly NotifiedChange[]): string[] {
  const payloads: string[] = [];
  let parts: string[] = [];
  let bytes = 0;
  let cursor: number | undefined;
  const flush = () => {
    if (parts.length === 0) return;
    payloads.push(`{${cursor === undefined ? '' : `"cursor":${cursor},`}"changes":[${parts.join(',')}]}`);
    parts = [];
    bytes = 0;
    cursor = undefined;
  };
  for (const { change, auditId } of items) {
    const text = JSON.stringify(change);
    const size = Buffer.byteLength(text) + 1;
    if (parts.length > 0 && bytes + size > MAX_PAYLOAD_BYTES) flush();
    parts.push(text);
    bytes += size;
    if (auditId !== undefined) cursor = Math.max(cursor ?? 0, auditId);
  }
  flush();
  return payloads;
}

/** One statement sending every payload (inside the write's transaction: delivered at commit, never on rollback). */
export function notifyChangesSql(items: readonly NotifiedChange[]): Statement | undefined {
  const payloads = changesPayloads(items);
  if (payloads.length === 0) return undefined;
  return { text: `SELECT pg_notify('${CHANGES_CHANNEL}', p) FROM unnest($1::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n`, params: [payloads] };
}

/**
 * A changes payload; only the changes in exactly the shape XOS sends are kept (any role may NOTIFY,
 * and where the app keeps no trail these are told to the front ends as they are).
 */
export function parseChangesPayload(payload: string): ChangesPayload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || !Array.isArray((value as ChangesPayload).changes)) return undefined;
  const { changes, cursor } = value as { changes: unknown[]; cursor?: unknown };
  return { changes: changes.filter(isRecordChange), ...(typeof cursor === 'number' ? { cursor } : {}) };
}

const ACTIONS: ReadonlySet<unknown> = new Set(['create', 'update', 'delete']);

/** A non-empty string of at most `max` characters: how a heard payload's names and ids are checked. */
export function isShortText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

function isRecordChange(value: unknown): value is RecordChange {
  if (value === null || typeof value !== 'object') return false;
  const { entity, id, action, version, person, path } = value as Record<string, unknown>;
  return isShortText(entity, 200) && isShortText(id, 200) && ACTIONS.has(action)
    && (version === null || Number.isSafeInteger(version))
    && (person === undefined || isShortText(person, 64))
    && (path === undefined || (AUDIT_PATHS as readonly unknown[]).includes(path));
}
