// Guarded writes of a request without an MCP session: the tool cannot hold the request open
// while the person decides, so the prepared write is stored as a pending approval
// (src/core/approvals.ts) and the agent is answered at once with its id; the person decides on the
// Board, and the agent learns the outcome by calling the tool again with `approval`. The agent's
// side reaches only requestApproval and approvalStatus: nothing here lists or decides approvals.
import { z } from 'zod';
import { inputResponse } from '@modelcontextprotocol/server';
import { approvalStatus, requestApproval, type ApprovalDeps, type ApprovalOutcome, type Requester, type RequestOutcome } from '../core/approvals.ts';
import type { PreparedWrite } from '../core/boundWrites.ts';
import type { AnyOutcome } from '../core/outcomes.ts';
import type { ToolReply, XosDeps } from './ports.ts';
import { askClient, fail, ok, type AgentResult } from './result.ts';
import type { CallRound, McpSession } from './session.ts';
import { serverMessage } from './agentText.ts';
import { agentText, mailText, pendingApprovalText } from './wording.ts';

/** Longest approval id accepted (ids are 22 characters). */
export const APPROVAL_MAX_LENGTH = 64;

export const approvalInput = z.string().min(1).max(APPROVAL_MAX_LENGTH).optional()
  .describe('Only for clients without an MCP session: the approval id an earlier call of this tool returned. With it, the tool writes nothing new and answers what became of that request (waiting, saved or sent, declined, expired, void).');

/** The stored approvals of this request's caller, when the request has no MCP session and the front end keeps approvals. */
export interface StoredRequest {
  readonly approvals: ApprovalDeps;
  readonly requester: Requester;
}

/**
 * The requester is the caller as the serving entry knows it: the credential its request came with
 * (what bounds it), the client name and conversation it chose (who learns the outcome), and the
 * person of this front end.
 */
export function storedRequest(deps: XosDeps, session: McpSession): StoredRequest | undefined {
  const caller = session.caller;
  if (!session.sessionless || !caller || !deps.approvals) return undefined;
  const { credential, client, conversation } = caller;
  return {
    approvals: deps.approvals,
    requester: { credential, client, ...(conversation === undefined ? {} : { conversation }), ...(deps.person === undefined ? {} : { person: deps.person }) },
  };
}

/** Bytes as a person reads them: 1.2 MB, 800 KB. */
function sizeText(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1_000))} KB`;
}

/** Why nothing was stored for the person, and what to do instead. */
function notAsked(tool: string, made: Exclude<RequestOutcome, { ok: true }>, where: string): string {
  const first = made.nextExpiry ? ` (the first at ${made.nextExpiry})` : '';
  const decideOrWait = `Ask the person to decide the waiting requests ${where}, or wait until they expire${first}`;
  if (made.kind === 'too_many_pending') {
    return `Not asked: ${made.max} requests made with this client's credential (its token, or this xos-mcp process) already wait for the person's decision. ${decideOrWait}; then call ${tool} again.`;
  }
  switch (made.within) {
    case 'request':
      return `Not asked: this change is too large to keep for the person's decision (${sizeText(made.bytes)}; at most ${sizeText(made.max)} per request). `
        + `Narrow the change (fewer records, e.g. a narrower \`where\` in xos_ui_change_required, or fewer fields), then call ${tool} again.`;
    case 'credential':
      return `Not asked: the requests made with this client's credential that wait for the person's decision would take ${sizeText(made.bytes)}, more than the ${sizeText(made.max)} XOS keeps for one credential. `
        + `${decideOrWait}, or narrow the change; then call ${tool} again.`;
    case 'file':
      return `Not asked: the requests waiting for the person's decision fill the space XOS keeps for them (${sizeText(made.max)}). `
        + `Ask the person to decide the waiting requests ${where}, or narrow the change; then call ${tool} again.`;
  }
}

/** Where the person decides: the Board page's address, or the Board in VS Code. */
function whereToDecide(deps: XosDeps): string {
  const url = deps.boardUrl?.();
  return url ? `on the XOS Board page (${url})` : 'on the XOS Board in VS Code (its list of pending approvals; the status bar shows how many wait)';
}

/**
 * Protocol 2026-07-28, a client that can be asked: instead of a text the agent must poll, the
 * answer is a request for input ("tell me once the person decided"); the client shows it to the
 * person and calls the tool again with the approval in `requestState`. The answer decides
 * nothing (only the Board does), so the state carries nothing but the approval's id, which is
 * looked up for this caller only, as the `approval` argument is.
 */
const DECIDED_KEY = 'decided';
const ROUND_STATE_PREFIX = 'xos-approval:';
/** After the person said they decided: how long a round waits for the decision to be carried out. */
const SETTLE_MS = 10_000;
const SETTLE_POLL_MS = 200;

/** The approval an earlier round of this call named, if it did. */
export function approvalOfRound(round: CallRound | undefined): string | undefined {
  const state = round?.state;
  if (!state?.startsWith(ROUND_STATE_PREFIX)) return undefined;
  const id = state.slice(ROUND_STATE_PREFIX.length);
  return id.length > 0 && id.length <= APPROVAL_MAX_LENGTH ? id : undefined;
}

/** `question`: absent on a later round (the person saw it already). */
function askToWait(tool: string, id: string, where: string, question?: string): ToolReply {
  const waits = question === undefined ? `Not decided yet: XOS waits for your decision ${where}.` : `XOS waits for your decision ${where} on: ${question}`;
  return askClient(DECIDED_KEY, `${waits}\n`
    + `Answer here once you have decided there; XOS then tells what became of it. Decline to stop waiting: the request stays, and ${tool} with approval: "${id}" tells its outcome later.`,
  ROUND_STATE_PREFIX + id);
}

/** A later round of a call that asked to wait: the outcome, or (still undecided, the person said wait on) another round. */
export async function resumeStored(tool: string, stored: StoredRequest, id: string, round: CallRound, deps: XosDeps, signal: AbortSignal): Promise<ToolReply> {
  const answer = inputResponse(round.responses as Record<string, unknown> | undefined, DECIDED_KEY);
  if (answer.kind === 'elicit' && answer.action === 'accept') {
    // The person says they decided: the write may still be under way.
    const deadline = Date.now() + SETTLE_MS;
    let status = await approvalStatus(stored.approvals, id, stored.requester);
    while ((status.state === 'pending' || status.state === 'committing') && Date.now() < deadline && !signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
      status = await approvalStatus(stored.approvals, id, stored.requester);
    }
    if (status.state === 'pending' && round.canAsk) return askToWait(tool, id, whereToDecide(deps));
  }
  return answerStored(tool, stored, id, deps);
}

const again = (tool: string, id: string) => `Call ${tool} again with approval: "${id}" to learn the outcome.`;

/** Stores the prepared write as a pending approval and answers at once with its id, the question, where and until when. */
export async function requestStored(tool: string, stored: StoredRequest, prepared: PreparedWrite, deps: XosDeps, round?: CallRound): Promise<ToolReply> {
  const made = await requestApproval(stored.approvals, prepared, stored.requester);
  const where = whereToDecide(deps);
  if (!made.ok) return fail(notAsked(tool, made, where));
  const { approval } = made;
  // The agent's words of the request, never the person's question (it shows what the agent may not know).
  const question = pendingApprovalText(deps.client.ast(), approval);
  if (round?.canAsk) return askToWait(tool, approval.id, where, question);
  return ok([
    `Nothing is written yet. Waiting for the person's decision on: ${question}`,
    `Approval id: "${approval.id}". The person decides ${where}; the request expires at ${approval.expiresAt}, and nothing is written then.`,
    `Tell the person it waits for them. ${again(tool, approval.id)}`,
  ].join('\n'));
}

/** What became of one of this caller's approvals, without waiting. */
export async function answerStored(tool: string, stored: StoredRequest, id: string, deps: XosDeps): Promise<AgentResult> {
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
      return fail(`The person approved, but it was not carried out (approval "${id}"): ${failedText(deps, status.outcome)}`);
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
export function noStoredApprovals(tool: string): AgentResult {
  return fail(`This client has an MCP session: ${tool} asks the person at once and keeps no approvals to look up. Call ${tool} without approval.`);
}

function writtenText(deps: XosDeps, outcome: ApprovalOutcome): string {
  if (outcome.kind === 'sent') return mailText(outcome);
  return agentText(deps.client.ast(), outcome as AnyOutcome);
}

function failedText(deps: XosDeps, outcome: ApprovalOutcome): string {
  switch (outcome.kind) {
    // The server's words may name a field kept from the agent (a hidden ref's column, say).
    case 'server_refused': return `the XOS server refused it: ${serverMessage(deps.client.ast(), outcome.entity, outcome.error)}`;
    case 'mail_refused': return `the mail server refused it (${outcome.reason}); nothing was sent.`;
    case 'transfer_broke': return `the connection to the mail server broke while sending (${outcome.reason}); it may have been delivered, so it is never sent again.`;
    case 'payload_altered': return 'the stored request was altered, so nothing was written.';
    case 'interrupted':
      return outcome.mail ? 'XOS stopped while sending; the mail may have gone out, so it is never sent again.' : 'XOS stopped while writing, and the audit trail shows no write.';
    default: return 'nothing was written.';
  }
}

/** A guarded write as a tool offers it: prepared for a stored approval, or asked and written at once. */
export interface GuardedWrite<O extends { readonly ok: boolean }> {
  readonly tool: string;
  /** What would be written now, or why nothing can be (an outcome, worded like the write's). */
  prepare(): Promise<PreparedWrite | O> | PreparedWrite | O;
  /** Today's way with a session: the person is asked at once, then it is written. */
  askAndWrite(): Promise<O>;
  words(outcome: O): string;
}

/**
 * The one flow of xos_ui_save and xos_mail_send: with an MCP session the person is asked at once;
 * without one the write is stored as a pending approval (answered at once, or, for a client that
 * can be asked, in rounds), and `approval` tells what became of one.
 */
export async function guardedWrite<O extends { readonly ok: boolean }>(write: GuardedWrite<O>, approval: string | undefined, deps: XosDeps, session: McpSession, signal: AbortSignal): Promise<ToolReply> {
  const { tool } = write;
  const stored = storedRequest(deps, session);
  if (approval !== undefined) return stored ? answerStored(tool, stored, approval, deps) : noStoredApprovals(tool);
  const reply = (outcome: O) => (outcome.ok ? ok(write.words(outcome)) : fail(write.words(outcome)));
  if (!stored) return reply(await write.askAndWrite());
  // A later round of a call that asked the client to wait with the person (protocol 2026-07-28).
  const resumed = approvalOfRound(session.round);
  if (resumed && session.round) return resumeStored(tool, stored, resumed, session.round, deps, signal);
  const prepared = await write.prepare();
  return 'payload' in prepared ? requestStored(tool, stored, prepared, deps, session.round) : reply(prepared);
}
