// The Board panel's HTML: one nonce'd module script, a strict Content Security
// Policy, no inline handlers. The host passes the webview URIs as strings.
import { randomBytes } from 'node:crypto';

export interface BoardHtmlInput {
  /** `webview.cspSource` */
  readonly cspSource: string;
  /** `webview.asWebviewUri(dist/webview/board.js)` */
  readonly scriptUri: string;
  readonly nonce: string;
  readonly lang: string;
  readonly title: string;
  /** A script that runs before the Board's (the browser Board's transport). */
  readonly preludeUri?: string;
  /** A stylesheet with the theme's --vscode-* variables (a browser has none of its own). */
  readonly themeUri?: string;
  /** Where the page may connect (`'self'` for the browser Board; VS Code's webview: nowhere). */
  readonly connectSrc?: string;
}

/** 128 random bits, base64 (what a CSP nonce needs). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string, connectSrc = "'none'"): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `connect-src ${connectSrc}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]);
}

export function boardHtml({ cspSource, scriptUri, nonce, lang, title, preludeUri, themeUri, connectSrc }: BoardHtmlInput): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(nonce)) throw new Error('the nonce must be at least 16 base64 characters');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(cspSource, nonce, connectSrc))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
${themeUri ? `<link rel="stylesheet" href="${escapeHtml(themeUri)}">\n` : ''}</head>
<body>
<xos-board data-nonce="${escapeHtml(nonce)}"></xos-board>
${preludeUri ? `<script type="module" nonce="${escapeHtml(nonce)}" src="${escapeHtml(preludeUri)}"></script>\n` : ''}<script type="module" nonce="${escapeHtml(nonce)}" src="${escapeHtml(scriptUri)}"></script>
</body>
</html>
`;
}
