// Extension entry (dist/extension.cjs): activation registers only the contributions' stand-ins
// (src/host/shell.ts); the host itself is dist/host.cjs, loaded on first use and right after.
import type { ExtensionContext } from './host/extensionContext.ts';
import { activateShell } from './host/shell.ts';
import type { XosExtensionApi } from './host/xosHost.ts';

export function activate(context: ExtensionContext): XosExtensionApi {
  return activateShell(context);
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
