// <xos-board>: the app shell. Shows the list grid (or, while the agent's changes of many
// rows wait for review, the review grid in its place), the detail form and the mail
// draft as the host sends them, the writes waiting for the person's decision above them,
// and the status line; the parts render themselves.
// It holds the Board's store (main.ts sets `store`) and provides it to every part below.
import { ContextProvider } from '@lit/context';
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { BoardStore } from '../state.ts';
import { boardTitle } from '../../src/text/boardTitle.ts';
import type { ListBlock, WebviewTexts } from '../../src/board/viewTypes.ts';
import { StoreController, boardStoreContext } from '../storeController.ts';
import { boardAppStyles } from './board-app.styles.ts';
import './approval-list.ts';
import './detail-form.ts';
import './list-grid.ts';
import './mail-draft.ts';
import './nav-bar.ts';
import './question-dialog.ts';
import './review-grid.ts';
import './start-page.ts';
import './status-strip.ts';

export class XosBoard extends LitElement {
  static override styles = boardAppStyles;
  static override properties = { store: { attribute: false } };

  /** The Board's state, made by main.ts with the host's endpoint. */
  declare store: BoardStore | undefined;
  private readonly provider = new ContextProvider(this, { context: boardStoreContext });
  // Only what decides the layout; each part follows its own topic.
  private readonly board = new StoreController(this, ['locale', 'list', 'detail', 'mail', 'connection', 'review', 'history', 'home']);

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Before the parts render: they take the store from the provider when they connect.
    if (!changed.has('store')) return;
    this.provider.setValue(this.store);
    this.board.setStore(this.store);
  }

  protected override updated(): void {
    // The browser Board's tab (in VS Code the panel's title is the host's, this one unseen).
    const texts = this.store?.texts;
    if (texts) document.title = boardTitle(texts.title, this.store!.app);
  }

  override render(): TemplateResult {
    const store = this.store;
    const texts = store?.texts;
    if (!store || !texts) return html``;
    const { list, detail, mail, review } = store;
    const banner = store.connection?.production ? html`<div class="production" role="note">${texts.production}</div>` : nothing;
    // The writes waiting for the person's decision sit on top of whatever the Board shows (it renders nothing when none wait).
    const approvals = html`<xos-approval-list></xos-approval-list>`;
    // The start page: before anything is shown, or when the person went to the app's lists (Back
    // and the breadcrumb lead there and back). The way back is shown whenever there is one.
    if (!store.showsSomething || store.home) {
      const nav = store.showsSomething || store.history.crumbs.length ? html`<xos-nav-bar></xos-nav-bar>` : nothing;
      return html`${banner}${nav}${approvals}<xos-start-page></xos-start-page><xos-status-strip></xos-status-strip><xos-question></xos-question>`;
    }
    return html`
      ${banner}
      <xos-nav-bar></xos-nav-bar>
      ${approvals}
      ${review
        ? html`<section class="list review"><h1>${review.label}</h1>${review.undoOf ? html`<p class="undo-of">${review.undoOf}</p>` : nothing}<xos-review-grid></xos-review-grid></section>`
        : list ? html`<section class="list">${this.listHead(store, list, texts)}<xos-list-grid></xos-list-grid></section>` : nothing}
      ${detail || mail ? html`<div class="scroll">
        ${detail ? html`<xos-detail-form></xos-detail-form>` : nothing}
        ${mail ? html`<xos-mail-draft></xos-mail-draft>` : nothing}
      </div>` : nothing}
      <xos-status-strip></xos-status-strip>
      <xos-question></xos-question>
    `;
  }

  /** The list's title; a list the agent narrowed says by what, and Show all opens it whole. */
  private listHead(store: BoardStore, list: ListBlock, texts: WebviewTexts): TemplateResult {
    if (!list.narrowed) return html`<h1>${list.label}</h1>`;
    return html`<div class="list-head">
      <h1>${list.label}<span class="narrowed" title=${texts.narrowedHint}> · ${list.narrowed}</span></h1>
      <button type="button" class="show-all" @click=${() => store.openContext(list.context)}>${texts.showAll}</button>
    </div>`;
  }
}

customElements.define('xos-board', XosBoard);

declare global {
  interface HTMLElementTagNameMap {
    'xos-board': XosBoard;
  }
}
