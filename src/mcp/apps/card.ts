// The inline card (MCP Apps, SEP-1865): one ui:// resource that hosts with MCP Apps show
// next to the results of xos_query, xos_render, xos_ui_change_required and
// xos_mail_compose. The card is a view of what the Board shows, never a gate: it offers
// no save and no send. Its data comes in the tool result's `_meta` (src/mcp/apps/cardData.ts).
// The HTML is self-contained: the card's bundle (webview/card/main.ts, built by esbuild.mjs
// into dist/webview/card.js) is inlined when the resource is read, since the card's CSP
// starts at default-src 'none'.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer, ReadResourceResult } from '@modelcontextprotocol/server';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { packageRoot } from '../../packageRoot.ts';

export { RESOURCE_MIME_TYPE as CARD_MIME_TYPE };

/** The card's resource; the four tools that show something link it in `_meta.ui.resourceUri`. */
export const CARD_URI = 'ui://xos/card.html';

/** The card's script, relative to the package root. */
export const CARD_SCRIPT = join('dist', 'webview', 'card.js');

/** The card's bundled script; `npm run build` makes it. */
export function readCardScript(root: string = packageRoot()): string {
  const path = join(root, CARD_SCRIPT);
  if (!existsSync(path)) throw new Error(`The XOS card script ${path} is missing; run npm run build.`);
  return readFileSync(path, 'utf8');
}

/** The card's page with its script inlined (`</script` escaped, so the script cannot end the element early). */
export function cardHtml(script: string): string {
  const safe = script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>XOS</title>
<style>${CARD_CSS}</style>
</head>
<body>
<main id="xos-card" aria-live="polite"></main>
<script>${safe}</script>
</body>
</html>
`;
}

/**
 * Registers the card's resource; the HTML is read at each resources/read, so a rebuilt card is
 * served at once. This is ext-apps' registerAppResource (the MCP Apps mimeType on the listing)
 * with the types of our SDK: the helper's own types name the SDK's next major version.
 */
export function registerCardResource(server: McpServer, script: () => string = readCardScript): void {
  server.registerResource('XOS card', CARD_URI, {
    title: 'XOS card',
    description: 'What an XOS tool shows on the Board, as a small card in the chat (view only: no save, no send).',
    mimeType: RESOURCE_MIME_TYPE,
  }, async (): Promise<ReadResourceResult> => ({
    contents: [{
      uri: CARD_URI,
      mimeType: RESOURCE_MIME_TYPE,
      text: cardHtml(script()),
      // No csp domains: the card loads nothing and connects nowhere.
      _meta: { ui: { prefersBorder: true } },
    }],
  }));
}

// Themed by VS Code's variables, then the MCP Apps host variables, then plain fallbacks.
const CARD_CSS = `
:root { color-scheme: light dark; }
body {
  margin: 0; padding: 10px 12px;
  font-family: var(--vscode-font-family, var(--font-sans, system-ui, -apple-system, "Segoe UI", sans-serif));
  font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, var(--color-text-primary, CanvasText));
  background: transparent;
}
h1 { font-size: 1.05em; margin: 0 0 6px; font-weight: 600; }
.meta, .note { color: var(--vscode-descriptionForeground, var(--color-text-secondary, GrayText)); margin: 4px 0; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid var(--vscode-widget-border, var(--color-border-primary, rgba(128, 128, 128, 0.3))); vertical-align: top; }
th { font-weight: 600; white-space: nowrap; }
td { overflow-wrap: anywhere; }
.rows { overflow-x: auto; }
.rows table { width: auto; min-width: 100%; }
.rows td { white-space: nowrap; max-width: 16em; overflow: hidden; text-overflow: ellipsis; }
.old { text-decoration: line-through; color: var(--vscode-descriptionForeground, var(--color-text-secondary, GrayText)); }
.new { color: var(--vscode-gitDecoration-addedResourceForeground, var(--color-text-success, #2e7d32)); }
pre.body { white-space: pre-wrap; font-family: inherit; margin: 6px 0; padding: 6px 8px; border-left: 3px solid var(--vscode-textBlockQuote-border, var(--color-border-secondary, rgba(128, 128, 128, 0.5))); }
button {
  font: inherit; cursor: pointer; padding: 4px 12px; border-radius: 2px; margin-top: 6px;
  color: var(--vscode-button-foreground, var(--color-text-inverse, #fff));
  background: var(--vscode-button-background, var(--color-background-inverse, #0e639c));
  border: 1px solid var(--vscode-button-border, transparent);
}
button:hover { background: var(--vscode-button-hoverBackground, var(--color-background-inverse, #1177bb)); }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder, #0090f1); outline-offset: 2px; }
button:disabled { opacity: 0.6; cursor: default; }
`;
