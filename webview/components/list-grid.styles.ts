// Styles of <xos-list-grid>: theme variables only, so light, dark and high-contrast themes apply.
import { css } from 'lit';
import { cellEditorStyles, gridStyles } from './grid.styles.ts';

export const listGridStyles = css`
  ${gridStyles}
  ${cellEditorStyles}
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
  .editing-mark { margin-inline-end: 4px; color: var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-foreground)); }
  input[type='search']:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  input[type='search']::placeholder { color: var(--vscode-input-placeholderForeground); }
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
  .row.navigable { cursor: pointer; }
  .row.active-row { background: var(--vscode-list-inactiveSelectionBackground); color: var(--vscode-list-inactiveSelectionForeground, inherit); }
  [role='gridcell'] {
    padding: 0 8px;
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    line-height: var(--xos-row-height);
  }
  [role='gridcell'].ref { color: var(--vscode-textLink-foreground); }
  /* A cell the person changed and has not saved: marked like a changed line in the editor's gutter. */
  [role='gridcell'].edited { font-style: italic; box-shadow: inset 2px 0 0 var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-focusBorder)); }
  [role='gridcell'].invalid { color: var(--vscode-errorForeground); box-shadow: inset 0 0 0 1px var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
  [role='gridcell'].editing { position: relative; display: flex; align-items: center; padding: 0 2px; overflow: visible; }
  [role='gridcell'].active.invalid { position: relative; overflow: visible; }
  /* Forced colours (a high-contrast theme) drop shadows: a changed cell keeps a dashed frame, an invalid one a solid frame. */
  @media (forced-colors: active) {
    [role='gridcell'].edited { outline: 1px dashed CanvasText; outline-offset: -3px; }
    [role='gridcell'].invalid { outline: 2px solid Mark; outline-offset: -3px; }
  }
  .grid-edits { display: flex; align-items: center; gap: 6px; }
  .grid-edits .changes { color: var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-foreground)); }
  [role='gridcell'] a { color: var(--vscode-textLink-foreground); text-decoration: none; }
  [role='gridcell'] a:hover { color: var(--vscode-textLink-activeForeground, var(--vscode-textLink-foreground)); text-decoration: underline; }
  [role='gridcell'].active, [role='columnheader'].active {
    outline: 1px solid var(--vscode-list-focusOutline, var(--vscode-focusBorder));
    outline-offset: -1px;
  }
`;
