// <xos-status-strip>: one line the host sends (a save in progress, its outcome,
// a row that could not be opened, an export), announced politely to screen readers;
// beside it what the Board works on: app, context, data source, connection and latency.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { StoreController } from '../storeController.ts';
import { statusStripStyles } from './status-strip.styles.ts';

export class XosStatusStrip extends LitElement {
  static override styles = statusStripStyles;
  private readonly board = new StoreController(this, ['status', 'connection', 'locale', 'list', 'detail']);

  override render(): TemplateResult {
    const { store } = this.board;
    const status = store.status;
    return html`<div role="status" aria-live="polite" class="message ${status?.kind ?? ''}">${status?.text ?? ''}</div>${this.connectionLine()}${this.localeSwitch()}`;
  }

  /** The app's locales, each named in its own language ("Deutsch", "English"). */
  private localeSwitch(): TemplateResult | typeof nothing {
    const { store } = this.board;
    const { locales, texts } = store;
    if (locales.length < 2 || !texts) return nothing;
    const name = (tag: string) => {
      try {
        const own = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
        return own.charAt(0).toLocaleUpperCase(tag) + own.slice(1);
      } catch {
        return tag;
      }
    };
    return html`<select class="locale" aria-label=${texts.language} @change=${(event: Event) => store.setLocale((event.target as HTMLSelectElement).value)}>
      ${locales.map((tag) => html`<option value=${tag} ?selected=${tag === store.locale}>${name(tag)}</option>`)}
    </select>`;
  }

  private connectionLine(): TemplateResult | typeof nothing {
    const { store } = this.board;
    const { connection, texts } = store;
    if (!connection || !texts) return nothing;
    const kind = ({ sqlite: 'SQLite', postgres: 'PostgreSQL' } as Record<string, string>)[connection.kind] ?? connection.kind;
    const source = connection.remote ? `${texts.remote} (${kind})` : kind;
    const ms = connection.latencyMs;
    const latency = ms === null ? '?' : ms < 1 ? '<1' : String(Math.round(ms));
    const state = connection.reachable ? texts.connected.replace('{ms}', latency) : texts.unreachable;
    const context = store.detail?.label ?? store.list?.label;
    return html`<div class="connection ${connection.reachable ? '' : 'down'}">${[connection.app, context, source, state].filter(Boolean).join(' · ')}</div>`;
  }
}

customElements.define('xos-status-strip', XosStatusStrip);
