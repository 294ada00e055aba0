// The --vscode-* variables the Board's styles read, for a browser (VS Code's webviews get
// them from the workbench): VS Code's Light Modern and Dark Modern colours, chosen by the
// person's system setting, and the same font stack.
const light = {
  'font-family': "-apple-system, BlinkMacSystemFont, 'Segoe UI', system-ui, Ubuntu, 'Droid Sans', sans-serif",
  'font-size': '13px',
  foreground: '#3b3b3b',
  descriptionForeground: '#616161',
  errorForeground: '#f85149',
  focusBorder: '#005fb8',
  contrastBorder: 'transparent',
  'editor-background': '#ffffff',
  'panel-border': '#e5e5e5',
  'widget-border': '#e5e5e5',
  'editorWidget-background': '#f8f8f8',
  'editorWidget-border': '#c8c8c8',
  'textLink-foreground': '#005fb8',
  'textLink-activeForeground': '#005fb8',
  'list-hoverBackground': '#f2f2f2',
  'list-focusOutline': '#005fb8',
  'list-activeSelectionBackground': '#e8e8e8',
  'list-activeSelectionForeground': '#000000',
  'list-inactiveSelectionBackground': '#e4e6f1',
  'list-inactiveSelectionForeground': '#000000',
  'input-background': '#ffffff',
  'input-foreground': '#3b3b3b',
  'input-border': '#cecece',
  'input-placeholderForeground': '#767676',
  'inputValidation-errorBackground': '#f2dede',
  'inputValidation-errorBorder': '#be1100',
  'inputValidation-errorForeground': '#3b3b3b',
  'inputValidation-warningBackground': '#f6f5d2',
  'inputValidation-warningBorder': '#b89500',
  'settings-textInputBorder': '#cecece',
  'dropdown-background': '#ffffff',
  'dropdown-foreground': '#3b3b3b',
  'dropdown-border': '#cecece',
  'button-background': '#005fb8',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#0258a8',
  'button-border': '#0000001a',
  'button-secondaryBackground': '#e5e5e5',
  'button-secondaryForeground': '#3b3b3b',
  'button-secondaryHoverBackground': '#cccccc',
  'toolbar-hoverBackground': '#b8b8b850',
  'sash-hoverBorder': '#005fb8',
  'editorWarning-foreground': '#bf8803',
  'editorError-background': 'transparent',
  'gitDecoration-modifiedResourceForeground': '#895503',
  'gitDecoration-addedResourceForeground': '#587c0c',
  'gitDecoration-deletedResourceForeground': '#ad0707',
  'editorSuggestWidget-background': '#f8f8f8',
  'editorSuggestWidget-foreground': '#3b3b3b',
  'editorSuggestWidget-border': '#c8c8c8',
  // What @vscode-elements reads for its inputs, selects, checkboxes and lists.
  'font-weight': 'normal',
  'editor-foreground': '#3b3b3b',
  'editor-font-family': "Menlo, Monaco, Consolas, 'Droid Sans Mono', 'Courier New', monospace",
  'editor-font-size': '14px',
  'editor-font-weight': 'normal',
  'settings-textInputBackground': '#ffffff',
  'settings-textInputForeground': '#3b3b3b',
  'settings-dropdownBackground': '#ffffff',
  'settings-dropdownForeground': '#3b3b3b',
  'settings-dropdownBorder': '#cecece',
  'settings-dropdownListBorder': '#c8c8c8',
  'settings-checkboxBackground': '#f8f8f8',
  'settings-checkboxForeground': '#3b3b3b',
  'settings-checkboxBorder': '#cecece',
  'checkbox-background': '#f8f8f8',
  'checkbox-foreground': '#3b3b3b',
  'checkbox-border': '#cecece',
  'list-hoverForeground': '#3b3b3b',
  'list-highlightForeground': '#005fb8',
  'list-focusHighlightForeground': '#005fb8',
  'icon-foreground': '#3b3b3b',
  'badge-background': '#cccccc',
  'badge-foreground': '#3b3b3b',
  'widget-shadow': '#00000029',
  'scrollbar-shadow': '#dddddd',
  'toolbar-hoverOutline': 'transparent',
} as const;

const dark: Partial<Record<keyof typeof light, string>> = {
  foreground: '#cccccc',
  descriptionForeground: '#9d9d9d',
  errorForeground: '#f85149',
  focusBorder: '#0078d4',
  'editor-background': '#1f1f1f',
  'panel-border': '#2b2b2b',
  'widget-border': '#313131',
  'editorWidget-background': '#202020',
  'editorWidget-border': '#454545',
  'textLink-foreground': '#4daafc',
  'textLink-activeForeground': '#4daafc',
  'list-hoverBackground': '#2a2d2e',
  'list-focusOutline': '#0078d4',
  'list-activeSelectionBackground': '#04395e',
  'list-activeSelectionForeground': '#ffffff',
  'list-inactiveSelectionBackground': '#37373d',
  'list-inactiveSelectionForeground': '#ffffff',
  'input-background': '#313131',
  'input-foreground': '#cccccc',
  'input-border': '#3c3c3c',
  'input-placeholderForeground': '#989898',
  'inputValidation-errorBackground': '#5a1d1d',
  'inputValidation-errorBorder': '#be1100',
  'inputValidation-errorForeground': '#cccccc',
  'inputValidation-warningBackground': '#352a05',
  'inputValidation-warningBorder': '#b89500',
  'settings-textInputBorder': '#3c3c3c',
  'dropdown-background': '#313131',
  'dropdown-foreground': '#cccccc',
  'dropdown-border': '#3c3c3c',
  'button-background': '#0078d4',
  'button-hoverBackground': '#026ec1',
  'button-border': '#ffffff12',
  'button-secondaryBackground': '#313131',
  'button-secondaryForeground': '#cccccc',
  'button-secondaryHoverBackground': '#3c3c3c',
  'toolbar-hoverBackground': '#5a5d5e50',
  'sash-hoverBorder': '#0078d4',
  'editorWarning-foreground': '#cca700',
  'gitDecoration-modifiedResourceForeground': '#e2c08d',
  'gitDecoration-addedResourceForeground': '#81b88b',
  'gitDecoration-deletedResourceForeground': '#c74e39',
  'editorSuggestWidget-background': '#202020',
  'editorSuggestWidget-foreground': '#cccccc',
  'editorSuggestWidget-border': '#454545',
  'editor-foreground': '#cccccc',
  'settings-textInputBackground': '#313131',
  'settings-textInputForeground': '#cccccc',
  'settings-dropdownBackground': '#313131',
  'settings-dropdownForeground': '#cccccc',
  'settings-dropdownBorder': '#3c3c3c',
  'settings-dropdownListBorder': '#454545',
  'settings-checkboxBackground': '#313131',
  'settings-checkboxForeground': '#cccccc',
  'settings-checkboxBorder': '#3c3c3c',
  'checkbox-background': '#313131',
  'checkbox-foreground': '#cccccc',
  'checkbox-border': '#3c3c3c',
  'list-hoverForeground': '#cccccc',
  'list-highlightForeground': '#2aaaff',
  'list-focusHighlightForeground': '#2aaaff',
  'icon-foreground': '#cccccc',
  'badge-background': '#616161',
  'badge-foreground': '#f8f8f8',
  'widget-shadow': '#0000005c',
  'scrollbar-shadow': '#000000',
};

const variables = (values: Readonly<Record<string, string | undefined>>) => Object.entries(values)
  .map(([name, value]) => `  --vscode-${name}: ${value};`).join('\n');

export const BROWSER_THEME_CSS = `:root {
  color-scheme: light dark;
${variables(light)}
}
@media (prefers-color-scheme: dark) {
  :root {
${variables(dark)}
  }
}
html, body { margin: 0; height: 100%; }
body {
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size);
  color: var(--vscode-foreground); background: var(--vscode-editor-background);
  padding: 0 20px; box-sizing: border-box; display: flex; flex-direction: column;
}
xos-board { flex: 1 1 auto; min-height: 0; }
#xos-connection-notice {
  margin: 8px 0; padding: 6px 10px; border-radius: 2px;
  color: var(--vscode-inputValidation-errorForeground); background: var(--vscode-inputValidation-errorBackground);
  border: 1px solid var(--vscode-inputValidation-errorBorder);
}
`;
