// Builds the inline card's script (webview/card/main.ts) into dist/webview/card.js with the
// same definition esbuild.mjs uses (scripts/lib/card-bundle.mjs), so the card tests serve the current sources: the MCP
// server inlines that file when the card's ui:// resource is read (src/mcp/apps/card.ts).
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { cardBundle } from '../../scripts/lib/card-bundle.mjs';
import { CARD_SCRIPT } from '../../src/mcp/apps/card.ts';
import { packageRoot } from '../../src/packageRoot.ts';

export async function buildCardBundle(): Promise<void> {
  const root = packageRoot();
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [cardBundle.entry],
    outfile: join(root, CARD_SCRIPT),
    bundle: true, logLevel: 'warning',
    ...cardBundle.options,
  });
}
