// Tool results: expected failures are results the agent can act on, not exceptions.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function ok(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** An expected failure; `text` says what went wrong and what to do next. */
export function fail(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The text of a result (tests and callers that only need the words). */
export function resultText(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
