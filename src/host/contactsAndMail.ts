// Contacts and mail in VS Code: builds the providers and the SMTP mailer from
// the settings (secrets only in SecretStorage) and registers the account
// commands. Google signs in through the browser (OAuth with PKCE); Microsoft
// through VS Code's own Microsoft account first, the browser where that is refused.
import * as vscode from 'vscode';
import { CarddavProvider, carddavUrlProblem } from '../contacts/carddav.ts';
import { ContactDirectory } from '../contacts/directory.ts';
import { GoogleContactsProvider, googleOAuthClient } from '../contacts/google.ts';
import { MICROSOFT_SCOPES, MicrosoftContactsProvider, microsoftOAuthClient } from '../contacts/microsoft.ts';
import { countryOfLocale } from '../contacts/normalize.ts';
import { refreshTokens, signIn, type OAuthClient } from '../contacts/oauth.ts';
import type { ContactProvider } from '../contacts/provider.ts';
import { NotSignedInError, StoredTokens, type AccessTokenSource, type TokenStore } from '../contacts/tokens.ts';
import { xosRecordProviders } from '../contacts/xosRecords.ts';
import { createSmtpMailer, mailPasswordKey, smtpSettingsProblems, type MailSecurity, type SmtpSettings } from '../mail/smtp.ts';
import type { Contacts, Mailer, XosClient } from '../core/domain.ts';
import { LEGACY_SECRET_KEYS, readBoundSecret, setupServerSecrets } from './settings.ts';
import { notify } from './notify.ts';

interface CarddavSetting { readonly url: string; readonly user?: string }

// Bound to the account's user and URL: another URL gets no password.
const carddavSecret = (account: CarddavSetting) => `xos.carddav.password:${account.user ?? ''}@${account.url}`;
const googleSecret = 'xos.google.tokens';
const microsoftSecret = 'xos.microsoft.tokens';
const googleClientSecret = 'xos.google.clientSecret';

export interface ContactsAndMail {
  contacts(): Contacts | undefined;
  mailer(): Mailer | undefined;
  dispose(): void;
}

export function setupContactsAndMail(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, client: () => XosClient | undefined): ContactsAndMail {
  const disposables: vscode.Disposable[] = [];
  const passwords = new Map<string, string | undefined>();
  let carddav: CarddavProvider[] = [];
  const store: TokenStore = {
    get: async (key) => context.secrets.get(key),
    set: async (key, value) => context.secrets.store(key, value),
    delete: async (key) => context.secrets.delete(key),
  };
  // The clients are read when needed: their ids are settings the person may change.
  const storedTokens = (client: () => Promise<OAuthClient>, key: string, service: string) =>
    new StoredTokens({ store, key, service, refresh: async (refreshToken, signal) => refreshTokens(await client(), refreshToken, { signal }) });
  const googleClient = async () => googleOAuthClient(config().get<string>('contacts.google.clientId', ''), await context.secrets.get(googleClientSecret));
  const microsoftClient = async () => microsoftOAuthClient(config().get<string>('contacts.microsoft.clientId', ''));
  const googleTokens = storedTokens(googleClient, googleSecret, 'Google');
  const microsoftOAuthTokens = storedTokens(microsoftClient, microsoftSecret, 'Microsoft');
  const microsoftTokens = microsoftTokenSource(microsoftOAuthTokens);
  // One instance per session: Google wants its warm-up search only once.
  let google: GoogleContactsProvider | undefined;
  let microsoft: MicrosoftContactsProvider | undefined;

  const config = () => vscode.workspace.getConfiguration('xos');
  const accounts = () => config().get<CarddavSetting[]>('contacts.carddav', []);

  const rebuildCarddav = async () => {
    carddav = [];
    for (const account of accounts()) {
      const problem = carddavUrlProblem(account.url);
      if (problem) {
        output.warn(`CardDAV account skipped: ${problem}`);
        continue;
      }
      const password = await context.secrets.get(carddavSecret(account));
      carddav.push(new CarddavProvider({ url: account.url, user: account.user, password }));
    }
  };
  const mailSettings = (): SmtpSettings => ({
    host: config().get<string>('mail.host', ''),
    port: config().get<number>('mail.port', 587),
    security: config().get<MailSecurity>('mail.security', 'starttls'),
    user: config().get<string>('mail.user', ''),
    from: config().get<string>('mail.from', ''),
  });
  // The password is bound to user@host:port: settings pointing elsewhere get none.
  const readMailPassword = async () => {
    const settings = mailSettings();
    if (!settings.host.trim() || !settings.user) return; // no login, no password
    const key = mailPasswordKey(settings);
    passwords.set(key, await readBoundSecret(context.secrets, key, LEGACY_SECRET_KEYS.mailPassword, 'mail.host', output));
  };
  void rebuildCarddav();
  void readMailPassword();

  disposables.push(
    // The backend's secrets are set here too: every "Set … Password/Token" command in one place.
    // The backend picks a new one up through SecretStorage's change event.
    setupServerSecrets(context, output),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('xos.contacts.carddav')) void rebuildCarddav();
      if (event.affectsConfiguration('xos.mail')) void readMailPassword();
    }),
    context.secrets.onDidChange((event) => {
      if (event.key.startsWith('xos.mail.password')) void readMailPassword();
      else if (event.key.startsWith('xos.carddav.password:')) void rebuildCarddav();
    }),
    vscode.commands.registerCommand('xos.addCarddavAccount', async () => {
      const url = await vscode.window.showInputBox({
        prompt: vscode.l10n.t('CardDAV server or address book URL'),
        placeHolder: 'https://dav.example.org/',
        validateInput: (value) => (value ? carddavUrlProblem(value) : undefined),
        ignoreFocusOut: true,
      });
      if (!url) return;
      const user = await vscode.window.showInputBox({ prompt: vscode.l10n.t('User name (empty if the server needs none)'), ignoreFocusOut: true });
      if (user === undefined) return;
      const account: CarddavSetting = user ? { url, user } : { url };
      await config().update('contacts.carddav', [...accounts().filter((a) => a.url !== url || a.user !== account.user), account], vscode.ConfigurationTarget.Global);
      if (user) await askCarddavPassword(account);
      output.info(`CardDAV account added: ${user ? `${user} at ` : ''}${url}`);
    }),
    vscode.commands.registerCommand('xos.setCarddavPassword', async () => {
      const list = accounts().filter((a) => a.user);
      if (list.length === 0) {
        void notify('info', vscode.l10n.t('No CardDAV account with a user name. Add one with "XOS: Add CardDAV Account".'));
        return;
      }
      const picked = list.length === 1 ? list[0] : (await vscode.window.showQuickPick(list.map((a) => ({ label: `${a.user} — ${a.url}`, account: a })), { placeHolder: vscode.l10n.t('CardDAV account') }))?.account;
      if (picked) await askCarddavPassword(picked);
    }),
    vscode.commands.registerCommand('xos.setMailPassword', async () => {
      const settings = mailSettings();
      if (!settings.host.trim() || !settings.user) {
        void notify('info', vscode.l10n.t('Set xos.mail.host and xos.mail.user first: the password is kept for that user on that server.'));
        return;
      }
      // Name the server: the password is only ever sent there.
      const server = `${settings.host.trim()}:${settings.port}`;
      const password = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Password of {0} for the mail server {1}', settings.user, server), password: true, ignoreFocusOut: true });
      if (password === undefined) return;
      const key = mailPasswordKey(settings);
      await context.secrets.store(key, password);
      passwords.set(key, password);
      output.info(`mail password stored for ${settings.user} at ${server}`);
    }),
    vscode.commands.registerCommand('xos.signInGoogle', async () => {
      if (!(await clientIdSet('Google', 'contacts.google.clientId'))) return;
      if (!(await context.secrets.get(googleClientSecret))) {
        const secret = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Client secret of your Google OAuth client (Desktop app)'), password: true, ignoreFocusOut: true });
        if (!secret) return;
        await context.secrets.store(googleClientSecret, secret);
      }
      await signInWith('Google', 'contacts.google.enabled', async (signal) => {
        await googleTokens.save(await signIn(await googleClient(), { openExternal, signal }));
        google = undefined;
      });
    }),
    vscode.commands.registerCommand('xos.signInMicrosoft', () => signInWith('Microsoft', 'contacts.microsoft.enabled', async (signal) => {
      try {
        await vscode.authentication.getSession('microsoft', [...MICROSOFT_SCOPES], { createIfNone: true });
        // The VS Code account is used from now on; a browser sign-in from before is dropped.
        await microsoftOAuthTokens.clear();
        return;
      } catch (error) {
        output.warn(`The VS Code Microsoft account was not available for contacts (${errorText(error)}); signing in through the browser.`);
      }
      if (!config().get<string>('contacts.microsoft.clientId', '')) {
        throw new Error('VS Code\'s Microsoft account did not grant the contact scopes, and a browser sign-in needs your own OAuth client id in the setting xos.contacts.microsoft.clientId');
      }
      await microsoftOAuthTokens.save(await signIn(await microsoftClient(), { openExternal, signal }));
      microsoft = undefined;
    })),
  );

  /** A browser sign-in needs the person's own OAuth client; say how to get one. */
  async function clientIdSet(service: string, setting: string): Promise<boolean> {
    if (config().get<string>(setting, '')) return true;
    const open = vscode.l10n.t('Open Settings');
    const answer = await notify('warning',
      vscode.l10n.t('Signing in to {0} needs the id of your own OAuth client in the setting xos.{1} (see the XOS documentation on contacts).', service, setting), [open]);
    if (answer === open) void vscode.commands.executeCommand('workbench.action.openSettings', `xos.${setting}`);
    return false;
  }

  async function openExternal(url: string): Promise<boolean> {
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  /** Runs one sign-in with a cancellable notification, then turns the provider on. */
  async function signInWith(service: string, enabledSetting: string, run: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const abort = new AbortController();
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Signing in to {0}…', service), cancellable: true }, async (_progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        await run(abort.signal);
      });
    } catch (error) {
      output.error(`Sign-in to ${service} failed: ${errorText(error)}`);
      void notify('error', vscode.l10n.t('Sign-in to {0} failed: {1}', service, errorText(error)));
      return;
    }
    if (!config().get<boolean>(enabledSetting, false)) await config().update(enabledSetting, true, vscode.ConfigurationTarget.Global);
    output.info(`Signed in to ${service}; its contacts are searched.`);
    void notify('info', vscode.l10n.t('Signed in to {0}. Its contacts are searched from now on.', service));
  }

  /** The VS Code Microsoft session, unless the person signed in through the browser instead. */
  function microsoftTokenSource(oauth: StoredTokens): AccessTokenSource {
    const session = async (rejected?: string): Promise<string> => {
      const found = await vscode.authentication.getSession('microsoft', [...MICROSOFT_SCOPES], { silent: true });
      if (!found) throw new NotSignedInError('Microsoft');
      if (rejected !== undefined && found.accessToken === rejected) throw new Error('Microsoft refused the access token of the VS Code account; run "XOS: Sign In to Microsoft Contacts" again');
      return found.accessToken;
    };
    return {
      token: async (signal) => ((await oauth.signedIn()) ? oauth.token(signal) : session()),
      refresh: async (rejected, signal) => ((await oauth.signedIn()) ? oauth.refresh(rejected, signal) : session(rejected)),
    };
  }

  async function askCarddavPassword(account: CarddavSetting): Promise<void> {
    const password = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Password of {0} at {1}', account.user ?? '', account.url), password: true, ignoreFocusOut: true });
    if (password === undefined) return;
    await context.secrets.store(carddavSecret(account), password);
  }

  const providers = (): ContactProvider[] => {
    const list: ContactProvider[] = [...carddav];
    if (config().get<boolean>('contacts.google.enabled', false)) list.push((google ??= new GoogleContactsProvider({ tokens: googleTokens })));
    if (config().get<boolean>('contacts.microsoft.enabled', false)) list.push((microsoft ??= new MicrosoftContactsProvider({ tokens: microsoftTokens })));
    const xos = client();
    if (xos && config().get<boolean>('contacts.xos', true)) list.push(...xosRecordProviders(xos));
    return list;
  };
  const directory = new ContactDirectory(providers, { country: countryOfLocale(vscode.env.language) });

  return {
    contacts: () => (providers().length > 0 ? directory : undefined),
    mailer: () => {
      const settings = mailSettings();
      if (!settings.host) return undefined;
      const problems = smtpSettingsProblems(settings);
      if (problems.length > 0) {
        output.warn(`Mail is not usable: ${problems.join('; ')}`);
        return undefined;
      }
      const key = mailPasswordKey(settings);
      return createSmtpMailer(settings, {
        password: async () => passwords.get(key) ?? readBoundSecret(context.secrets, key, LEGACY_SECRET_KEYS.mailPassword, 'mail.host', output),
        log: (line) => output.info(line),
      });
    },
    dispose: () => {
      for (const disposable of disposables) disposable.dispose();
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
