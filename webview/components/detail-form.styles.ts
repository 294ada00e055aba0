// Styles of <xos-detail-form>.
import { css } from 'lit';

export const detailFormStyles = css`
  :host { display: block; }
  h1 { font-size: 1.3em; font-weight: 600; margin: 1rem 0 0.25rem; }
  .summary { color: var(--vscode-descriptionForeground); }
  form { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 6px 12px; align-items: start; margin-top: 0.75rem; }
  .actions { margin-top: 1rem; display: flex; gap: 0.75rem; align-items: center; }
  .unsaved { color: var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-foreground)); font-weight: 600; }
  .bulk { display: flex; gap: 0.5rem; margin-top: 0.5rem; }
  .blocked { color: var(--vscode-errorForeground); }
`;
