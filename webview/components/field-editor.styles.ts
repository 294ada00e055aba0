// Styles of <xos-field-editor>: one label/value row of the detail form.
import { css } from 'lit';

export const fieldEditorStyles = css`
  :host { display: contents; }
  label { padding-top: 4px; }
  .value { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
  .readonly { padding-top: 4px; }
  .summary { color: var(--vscode-descriptionForeground); }
  .pending vscode-textfield, .pending vscode-textarea, .pending vscode-single-select {
    outline: 1px solid var(--vscode-inputValidation-warningBorder, var(--vscode-editorWarning-foreground));
  }
  .proposal { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; color: var(--vscode-descriptionForeground); }
  .proposal del { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-errorForeground)); }
  .proposal ins { text-decoration: none; color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-foreground)); font-weight: 600; }
  vscode-textfield, vscode-textarea, vscode-single-select { width: 100%; max-width: 40rem; }
  vscode-textarea { min-height: 6rem; }
  .edited vscode-textfield, .edited vscode-textarea, .edited vscode-single-select {
    outline: 1px solid var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-focusBorder));
  }
  .own-edit { display: flex; gap: 6px; align-items: center; }
  .field-action {
    font: inherit; font-size: 0.9em;
    color: var(--vscode-textLink-foreground);
    background: transparent; border: none; padding: 0 0.25rem; cursor: pointer;
  }
  .field-action:hover { text-decoration: underline; }
  .field-action:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  .conflict {
    border: 1px solid var(--vscode-inputValidation-warningBorder, var(--vscode-editorWarning-foreground));
    background: var(--vscode-inputValidation-warningBackground, transparent);
    padding: 4px 8px; max-width: 40rem;
  }
  .conflict-title { font-weight: 600; }
  .conflict dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0; }
  .conflict dt { color: var(--vscode-descriptionForeground); }
  .conflict dd { margin: 0; overflow-wrap: anywhere; }
  .conflict-actions { display: flex; gap: 6px; }
  .problem { color: var(--vscode-errorForeground); }
  .required { color: var(--vscode-errorForeground); }
  .kept { margin-left: 4px; font-size: 0.85em; opacity: 0.8; cursor: help; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  a.opens { color: var(--vscode-textLink-foreground); text-decoration: none; }
  a.opens:hover, a.opens:focus-visible { color: var(--vscode-textLink-activeForeground); text-decoration: underline; }
  a.opens:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  ul.related { margin: 4px 0 0; padding-left: 1.2rem; max-height: 12rem; overflow: auto; }
`;
