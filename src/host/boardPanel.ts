// The "XOS Board" webview panel: VS Code's surface for the Board controller
// (src/board/controller.ts). It owns the panel's lifecycle; vscodeBoardUi gives the controller
// VS Code's notifications, dialogs, settings and l10n; everything else happens there.
import * as vscode from 'vscode';
import type { BoardController, BoardSurface, BoardUi, CsvExport } from '../board/controller.ts';
import { boardHtml, createNonce } from '../board/html.ts';
import { boardTexts } from '../board/texts.ts';
import { writeCsvFile } from '../core/csv.ts';
import { connectWebview } from './boardTransport.ts';
import { boardViewType } from './contributionIds.ts';
import { notify } from './notify.ts';
import type { QuestionConfirmer } from '../board/confirmer.ts';

export interface BoardPanelOptions {
  readonly extensionUri: vscode.Uri;
  readonly locale: () => string;
  /** The Board's host side (src/app/xosApp.ts builds it with this panel as its surface). */
  readonly controller: () => BoardController;
}

export class BoardPanel implements vscode.Disposable {
  private readonly options: BoardPanelOptions;
  private panel: vscode.WebviewPanel | undefined;
  /** Where the controller shows the Board: this panel. */
  readonly surface: BoardSurface = {
    show: (preserveFocus) => this.open(preserveFocus),
    isOpen: () => this.isOpen,
    isVisible: () => this.isVisible,
    setTitle: (title) => {
      if (this.panel) this.panel.title = title;
    },
  };

  constructor(options: BoardPanelOptions) {
    this.options = options;
  }

  private get controller(): BoardController {
    return this.options.controller();
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
    const panel = vscode.window.createWebviewPanel(boardViewType, boardTexts(this.options.locale()).title, { viewColumn: vscode.ViewColumn.Active, preserveFocus }, this.webviewOptions());
    this.attach(panel);
  }

  /** After a window reload VS Code hands back the Board's tab (the serializer src/host/shell.ts registers); it shows the Board as the host has it. */
  restore(panel: vscode.WebviewPanel): void {
    if (this.panel) {
      // Only one Board: a second restored tab closes.
      panel.dispose();
      return;
    }
    panel.webview.options = this.webviewOptions();
    panel.title = boardTexts(this.options.locale()).title;
    this.attach(panel);
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    const { extensionUri } = this.options;
    return {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
    };
  }

  private attach(panel: vscode.WebviewPanel): void {
    const { extensionUri } = this.options;
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'xos.svg');
    this.panel = panel;
    const { endpoint, disposable } = connectWebview(panel.webview);
    const disconnect = this.controller.connect(endpoint);
    const viewState = panel.onDidChangeViewState(() => {
      // A hidden webview is discarded; it says ready again when it comes back.
      if (!panel.visible) this.controller.hidden();
    });
    panel.onDidDispose(() => {
      disposable.dispose();
      viewState.dispose();
      this.panel = undefined;
      disconnect();
    });
    panel.webview.html = this.html(panel.webview);
  }

  private html(webview: vscode.Webview): string {
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.options.extensionUri, 'dist', 'webview', 'board.js'));
    return boardHtml({ cspSource: webview.cspSource, scriptUri: script.toString(), nonce: createNonce(), lang: this.options.locale(), title: boardTexts(this.options.locale()).title });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

/**
 * VS Code's notifications, dialogs, settings and l10n for the Board. The controller wraps it
 * in personFacing (src/board/personFacing.ts), and notify() sanitises again: record data never
 * reaches a notification as a link.
 */
export function vscodeBoardUi(output: vscode.LogOutputChannel, askInTurn: QuestionConfirmer['askInTurn']): BoardUi {
  return {
    t: (message, ...args) => vscode.l10n.t(message, ...args),
    tell: (kind, text, ...actions) => notify(kind, text, actions),
    askDiscard: async (question, detail, discard) => {
      // Asked like XOS's other questions and in turn with them: a notification, a modal dialog in production.
      const answer = await askInTurn({ kind: 'discard', message: `${question} ${detail}`, buttons: [discard] }, new AbortController().signal);
      return answer === discard;
    },
    setLocale: (locale) => {
      const config = vscode.workspace.getConfiguration('xos');
      const target = config.inspect('locale')?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
      void config.update('locale', locale, target);
    },
    csvExport: async (context, label): Promise<CsvExport | undefined> => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const target = await vscode.window.showSaveDialog({
        defaultUri: folder ? vscode.Uri.joinPath(folder, `${context}.csv`) : undefined,
        filters: { CSV: ['csv'] },
        title: vscode.l10n.t('Export CSV'),
      });
      if (!target) return undefined;
      return {
        where: target.fsPath,
        run: (write) => Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting {0}…', label), cancellable: true }, (_progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return writeCsvFile(target.fsPath, write, abort.signal);
        })),
      };
    },
    log: output,
  };
}
