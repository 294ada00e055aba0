// The approval desk in memory, for tests of the Board's approvals part: each approval carries the
// function that carries out the decision. The front ends use StoredApprovalDesk (src/board).
import type { ApprovalDecision, ApprovalDesk, DecisionOutcome, PendingApprovalView } from '../../src/board/approvalDesk.ts';

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
