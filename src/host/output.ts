// The "XOS" output channel: one log for every part of the extension.
import * as vscode from 'vscode';

export const outputChannelName = 'XOS';

export function createOutputChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(outputChannelName, { log: true });
}
