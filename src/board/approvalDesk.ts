// The approval desk: the writes the agent asked for that wait for the person's decision, as the
// Board shows them and decides them. The Board (controller.ts, approvalsPart.ts) needs only this
// port; what stores the approvals and writes an approved one lies behind it (storedApprovalDesk.ts
// over the approvals file of src/store; the tests' MemoryApprovalDesk in test/support).
export type ApprovalKind = 'save' | 'create' | 'delete' | 'send' | 'batch';

/** One pending approval as the person sees it; the words are already person-facing. */
export interface PendingApprovalView {
  readonly id: string;
  readonly kind: ApprovalKind;
  /** The question, as the blocking question would word it ("Save changes to Person 12? City: Bonn → Kiel"). */
  readonly question: string;
  /** The hash of the write Approve makes now (what the question shows); deciding with it writes only that. */
  readonly hash?: string;
  /** Who asked ("The agent for anna", "Claude for anna"). */
  readonly requester: string;
  readonly requestedAt: string; // ISO
  readonly expiresAt: string; // ISO
}

export type ApprovalDecision = 'approve' | 'decline';

export type DecisionOutcome =
  | { readonly kind: 'approved'; readonly text: string } // written; text says what ("Saved Person 12.")
  | { readonly kind: 'declined' }
  | { readonly kind: 'void'; readonly why: string } // e.g. the record was changed after the request
  | { readonly kind: 'expired' }
  | { readonly kind: 'gone' } // decided elsewhere meanwhile / unknown
  | { readonly kind: 'failed'; readonly text: string };

export interface ApprovalDesk {
  /** Pending approvals, oldest first. */
  pending(): Promise<readonly PendingApprovalView[]>;
  /** `shown`: the hash of the write the person's surface showed (PendingApprovalView.hash); Approve writes only that. */
  decide(id: string, decision: ApprovalDecision, shown?: string): Promise<DecisionOutcome>;
  /** Told whenever the pending list may have changed (new, decided, expired, voided); returns unsubscribe. */
  onChange(listener: () => void): () => void;
}
