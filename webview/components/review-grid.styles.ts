// Styles of <xos-review-grid>: theme variables only, so light, dark and high-contrast themes apply.
// The grid's frame, header and rows come from grid.styles.ts, as <xos-list-grid>'s do.
import { css } from 'lit';
import { cellEditorStyles, gridStyles } from './grid.styles.ts';

export const reviewGridStyles = css`
  ${gridStyles}
  ${cellEditorStyles}
  .filters { display: flex; gap: 2px; }
  .filters button {
    font: inherit;
    color: var(--vscode-foreground);
    background: transparent;
    border: 1px solid var(--vscode-button-border, var(--vscode-contrastBorder, transparent));
    border-radius: 2px;
    padding: 2px 8px;
    cursor: pointer;
  }
  .filters button:hover { background: var(--vscode-toolbar-hoverBackground); }
  .filters button[aria-pressed='true'] {
    color: var(--vscode-button-secondaryForeground);
    background: var(--vscode-button-secondaryBackground);
    border-color: var(--vscode-focusBorder);
  }
  .filters button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  .blocked { color: var(--vscode-descriptionForeground); }
  .header {
    position: sticky;
    top: 0;
    z-index: 2;
    height: var(--xos-header-height);
    background: var(--vscode-editor-background, Canvas);
    border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent));
  }
  [role='columnheader'] {
    display: flex;
    align-items: center;
    padding: 0 8px;
    font-weight: 600;
    overflow: hidden;
    white-space: nowrap;
    user-select: none;
  }
  /* Not sticky: a sticky cell in every row costs the scroll a frame in two. */
  [role='columnheader'].apply { justify-content: center; }
  .row.active-row { z-index: 1; background: var(--vscode-list-inactiveSelectionBackground); color: var(--vscode-list-inactiveSelectionForeground, inherit); }
  .row.invalid { box-shadow: inset 3px 0 0 var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
  .row.conflict { box-shadow: inset 3px 0 0 var(--vscode-inputValidation-warningBorder, var(--vscode-editorWarning-foreground)); }
  .row.rejected { color: var(--vscode-disabledForeground, var(--vscode-descriptionForeground)); }
  [role='gridcell'], [role='rowheader'] {
    height: 100%;
    box-sizing: border-box;
    padding: 0 8px;
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    line-height: var(--xos-row-height);
  }
  [role='rowheader'] { display: flex; align-items: center; justify-content: center; padding: 0; }
  [role='gridcell'].active, [role='columnheader'].active, [role='rowheader'].active {
    outline: 1px solid var(--vscode-list-focusOutline, var(--vscode-focusBorder));
    outline-offset: -1px;
  }
  .check {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    width: 16px;
    height: 16px;
    line-height: 16px;
    box-sizing: border-box;
    border: 1px solid var(--vscode-checkbox-border, var(--vscode-input-border, var(--vscode-foreground)));
    border-radius: 3px;
    color: var(--vscode-checkbox-foreground, var(--vscode-foreground));
    background: var(--vscode-checkbox-background, var(--vscode-input-background));
    cursor: pointer;
    user-select: none;
  }
  .change { position: relative; padding-right: 24px; }
  .change.numeric { text-align: right; font-variant-numeric: tabular-nums; }
  .change del { color: var(--vscode-descriptionForeground); text-decoration: line-through; }
  .change ins { text-decoration: none; color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-foreground)); }
  /* The arrow between old and new: drawn, not a node (the cell's name says "→"). */
  .change ins::before { content: '→'; display: inline-block; padding: 0 4px; color: var(--vscode-descriptionForeground); text-decoration: none; font-style: normal; }
  .change.rejected ins { color: var(--vscode-descriptionForeground); text-decoration: line-through; }
  .change.rejected del { text-decoration: none; color: inherit; }
  .change.edited ins { font-style: italic; }
  .change.invalid { box-shadow: inset 0 0 0 1px var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
  .change.invalid ins { color: var(--vscode-errorForeground); }
  /* The accept/reject mark (a click on it toggles the cell; Space does from the keyboard). */
  [role='gridcell'].change::after {
    content: '✓';
    position: absolute;
    top: 0;
    right: 2px;
    width: 20px;
    text-align: center;
    cursor: pointer;
    user-select: none;
    color: var(--vscode-descriptionForeground);
  }
  .change.rejected::after { content: '✗'; }
  .change.kept::after, .change.editing::after { content: none; }
  .change:hover::after { color: var(--vscode-foreground); }
  /* The active cell's problem shows under it: the cell lets it out. */
  .change.active.invalid { overflow: visible; }
  .change.editing { display: flex; align-items: center; gap: 4px; padding: 0 2px; overflow: visible; }
  .note.invalid { color: var(--vscode-errorForeground); }
  .note.conflict { color: var(--vscode-editorWarning-foreground, var(--vscode-foreground)); }
`;
