// The preconditions tools declare (XosTool.requires), checked in one place before any handler
// runs, each unmet one answered with the call or setting that fixes it.
import { CONTACTS_NOT_CONFIGURED, CONTACTS_SETUP_HINT } from './tools/contacts.ts';
import { MAIL_NOT_CONFIGURED } from './tools/mailCompose.ts';
import type { Precondition, XosDeps, XosTool } from './ports.ts';
import type { McpSession } from './session.ts';

/** Why `tool` may not run now, or undefined when every precondition it declares holds. */
export function unmetPrecondition(tool: XosTool, deps: XosDeps, session: McpSession): string | undefined {
  for (const precondition of tool.requires ?? []) {
    const why = check(precondition, tool.name, deps, session);
    if (why) return why;
  }
  return undefined;
}

/** Whether the settings allow `tool` at all (the schema rule aside): what xos_system_status lists. */
export function configuredFor(tool: XosTool, deps: XosDeps): boolean {
  return (tool.requires ?? []).every((precondition) => precondition === 'schema' || check(precondition, tool.name, deps, undefined) === undefined);
}

/** Settings are the person's: the agent's next step is to say so, then call the tool again. */
function setUpByPerson(tool: string): string {
  return `Tell the person; once it is set up, call ${tool} again.`;
}

function check(precondition: Precondition, tool: string, deps: XosDeps, session: McpSession | undefined): string | undefined {
  switch (precondition) {
    case 'schema': return session?.schemaRequired(tool);
    case 'mailer': return deps.mailer ? undefined : `${MAIL_NOT_CONFIGURED} ${setUpByPerson(tool)}`;
    case 'contacts': return deps.contacts ? undefined : `${CONTACTS_NOT_CONFIGURED} ${CONTACTS_SETUP_HINT} ${setUpByPerson(tool)}`;
  }
}
