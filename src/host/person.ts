// Who uses XOS in this VS Code: the name the History and the audit trail give the embedded
// backend's writes. The setting `xos.person`, else the account of a GitHub or Microsoft session
// VS Code already has (asked silently: no sign-in is started for it), else the OS user name.
// With a remote endpoint the token names the person (GET /xos/me), never this.
import { userInfo } from 'node:os';
import * as vscode from 'vscode';
import type { Person } from '../backend/people/person.ts';
import { cleanPersonName } from '../backend/people/personName.ts';

const ACCOUNT_PROVIDERS = ['github', 'microsoft'] as const;

export async function localPerson(): Promise<Person | undefined> {
  const setting = cleanPersonName(vscode.workspace.getConfiguration('xos').get<string>('person', ''));
  if (setting) return { name: setting };
  for (const provider of ACCOUNT_PROVIDERS) {
    try {
      const session = await vscode.authentication.getSession(provider, [], { silent: true });
      const label = cleanPersonName(session?.account.label);
      if (label) return { name: label };
    } catch {
      // No such provider here, or it refused a silent question: the next one may know.
    }
  }
  try {
    const name = cleanPersonName(userInfo().username);
    return name ? { name } : undefined;
  } catch {
    return undefined;
  }
}
