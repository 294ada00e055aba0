// "XOS: Create App from Database…": VS Code's questions and notices for the steps in
// src/app/createAppFlow.ts (which reads the database, writes the AST and says what to set).
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { personDoor } from '../board/personFacing.ts';
import type { Translate } from '../board/texts.ts';
import { commandIds } from './commands.ts';
import { createAppFromDatabase, DEFAULT_AST_FILE, DEFAULT_SCHEMA, type AstTarget, type CreateAppUi, type DatabaseKind, type SettingsChange } from '../app/createAppFlow.ts';
import { notify } from './notify.ts';
import { readSettings } from './settings.ts';

export const createAppCommand = 'xos.createAppFromDatabase';

/** A progress notification's title (as the door keeps it). */
const TITLE_BUDGET = 200;

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export interface CreateAppOptions {
  readonly context: vscode.ExtensionContext;
  readonly output: vscode.LogOutputChannel;
  /** BackendService.restartAfter: the change made while the backend waits, then one start. */
  readonly applyToBackend: (change: () => Promise<boolean>) => Promise<boolean>;
}

export function registerCreateApp({ context, output, applyToBackend }: CreateAppOptions): vscode.Disposable {
  return vscode.commands.registerCommand(createAppCommand, async () => {
    // In Restricted Mode VS Code ignores the workspace's xos.dsn and xos.ast (package.json: restrictedConfigurations).
    if (!vscode.workspace.isTrusted) {
      const manage = vscode.l10n.t('Manage Workspace Trust');
      const choice = await notify('warning', vscode.l10n.t('XOS uses a workspace\'s database settings only when you trust the workspace. Trust it, then run the command again.'), [manage]);
      if (choice === manage) await vscode.commands.executeCommand('workbench.trust.manage');
      return { outcome: 'cancelled' };
    }
    return createAppFromDatabase({
      ui: vscodeUi(output),
      t,
      log: output,
      secrets: context.secrets,
      settings: {
        current: () => {
          const { dsn, ast, endpoint } = readSettings();
          return { dsn, ast, endpoint };
        },
        update: (change) => updateSettings(change),
      },
      firstRoot: () => fileFolders()[0]?.uri.fsPath,
      applyToBackend,
    });
  });
}

async function updateSettings({ target, values }: SettingsChange): Promise<void> {
  const config = vscode.workspace.getConfiguration('xos');
  const where = target === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  if (values.ast !== undefined) await config.update('ast', values.ast, where);
  if (values.dsn !== undefined) await config.update('dsn', values.dsn, where);
}

/** The workspace folders on disk (the AST is written with Node's file system). */
function fileFolders(): readonly vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

function vscodeUi(output: vscode.LogOutputChannel): CreateAppUi {
  const door = personDoor(t);
  return {
    pickKind: async () => {
      const items: Array<vscode.QuickPickItem & { database: DatabaseKind }> = [
        { label: vscode.l10n.t('SQLite file'), description: '.db, .sqlite, .sqlite3', database: 'sqlite' },
        { label: vscode.l10n.t('PostgreSQL'), description: 'postgres://user@host:port/database', database: 'postgres' },
      ];
      const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Create App from Database'), placeHolder: vscode.l10n.t('Which database holds your tables?'), ignoreFocusOut: true });
      return picked?.database;
    },
    pickSqliteFile: async () => {
      const picked = await vscode.window.showOpenDialog({
        title: vscode.l10n.t('SQLite database file'),
        openLabel: vscode.l10n.t('Read Database'),
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        defaultUri: fileFolders()[0]?.uri,
        filters: { [vscode.l10n.t('SQLite databases')]: ['db', 'sqlite', 'sqlite3'], [vscode.l10n.t('All files')]: ['*'] },
      });
      return picked?.[0]?.fsPath;
    },
    askPostgresDsn: (validate) => vscode.window.showInputBox({
      title: vscode.l10n.t('Create App from Database'),
      prompt: vscode.l10n.t('The PostgreSQL database, without the password (XOS asks for it next and keeps it in the secret storage)'),
      placeHolder: 'postgres://user@host:5432/database',
      ignoreFocusOut: true,
      validateInput: validate,
    }),
    askPassword: (target, stored) => vscode.window.showInputBox({
      title: vscode.l10n.t('Create App from Database'),
      prompt: stored
        ? vscode.l10n.t('Password of the database {0} (empty: keep the stored one)', target)
        : vscode.l10n.t('Password of the database {0} (empty if it needs none)', target),
      password: true,
      ignoreFocusOut: true,
    }),
    askSchema: () => vscode.window.showInputBox({
      title: vscode.l10n.t('Create App from Database'),
      prompt: vscode.l10n.t('The schema to read'),
      value: DEFAULT_SCHEMA,
      ignoreFocusOut: true,
    }),
    pickTarget: async (near): Promise<AstTarget | undefined> => {
      const folders = fileFolders();
      if (folders.length === 1) return { kind: 'folder', folder: folders[0].uri.fsPath };
      if (folders.length > 1) {
        const picked = await vscode.window.showQuickPick(folders.map((folder) => ({ label: folder.name, description: folder.uri.fsPath, folder })),
          { placeHolder: vscode.l10n.t('The folder to write {0} into', DEFAULT_AST_FILE), ignoreFocusOut: true });
        return picked && { kind: 'folder', folder: picked.folder.uri.fsPath };
      }
      const file = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Where to write the app'),
        saveLabel: vscode.l10n.t('Create App'),
        defaultUri: vscode.Uri.file(join(near ?? homedir(), DEFAULT_AST_FILE)),
        filters: { JSON: ['json'] },
      });
      return file && { kind: 'file', file: file.fsPath };
    },
    progress: (title, work) => vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: door.text(title, TITLE_BUDGET), cancellable: false },
      () => work(),
    ),
    notify: (kind, text, actions) => notify(kind, text, actions),
    openFile: async (path) => {
      await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
    },
    openBoard: () => void vscode.commands.executeCommand(commandIds.openBoard),
    showOutput: () => output.show(),
  };
}
