// Tool results: expected failures are results the agent can act on, not exceptions.
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';

export function ok(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** Data as text (JSON, or the given words) and as `structuredContent` for clients that read it. */
export function okData(data: Record<string, unknown>, text: string = JSON.stringify(data)): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** An expected failure; `text` says what went wrong and what to do next. */
export function fail(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The text of a result (tests and callers that only need the words); a request for input is not a result. */
export function resultText(result: CallToolResult | InputRequiredResult): string {
  if (!isResult(result)) throw new Error('the tool asked for input instead of answering');
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** A tool's answer, not a request for input (protocol 2026-07-28). */
export function isResult(reply: CallToolResult | InputRequiredResult): reply is CallToolResult {
  return Array.isArray((reply as CallToolResult).content);
}
