// The XOS view in the activity bar and "XOS: Open Context…": the app's lists, labelled
// in the Board's locale, each opening on the Board without the agent.
import * as vscode from 'vscode';
import type { Ast } from '../ast/schema.ts';
import type { OpenableContext } from '../core/domain.ts';
import { openableContexts } from '../core/openContext.ts';
import { notify } from './notify.ts';

export const openContextCommand = 'xos.openContext';

export interface ContextsViewOptions {
  /** The app's AST, or undefined while no backend runs. */
  readonly ast: () => Ast | undefined;
  readonly locale: () => string;
  readonly open: (context: string) => Promise<void>;
}

class ContextsTree implements vscode.TreeDataProvider<OpenableContext> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  private readonly options: ContextsViewOptions;

  constructor(options: ContextsViewOptions) {
    this.options = options;
  }

  refresh(): void {
    this.changed.fire();
  }

  getChildren(): OpenableContext[] {
    const ast = this.options.ast();
    return ast ? openableContexts(ast, this.options.locale()) : [];
  }

  getTreeItem(context: OpenableContext): vscode.TreeItem {
    const item = new vscode.TreeItem(context.label, vscode.TreeItemCollapsibleState.None);
    item.id = context.name;
    item.description = context.label === context.entityLabel ? undefined : context.entityLabel;
    item.tooltip = vscode.l10n.t('Open {0} on the XOS Board', context.label);
    item.iconPath = new vscode.ThemeIcon('list-flat');
    item.command = { command: openContextCommand, title: vscode.l10n.t('Open'), arguments: [context.name] };
    return item;
  }
}

/**
 * Shows the app's lists in the view (`show` puts the tree into the view activation registered,
 * src/host/shell.ts) and registers the command; `refresh` after the app or the locale changed.
 */
export function registerContextsView(options: ContextsViewOptions, show: (tree: vscode.TreeDataProvider<OpenableContext>) => vscode.Disposable): { refresh(): void; disposables: vscode.Disposable[] } {
  const tree = new ContextsTree(options);
  const view = show(tree);
  const command = vscode.commands.registerCommand(openContextCommand, async (name?: unknown) => {
    if (typeof name === 'string' && name) return options.open(name);
    const contexts = tree.getChildren();
    if (!contexts.length) {
      void notify('warning', vscode.l10n.t('XOS has no app loaded yet. Check "XOS: Show Status".'));
      return;
    }
    const picked = await vscode.window.showQuickPick(
      contexts.map((context) => ({ label: context.label, description: context.name, context })),
      { title: vscode.l10n.t('Open Context'), placeHolder: vscode.l10n.t('Which list should the XOS Board show?'), matchOnDescription: true },
    );
    if (picked) await options.open(picked.context.name);
  });
  return { refresh: () => tree.refresh(), disposables: [view, command] };
}
