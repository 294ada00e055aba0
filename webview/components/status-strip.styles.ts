// Styles of <xos-status-strip>.
import { css } from 'lit';

export const statusStripStyles = css`
  :host { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; justify-content: space-between; min-height: 1.4em; color: var(--vscode-descriptionForeground); }
  .message { flex: 1 1 auto; }
  .error, .down { color: var(--vscode-errorForeground); }
  select.locale {
    font: inherit; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background);
    border: 1px solid var(--vscode-dropdown-border, transparent); border-radius: 2px;
  }
  select.locale:focus { outline: 1px solid var(--vscode-focusBorder); }
  .connection { flex: 0 1 auto; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
`;
