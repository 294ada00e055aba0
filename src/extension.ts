// Extension entry: wires the host parts and hands every disposable to VS Code.
import type { ExtensionContext } from './host/extensionContext.ts';
import { registerCommands } from './host/commands.ts';
import { createOutputChannel } from './host/output.ts';
import { createStatusBarItem } from './host/statusBar.ts';

export function activate(context: ExtensionContext): void {
  const output = createOutputChannel();
  context.subscriptions.push(
    output,
    createStatusBarItem(),
    ...registerCommands({ output }),
  );
  output.info(`XOS ${String(context.extension.packageJSON.version)} activated`);
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
