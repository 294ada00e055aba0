// The webview's part of the approval desk: the writes the agent asked for that wait for the
// person's decision (oldest first, as the host lists them), whether their list is open, the
// person's request to see it, and the decisions sent from here whose outcome has not come yet.
// It registers its own messages on the endpoint the store gives it and says when it changed.
import * as protocol from '../src/board/protocol.ts';
import type { BoardEndpoint } from './endpoint.ts';

export class ApprovalsState {
  /** The pending approvals, oldest first. */
  items: readonly protocol.ApprovalItem[] = [];
  /** Whether the list is open (its header toggles it); kept here, so it stays as the person left it when the Board's layout changes. */
  open = true;
  /** The person asked to see the approvals (status bar, command) and the list has not taken focus for it yet. */
  private reveal = false;
  /** Approvals the person decided here whose outcome has not come yet: their buttons wait. */
  private readonly decidingHere = new Set<string>();
  private readonly host: BoardEndpoint;
  private readonly changed: () => void;

  constructor(host: BoardEndpoint, changed: () => void) {
    this.host = host;
    this.changed = changed;
    host.onNotification(protocol.approvals, ({ approvals }) => {
      this.items = approvals;
      // A decision whose approval left the list is over, whatever message says so.
      const listed = new Set(approvals.map((a) => a.id));
      for (const id of this.decidingHere) if (!listed.has(id)) this.decidingHere.delete(id);
      changed();
    });
    host.onNotification(protocol.approvalDecided, ({ id }) => {
      if (this.decidingHere.delete(id)) changed();
    });
    host.onNotification(protocol.revealApprovals, () => {
      this.open = true;
      this.reveal = true;
      changed();
    });
  }

  /** Opens or closes the list. */
  setOpen(open: boolean): void {
    if (open === this.open) return;
    this.open = open;
    this.changed();
  }

  /** Whether the person asked to see the approvals since the last call: the list takes focus once per request. */
  takeReveal(): boolean {
    const asked = this.reveal;
    this.reveal = false;
    return asked;
  }

  /** Whether a decision of this approval is under way (here or, as the host says, from an earlier page): its buttons wait. */
  deciding(id: string): boolean {
    return this.decidingHere.has(id) || this.items.some((a) => a.id === id && a.deciding);
  }

  /** The person's decision of a listed approval; nothing while one of it is under way (no double submit). True when it was sent. */
  decide(id: string, decision: 'approve' | 'decline', shownHash?: string): boolean {
    const listed = this.items.find((a) => a.id === id);
    if (this.deciding(id) || !listed) return false;
    this.decidingHere.add(id);
    // The hash of the write the person saw (as rendered, else as listed): Approve writes that, or nothing when it changed since.
    const hash = shownHash ?? listed.hash;
    this.host.notify(protocol.decideApproval, { id, decision, ...(hash === undefined ? {} : { hash }) });
    this.changed();
    return true;
  }
}
