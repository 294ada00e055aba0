// Styles of <xos-list-grid>: theme variables only, so light, dark and high-contrast themes apply.
import { css } from 'lit';

export const listGridStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: 0;
    flex: 1 1 auto;
    gap: 6px;
  }
  .toolbar { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
  input[type='search'] {
    flex: 0 1 20rem;
    min-width: 8rem;
    box-sizing: border-box;
    height: 26px;
    padding: 2px 6px;
    color: var(--vscode-input-foreground);
    background: var(--vscode-input-background);
    border: 1px solid var(--vscode-input-border, var(--vscode-contrastBorder, transparent));
    border-radius: 2px;
    font: inherit;
  }
  input[type='search']:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  input[type='search']::placeholder { color: var(--vscode-input-placeholderForeground); }
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
  .header {
    position: sticky;
    top: 0;
    z-index: 1;
    height: var(--xos-header-height);
    background: var(--vscode-editor-background);
    border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent));
  }
  [role='columnheader'] {
    position: relative;
    display: flex;
    align-items: center;
    gap: 4px;
    padding: 0 8px;
    font-weight: 600;
    overflow: hidden;
    white-space: nowrap;
    user-select: none;
  }
  [role='columnheader'].sortable { cursor: pointer; }
  [role='columnheader'].sortable:hover { background: var(--vscode-list-hoverBackground); }
  [role='columnheader'] .label { overflow: hidden; text-overflow: ellipsis; }
  [role='columnheader'].numeric { justify-content: flex-end; }
  .sort-mark { color: var(--vscode-descriptionForeground); }
  .resize {
    position: absolute;
    top: 0;
    right: 0;
    width: 6px;
    height: 100%;
    cursor: col-resize;
    touch-action: none;
  }
  .resize:hover, .resize.dragging { background: var(--vscode-sash-hoverBorder, var(--vscode-focusBorder)); }
  .spacer { width: var(--xos-width); }
  .rows { position: absolute; left: 0; top: var(--xos-header-height); will-change: transform; }
  .row { position: absolute; left: 0; top: 0; height: var(--xos-row-height); align-items: center; }
  .row:hover { background: var(--vscode-list-hoverBackground); }
  .row.navigable { cursor: pointer; }
  .row.active-row { background: var(--vscode-list-inactiveSelectionBackground); color: var(--vscode-list-inactiveSelectionForeground, inherit); }
  .grid:focus .row.active-row { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground, inherit); }
  [role='gridcell'] {
    padding: 0 8px;
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    line-height: var(--xos-row-height);
  }
  [role='gridcell'].numeric { text-align: right; font-variant-numeric: tabular-nums; }
  [role='gridcell'].ref { color: var(--vscode-textLink-foreground); }
  [role='gridcell'] a { color: var(--vscode-textLink-foreground); text-decoration: none; }
  [role='gridcell'] a:hover { color: var(--vscode-textLink-activeForeground, var(--vscode-textLink-foreground)); text-decoration: underline; }
  [role='gridcell'].active, [role='columnheader'].active {
    outline: 1px solid var(--vscode-list-focusOutline, var(--vscode-focusBorder));
    outline-offset: -1px;
  }
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
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
