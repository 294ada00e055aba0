// <xos-approval-list>: the writes the agent asked for that wait for the person's decision, in a
// panel at the top of the Board (above the list, form or review, which stay in view below it).
// A region named "Waiting for your decision"; its header opens and closes the list and shows the
// count. Each approval: the question in full, who asked and when, when it expires (updated as
// the minutes pass; expired ones leave when the host sends the list again), Approve and Decline
// named with what they decide. A decision disables that approval's buttons until its outcome
// came (the store drops a second one); the outcome is said on the status line. After the list
// changed, the buttons do nothing for 0.7 s (question-timing.ts), like a question's act button.
// The expiry has a line of its own that never wraps: its text changes with the clock, and a
// change that reflowed the list would move another approval's button under a pointer on its way.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ApprovalItem } from '../../src/board/protocol.ts';
import type { WebviewTexts } from '../../src/board/viewTypes.ts';
import { StoreController } from '../storeController.ts';
import { approvalListStyles } from './approval-list.styles.ts';
import { askedTime, expiryText, nextExpiryChange, questionName } from './approvalText.ts';
import { ActGuard } from './question-timing.ts';

export class XosApprovalList extends LitElement {
  static override styles = approvalListStyles;
  private readonly board = new StoreController(this, ['locale', 'approvals']);
  private focusList = false;
  private hadFocus = false;
  /**
   * The buttons do nothing for a moment after the list changed — an approval left, or what one
   * would write changed (its hash): a click meant for what was there does not decide what replaced it.
   */
  private readonly guard = new ActGuard();
  private inertTimer: ReturnType<typeof setTimeout> | undefined;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.expiryTimer);
    clearTimeout(this.inertTimer);
    this.expiryTimer = undefined;
  }

  protected override willUpdate(_changed: PropertyValues<this>): void {
    // The person asked to see the list (the store opened it): it takes focus once rendered.
    if (this.board.store.approvals.takeReveal()) this.focusList = true;
    // A decided approval leaves with its buttons: focus that was on them goes to the list, not to the page's end.
    this.hadFocus = this.shadowRoot?.activeElement != null;
  }

  override render(): TemplateResult | typeof nothing {
    const { store } = this.board;
    const texts = store.texts;
    const approvals = store.approvals.items;
    this.scheduleExpiryUpdate(approvals);
    if (this.guard.show(approvals.length ? approvals.map((a) => `${a.id} ${a.hash ?? ''}`).join('\n') : undefined)) {
      clearTimeout(this.inertTimer);
      this.inertTimer = setTimeout(() => this.requestUpdate(), this.guard.remaining() + 10);
    }
    if (!texts || !approvals.length) return nothing;
    const number = new Intl.NumberFormat(store.locale);
    const now = Date.now();
    // Keyed by approval: an item's element, its buttons and their handlers stay with one approval.
    // Rendered by position, the element of one that left would show the next one, and a click
    // already aimed at it (a pointer, an assistive tool, slow under load) would decide that one.
    return html`<section aria-label=${texts.approvalsTitle}>
      <h2>
        <button type="button" class="toggle" aria-expanded=${store.approvals.open ? 'true' : 'false'} aria-controls="approvals" @click=${() => store.approvals.setOpen(!store.approvals.open)}>
          <span class="chevron" aria-hidden="true">›</span>
          <span class="title">${texts.approvalsTitle}</span>
          <vscode-badge variant="counter" class="count">${number.format(approvals.length)}</vscode-badge>
        </button>
      </h2>
      <ul id="approvals" tabindex="-1" aria-label=${texts.approvalsTitle} ?hidden=${!store.approvals.open}>
        ${repeat(approvals, (approval) => approval.id, (approval) => this.renderApproval(approval, texts, number, now))}
      </ul>
    </section>`;
  }

  private renderApproval(approval: ApprovalItem, texts: WebviewTexts, number: Intl.NumberFormat, now: number): TemplateResult {
    const { store } = this.board;
    const deciding = store.approvals.deciding(approval.id);
    const inert = this.guard.inert();
    const name = questionName(approval.question);
    const expiry = expiryText(approval.expiresAt, now, texts, number);
    const soon = Date.parse(approval.expiresAt) - now < 5 * 60_000;
    return html`<li data-id=${approval.id} data-kind=${approval.kind} aria-busy=${deciding ? 'true' : 'false'}>
      <div class="text">
        <p class="question">${approval.question}</p>
        <p class="meta">
          <span class="who">${approval.requester}</span> ·
          <time datetime=${approval.requestedAt}>${texts.approvalAskedAt.replace('{time}', askedTime(approval.requestedAt, now, store.locale))}</time>
        </p>
        <p class="expiry ${soon ? 'soon' : ''}">${expiry}</p>
        ${deciding ? html`<p class="deciding" role="status">${texts.approvalDeciding}</p>` : nothing}
      </div>
      <div class="buttons">
        <vscode-button class="approve" aria-label=${texts.approveLabel.replace('{question}', name)} ?disabled=${deciding} aria-disabled=${inert ? 'true' : 'false'}
          @click=${() => this.decide(approval.id, 'approve', approval.hash)}>${texts.approve}</vscode-button>
        <vscode-button secondary class="decline" aria-label=${texts.declineLabel.replace('{question}', name)} ?disabled=${deciding} aria-disabled=${inert ? 'true' : 'false'}
          @click=${() => this.decide(approval.id, 'decline', approval.hash)}>${texts.decline}</vscode-button>
      </div>
    </li>`;
  }

  /** `shown`: the hash of the write this approval's question, as rendered, names. */
  private decide(id: string, decision: 'approve' | 'decline', shown: string | undefined): void {
    if (this.guard.inert()) return;
    this.board.store.approvals.decide(id, decision, shown);
  }

  override updated(): void {
    const lostFocus = this.hadFocus && this.shadowRoot?.activeElement == null;
    if (!this.focusList && !lostFocus) return;
    const revealed = this.focusList;
    this.focusList = false;
    const list = this.renderRoot.querySelector<HTMLElement>('ul');
    if (!list) return;
    if (revealed) list.scrollIntoView({ block: 'nearest' });
    // The list itself, not a button: a stray Enter decides nothing.
    list.focus();
  }

  /** Renders again when an expiry text changes (a minute passes), while approvals are listed. */
  private scheduleExpiryUpdate(approvals: readonly ApprovalItem[]): void {
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    if (!this.isConnected) return;
    const wait = nextExpiryChange(approvals.map((a) => a.expiresAt), Date.now());
    if (wait !== undefined) this.expiryTimer = setTimeout(() => this.requestUpdate(), wait + 50);
  }
}

customElements.define('xos-approval-list', XosApprovalList);

declare global {
  interface HTMLElementTagNameMap {
    'xos-approval-list': XosApprovalList;
  }
}
