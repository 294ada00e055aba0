// Asking the person to confirm a write, and how the audit trail names the write they confirmed:
// one piece for the form's save, the review's save and a record's create or delete.
import { approvalText } from '../graphql/audit.ts';
import { approvalMarker } from './approvalCommit.ts';
import type { CoreDeps } from './base.ts';
import type { SaveSummary } from './domain.ts';

/**
 * How the audit trail names a write the person confirmed. `approvals`: stored approvals this write
 * decides (the Board's own Save of what they were asked from), named so that a sweep after a crash
 * finds the write and settles them as approved.
 */
export function confirmedText(action: string, changes: readonly { field: string }[], approvals: readonly string[] = []): string {
  return approvalText(`${action} confirmed by the person${approvals.map((id) => ` ${approvalMarker(id)}`).join('')}`, changes.map((c) => c.field));
}

/** Asks the person; any change of the Board while the question is open voids the answer. */
export async function askBound(deps: CoreDeps, summary: SaveSummary, signal: AbortSignal): Promise<'save' | 'discard' | 'timeout' | 'void'> {
  const changed = new AbortController();
  const subscription = deps.board.onChange((change) => {
    if (change !== 'mail') changed.abort();
  });
  try {
    const answer = await deps.confirmer.confirmSave(summary, AbortSignal.any([changed.signal, signal]));
    return changed.signal.aborted ? 'void' : answer;
  } finally {
    subscription.dispose();
  }
}
