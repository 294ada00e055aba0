// Styles of <xos-status-strip>.
import { css } from 'lit';

export const statusStripStyles = css`
  :host { display: block; min-height: 1.4em; color: var(--vscode-descriptionForeground); }
  .error { color: var(--vscode-errorForeground); }
`;
