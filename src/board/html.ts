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
}

/** 128 random bits, base64 (what a CSP nonce needs). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
  ].join('; ');
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]);
}

export function boardHtml({ cspSource, scriptUri, nonce, lang, title }: BoardHtmlInput): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(nonce)) throw new Error('the nonce must be at least 16 base64 characters');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
</head>
<body>
<xos-board data-nonce="${escapeHtml(nonce)}"></xos-board>
<script type="module" nonce="${escapeHtml(nonce)}" src="${escapeHtml(scriptUri)}"></script>
</body>
</html>
`;
}
