// The approval desk: the writes the agent asked for that wait for the person's decision, as the
// Board shows them and decides them. The Board (controller.ts, approvalsPart.ts) needs only this
// port; what stores the approvals and writes an approved one lies behind it. MemoryApprovalDesk
// keeps them in memory: each one carries the function that carries out the decision.
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

/** Carries out the person's decision on one approval (writes what was approved, tells the requester) and says how it went. */
export type CarryOut = (decision: ApprovalDecision) => Promise<DecisionOutcome>;

interface Waiting {
  readonly view: PendingApprovalView;
  readonly carryOut: CarryOut;
  readonly expiry: ReturnType<typeof setTimeout>;
}

/**
 * The desk in memory: approvals added with the function that carries out their decision. Each
 * is decided once: the first decision takes it off the list before it is carried out, so a
 * second one (another window, a double click) finds it gone. An approval past its expiry is
 * not carried out, and leaves the list at its expiry (the listeners are told).
 */
export class MemoryApprovalDesk implements ApprovalDesk {
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Puts an approval on the desk; `carryOut` runs once, when the person decides it. Returns the function that withdraws it (void, or decided elsewhere). */
  add(view: PendingApprovalView, carryOut: CarryOut): () => void {
    if (this.waiting.has(view.id)) throw new Error(`an approval with id ${view.id} is already on the desk`);
    const expiry = setTimeout(() => this.remove(view.id), Math.max(0, Date.parse(view.expiresAt) - this.now()));
    this.waiting.set(view.id, { view, carryOut, expiry });
    this.changed();
    return () => this.remove(view.id);
  }

  async pending(): Promise<readonly PendingApprovalView[]> {
    return [...this.waiting.values()]
      .map((w) => w.view)
      .filter((view) => !this.expired(view))
      .sort((a, b) => Date.parse(a.requestedAt) - Date.parse(b.requestedAt));
  }

  async decide(id: string, decision: ApprovalDecision): Promise<DecisionOutcome> {
    const entry = this.waiting.get(id);
    if (!entry) return { kind: 'gone' };
    this.remove(id);
    if (this.expired(entry.view)) return { kind: 'expired' };
    try {
      return await entry.carryOut(decision);
    } catch (error) {
      return { kind: 'failed', text: error instanceof Error ? error.message : String(error) };
    }
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops every approval without carrying it out, and stops their expiry timers (the front end stops). */
  dispose(): void {
    for (const { expiry } of this.waiting.values()) clearTimeout(expiry);
    this.waiting.clear();
    this.listeners.clear();
  }

  private expired(view: PendingApprovalView): boolean {
    return Date.parse(view.expiresAt) <= this.now();
  }

  private remove(id: string): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    clearTimeout(entry.expiry);
    this.waiting.delete(id);
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
