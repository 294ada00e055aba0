// Unsaved Board work comes back after a reload or a crash (src/store/drafts.ts). The record
// may have been saved by someone else meanwhile: then the kept edits sit on the stored
// version, and the fields both changed become conflicts for the person, as after a save.
import { buildDetailQuery } from '../graphql/requests.ts';
import type { BoardRecord } from './domain.ts';
import type { CoreDeps } from './base.ts';

export type RestoreCheck =
  | { readonly state: 'current' }
  | { readonly state: 'changed'; readonly version: number; readonly conflicts: readonly string[] }
  | { readonly state: 'deleted' }
  | { readonly state: 'nothing' };

/** Compares the restored record with the stored one; a newer version turns into conflicts on the Board. */
export async function checkRestored(deps: CoreDeps): Promise<RestoreCheck> {
  const detail = deps.board.snapshot().detail;
  if (!detail || detail.version === undefined || detail.record.id === undefined || detail.record.id === null) return { state: 'nothing' };
  const request = buildDetailQuery(deps.client.ast(), detail.context, String(detail.record.id));
  const result = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(result.errors[0].message);
  const row = result.data?.[request.root] as BoardRecord | null | undefined;
  if (!row) return { state: 'deleted' };
  const { version, ...record } = row;
  if (version === detail.version) return { state: 'current' };
  const conflicts = deps.board.conflict({ context: detail.context, record, version: version as number });
  return { state: 'changed', version: version as number, conflicts };
}
