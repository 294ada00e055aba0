// Builds the inline card's script (webview/card/main.ts) into dist/webview/card.js with the
// options of its entry in esbuild.mjs, so the card tests serve the current sources: the MCP
// server inlines that file when the card's ui:// resource is read (src/mcp/apps/card.ts).
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { CARD_SCRIPT, packageRoot } from '../../src/mcp/apps/card.ts';

export async function buildCardBundle(): Promise<void> {
  const root = packageRoot();
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['webview/card/main.ts'],
    outfile: join(root, CARD_SCRIPT),
    bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, logLevel: 'warning',
  });
}
