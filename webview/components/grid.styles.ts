// What <xos-list-grid> and <xos-review-grid> draw alike: the host's column, the toolbar, the
// grid's frame, its scrolling viewport with a sticky header, the absolutely placed rows, the
// placeholder of a row on its way, the message over an empty grid and text only a screen
// reader reads. Theme variables only, so light, dark and high-contrast themes apply.
// Each grid's own styles come after these and add to them.
import { css } from 'lit';

export const gridStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 0;
    flex: 1 1 auto;
    gap: 6px;
  }
  .toolbar { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
  .count { color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
  .spring { flex: 1; }
  .grid {
    position: relative;
    flex: 1 1 auto;
    min-height: 120px;
    border: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent));
  }
  .grid:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .viewport { position: absolute; inset: 0; overflow: auto; contain: strict; }
  .header, .row { display: grid; grid-template-columns: var(--xos-columns); width: var(--xos-width); }
  [role='columnheader'] .label { overflow: hidden; text-overflow: ellipsis; }
  [role='columnheader'].numeric { justify-content: flex-end; }
  .spacer { width: var(--xos-width); }
  .rows { position: absolute; left: 0; top: var(--xos-header-height); will-change: transform; }
  .row { position: absolute; left: 0; top: 0; height: var(--xos-row-height); align-items: center; }
  .row:hover { background: var(--vscode-list-hoverBackground); }
  .grid:focus .row.active-row { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground, inherit); }
  [role='gridcell'].numeric { text-align: right; font-variant-numeric: tabular-nums; }
  /* A row still on its way: one faint bar (one pseudo-element per row keeps style work small). */
  .row.placeholder::before {
    content: '';
    position: absolute;
    inset: 9px 8px;
    border-radius: 2px;
    background: var(--vscode-editorWidget-border, var(--vscode-descriptionForeground));
    opacity: 0.2;
  }
  .message {
    position: absolute;
    top: calc(var(--xos-header-height) + 12px);
    left: 12px;
    right: 12px;
    color: var(--vscode-descriptionForeground);
  }
  .message.error { color: var(--vscode-errorForeground); }
  .message .show-all { font: inherit; color: var(--vscode-textLink-foreground); background: transparent; border: none; padding: 0; cursor: pointer; text-decoration: underline; }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;

/** A grid cell's in-place editor (cellEditor.ts) and the problem shown under the active cell: the review grid's and the list grid's. */
export const cellEditorStyles = css`
  .editor {
    flex: 1 1 auto;
    min-width: 0;
    box-sizing: border-box;
    height: calc(var(--xos-row-height) - 4px);
    padding: 0 4px;
    color: var(--vscode-input-foreground);
    background: var(--vscode-input-background);
    border: 1px solid var(--vscode-focusBorder);
    border-radius: 2px;
    font: inherit;
  }
  .editor[type='checkbox'] { flex: none; height: auto; }
  .editor[aria-invalid='true'] { border-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
  .problem {
    position: absolute;
    top: 100%;
    left: 0;
    z-index: 3;
    min-width: 100%;
    max-width: 28rem;
    box-sizing: border-box;
    padding: 2px 6px;
    white-space: normal;
    text-align: start;
    line-height: 1.4;
    color: var(--vscode-inputValidation-errorForeground, var(--vscode-foreground, CanvasText));
    background: var(--vscode-inputValidation-errorBackground, var(--vscode-editorWidget-background, Canvas));
    border: 1px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground, red));
  }
  /* The host's problem shows under the active cell while the grid has focus; the cell's name says it too. */
  .grid:not(:focus-within) .problem { display: none; }
`;
