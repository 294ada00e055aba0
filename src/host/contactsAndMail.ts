// Contacts and mail in VS Code: builds the providers and the SMTP mailer from
// the settings (secrets only in SecretStorage) and registers the account
// commands. Google and Microsoft sign-in are not available yet and say so.
import * as vscode from 'vscode';
import { CarddavProvider, carddavUrlProblem } from '../contacts/carddav.ts';
import { ContactDirectory } from '../contacts/directory.ts';
import { countryOfLocale } from '../contacts/normalize.ts';
import type { ContactProvider } from '../contacts/provider.ts';
import { xosRecordProviders } from '../contacts/xosRecords.ts';
import { createSmtpMailer, smtpSettingsProblems, type MailSecurity, type SmtpSettings } from '../mail/smtp.ts';
import type { Contacts, Mailer, XosClient } from '../mcp/ports.ts';

interface CarddavSetting { readonly url: string; readonly user?: string }

const carddavSecret = (account: CarddavSetting) => `xos.carddav.password:${account.user ?? ''}@${account.url}`;
const mailSecret = 'xos.mail.password';

export interface ContactsAndMail {
  contacts(): Contacts | undefined;
  mailer(): Mailer | undefined;
  dispose(): void;
}

export function setupContactsAndMail(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, client: () => XosClient | undefined): ContactsAndMail {
  const disposables: vscode.Disposable[] = [];
  const passwords = new Map<string, string | undefined>();
  let carddav: CarddavProvider[] = [];

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
  const readMailPassword = async () => {
    passwords.set(mailSecret, await context.secrets.get(mailSecret));
  };
  void rebuildCarddav();
  void readMailPassword();

  disposables.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('xos.contacts.carddav')) void rebuildCarddav();
    }),
    context.secrets.onDidChange((event) => {
      if (event.key === mailSecret) void readMailPassword();
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
        void vscode.window.showInformationMessage(vscode.l10n.t('No CardDAV account with a user name. Add one with "XOS: Add CardDAV Account".'));
        return;
      }
      const picked = list.length === 1 ? list[0] : (await vscode.window.showQuickPick(list.map((a) => ({ label: `${a.user} — ${a.url}`, account: a })), { placeHolder: vscode.l10n.t('CardDAV account') }))?.account;
      if (picked) await askCarddavPassword(picked);
    }),
    vscode.commands.registerCommand('xos.setMailPassword', async () => {
      const user = config().get<string>('mail.user', '');
      const password = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Password of {0} for the mail server', user || '?'), password: true, ignoreFocusOut: true });
      if (password === undefined) return;
      await context.secrets.store(mailSecret, password);
      passwords.set(mailSecret, password);
    }),
    vscode.commands.registerCommand('xos.signInGoogle', () => notYet('Google')),
    vscode.commands.registerCommand('xos.signInMicrosoft', () => notYet('Microsoft')),
  );

  async function askCarddavPassword(account: CarddavSetting): Promise<void> {
    const password = await vscode.window.showInputBox({ prompt: vscode.l10n.t('Password of {0} at {1}', account.user ?? '', account.url), password: true, ignoreFocusOut: true });
    if (password === undefined) return;
    await context.secrets.store(carddavSecret(account), password);
  }

  function notYet(provider: string): void {
    void vscode.window.showWarningMessage(vscode.l10n.t('Signing in to {0} contacts is not available yet. Use a CardDAV account instead.', provider));
  }

  const providers = (): ContactProvider[] => {
    const list: ContactProvider[] = [...carddav];
    const xos = client();
    if (xos && config().get<boolean>('contacts.xos', true)) list.push(...xosRecordProviders(xos));
    return list;
  };
  const directory = new ContactDirectory(providers, { country: countryOfLocale(vscode.env.language) });

  return {
    contacts: () => (providers().length > 0 ? directory : undefined),
    mailer: () => {
      const settings: SmtpSettings = {
        host: config().get<string>('mail.host', ''),
        port: config().get<number>('mail.port', 587),
        security: config().get<MailSecurity>('mail.security', 'starttls'),
        user: config().get<string>('mail.user', ''),
        from: config().get<string>('mail.from', ''),
      };
      if (!settings.host) return undefined;
      const problems = smtpSettingsProblems(settings);
      if (problems.length > 0) {
        output.warn(`Mail is not usable: ${problems.join('; ')}`);
        return undefined;
      }
      return createSmtpMailer(settings, {
        password: async () => passwords.get(mailSecret) ?? context.secrets.get(mailSecret),
        log: (line) => output.info(line),
      });
    },
    dispose: () => {
      for (const disposable of disposables) disposable.dispose();
    },
  };
}
