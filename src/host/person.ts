// Who uses XOS in this VS Code: the name the History and the audit trail give the embedded
// backend's writes. The setting `xos.person`, else the account of a GitHub or Microsoft session
// VS Code already has, else the OS user name. With a remote endpoint the token names the person
// (GET /xos/me), never this.
//
// Asking for an account activates the provider's extension first; in VS Code in the browser that
// can take long or never answer. The backend (and the MCP server behind it) must not wait for it:
// the account's name is asked in the background, silently (no sign-in is started for it), and
// remembered for the next start; until then the OS user name stands in.
import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import type { Person } from '../backend/people/person.ts';
import { cleanPersonName } from '../backend/people/personName.ts';

const ACCOUNT_PROVIDERS = ['github', 'microsoft'] as const;
/** Where the account's name is remembered between starts (the extension's global state). */
const REMEMBERED_ACCOUNT = 'xos.accountName';
/** How long the background question may take before it is given up. */
const ACCOUNT_QUESTION_MS = 10_000;

/** A silent question for the provider's existing session, given up after ACCOUNT_QUESTION_MS. */
async function existingAccount(provider: string): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ACCOUNT_QUESTION_MS); });
  try {
    const session = await Promise.race([vscode.authentication.getSession(provider, [], { silent: true }), late]);
    return session?.account.label;
  } catch {
    // No such provider here, or it refused a silent question.
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** Asks the providers for an account now and remembers its name (or that there is none) for the next start. */
async function rememberAccount(memory: vscode.Memento): Promise<void> {
  const labels = await Promise.all(ACCOUNT_PROVIDERS.map(existingAccount));
  const label = labels.map((raw) => cleanPersonName(raw)).find((name) => !!name);
  await memory.update(REMEMBERED_ACCOUNT, label);
}

function osUser(): string | undefined {
  try {
    return cleanPersonName(userInfo().username);
  } catch {
    return undefined;
  }
}

/** The person at once: the setting, the account remembered from an earlier start, or the OS user. */
export function localPerson(memory: vscode.Memento): Person | undefined {
  const setting = cleanPersonName(vscode.workspace.getConfiguration('xos').get<string>('person', ''));
  if (setting) return { name: setting };
  void rememberAccount(memory).catch(() => undefined);
  const name = cleanPersonName(memory.get<string>(REMEMBERED_ACCOUNT)) || osUser();
  return name ? { name } : undefined;
}
