// Tool results: expected failures are results the agent can act on, not exceptions.
import type { CallToolResult } from '@modelcontextprotocol/server';

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

/** The text of a result (tests and callers that only need the words). */
export function resultText(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
