// The XOS status bar entry; clicking it opens the XOS output.
import * as vscode from 'vscode';
import { commandIds } from './commands.ts';

export function createStatusBarItem(): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('xos.status', vscode.StatusBarAlignment.Left, 100);
  item.name = vscode.l10n.t('XOS Status');
  item.text = '$(database) XOS';
  item.tooltip = vscode.l10n.t('XOS: click to show the output');
  item.command = commandIds.showOutput;
  item.show();
  return item;
}
