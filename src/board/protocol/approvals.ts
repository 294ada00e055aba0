// The approval desk on the page: the writes waiting for the person, and their decisions
// (src/board/approvalsPart.ts).
import type { ApprovalDecision, DecisionOutcome, PendingApprovalView } from '../approvalDesk.ts';
import { isObject, isText, notification } from './messages.ts';

/** A pending approval as the page shows it: the desk's view (its texts through the person's door), and whether its decision is under way. */
export interface ApprovalItem extends PendingApprovalView {
  readonly deciding: boolean;
}

/** The writes waiting for the person's decision, oldest first; sent when the page says ready and whenever the list may have changed. */
export const approvals = notification<{ readonly approvals: readonly ApprovalItem[] }>('board/approvals');

/** The decision of approval `id` came to an end (`outcome`; the status line says it in words): its buttons act again if it is still listed. */
export const approvalDecided = notification<{ readonly id: string; readonly outcome: DecisionOutcome['kind'] }>('board/approvalDecided');

/** The person asked to see the pending approvals (the status bar, the command): the page opens the list and moves focus to it. */
export const revealApprovals = notification<Record<string, never>>('board/revealApprovals');

/**
 * The person decided a write the agent asked for (the approval `id` of the list the page was
 * sent, and the `hash` of the write that list showed: Approve writes only that). Only the
 * person's Board page sends it: the agent's tools have no way to.
 */
export const decideApproval = notification<{ readonly id: string; readonly decision: ApprovalDecision; readonly hash?: string }>('board/decideApproval',
  (v): v is { id: string; decision: ApprovalDecision; hash?: string } => isObject(v) && isText(v.id, 200) && v.id.length > 0 && (v.decision === 'approve' || v.decision === 'decline')
    && (v.hash === undefined || (isText(v.hash, 128) && v.hash.length > 0)));
