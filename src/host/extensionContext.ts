// The extension context type, re-exported so src/extension.ts can wire the host
// parts without importing 'vscode' itself.
import type * as vscode from 'vscode';

export type ExtensionContext = vscode.ExtensionContext;
