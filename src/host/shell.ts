// What activation itself sets up, and all that dist/extension.cjs holds: the output channel,
// the status bar item, and a stand-in for every contribution VS Code may call right away (the
// commands, the XOS view, the Board's panel serializer, the MCP server definition provider).
// The backend, GraphQL, the MCP server, mail, contacts and the Board are the host
// (src/host/xosHost.ts), a second bundle, dist/host.cjs: a stand-in loads it with require()
// on first use, and activation schedules that load for right after it has returned, so the
// backend and the MCP server are up moments later, as before.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { boardViewType, contextsViewId, mcpProviderId } from './contributionIds.ts';
import { createOutputChannel } from './output.ts';
import { XosStatusBar } from './statusBar.ts';
import type { HostShell, XosExtensionApi, XosHost } from './xosHost.ts';

/** The host's bundle, next to dist/extension.cjs (esbuild.mjs builds both). */
export const hostBundle = 'host.cjs';

type HostModule = { readonly startXosHost: (context: vscode.ExtensionContext, shell: HostShell) => XosHost };

/** The ids of the commands package.json contributes. */
function contributedCommands(context: vscode.ExtensionContext): string[] {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: Array<{ command: string }> } };
  return (manifest.contributes?.commands ?? []).map((entry) => entry.command);
}

/**
 * The XOS view until the host provides its tree, and after: VS Code asks this one, it asks the
 * host's. Asked for its items (the view became visible), it loads the host.
 */
class ContextsViewStandIn implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private tree: vscode.TreeDataProvider<unknown> | undefined;
  private readonly load: () => void;

  constructor(load: () => void) {
    this.load = load;
  }

  getChildren(element?: unknown): vscode.ProviderResult<unknown[]> {
    this.load();
    return this.tree?.getChildren(element) ?? [];
  }

  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (!this.tree) throw new Error('the XOS view has no tree yet');
    return this.tree.getTreeItem(element);
  }

  attach(tree: vscode.TreeDataProvider<unknown>): vscode.Disposable {
    this.tree = tree;
    const forwarded = tree.onDidChangeTreeData?.(() => this.changed.fire());
    this.changed.fire();
    return new vscode.Disposable(() => {
      forwarded?.dispose();
      if (this.tree === tree) this.tree = undefined;
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** VS Code's XOS MCP server definition provider: asks the host's provider, which it loads when asked first. */
class McpProviderStandIn implements vscode.McpServerDefinitionProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private provider: vscode.McpServerDefinitionProvider | undefined;
  private readonly load: () => void;

  constructor(load: () => void) {
    this.load = load;
  }

  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<vscode.McpServerDefinition[]> {
    this.load();
    return this.provider?.provideMcpServerDefinitions(token) ?? [];
  }

  resolveMcpServerDefinition(definition: vscode.McpServerDefinition, token: vscode.CancellationToken): vscode.ProviderResult<vscode.McpServerDefinition> {
    this.load();
    return this.provider?.resolveMcpServerDefinition ? this.provider.resolveMcpServerDefinition(definition, token) : definition;
  }

  attach(provider: vscode.McpServerDefinitionProvider): vscode.Disposable {
    this.provider = provider;
    const forwarded = provider.onDidChangeMcpServerDefinitions?.(() => this.changed.fire());
    this.changed.fire();
    return new vscode.Disposable(() => {
      forwarded?.dispose();
      if (this.provider === provider) this.provider = undefined;
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Registers the stand-ins and returns the extension's API at once; the host loads on first use, and right after. */
export function activateShell(context: vscode.ExtensionContext): XosExtensionApi {
  let loaded: XosHost | undefined;
  let loading = false;
  let failed: unknown;
  const output = createOutputChannel();
  const statusBar = new XosStatusBar();
  // Asked while the host starts (a change event it fires right away), they answer with what they have.
  const ensureHost = (): void => {
    if (!loading) host();
  };
  const contextsView = new ContextsViewStandIn(ensureHost);
  const mcp = new McpProviderStandIn(ensureHost);
  context.subscriptions.push(output, statusBar, contextsView, mcp);

  // Until the host registers the real commands, each one loads it and then runs the real one.
  const commandStandIns = vscode.Disposable.from(...contributedCommands(context).map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      host();
      return vscode.commands.executeCommand(id, ...args);
    })));
  context.subscriptions.push(
    commandStandIns,
    vscode.window.createTreeView(contextsViewId, { treeDataProvider: contextsView }),
    vscode.lm.registerMcpServerDefinitionProvider(mcpProviderId, mcp),
    // After a window reload VS Code hands back the Board's tab.
    vscode.window.registerWebviewPanelSerializer(boardViewType, {
      deserializeWebviewPanel: async (panel) => host().restoreBoard(panel),
    }),
  );

  /** The host, loaded and started by the first call; a failed start fails every later call the same way. */
  function host(): XosHost {
    if (loaded) return loaded;
    if (failed !== undefined) throw failed;
    if (loading) throw new Error('XOS host asked for while it is starting');
    loading = true;
    try {
      const started = performance.now();
      const module = requireHost();
      const required = performance.now();
      // The host registers the real commands under the same ids.
      commandStandIns.dispose();
      loaded = module.startXosHost(context, {
        output,
        statusBar,
        showContexts: (tree) => contextsView.attach(tree),
        serveMcp: (provider) => mcp.attach(provider),
      });
      output.info(`XOS host loaded in ${Math.round(required - started)} ms, started in ${Math.round(performance.now() - required)} ms`);
      void loaded.api.ready().then(() => output.info('XOS backend and MCP server are running'), () => undefined);
      return loaded;
    } catch (error) {
      failed = error;
      output.error(`XOS did not start: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      throw error;
    } finally {
      loading = false;
    }
  }

  output.info(`XOS ${String(context.extension.packageJSON.version)} activated`);
  // Activation has returned by then; the backend and the MCP server start right behind it.
  const scheduled = setTimeout(() => {
    try {
      host();
    } catch {
      // Logged; every use says so again.
    }
  }, 0);
  context.subscriptions.push(new vscode.Disposable(() => clearTimeout(scheduled)));

  // The same API as before, each call answered by the host (loaded by the first call).
  return {
    ready: async () => host().api.ready(),
    backend: () => host().api.backend(),
    mcpPort: () => host().api.mcpPort(),
    boardView: () => host().api.boardView(),
    boardVisible: () => host().api.boardVisible(),
    keptDraftPath: () => host().api.keptDraftPath(),
    keptHistoryPath: () => host().api.keptHistoryPath(),
    locale: () => host().api.locale(),
  };
}

function requireHost(): HostModule {
  // In dist/extension.cjs import.meta.dirname is __dirname (esbuild.mjs), that is dist/.
  const path = join(import.meta.dirname, hostBundle);
  return createRequire(path)(path) as HostModule;
}
