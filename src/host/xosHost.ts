// Puts the host parts together: backend, Board, confirmations, MCP server and
// provider, status bar, commands, and the reactions to settings changes.
// The entry of dist/host.cjs: src/host/shell.ts (activation) loads it on first use and hands
// it what activation registered (output channel, status bar, the view, the MCP provider).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { pickLocale } from '../ast/locale.ts';
import { appName } from '../ast/appName.ts';
import type { ConnectionLine } from '../board/protocol.ts';
import type { DsnStatus } from '../core/domain.ts';
import type { KeptDraft } from '../store/drafts.ts';
import { XosApp, type StoredApprovalsOptions } from '../app/xosApp.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../store/approvalStore.ts';
import { ConnectionWatch } from '../core/connectionWatch.ts';
import { checkRestored } from '../core/restore.ts';
import type { BoardView } from '../board/view.ts';
import type { XosDeps } from '../mcp/ports.ts';
import { XOS_TOOL_NAMES } from '../mcp/registry.ts';
import { resultText } from '../mcp/result.ts';
import { McpSession } from '../mcp/session.ts';
import { systemStatusTool } from '../mcp/tools/systemStatus.ts';
import { BackendService } from './backendSetup.ts';
import { BoardPanel, vscodeBoardUi } from './boardPanel.ts';
import { setupContactsAndMail } from './contactsAndMail.ts';
import { registerCommands } from './commands.ts';
import { registerContextsView } from './contextsView.ts';
import { registerCreateApp } from './createApp.ts';
import { notificationConfirmer } from './confirmer.ts';
import { notify } from './notify.ts';
import { XosMcpProvider } from './mcpProvider.ts';
import { backendSettings, mcpSettings, readSettings } from './settings.ts';
import type { XosStatusBar } from './statusBar.ts';

/** What the extension returns from activate(): for scripts and the in-host tests. */
export interface XosExtensionApi {
  /** Resolves once the first backend and the MCP server have started (activation does not wait for them). */
  ready(): Promise<void>;
  /** The backend in use: `embedded` with its DSN, or `remote` with the endpoint. */
  backend(): { mode: 'embedded' | 'remote'; where: string; astSource: string } | undefined;
  /** The loopback MCP endpoint's port. */
  mcpPort(): number | undefined;
  /** What the Board renders now. */
  boardView(): BoardView;
  boardVisible(): boolean;
  /** Where unsaved Board work is kept (for tests and support). */
  keptDraftPath(): string;
  /** Where the Board's history (Back, Forward, the current list or record) is kept. */
  keptHistoryPath(): string;
  locale(): string;
}

/** What activation (src/host/shell.ts) registered and hands to the host. */
export interface HostShell {
  readonly output: vscode.LogOutputChannel;
  readonly statusBar: XosStatusBar;
  /** Shows `tree` in the XOS view (registered at activation). */
  showContexts(tree: vscode.TreeDataProvider<unknown>): vscode.Disposable;
  /** Answers VS Code's questions for the XOS MCP server definitions with `provider`. */
  serveMcp(provider: vscode.McpServerDefinitionProvider): vscode.Disposable;
}

/** The started host: the extension's API, and the Board's tab VS Code hands back after a reload. */
export interface XosHost {
  readonly api: XosExtensionApi;
  restoreBoard(panel: vscode.WebviewPanel): void;
}

/**
 * Wires every part and returns at once (nothing here waits): the backend and the MCP server
 * start behind it; `api.ready()` resolves when they run.
 */
export function startXosHost(context: vscode.ExtensionContext, shell: HostShell): XosHost {
  const { output, statusBar } = shell;
  const backend = new BackendService({ globalStorage: context.globalStorageUri, secrets: context.secrets, output, memory: context.globalState });
  const mcp = new XosMcpProvider(output);

  const locale = (): string => {
    const requested = readSettings().locale || vscode.env.language;
    return pickLocale(requested, backend.backend ? backend.client.ast().locales : ['en']);
  };
  const contactsAndMail = setupContactsAndMail(context, output, () => (backend.backend ? backend.client : undefined));
  const panel: BoardPanel = new BoardPanel({ extensionUri: context.extensionUri, locale, controller: () => app.controller });
  const app = new XosApp({
    client: backend.client,
    locale,
    surface: panel.surface,
    ui: (self) => vscodeBoardUi(output, (question, signal) => self.confirmer.askInTurn(question, signal)),
    confirmer: () => notificationConfirmer({
      ast: () => backend.client.ast(),
      locale,
      timeoutSeconds: () => readSettings().confirmTimeoutSeconds,
      modal: () => readSettings().environment === 'production',
      output,
    }),
    contacts: () => contactsAndMail.contacts(),
    mailer: () => contactsAndMail.mailer(),
    mailUndoSeconds: () => readSettings().mailUndoSeconds,
    ...storedApprovals(join(context.globalStorageUri.fsPath, APPROVALS_FILE), {
      backend: () => backend.backend?.where,
      person: () => backend.backend?.person?.name,
      warn: (text) => output.warn(`XOS ${text}`),
    }, output),
  });
  const { state, controller: board } = app;
  // "XOS: Show Pending Approvals" is in the palette only where the app has an approval desk.
  if (board.approvals) void vscode.commands.executeCommand('setContext', 'xos.approvalDesk', true);
  const deps = (): XosDeps => app.deps();

  // The app's lists in the activity bar and the palette, for the person without an agent.
  const contextsView = registerContextsView({
    ast: () => (backend.backend ? backend.client.ast() : undefined),
    locale,
    open: (name) => board.navigation.openContext(name),
  }, shell.showContexts);
  context.subscriptions.push(...contextsView.disposables);

  const status = async (): Promise<Record<string, unknown>> => {
    const result = await systemStatusTool.handler({}, { ...deps(), sessionCount: () => mcp.sessionCount }, new McpSession('status', XOS_TOOL_NAMES), new AbortController().signal);
    return JSON.parse(resultText(result)) as Record<string, unknown>;
  };

  // The status bar and the Board say when the data source stops answering, and clear by
  // themselves when it is back (checked every few seconds while it is away).
  const connection = new ConnectionWatch({
    status: async () => backend.backend?.client.status(),
    onStatus: (dsn, changed) => {
      const active = backend.backend;
      statusBar.update({ mode: active?.mode, where: active?.where, dsn, mcpPort: mcp.port, ...(active?.person ? { person: active.person } : {}) });
      board.setConnection(connectionLine(dsn));
      if (!changed) return;
      if (dsn?.ok) {
        output.info('XOS data source is reachable again');
        board.setStatus({ kind: 'info', text: vscode.l10n.t('The XOS data source answers again.') });
      } else {
        output.warn(`XOS data source is not reachable: ${active?.where ?? 'no backend'}`);
        board.setStatus({ kind: 'error', text: vscode.l10n.t('The XOS data source ({0}) is not reachable. XOS keeps trying; nothing is lost.', active?.where ?? '') });
      }
    },
  });
  const refreshStatusBar = () => connection.check();
  let lastDsn: DsnStatus | undefined;
  function connectionLine(dsn: DsnStatus | undefined): ConnectionLine | null {
    lastDsn = dsn;
    const active = backend.backend;
    if (!active || !dsn) return null;
    const ast = active.client.ast();
    return {
      app: appName(ast, locale()),
      kind: dsn.kind,
      remote: active.mode === 'remote',
      reachable: dsn.ok,
      latencyMs: dsn.latency_ms,
      production: readSettings().environment === 'production',
    };
  }

  const restartMcp = async () => {
    // The server reads deps() at every tool call: only its port needs a restart.
    await mcp.start(deps, readSettings().mcpPort);
    await refreshStatusBar();
  };

  context.subscriptions.push(
    contactsAndMail,
    backend,
    panel,
    mcp,
    shell.serveMcp(mcp),
    ...registerCommands({
      output, openBoard: () => panel.open(), status, exportCsv: () => board.records.exportCsv(), undoLastSave: () => board.records.undoLastSave(),
      showApprovals: () => board.showApprovals(),
    }),
    // The count of writes waiting for the person's decision (only where the app has an approval desk).
    new vscode.Disposable(board.approvals?.onCount((count) => statusBar.setApprovalsWaiting(count)) ?? (() => {})),
    registerCreateApp({ context, output, applyToBackend: (change) => backend.restartAfter(change) }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (backendSettings.some((s) => event.affectsConfiguration(s))) {
        await backend.restart();
        await refreshStatusBar();
      }
      if (mcpSettings.some((s) => event.affectsConfiguration(s))) await restartMcp();
      if (event.affectsConfiguration('xos.environment')) board.setConnection(connectionLine(lastDsn));
      if (event.affectsConfiguration('xos.locale')) {
        board.setConnection(connectionLine(lastDsn));
        board.render();
        contextsView.refresh();
      }
    }),
    backend.onDidChange(() => {
      board.render();
      contextsView.refresh();
    }),
  );
  context.subscriptions.push(connection);

  // The host returns at once (commands, view and Board are there); the backend and the MCP
  // server start behind it, and VS Code picks the server up when it listens.
  // Unsaved Board work is kept on disk and offered back after a reload or a crash.
  const draftDir = (context.storageUri ?? context.globalStorageUri).fsPath;
  mkdirSync(draftDir, { recursive: true });
  const kept = app.keepWork(draftDir, (text) => output.warn(`XOS ${text}`));
  // Disposed with the extension: kept work written, a mail in its undo window not sent.
  context.subscriptions.push(app);

  const ready = (async () => {
    await backend.restart();
    await restartMcp();
    kept.restoreHistory();
    if (kept.draft) await restoreDraft(kept.draft);
    // A Board tab VS Code brought back shows where the person was.
    if (panel.isOpen) await board.navigation.resume();
  })();

  async function restoreDraft(found: KeptDraft): Promise<void> {
    state.restore(found.draft);
    const when = new Date(found.savedAt).toLocaleString(vscode.env.language);
    output.info(`XOS restored unsaved Board work from ${found.savedAt}`);
    // Saved by someone else meanwhile? Then the kept edits sit on the stored version, conflicts marked.
    let meanwhile = '';
    try {
      const check = await checkRestored(deps());
      if (check.state === 'changed') {
        output.info(`the restored record changed meanwhile (version ${check.version}); conflicts: ${check.conflicts.join(', ') || 'none'}`);
        meanwhile = check.conflicts.length
          ? ` ${vscode.l10n.t('Someone else saved the record meanwhile: choose per marked field which value to keep.')}`
          : ` ${vscode.l10n.t('Someone else saved the record meanwhile; your changes are kept on top of it.')}`;
      } else if (check.state === 'deleted') meanwhile = ` ${vscode.l10n.t('The record was deleted meanwhile.')}`;
    } catch (error) {
      output.warn(`could not compare the restored record with the stored one: ${error instanceof Error ? error.message : String(error)}`);
    }
    const open = vscode.l10n.t('Open Board');
    const discard = vscode.l10n.t('Discard');
    if (found.draft.mail && found.draft.mailSendAt) {
      output.warn(`a mail to ${found.draft.mail.to.email} confirmed for ${found.draft.mailSendAt} was not sent: VS Code stopped within its undo window`);
      void notify('warning', vscode.l10n.t('A mail to {0} was not sent: VS Code stopped before its undo window ended. The draft is on the Board.', found.draft.mail.to.email), [open])
        .then((choice) => choice === open && panel.open());
    }
    void notify('info', vscode.l10n.t('XOS restored unsaved work on the Board from {0}.', when) + meanwhile, [open, discard]).then((choice) => {
      if (choice === open) panel.open();
      if (choice === discard && found.draft.detail) state.showDetail(found.draft.detail);
      if (choice === discard) state.discardGridEdits();
    });
  }
  ready.catch((error: unknown) => output.error(`XOS did not start: ${error instanceof Error ? error.message : String(error)}`));

  const api: XosExtensionApi = {
    ready: () => ready,
    backend: () => {
      const active = backend.backend;
      return active && { mode: active.mode, where: active.where, astSource: active.astSource };
    },
    mcpPort: () => mcp.port,
    boardView: () => board.view(),
    boardVisible: () => panel.isVisible,
    keptDraftPath: () => kept.draftPath,
    keptHistoryPath: () => kept.historyPath,
    locale,
  };
  return {
    api,
    // After a window reload the Board's tab comes back showing what the host has (kept drafts included).
    restoreBoard: (restored) => {
      panel.restore(restored);
      // Where the Board was, once the backend answers.
      void ready.then(() => board.navigation.resume());
    },
  };
}

/** Stored approvals in the extension's global storage (kept over restarts, shared by its windows); none when the file cannot be opened. */
function storedApprovals(path: string, options: Omit<StoredApprovalsOptions, 'store'>, output: vscode.LogOutputChannel): { storedApprovals?: StoredApprovalsOptions } {
  try {
    return { storedApprovals: { ...options, store: new SqliteApprovalStore(path) } };
  } catch (error) {
    output.warn(`XOS could not open the pending approvals at ${path}: ${error instanceof Error ? error.message : String(error)}; agent requests without a session ask at once`);
    return {};
  }
}
