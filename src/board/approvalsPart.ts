// The Board's part for the approval desk (approvalDesk.ts): the writes the agent asked for that
// wait for the person's decision. The list is read from the desk at start, whenever the desk
// says it may have changed and when the page says ready (no polling), and sent to the page as
// its own part; the front end hears the count (its status bar). The person's decision comes
// from the page; each approval is decided once from here (a second click while the first is
// carried out is dropped), and the outcome is said on the status line in the Board's language.
import type { ApprovalDecision, ApprovalDesk, DecisionOutcome, PendingApprovalView } from './approvalDesk.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import * as protocol from './protocol/approvals.ts';
import type { MessageEndpoint } from './protocol/messages.ts';
import type { StatusLine } from './protocol/board.ts';
import { errorText } from './runAction.ts';
import { translator, type Translate } from './texts.ts';

/** The status line for the outcome of a decision, in the person's words. */
export function outcomeLine(t: Translate, outcome: DecisionOutcome): StatusLine {
  switch (outcome.kind) {
    case 'approved': return { kind: 'info', text: outcome.text };
    case 'declined': return { kind: 'info', text: t('Declined: nothing was written.') };
    case 'void': return { kind: 'error', text: t('Not written: {0}', outcome.why) };
    case 'expired': return { kind: 'error', text: t('Not written: the request expired before your decision.') };
    case 'gone': return { kind: 'error', text: t('This request is no longer waiting: it was decided elsewhere or withdrawn.') };
    case 'failed': return { kind: 'error', text: t('Not written: {0}', outcome.text) };
  }
}

export class ApprovalsPart implements BoardPart {
  private readonly desk: ApprovalDesk;
  private readonly host: BoardHost;
  private readonly stopListening: () => void;
  private readonly countListeners = new Set<(count: number) => void>();
  /** The list as read last (oldest first). */
  private items: readonly PendingApprovalView[] = [];
  /** Approvals whose decision is being carried out: a second decision of one is dropped. */
  private readonly deciding = new Set<string>();
  /** Bumped per read: a slower earlier read does not overwrite a newer one. */
  private reads = 0;
  /** The person asked to see the list before the page was ready: it opens it once it is. */
  private revealWhenReady = false;

  constructor(desk: ApprovalDesk, host: BoardHost) {
    this.desk = desk;
    this.host = host;
    this.stopListening = desk.onChange(() => void this.refresh());
    void this.refresh();
  }

  /** How many approvals wait (as read last). */
  get count(): number {
    return this.items.length;
  }

  /** Told the count whenever the list was read again; returns unsubscribe. */
  onCount(listener: (count: number) => void): () => void {
    this.countListeners.add(listener);
    return () => this.countListeners.delete(listener);
  }

  /** The person's decision, from their own Board page: the agent's tools have no way to send it. */
  register(endpoint: MessageEndpoint): void {
    endpoint.onNotification(protocol.decideApproval, ({ id, decision, hash }) => void this.decide(id, decision, hash));
  }

  /** The page said ready: the list, read again, and the list opened if the person asked for it meanwhile. */
  async pageReady(): Promise<void> {
    await this.refresh();
    if (this.revealWhenReady && this.host.pageConnected()) {
      this.revealWhenReady = false;
      this.host.notifyPage(protocol.revealApprovals, {});
    }
  }

  /** Opens the list on the page (now, or when the page says ready). */
  reveal(): void {
    if (this.host.pageConnected()) this.host.notifyPage(protocol.revealApprovals, {});
    else this.revealWhenReady = true;
  }

  /** Reads the list from the desk and sends it; the count listeners hear it. */
  async refresh(): Promise<void> {
    const read = ++this.reads;
    let items: readonly PendingApprovalView[];
    try {
      items = await this.desk.pending();
    } catch (error) {
      this.host.ui.log.warn(`the pending approvals could not be read: ${errorText(error)}`);
      return;
    }
    if (read !== this.reads) return;
    this.items = items;
    this.sendList();
    for (const listener of [...this.countListeners]) listener(items.length);
  }

  /** The person's decision from the page (`shown`: the hash of the write its list showed): carried out once, its outcome said on the status line. */
  async decide(id: string, decision: ApprovalDecision, shown?: string): Promise<void> {
    if (this.deciding.has(id)) return;
    this.deciding.add(id);
    const t = translator(this.host.locale());
    this.host.setStatus({ kind: 'busy', text: decision === 'approve' ? t('Approving…') : t('Declining…') });
    this.sendList();
    let outcome: DecisionOutcome;
    try {
      outcome = await this.desk.decide(id, decision, shown);
    } catch (error) {
      outcome = { kind: 'failed', text: errorText(error) };
    } finally {
      this.deciding.delete(id);
    }
    // The list first: the page learns the decision is over when the decided approval is gone from it already.
    await this.refresh();
    this.host.notifyPage(protocol.approvalDecided, { id, outcome: outcome.kind });
    this.host.setStatus(outcomeLine(translator(this.host.locale()), outcome));
  }

  dispose(): void {
    this.stopListening();
    this.countListeners.clear();
  }

  private sendList(): void {
    if (!this.host.pageConnected()) return;
    const { door } = this.host;
    const approvals: protocol.ApprovalItem[] = this.items.map((item) => ({
      id: item.id,
      kind: item.kind,
      question: door.text(item.question),
      ...(item.hash === undefined ? {} : { hash: item.hash }),
      requester: door.text(item.requester),
      requestedAt: item.requestedAt,
      expiresAt: item.expiresAt,
      deciding: this.deciding.has(item.id),
    }));
    this.host.notifyPage(protocol.approvals, { approvals });
  }
}
