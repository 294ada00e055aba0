// <xos-record-history>: the shown record's audit trail under the form, opened on demand:
// when, who (the agent, the person, another client), what changed old -> new, and Undo of a
// save (which puts the old values into the form; saving asks the person as always).
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { HistoryEntryView, RecordHistoryView } from '../../src/board/recordHistory.ts';
import { StoreController } from '../storeController.ts';

export class XosRecordHistory extends LitElement {
  static override styles = css`
    :host { display: block; margin-top: 1.25rem; }
    summary { cursor: pointer; font-weight: 600; }
    ol { list-style: none; padding: 0; margin: 0.5rem 0 0; display: flex; flex-direction: column; gap: 0.5rem; }
    li { border-left: 2px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent)); padding-left: 0.6rem; }
    .head { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
    .who { font-weight: 600; }
    .approval, .note { color: var(--vscode-descriptionForeground); }
    ul { list-style: none; margin: 0.25rem 0 0; padding-left: 0.5rem; }
    .from { text-decoration: line-through; color: var(--vscode-descriptionForeground); }
  `;

  private readonly board = new StoreController(this, ['detail', 'locale'], () => {
    if (this.open) void this.load();
  });
  private open = false;
  /** The record and version the shown entries were read for (`key|version`). */
  private loadedFor: string | undefined;
  private view: RecordHistoryView | undefined;
  private failed = false;

  private toggled(event: Event): void {
    this.open = (event.target as HTMLDetailsElement).open;
    if (this.open) void this.load();
  }

  /** Reads the trail again when the record or its version changed since the last read. */
  private async load(): Promise<void> {
    const { store } = this.board;
    const detail = store.detail;
    if (!detail) return;
    const wanted = `${detail.key}|${String(detail.version)}`;
    if (this.loadedFor === wanted) return;
    this.loadedFor = wanted;
    this.failed = false;
    this.view = undefined;
    this.requestUpdate();
    try {
      const view = await store.recordHistory(detail.key);
      if (this.loadedFor === wanted) this.view = view;
    } catch {
      if (this.loadedFor === wanted) {
        this.failed = true;
        this.loadedFor = undefined;
      }
    }
    this.requestUpdate();
  }

  override render(): TemplateResult {
    const { store } = this.board;
    const texts = store.texts;
    const detail = store.detail;
    if (!texts || !detail || detail.isNew) return html``;
    return html`<details class="history" ?open=${this.open} @toggle=${(event: Event) => this.toggled(event)}>
      <summary>${texts.history}</summary>
      ${this.failed ? html`<p class="note" role="alert">${texts.historyFailed}</p>`
        : !this.view ? html`<p class="note" aria-busy="true">${texts.historyLoading}</p>`
        : this.view.off ? html`<p class="note">${texts.historyOff}</p>`
        : this.view.entries.length === 0 ? html`<p class="note">${texts.historyEmpty}</p>`
        : html`<ol aria-label=${texts.history}>${this.view.entries.map((entry) => this.entry(entry, texts.undo, texts.undoHint))}</ol>`}
    </details>`;
  }

  private entry(entry: HistoryEntryView, undo: string, undoHint: string): TemplateResult {
    const { store } = this.board;
    return html`<li class="entry" data-entry=${entry.id}>
      <div class="head">
        <time datetime=${entry.at}>${entry.when}</time>
        <span class="who">${entry.who}</span>
        <span class="what">${entry.what}</span>
        ${entry.canUndo ? html`<vscode-button secondary class="undo" title=${undoHint} aria-label="${undo}: ${entry.when}"
          @click=${() => store.undoSave(entry.id)}>${undo}</vscode-button>` : nothing}
      </div>
      <ul>${entry.changes.map((change) => html`<li class="change"><span class="label">${change.label}</span>:
        <span class="from">${change.from}</span> → <span class="to">${change.to}</span></li>`)}</ul>
      ${entry.approval ? html`<div class="approval">${entry.approval}</div>` : nothing}
    </li>`;
  }
}

customElements.define('xos-record-history', XosRecordHistory);
