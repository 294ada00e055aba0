// Tool results: expected failures are results the agent can act on, not exceptions.
// The door of everything a tool answers: a handler's reply (XosTool in ports.ts) can only be made
// here, from text the tools word in src/mcp (wording.ts, agentText.ts: the field policy and the
// person's role applied), never handed in ready-made from elsewhere (test/unit/architecture.test.ts).
import { inputRequired, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';

declare const agentWordsBrand: unique symbol;
/** Made by this module's functions only. */
interface ThroughTheDoor { readonly [agentWordsBrand]: true }

/** A tool's result as the agent receives it. */
export type AgentResult = CallToolResult & ThroughTheDoor;
/** What a tool answers: its result, or (protocol 2026-07-28) a request for input after which the client calls again. */
export type AgentReply = AgentResult | (InputRequiredResult & ThroughTheDoor);

export function ok(text: string): AgentResult {
  return { content: [{ type: 'text', text }] } as CallToolResult as AgentResult;
}

/** Data as text (JSON, or the given words) and as `structuredContent` for clients that read it. */
export function okData(data: Record<string, unknown>, text: string = JSON.stringify(data)): AgentResult {
  return { content: [{ type: 'text', text }], structuredContent: data } as CallToolResult as AgentResult;
}

/** An expected failure; `text` says what went wrong and what to do next. */
export function fail(text: string): AgentResult {
  return { content: [{ type: 'text', text }], isError: true } as CallToolResult as AgentResult;
}

/**
 * A request for input (protocol 2026-07-28): `message` is shown by the client and read by the
 * agent, an empty form the person answers; the client calls the tool again with `state`.
 */
export function askClient(key: string, message: string, state: string): AgentReply {
  return inputRequired({
    inputRequests: { [key]: inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: {} } }) },
    requestState: state,
  }) as InputRequiredResult as InputRequiredResult & ThroughTheDoor;
}

/** The text of a result (tests and callers that only need the words); a request for input is not a result. */
export function resultText(result: CallToolResult | InputRequiredResult): string {
  if (!isResult(result)) throw new Error('the tool asked for input instead of answering');
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** A tool's answer, not a request for input (protocol 2026-07-28). */
export function isResult<R extends CallToolResult | InputRequiredResult>(reply: R): reply is Extract<R, CallToolResult> {
  return Array.isArray((reply as CallToolResult).content);
}
