// Styles of <xos-board>, the app shell: the page is as tall as the panel, so the grid can fill it.
import { css } from 'lit';

export const boardAppStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    box-sizing: border-box;
    height: 100vh;
    padding: 0 1rem 0.5rem;
    color: var(--vscode-foreground);
    font-family: var(--vscode-font-family);
    font-size: var(--vscode-font-size);
  }
  h1 { font-size: 1.3em; font-weight: 600; margin: 1rem 0 0.5rem; }
  .empty { color: var(--vscode-descriptionForeground); }
  .scroll { overflow: auto; flex: 0 1 auto; min-height: 0; }
  .list { display: flex; flex-direction: column; flex: 1 1 auto; min-height: 0; }
  xos-list-grid, xos-review-grid { flex: 1 1 auto; }
  .list-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.6rem; }
  .narrowed { font-weight: normal; color: var(--vscode-descriptionForeground); overflow-wrap: anywhere; }
  .show-all {
    font: inherit; color: var(--vscode-textLink-foreground); background: transparent; border: none; padding: 0; cursor: pointer; text-decoration: underline;
  }
  .show-all:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  .undo-of { margin: 0 0 0.5rem; color: var(--vscode-descriptionForeground); }
  .production {
    margin: 0.5rem -1rem 0;
    padding: 0.35rem 1rem;
    font-weight: 600;
    color: var(--vscode-inputValidation-errorForeground, var(--vscode-foreground));
    background: var(--vscode-inputValidation-errorBackground, var(--vscode-editorError-background));
    border-bottom: 1px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground));
  }
`;
