// The ids of the contributions (package.json) that activation registers (src/host/shell.ts),
// in a module of their own: the activation bundle takes nothing else from the modules using them.
export const contextsViewId = 'xos.contexts';
export const boardViewType = 'xos.board';
export const mcpProviderId = 'xos';

export const commandIds = {
  openBoard: 'xos.openBoard',
  showOutput: 'xos.showOutput',
  showStatus: 'xos.showStatus',
  exportCsv: 'xos.exportCsv',
  undoLastSave: 'xos.undoLastSave',
  showApprovals: 'xos.showApprovals',
} as const;
