// Styles of <xos-approval-list>: a panel at the top of the Board in VS Code's widget colours,
// never wider than the page; the list scrolls within a part of the height, so the record below
// stays in view. On a narrow page (a phone) the buttons stack at full width.
import { css } from 'lit';

export const approvalListStyles = css`
  :host { display: block; flex: 0 0 auto; }
  section {
    margin: 0.6rem 0 0.2rem;
    color: var(--vscode-foreground);
    background: var(--vscode-editorWidget-background, var(--vscode-editor-background));
    border: 1px solid var(--vscode-editorWidget-border, var(--vscode-widget-border, var(--vscode-contrastBorder, transparent)));
    border-left: 3px solid var(--vscode-notificationsInfoIcon-foreground, var(--vscode-focusBorder));
    border-radius: 3px;
    min-width: 0;
  }
  h2 { margin: 0; font-size: 1em; font-weight: 600; }
  .toggle {
    display: flex; align-items: center; gap: 0.5rem; width: 100%; box-sizing: border-box;
    padding: 0.4rem 0.6rem; font: inherit; font-weight: 600; text-align: start;
    color: inherit; background: transparent; border: none; cursor: pointer;
  }
  .toggle:hover { background: var(--vscode-list-hoverBackground, var(--vscode-toolbar-hoverBackground)); }
  .toggle:focus-visible, ul:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .chevron { display: inline-block; width: 0.8em; transition: transform 0.1s; }
  [aria-expanded='true'] .chevron { transform: rotate(90deg); }
  .title { flex: 0 1 auto; min-width: 0; overflow-wrap: anywhere; }
  ul {
    list-style: none; margin: 0; padding: 0;
    max-height: 40vh; overflow-y: auto; overflow-x: hidden;
    border-top: 1px solid var(--vscode-editorWidget-border, var(--vscode-widget-border, transparent));
  }
  li {
    display: flex; flex-wrap: wrap; align-items: flex-start; gap: 0.4rem 1rem;
    padding: 0.55rem 0.6rem;
  }
  li + li { border-top: 1px solid var(--vscode-editorWidget-border, var(--vscode-widget-border, transparent)); }
  .text { flex: 1 1 20rem; min-width: 0; }
  .question { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  .meta { margin: 0.25rem 0 0; font-size: 0.9em; color: var(--vscode-descriptionForeground); overflow-wrap: anywhere; }
  .expiry { margin: 0.1rem 0 0; font-size: 0.9em; color: var(--vscode-descriptionForeground); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .expiry.soon { color: var(--vscode-editorWarning-foreground, var(--vscode-descriptionForeground)); }
  .deciding { margin: 0.25rem 0 0; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
  .buttons { display: flex; flex: 0 0 auto; gap: 0.5rem; align-items: center; }
  @media (max-width: 480px) {
    li { flex-direction: column; align-items: stretch; }
    .text { flex: 0 0 auto; }
    .buttons { flex-direction: column; align-items: stretch; }
    vscode-button { width: 100%; box-sizing: border-box; }
  }
`;
