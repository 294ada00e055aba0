// The XOS status bar entries: the backend (embedded DSN or endpoint, reachable or
// not) and the MCP port in the tooltip, clicking it shows the XOS output; and, while writes
// the agent asked for wait for the person's decision, their count, clicking it shows them
// on the Board.
import * as vscode from 'vscode';
import type { DsnStatus } from '../core/domain.ts';
import { commandIds } from './contributionIds.ts';
import type { Person } from '../backend/people/person.ts';

/** "anna (sales)", or "anna" without a role. */
function personLabel(person: Person): string {
  return person.role ? `${person.name} (${person.role})` : person.name;
}

export interface StatusBarInfo {
  readonly mode: 'embedded' | 'remote' | undefined;
  readonly where: string | undefined;
  readonly dsn: DsnStatus | undefined;
  readonly mcpPort: number | undefined;
  /** Who uses XOS: the endpoint's token names them (remote), or this VS Code does (embedded). */
  readonly person?: Person;
}

export class XosStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /** Shown only while approvals wait. */
  private readonly approvals: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('xos.status', vscode.StatusBarAlignment.Left, 100);
    this.item.name = vscode.l10n.t('XOS Status');
    this.item.text = '$(database) XOS';
    this.item.tooltip = vscode.l10n.t('XOS is starting…');
    this.item.command = commandIds.showOutput;
    this.item.show();
    this.approvals = vscode.window.createStatusBarItem('xos.approvals', vscode.StatusBarAlignment.Left, 99);
    this.approvals.name = vscode.l10n.t('XOS Pending Approvals');
    this.approvals.command = commandIds.showApprovals;
  }

  /** How many approvals wait for the person's decision: the entry says so, or goes away at 0. */
  setApprovalsWaiting(count: number): void {
    if (count <= 0) {
      this.approvals.hide();
      return;
    }
    const text = count === 1 ? vscode.l10n.t('XOS: 1 approval waiting') : vscode.l10n.t('XOS: {0} approvals waiting', count);
    this.approvals.text = `$(bell-dot) ${text}`;
    this.approvals.accessibilityInformation = { label: text, role: 'button' };
    this.approvals.tooltip = vscode.l10n.t('Writes the agent asked for wait for your decision: click to show them on the Board.');
    this.approvals.show();
  }

  update(info: StatusBarInfo): void {
    const reachable = info.dsn?.ok === true;
    // With a remote endpoint the token says who is signed in: the team sees it at a glance.
    const signedIn = info.mode === 'remote' && info.person ? `: ${personLabel(info.person)}` : '';
    this.item.text = `${reachable ? '$(database)' : '$(warning)'} XOS${signedIn}`;
    this.item.backgroundColor = info.mode && !reachable ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const backend = info.mode === 'remote'
      ? vscode.l10n.t('Endpoint: {0}', info.where ?? '')
      : info.mode === 'embedded' ? vscode.l10n.t('Embedded backend: {0}', info.where ?? '') : vscode.l10n.t('No backend');
    const state = info.dsn ? (reachable ? vscode.l10n.t('reachable ({0} ms)', String(info.dsn.latency_ms ?? '?')) : vscode.l10n.t('not reachable')) : '';
    const mcp = info.mcpPort === undefined ? vscode.l10n.t('MCP server: not running') : vscode.l10n.t('MCP server: 127.0.0.1:{0}', info.mcpPort);
    // The reason stays in the output and the system status; the tooltip says what it means for the person.
    const audit = info.dsn?.audit?.kept === false ? [vscode.l10n.t('No history and no Undo: XOS keeps no audit trail in this database')] : [];
    const person = info.person
      ? [info.mode === 'remote' ? vscode.l10n.t('Signed in as {0}', personLabel(info.person)) : vscode.l10n.t('Changes are recorded as {0}', info.person.name)]
      : [];
    this.item.tooltip = [`${backend}${state ? ` — ${state}` : ''}`, ...person, ...audit, mcp, vscode.l10n.t('XOS: click to show the output')].join('\n');
  }

  dispose(): void {
    this.item.dispose();
    this.approvals.dispose();
  }
}
