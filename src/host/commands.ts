// Command ids (as contributed in package.json) and their registrations.
import * as vscode from 'vscode';

export const commandIds = {
  showOutput: 'xos.showOutput',
} as const;

export interface CommandDependencies {
  readonly output: vscode.OutputChannel;
}

export function registerCommands({ output }: CommandDependencies): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(commandIds.showOutput, () => output.show()),
  ];
}
