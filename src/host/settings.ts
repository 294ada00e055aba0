// The xos.* settings as one typed snapshot, and the secrets that belong to
// them. A secret is stored under a key bound to the server it was entered
// for (origin, user@host:port, user@host:port/db), so settings that point
// elsewhere, for instance a repository's .vscode/settings.json, get nothing.
import * as vscode from 'vscode';
import { dsnHasPassword, dsnSecretKey, dsnTarget, isPostgresDsn, redactDsn, withDsnPassword } from '../backend/dsn.ts';
import { endpointProblem, endpointSecretKey } from '../graphql/client.ts';
import { notify } from './notify.ts';

export interface XosSettings {
  readonly endpoint: string;
  readonly ast: string;
  readonly dsn: string;
  readonly locale: string;
  readonly mcpPort: number;
  readonly confirmTimeoutSeconds: number;
  /** How long a confirmed mail waits with Undo before it goes out (0: at once). */
  readonly mailUndoSeconds: number;
  /** `production`: a banner on the Board, and save and send ask in a modal dialog. */
  readonly environment: 'development' | 'production';
}

/** Production wins wherever it is set: a repository's settings can add the dialog, never take it away. */
function productionAnywhere(config: vscode.WorkspaceConfiguration): boolean {
  const set = config.inspect<string>('environment');
  return [set?.globalValue, set?.workspaceValue, set?.workspaceFolderValue].includes('production');
}

export function readSettings(): XosSettings {
  const config = vscode.workspace.getConfiguration('xos');
  return {
    endpoint: config.get<string>('endpoint', '').trim(),
    ast: config.get<string>('ast', '').trim(),
    dsn: config.get<string>('dsn', '').trim(),
    locale: config.get<string>('locale', '').trim(),
    mcpPort: config.get<number>('mcp.port', 0),
    confirmTimeoutSeconds: config.get<number>('confirm.timeoutSeconds', 300),
    mailUndoSeconds: Math.max(0, Math.min(300, Math.floor(config.get<number>('mail.undoSeconds', 10)))),
    environment: productionAnywhere(config) ? 'production' : 'development',
  };
}

/** Settings whose change needs a new backend. */
export const backendSettings = ['xos.endpoint', 'xos.ast', 'xos.dsn', 'xos.person'] as const;
/** Settings whose change needs a new MCP server. */
export const mcpSettings = ['xos.mcp.port', 'xos.locale'] as const;

/** Secret keys from before secrets were bound to their server. */
export const LEGACY_SECRET_KEYS = { endpointToken: 'xos.endpoint.token', mailPassword: 'xos.mail.password' } as const;

/** True when `xos.<setting>` comes from the person's own settings, not from a workspace or folder. */
export function setByUser(setting: string): boolean {
  const inspected = vscode.workspace.getConfiguration('xos').inspect(setting);
  return inspected?.workspaceValue === undefined && inspected?.workspaceFolderValue === undefined;
}

/**
 * The secret under `boundKey`. A secret stored before keys were bound is moved
 * there once, and only when `setting` (the server it is for) is the person's
 * own: a workspace that names a server never inherits an unbound secret.
 */
export async function readBoundSecret(secrets: vscode.SecretStorage, boundKey: string, legacyKey: string, setting: string, output: vscode.LogOutputChannel): Promise<string | undefined> {
  const bound = await secrets.get(boundKey);
  if (bound !== undefined) return bound;
  const legacy = await secrets.get(legacyKey);
  if (legacy === undefined) return undefined;
  if (!setByUser(setting)) {
    output.warn(`xos.${setting} comes from the workspace settings, so the secret stored before XOS bound secrets to their server is not used for it; set it again for this server.`);
    return undefined;
  }
  await secrets.store(boundKey, legacy);
  await secrets.delete(legacyKey);
  output.info(`moved the stored secret of xos.${setting} to a key bound to its server`);
  return legacy;
}

/** The bearer token stored for this endpoint (bound to its origin), if any. */
export async function readEndpointToken(endpoint: string, secrets: vscode.SecretStorage, output: vscode.LogOutputChannel): Promise<string | undefined> {
  const key = endpointSecretKey(endpoint);
  if (!key) return undefined;
  return readBoundSecret(secrets, key, LEGACY_SECRET_KEYS.endpointToken, 'endpoint', output);
}

/**
 * The DSN the embedded backend connects with: xos.dsn plus the password kept
 * in SecretStorage for its user@host:port/database. A password written into
 * xos.dsn itself is used as it is (setupServerSecrets warns about it).
 */
export async function resolveDsn(dsn: string, secrets: vscode.SecretStorage): Promise<string> {
  if (!isPostgresDsn(dsn) || dsnHasPassword(dsn)) return dsn;
  const key = dsnSecretKey(dsn);
  const password = key ? await secrets.get(key) : undefined;
  return password ? withDsnPassword(dsn, password) : dsn;
}

/** Warns in the output channel when xos.dsn carries a password: settings are synced and may be shared. */
function warnAboutDsnPassword(output: vscode.LogOutputChannel): void {
  const { dsn } = readSettings();
  if (!dsnHasPassword(dsn)) return;
  output.warn(`xos.dsn contains a password. Settings are synced and may be shared: remove the password from xos.dsn (${redactDsn(dsn)}) `
    + 'and set it with the command "XOS: Set Database Password", which keeps it in VS Code\'s secret storage.');
}

/** True when a SecretStorage change concerns the backend (database password or server token). */
export function isBackendSecret(key: string): boolean {
  return key.startsWith('xos.dsn.password:') || key.startsWith('xos.endpoint.token');
}

/**
 * Registers "XOS: Set Database Password" and "XOS: Set Server Token". Each
 * asks for the secret of the server the current settings name, says which
 * server that is and stores it bound to it (SecretStorage then fires its
 * change event; see isBackendSecret). Warns now and on every change while
 * xos.dsn itself carries a password.
 */
export function setupServerSecrets(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): vscode.Disposable {
  warnAboutDsnPassword(output);
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('xos.dsn')) warnAboutDsnPassword(output);
    }),
    vscode.commands.registerCommand('xos.setDatabasePassword', async () => {
      const { dsn } = readSettings();
      const key = dsnSecretKey(dsn);
      if (!key) {
        void notify('info', vscode.l10n.t('xos.dsn names no PostgreSQL database (postgres://user@host:port/database); only such a database needs a password.'));
        return;
      }
      const target = dsnTarget(dsn)!;
      if (!target.includes('@')) {
        void notify('warning', vscode.l10n.t('xos.dsn names no user. Write it as postgres://user@host:port/database, then set the password.'));
        return;
      }
      const password = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Password of the database {0}', target), password: true, ignoreFocusOut: true });
      if (password === undefined) return;
      await context.secrets.store(key, password);
      output.info(`database password stored for ${target}`);
      if (dsnHasPassword(dsn)) {
        void notify('warning', vscode.l10n.t('xos.dsn still contains a password, which is used instead. Remove it from the setting.'));
      }
    }),
    vscode.commands.registerCommand('xos.setEndpointToken', async () => {
      const { endpoint } = readSettings();
      if (!endpoint) {
        void notify('info', vscode.l10n.t('xos.endpoint is empty: the embedded backend needs no token.'));
        return;
      }
      const problem = endpointProblem(endpoint);
      if (problem) {
        void notify('error', vscode.l10n.t('XOS cannot use xos.endpoint: {0}', problem));
        return;
      }
      const origin = new URL(endpoint).origin;
      const token = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Bearer token of the XOS server {0}', origin), password: true, ignoreFocusOut: true });
      if (token === undefined) return;
      await context.secrets.store(endpointSecretKey(endpoint)!, token);
      output.info(`server token stored for ${origin}`);
    }),
  );
}
