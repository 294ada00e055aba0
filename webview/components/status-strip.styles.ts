// Styles of <xos-status-strip>.
import { css } from 'lit';

export const statusStripStyles = css`
  :host { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; justify-content: space-between; min-height: 1.4em; color: var(--vscode-descriptionForeground); }
  .message { flex: 1 1 auto; }
  .error, .down { color: var(--vscode-errorForeground); }
  .connection { flex: 0 1 auto; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
`;
