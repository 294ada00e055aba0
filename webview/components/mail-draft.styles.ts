// Styles of <xos-mail-draft>.
import { css } from 'lit';

export const mailDraftStyles = css`
  :host { display: block; margin-top: 1.5rem; }
  h1 { font-size: 1.3em; font-weight: 600; margin: 1rem 0 0.25rem; }
  form { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 6px 12px; align-items: start; margin-top: 0.75rem; }
  label, .label { padding-top: 4px; }
  .from { padding-top: 4px; color: var(--vscode-descriptionForeground); }
  vscode-textfield, vscode-textarea { width: 100%; max-width: 40rem; }
  vscode-textarea { min-height: 6rem; }
  .problem { color: var(--vscode-errorForeground); margin-top: 2px; }
  .actions { margin-top: 1rem; display: flex; gap: 0.75rem; align-items: center; }
  .blocked { color: var(--vscode-errorForeground); }
`;
