// Guarded writes of a request without an MCP session: the tool cannot hold the request open
// while the person decides, so the prepared write is stored as a pending approval
// (src/core/approvals.ts) and the agent is answered at once with its id; the person decides on the
// Board, and the agent learns the outcome by calling the tool again with `approval`. The agent's
// side reaches only requestApproval and approvalStatus: nothing here lists or decides approvals.
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { approvalStatus, requestApproval, type ApprovalDeps, type ApprovalOutcome, type Requester } from '../core/approvals.ts';
import type { PreparedWrite } from '../core/boundWrites.ts';
import type { AnyOutcome } from '../core/outcomes.ts';
import type { XosDeps } from './ports.ts';
import { fail, ok } from './result.ts';
import type { McpSession } from './session.ts';
import { agentText, mailText } from './wording.ts';

/** Longest approval id accepted (ids are 22 characters). */
export const APPROVAL_MAX_LENGTH = 64;

export const approvalInput = z.string().min(1).max(APPROVAL_MAX_LENGTH).optional()
  .describe('Only for clients without an MCP session: the approval id an earlier call of this tool returned. With it, the tool writes nothing new and answers what became of that request (waiting, saved or sent, declined, expired, void).');

/** The stored approvals of this request's caller, when the request has no MCP session and the front end keeps approvals. */
export interface StoredRequest {
  readonly approvals: ApprovalDeps;
  readonly requester: Requester;
}

export function storedRequest(deps: XosDeps, session: McpSession): StoredRequest | undefined {
  const caller = session.caller;
  if (!session.sessionless || !caller || !deps.approvals) return undefined;
  return { approvals: deps.approvals, requester: { ...caller, ...(deps.person === undefined ? {} : { person: deps.person }) } };
}

/** Where the person decides: the Board page's address, or the Board in VS Code. */
function whereToDecide(deps: XosDeps): string {
  const url = deps.boardUrl?.();
  return url ? `on the XOS Board page (${url})` : 'on the XOS Board in VS Code (its list of pending approvals; the status bar shows how many wait)';
}

const again = (tool: string, id: string) => `Call ${tool} again with approval: "${id}" to learn the outcome.`;

/** Stores the prepared write as a pending approval and answers at once with its id, the question, where and until when. */
export async function requestStored(tool: string, stored: StoredRequest, prepared: PreparedWrite, deps: XosDeps): Promise<CallToolResult> {
  const made = await requestApproval(stored.approvals, prepared, stored.requester);
  const where = whereToDecide(deps);
  if (!made.ok) {
    const first = made.nextExpiry ? ` (the first at ${made.nextExpiry})` : '';
    return fail(`Not asked: ${made.max} requests of this client already wait for the person's decision. Ask the person to decide them ${where}, or wait until they expire${first}; then call ${tool} again.`);
  }
  const { approval } = made;
  const question = deps.approvalQuestion?.(approval) ?? `${approval.kind} (${approval.id})`;
  return ok([
    `Nothing is written yet. Waiting for the person's decision on: ${question}`,
    `Approval id: "${approval.id}". The person decides ${where}; the request expires at ${approval.expiresAt}, and nothing is written then.`,
    `Tell the person it waits for them. ${again(tool, approval.id)}`,
  ].join('\n'));
}

/** What became of one of this caller's approvals, without waiting. */
export async function answerStored(tool: string, stored: StoredRequest, id: string, deps: XosDeps): Promise<CallToolResult> {
  const status = await approvalStatus(stored.approvals, id, stored.requester);
  switch (status.state) {
    case 'unknown':
      return fail(`XOS knows no approval "${id}" of this client and conversation (the id is wrong, it belongs to another client, or it was deleted days after its decision). Call ${tool} without approval to ask the person again.`);
    case 'pending':
      return ok(`Still waiting for the person's decision (approval "${id}"; it expires at ${status.expiresAt}). Do not call in a loop: tell the person it waits ${whereToDecide(deps)}, and call ${tool} again with approval: "${id}" later.`);
    case 'committing':
      return ok(`The person approved and XOS is writing it now (approval "${id}"). Call ${tool} again with approval: "${id}" in a moment.`);
    case 'approved':
      return ok(`The person approved (approval "${id}"). ${writtenText(deps, status.outcome)}`);
    case 'failed':
      return fail(`The person approved, but it was not carried out (approval "${id}"): ${failedText(status.outcome)}`);
    case 'declined':
      return fail(`The person declined (approval "${id}"); nothing was written. Do not ask again unless the person says so.`);
    case 'expired':
      return fail(`The request expired at ${status.expiresAt} before the person decided (approval "${id}"); nothing was written. If it is still wanted, call ${tool} without approval to ask again.`);
    case 'void': {
      const what = status.why === 'deleted' ? 'deleted' : 'changed';
      return fail(`Not written: the record was ${what} after your request (approval "${id}"); nothing was written. Show it again with xos_render and ask the person again.`);
    }
  }
}

/** A sessionful call passed `approval`: it has no stored approvals, its question is asked at once. */
export function noStoredApprovals(tool: string): CallToolResult {
  return fail(`This client has an MCP session: ${tool} asks the person at once and keeps no approvals to look up. Call ${tool} without approval.`);
}

function writtenText(deps: XosDeps, outcome: ApprovalOutcome): string {
  if (outcome.kind === 'sent') return mailText(outcome);
  return agentText(deps.client.ast(), outcome as AnyOutcome);
}

function failedText(outcome: ApprovalOutcome): string {
  switch (outcome.kind) {
    case 'server_refused': return `the XOS server refused it: ${outcome.error.message}`;
    case 'mail_refused': return `the mail server refused it (${outcome.reason}); nothing was sent.`;
    case 'transfer_broke': return `the connection to the mail server broke while sending (${outcome.reason}); it may have been delivered, so it is never sent again.`;
    case 'payload_altered': return 'the stored request was altered, so nothing was written.';
    case 'interrupted':
      return outcome.mail ? 'XOS stopped while sending; the mail may have gone out, so it is never sent again.' : 'XOS stopped while writing, and the audit trail shows no write.';
    default: return 'nothing was written.';
  }
}
