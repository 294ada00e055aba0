// Command ids (as contributed in package.json) and their registrations.
import * as vscode from 'vscode';

export const commandIds = {
  openBoard: 'xos.openBoard',
  showOutput: 'xos.showOutput',
  showStatus: 'xos.showStatus',
} as const;

export interface CommandDependencies {
  readonly output: vscode.OutputChannel;
  readonly openBoard: () => void;
  /** The xos_system_status JSON. */
  readonly status: () => Promise<Record<string, unknown>>;
}

export function registerCommands({ output, openBoard, status }: CommandDependencies): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(commandIds.showOutput, () => output.show()),
    vscode.commands.registerCommand(commandIds.openBoard, () => openBoard()),
    vscode.commands.registerCommand(commandIds.showStatus, async () => {
      const shown = await status();
      const text = JSON.stringify(shown, null, 2);
      output.appendLine(`XOS status:\n${text}`);
      const showOutput = vscode.l10n.t('Show Output');
      void vscode.window.showInformationMessage(vscode.l10n.t('XOS status: {0}', JSON.stringify(shown)), showOutput).then((choice) => {
        if (choice === showOutput) output.show();
      });
      // Returned as well, so scripts and tests can read it.
      return shown;
    }),
  ];
}
