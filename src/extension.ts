// Extension entry: wires the host parts and hands every disposable to VS Code.
import type { ExtensionContext } from './host/extensionContext.ts';
import { createOutputChannel } from './host/output.ts';
import { startXosHost, type XosExtensionApi } from './host/xosHost.ts';

export async function activate(context: ExtensionContext): Promise<XosExtensionApi> {
  const output = createOutputChannel();
  context.subscriptions.push(output);
  const api = await startXosHost(context, output);
  output.info(`XOS ${String(context.extension.packageJSON.version)} activated`);
  void api.ready().then(() => output.info('XOS backend and MCP server are running'), () => undefined);
  return api;
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
