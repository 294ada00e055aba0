// The commands' registrations (their ids, as contributed in package.json: contributionIds.ts).
import * as vscode from 'vscode';
import { commandIds } from './contributionIds.ts';
import { notify } from './notify.ts';

export { commandIds };

export interface CommandDependencies {
  readonly output: vscode.OutputChannel;
  readonly openBoard: () => void;
  /** The xos_system_status JSON. */
  readonly status: () => Promise<Record<string, unknown>>;
  /** The Board's list (with the person's sort and filter) to a CSV file. */
  readonly exportCsv: () => Promise<void>;
  /** The newest save in the audit trail, undone like any save (the person confirms). */
  readonly undoLastSave: () => Promise<void>;
  /** The Board with the writes waiting for the person's decision in view. */
  readonly showApprovals: () => void;
}

export function registerCommands({ output, openBoard, status, exportCsv, undoLastSave, showApprovals }: CommandDependencies): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(commandIds.showApprovals, () => showApprovals()),
    vscode.commands.registerCommand(commandIds.showOutput, () => output.show()),
    vscode.commands.registerCommand(commandIds.openBoard, () => openBoard()),
    vscode.commands.registerCommand(commandIds.exportCsv, () => exportCsv()),
    vscode.commands.registerCommand(commandIds.undoLastSave, () => undoLastSave()),
    vscode.commands.registerCommand(commandIds.showStatus, async () => {
      const shown = await status();
      const lines = statusLines(shown);
      output.appendLine(`XOS status:\n${lines.map((line) => `  ${line}`).join('\n')}`);
      const showOutput = vscode.l10n.t('Show Output');
      // A notification shows one paragraph: the essentials; the output channel has every line.
      void notify('info', lines.slice(0, 3).join(' · '), [showOutput]).then((choice) => {
        if (choice === showOutput) output.show();
      });
      // Returned as well, so scripts and tests can read it.
      return shown;
    }),
  ];
}

interface StatusShape {
  readonly active_context?: string | null;
  readonly tools?: readonly string[];
  readonly dsn?: { readonly kind?: string; readonly description?: string; readonly ok?: boolean; readonly latency_ms?: number | null };
  readonly app?: { readonly name?: string; readonly label?: string; readonly version?: string | null };
  readonly sessions?: number;
}

/** The xos_system_status JSON as sentences a person reads, most important first. */
export function statusLines(status: Record<string, unknown>): string[] {
  const { active_context: context, tools = [], dsn, app, sessions } = status as StatusShape;
  const reachable = dsn?.ok
    ? vscode.l10n.t('reachable ({0} ms)', String(dsn.latency_ms ?? '?'))
    : vscode.l10n.t('NOT reachable');
  const appName = app?.name ? `${app.label ?? app.name}${app.version ? ` ${app.version}` : ''}` : '?';
  return [
    vscode.l10n.t('XOS app {0}, data source {1}: {2}', appName, dsn?.description ?? dsn?.kind ?? '?', reachable),
    context ? vscode.l10n.t('Board shows {0}', context) : vscode.l10n.t('Board shows nothing yet'),
    vscode.l10n.t('{0} tools, {1} MCP sessions', String(tools.length), String(sessions ?? 0)),
    vscode.l10n.t('Tools: {0}', tools.join(', ')),
  ];
}
