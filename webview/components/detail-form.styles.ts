// Styles of <xos-detail-form>.
import { css } from 'lit';

export const detailFormStyles = css`
  :host { display: block; }
  h1 { font-size: 1.3em; font-weight: 600; margin: 1rem 0 0.25rem; }
  .summary { color: var(--vscode-descriptionForeground); }
  .read-only { color: var(--vscode-descriptionForeground); font-style: italic; margin: 4px 0 0; }
  form { margin-top: 0.75rem; display: flex; flex-direction: column; gap: 0.75rem; }
  .fields { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: 6px 12px; align-items: start; }
  fieldset.section { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent)); border-radius: 3px; padding: 0.5rem 0.75rem 0.75rem; margin: 0; }
  legend { font-weight: 600; padding: 0 0.25rem; }
  .actions { margin-top: 1rem; display: flex; gap: 0.75rem; align-items: center; }
  .unsaved { color: var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-foreground)); font-weight: 600; }
  .bulk { display: flex; gap: 0.5rem; margin-top: 0.5rem; }
  .deleted { color: var(--vscode-errorForeground); margin: 4px 0 0; }
  .presence { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 4px; color: var(--vscode-descriptionForeground); }
  .presence .editing { color: var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-foreground)); font-weight: 600; }
  .blocked { color: var(--vscode-errorForeground); }
`;
