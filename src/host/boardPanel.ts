// The "XOS Board" webview panel. The state lives in the host (BoardState), so
// the webview can be discarded when hidden and is re-rendered when shown again.
// Tools that show data open the panel if it is closed.
import * as vscode from 'vscode';
import { boardHtml, createNonce } from '../board/html.ts';
import { rowTarget } from '../board/navigation.ts';
import * as protocol from '../board/protocol.ts';
import type { MessageEndpoint } from '../board/protocol.ts';
import type { BoardState } from '../board/state.ts';
import { boardTexts } from '../board/texts.ts';
import { buildBoardView, parseMailbox, type BoardView } from '../board/view.ts';
import type { Board, BoardChange, BoardRecord, XosClient } from '../mcp/ports.ts';
import { connectWebview } from './boardTransport.ts';

export const boardViewType = 'xos.board';
const FORM_DATA_TIMEOUT_MS = 2_000;

export interface BoardPanelOptions {
  readonly extensionUri: vscode.Uri;
  readonly state: BoardState;
  readonly client: XosClient;
  readonly locale: () => string;
  /** The Save button: the same path as xos_ui_save. */
  readonly save: () => Promise<void>;
  readonly output: vscode.LogOutputChannel;
}

export class BoardPanel implements vscode.Disposable {
  private readonly options: BoardPanelOptions;
  private panel: vscode.WebviewPanel | undefined;
  private endpoint: MessageEndpoint | undefined;
  private ready = false;
  /** Set while the host applies the webview's own edit, so it is not echoed back mid-typing. */
  private applyingWebviewEdit = false;
  private readonly disposables: vscode.Disposable[] = [];

  /** The Board the tools use: the host state, with form data flushed from the webview. */
  readonly board: Board;

  constructor(options: BoardPanelOptions) {
    this.options = options;
    const { state } = options;
    this.board = {
      showList: (view) => state.showList(view),
      showDetail: (view) => state.showDetail(view),
      showMail: (draft) => state.showMail(draft),
      clearMail: () => state.clearMail(),
      preview: (changes) => state.preview(changes),
      formData: () => this.formData(),
      snapshot: () => state.snapshot(),
      onChange: (listener) => state.onChange(listener),
    };
    this.disposables.push(state.onChange((change) => this.stateChanged(change)));
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  get isVisible(): boolean {
    return this.panel?.visible === true;
  }

  /** Opens the panel, or reveals it. */
  open(preserveFocus = false): void {
    if (this.panel) {
      this.panel.reveal(undefined, preserveFocus);
      return;
    }
    const { extensionUri } = this.options;
    const panel = vscode.window.createWebviewPanel(boardViewType, boardTexts(this.options.locale()).title, { viewColumn: vscode.ViewColumn.Active, preserveFocus }, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'xos.svg');
    this.panel = panel;
    this.ready = false;
    const { endpoint, disposable } = connectWebview(panel.webview);
    this.endpoint = endpoint;
    endpoint.onNotification(protocol.ready, () => {
      this.ready = true;
      this.render();
    });
    endpoint.onNotification(protocol.edit, ({ field, value }) => this.applyEdit(field, value));
    endpoint.onNotification(protocol.editMail, ({ field, value }) => this.applyMailEdit(field, value));
    endpoint.onNotification(protocol.navigateRow, ({ row }) => void this.navigateRow(row));
    endpoint.onNotification(protocol.save, () => void this.options.save());
    const viewState = panel.onDidChangeViewState(() => {
      // A hidden webview is discarded; it says ready again when it comes back.
      if (!panel.visible) {
        this.ready = false;
        endpoint.cancelPending('the Board was hidden');
      }
    });
    panel.onDidDispose(() => {
      disposable.dispose();
      viewState.dispose();
      endpoint.cancelPending('the Board was closed');
      this.panel = undefined;
      this.endpoint = undefined;
      this.ready = false;
    });
    panel.webview.html = this.html(panel.webview);
  }

  /** What the webview shows now (also what the host tests check). */
  view(): BoardView {
    const { state, client } = this.options;
    return buildBoardView({ ast: client.ast(), locale: this.options.locale(), snapshot: state.snapshot(), records: state.shownRecords(), form: state.formValues() });
  }

  /** Re-sends the view, e.g. after the locale changed. */
  render(): void {
    if (!this.panel || !this.ready || !this.endpoint) return;
    this.panel.title = boardTexts(this.options.locale()).title;
    try {
      this.endpoint.notify(protocol.render, { view: this.view() });
    } catch (error) {
      this.options.output.error(`rendering the Board failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private html(webview: vscode.Webview): string {
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, 'dist', 'webview', 'board.js'));
    return boardHtml({ cspSource: webview.cspSource, scriptUri: script.toString(), nonce: createNonce(), lang: this.options.locale(), title: boardTexts(this.options.locale()).title });
  }

  private stateChanged(change: BoardChange): void {
    if (this.applyingWebviewEdit) return;
    // A tool showed something: the person should see it.
    if (!this.panel) {
      this.open(true);
      return;
    }
    if (change !== 'form' && !this.panel.visible) this.panel.reveal(undefined, true);
    this.render();
  }

  private applyEdit(field: string, value: unknown): void {
    if (!this.options.state.snapshot().detail) return;
    this.applyingWebviewEdit = true;
    try {
      this.options.state.edit(field, value);
    } finally {
      this.applyingWebviewEdit = false;
    }
  }

  private applyMailEdit(field: protocol.MailField, value: string): void {
    const draft = this.options.state.snapshot().mail;
    if (!draft) return;
    const next = field === 'to' ? { ...draft, to: parseMailbox(value) } : { ...draft, [field]: value };
    this.applyingWebviewEdit = true;
    try {
      this.options.state.showMail(next);
    } finally {
      this.applyingWebviewEdit = false;
    }
  }

  /** The person's form: the webview flushes their latest edits first; when hidden, the host state is current. */
  private async formData(): Promise<Record<string, unknown>> {
    const { state, output } = this.options;
    if (this.panel?.visible && this.ready && this.endpoint && state.snapshot().detail) {
      try {
        const edits = await this.endpoint.request(protocol.formData, {}, FORM_DATA_TIMEOUT_MS);
        const known = await state.formData();
        for (const [field, value] of Object.entries(edits)) {
          if (JSON.stringify(known[field]) !== JSON.stringify(value)) this.applyEdit(field, value);
        }
      } catch (error) {
        output.warn(`the Board did not send its form (${error instanceof Error ? error.message : String(error)}); using the host state`);
      }
    }
    return state.formData();
  }

  private async navigateRow(row: number): Promise<void> {
    const { state, client, output } = this.options;
    const snapshot = state.snapshot();
    const record = state.shownRecords()[row];
    if (snapshot.kind !== 'list' || !snapshot.context || !record) return;
    const target = rowTarget(client.ast(), snapshot.context, record);
    if (!target) return;
    try {
      const result = await client.run(target.request.query, target.request.variables);
      if (result.errors?.length) throw new Error(result.errors[0].message);
      const found = result.data?.[target.context] as BoardRecord | null | undefined;
      if (!found) throw new Error(`${target.context} ${target.id} was not found`);
      const { version, ...fields } = found;
      state.showDetail({ context: target.context, record: fields, version: version as number });
    } catch (error) {
      output.error(`opening ${target.context} ${target.id} failed: ${error instanceof Error ? error.message : String(error)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('XOS could not open {0} {1}: {2}', target.context, target.id, error instanceof Error ? error.message : String(error)));
    }
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
